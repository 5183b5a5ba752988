//===- LowerMMA.cpp - dot on mma.sync -------------------------------------===//
//
// A dot whose result and operands are in mma.sync's layouts
// (analysis/MMALayouts.h, placed by assign-layouts and brought there by
// stage-dot-operands) is a grid of 16x8 tiles per warp, each accumulated
// over K in steps of 16 by one m16n8k16 instruction. A thread's fragment of
// each operand is a fixed set of its registers: those at the coordinates the
// PTX ISA's fragment tables name, relative to the tile's origin (the lane
// and warp parts of the layouts are the hardware's), found by the layouts'
// register bases. Two 16-bit elements pack into each 32-bit word. The K
// steps go outermost, so that consecutive instructions are independent, and
// an operand read from shared memory right before the dot is loaded a K
// step at a time as they need it (DeferredLocalLoad), so that only a step's
// fragments are live: 128x128x64 on 4 warps would otherwise hold all of A's
// and B's fragments with the accumulator.
//
//===----------------------------------------------------------------------===//

#include "analysis/MMALayouts.h"
#include "codegen/lowering/LoweringContext.h"

using namespace tritium;

bool tritium::lowerMMADot(LoweringContext &C, Instruction &I) {
  llvm::IRBuilder<> &B = C.B;
  auto &Dot = llvm::cast<DotInst>(I);
  Value *AV = Dot.getA(), *BV = Dot.getB();
  const LinearLayout &LA = C.layout(AV), &LB = C.layout(BV), &LC = C.layout(I.getResult());
  llvm::ArrayRef<int64_t> Shape = I.getResult()->getType()->getShape();
  int64_t M = Shape[0], N = Shape[1], K = AV->getType()->getShape()[1];
  MMAWarps W = *matchMMAAccumulator(LC, Shape); // isMMADot holds
  bool BF16 = AV->getType()->getScalarType()->getKind() == Type::Kind::BF16;
  // An operand whose local_load this dot lowers is loaded as its K steps
  // need it; others are in registers already.
  DotOperandRegs AR(C, AV), BR(C, BV);
  LoweringContext::Regs Acc = C.get(Dot.getAcc());
  llvm::Type *Pair = llvm::FixedVectorType::get(C.elemType(AV->getType()), 2);

  auto Reg = [](const LinearLayout &L, int64_t D0, int64_t D1) {
    std::optional<int32_t> R = L.findInput(kRegister, {int32_t(D0), int32_t(D1)});
    assert(R && "an mma layout has a register at every fragment coordinate");
    return unsigned(*R);
  };
  auto Word = [&](llvm::Value *Lo, llvm::Value *Hi) {
    llvm::Value *V = B.CreateInsertElement(llvm::PoisonValue::get(Pair), Lo, uint64_t(0));
    return B.CreateBitCast(B.CreateInsertElement(V, Hi, uint64_t(1)), B.getInt32Ty());
  };
  int64_t TileM = 16 * W.M, TileN = 8 * W.N;
  for (int64_t K0 = 0; K0 < K; K0 += 16)
    for (int64_t M0 = 0; M0 < std::max(M, TileM); M0 += TileM)
      for (int64_t N0 = 0; N0 < std::max(N, TileN); N0 += TileN) {
        if (M0 >= M || N0 >= N)
          continue;
        // a0..a3: rows +0/+8, columns +0/+8 (row first); b0, b1: rows +0/+8.
        llvm::SmallVector<llvm::Value *, 4> A, Bw, Cs, D;
        for (int64_t Q = 0; Q < 4; ++Q) {
          int64_t Row = M0 + 8 * (Q & 1), Col = K0 + 8 * (Q >> 1);
          A.push_back(Word(AR[Reg(LA, Row, Col)], AR[Reg(LA, Row, Col + 1)]));
        }
        for (int64_t Q = 0; Q < 2; ++Q)
          Bw.push_back(Word(BR[Reg(LB, K0 + 8 * Q, N0)], BR[Reg(LB, K0 + 8 * Q + 1, N0)]));
        unsigned CRegs[4] = {Reg(LC, M0, N0), Reg(LC, M0, N0 + 1), Reg(LC, M0 + 8, N0),
                             Reg(LC, M0 + 8, N0 + 1)};
        for (unsigned R : CRegs)
          Cs.push_back(Acc[R]);
        if (!C.getTarget().mma16x8x16(B, BF16, A, Bw, Cs, D))
          return false; // the first tile: nothing emitted but its loads
        for (unsigned Q = 0; Q < 4; ++Q)
          Acc[CRegs[Q]] = D[Q];
      }
  C.set(I.getResult(), std::move(Acc));
  return true;
}
