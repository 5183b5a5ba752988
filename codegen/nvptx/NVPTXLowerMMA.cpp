//===- NVPTXLowerMMA.cpp - dot on mma.sync --------------------------------===//
//
// A dot whose result and operands are in mma.sync's layouts
// (codegen/nvptx/MMALayouts.h, placed by assign-layouts and brought there by
// stage-dot-operands) is a grid of 16x8 tiles per warp, each accumulated
// over K a K tile at a time (16 for f16 and bf16, 8 for tf32, 32 for int8
// and fp8). A thread's fragment of each operand is a fixed set of its
// registers: those at the coordinates the PTX ISA's fragment tables name,
// relative to the tile's origin (the lane and warp parts of the layouts are
// the hardware's), found by the layouts' register bases; each 32-bit word
// packs kWidth of them. The K tiles go outermost, so that consecutive
// instructions are independent, and an operand read from shared memory
// right before the dot is loaded a K tile at a time as they need it
// (DeferredLocalLoad), so that only a tile's fragments are live: 128x128x64
// on 4 warps would otherwise hold all of A's and B's fragments with the
// accumulator.
//
// Two inputs take more than one instruction per tile. fp8 is converted to
// f16 in registers, and its K tile of 32 is two m16n8k16 over a
// permutation of K that A and B share (words 0/1 of A and 0 of B, then
// 2/3 and 1; the low halves of each word first). tf32x3 splits each f32 x
// into big = x with the 13 low mantissa bits cleared (what tf32 holds) and
// small = x - big, and sums small*big + big*small + big*big, the three
// products tf32 can take that matter (Triton's tf32x3).
//
//===----------------------------------------------------------------------===//

#include "codegen/nvptx/MMALayouts.h"
#include "codegen/lowering/FloatConversions.h"
#include "codegen/nvptx/NVPTXLowering.h"

#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace tritium;

namespace {
using Words = llvm::SmallVector<llvm::Value *, 4>;
using Elems = llvm::SmallVector<llvm::Value *, 4>;

/// One instruction's operand words.
struct Product {
  Words A, B;
};

/// The f32 that \p V rounds (to nearest even) to f16, or null.
llvm::Value *truncatedF32(llvm::Value *V) {
  auto *T = llvm::dyn_cast<llvm::FPTruncInst>(V);
  return T && T->getSrcTy()->isFloatTy() && T->getDestTy()->isHalfTy() ? T->getOperand(0)
                                                                         : nullptr;
}

/// \p E (1, 2 or 4 elements of 32 bits in all) as one i32.
llvm::Value *pack(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> E) {
  if (E.size() == 1)
    return B.CreateBitCast(E[0], B.getInt32Ty());
  // Two f32 rounded to f16 (attention's P) pack with one cvt.rn.f16x2.f32;
  // LLVM 16 would round them one at a time and then move them together.
  // The instruction puts its first operand in the high half.
  if (E.size() == 2)
    if (llvm::Value *Lo = truncatedF32(E[0]))
      if (llvm::Value *Hi = truncatedF32(E[1]))
        return B.CreateBitCast(B.CreateIntrinsic(llvm::Intrinsic::nvvm_ff2f16x2_rn, {}, {Hi, Lo}),
                               B.getInt32Ty());
  llvm::Value *V = llvm::PoisonValue::get(llvm::FixedVectorType::get(E[0]->getType(), E.size()));
  for (unsigned I = 0; I < E.size(); ++I)
    V = B.CreateInsertElement(V, E[I], uint64_t(I));
  return B.CreateBitCast(V, B.getInt32Ty());
}

/// tf32's part of \p X (the low 13 mantissa bits cleared) and the rest.
std::pair<llvm::Value *, llvm::Value *> splitTF32(llvm::IRBuilder<> &B, llvm::Value *X) {
  llvm::Value *Big = B.CreateBitCast(
      B.CreateAnd(B.CreateBitCast(X, B.getInt32Ty()), B.getInt32(0xffffe000u)), X->getType());
  return {Big, B.CreateFSub(X, Big)};
}

/// The instructions of one tile from its A words' elements \p AE (four
/// words, PTX order) and B's \p BE (two).
llvm::SmallVector<Product, 3> products(llvm::IRBuilder<> &B, const MMAInstr &X,
                                       llvm::ArrayRef<Elems> AE, llvm::ArrayRef<Elems> BE,
                                       Type::Kind AK, Type::Kind BK) {
  llvm::SmallVector<Product, 3> Out;
  if (X.UpcastFP8) {
    auto Half = [&](llvm::ArrayRef<Elems> Ws, Type::Kind K) {
      llvm::SmallVector<Elems, 4> H;
      for (const Elems &W : Ws) {
        Elems E;
        for (llvm::Value *V : W)
          E.push_back(B.CreateFPTrunc(fp8ToF32(B, V, K), B.getHalfTy()));
        H.push_back(E);
      }
      return H;
    };
    llvm::SmallVector<Elems, 4> A = Half(AE, AK), Bh = Half(BE, BK);
    auto Lo = [&](const Elems &E) { return pack(B, {E[0], E[1]}); };
    auto Hi = [&](const Elems &E) { return pack(B, {E[2], E[3]}); };
    for (unsigned S = 0; S < 2; ++S)
      Out.push_back({{Lo(A[2 * S]), Lo(A[2 * S + 1]), Hi(A[2 * S]), Hi(A[2 * S + 1])},
                     {Lo(Bh[S]), Hi(Bh[S])}});
    return Out;
  }
  auto Plain = [&](llvm::ArrayRef<Elems> AW, llvm::ArrayRef<Elems> BW) {
    Product P;
    for (const Elems &E : AW)
      P.A.push_back(pack(B, E));
    for (const Elems &E : BW)
      P.B.push_back(pack(B, E));
    return P;
  };
  if (!X.Split3) {
    Out.push_back(Plain(AE, BE));
    return Out;
  }
  auto Split = [&](llvm::ArrayRef<Elems> Ws) {
    std::pair<llvm::SmallVector<Elems, 4>, llvm::SmallVector<Elems, 4>> S;
    for (const Elems &W : Ws) {
      auto [Big, Small] = splitTF32(B, W[0]);
      S.first.push_back({Big});
      S.second.push_back({Small});
    }
    return S;
  };
  auto [ABig, ASmall] = Split(AE);
  auto [BBig, BSmall] = Split(BE);
  Out.push_back(Plain(ASmall, BBig));
  Out.push_back(Plain(ABig, BSmall));
  Out.push_back(Plain(ABig, BBig));
  return Out;
}
} // namespace

llvm::Value *tritium::packMMAWord(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> E) {
  return pack(B, E);
}

bool tritium::lowerMMADot(LoweringContext &C, Instruction &I, const NVPTXTargetInfo &T) {
  if (!isMMADot(I))
    return false;
  llvm::IRBuilder<> &B = C.B;
  auto &Dot = llvm::cast<DotInst>(I);
  Value *AV = Dot.getA(), *BV = Dot.getB();
  const LinearLayout &LA = C.layout(AV), &LB = C.layout(BV), &LC = C.layout(I.getResult());
  llvm::ArrayRef<int64_t> Shape = I.getResult()->getType()->getShape();
  int64_t M = Shape[0], N = Shape[1], K = AV->getType()->getShape()[1];
  MMAWarps W = *matchMMAAccumulator(LC, Shape); // isMMADot holds
  MMAInstr X = *mmaInstrOf(I);
  Type::Kind AK = AV->getType()->getScalarType()->getKind();
  Type::Kind BK = BV->getType()->getScalarType()->getKind();
  // An operand whose local_load this dot lowers is loaded as its K tiles
  // need it; others are in registers already.
  DotOperandRegs AR(C, AV), BR(C, BV);
  LoweringContext::Regs Acc = C.get(Dot.getAcc());

  int64_t KW = X.KWidth, TileM = 16 * W.M, TileN = 8 * W.N;
  for (int64_t K0 = 0; K0 < K; K0 += X.kTile())
    for (int64_t M0 = 0; M0 < std::max(M, TileM); M0 += TileM)
      for (int64_t N0 = 0; N0 < std::max(N, TileN); N0 += TileN) {
        if (M0 >= M || N0 >= N)
          continue;
        // A's words: rows +0/+8, then K + 4 * kWidth (row first); B's: K
        // +0 and + 4 * kWidth; kWidth consecutive K per word.
        llvm::SmallVector<Elems, 4> AE(4), BE(2);
        for (int64_t Q = 0; Q < 4; ++Q)
          for (int64_t J = 0; J < KW; ++J)
            AE[Q].push_back(AR[fragmentReg(LA, M0 + 8 * (Q & 1), K0 + 4 * KW * (Q >> 1) + J)]);
        for (int64_t Q = 0; Q < 2; ++Q)
          for (int64_t J = 0; J < KW; ++J)
            BE[Q].push_back(BR[fragmentReg(LB, K0 + 4 * KW * Q + J, N0)]);
        unsigned CRegs[4] = {fragmentReg(LC, M0, N0), fragmentReg(LC, M0, N0 + 1),
                             fragmentReg(LC, M0 + 8, N0), fragmentReg(LC, M0 + 8, N0 + 1)};
        for (const Product &P : products(B, X, AE, BE, AK, BK)) {
          llvm::SmallVector<llvm::Value *, 4> Cs, D;
          for (unsigned R : CRegs)
            Cs.push_back(Acc[R]);
          if (!T.mmaSync(B, X, P.A, P.B, Cs, D))
            return false; // the first tile: nothing emitted but its loads
          for (unsigned Q = 0; Q < 4; ++Q)
            Acc[CRegs[Q]] = D[Q];
        }
      }
  C.set(I.getResult(), std::move(Acc));
  return true;
}
