//===- AMDGPULowerMFMA.cpp - dot on AMD's matrix cores --------------------===//
//
// A dot in MFMA's layouts (codegen/amdgpu/MFMALayouts.h) is a grid of T x T tiles
// per wave, accumulated over K in chunks of W * 64 / T: each chunk is W /
// kWidth instructions, the j-th taking elements [j * kWidth, (j + 1) *
// kWidth) of every lane's W (the K permutation the layouts describe; A and B
// agree on it, so the sum is the same). An accumulator in the transposed
// variant has each instruction compute B^T A^T instead. A lane's fragment is found by the
// layouts' register bases at the tile's origin, as in codegen/nvptx/NVPTXLowerMMA.cpp; operands
// read from shared memory right before the dot are loaded a chunk at a time
// (DeferredLocalLoad).
//
//===----------------------------------------------------------------------===//

#include "codegen/amdgpu/MFMALayouts.h"
#include "codegen/amdgpu/AMDGPUTargetInfo.h"
#include "codegen/lowering/LoweringContext.h"

using namespace tritium;

bool tritium::lowerMFMADot(LoweringContext &C, Instruction &I, const AMDGPUTargetInfo &TI) {
  if (!isMFMADot(I))
    return false;
  llvm::IRBuilder<> &B = C.B;
  auto &Dot = llvm::cast<DotInst>(I);
  Value *AV = Dot.getA(), *BV = Dot.getB();
  Type *Elem = AV->getType()->getScalarType();
  unsigned KWidth = TI.mfmaKWidth(Elem);
  MFMAConfig Match = *matchMFMADot(I); // isMFMADot holds
  unsigned T = Match.Tile, W = Match.Width;
  if (!KWidth || W % KWidth)
    return false;
  const LinearLayout &LA = C.layout(AV), &LB = C.layout(BV), &LC = C.layout(I.getResult());
  llvm::ArrayRef<int64_t> Shape = I.getResult()->getType()->getShape();
  int64_t M = Shape[0], N = Shape[1], K = AV->getType()->getShape()[1];
  MMAWarps Warps = Match.Warps;
  DotOperandRegs AR(C, AV), BR(C, BV);
  LoweringContext::Regs Acc = C.get(Dot.getAcc());
  // The accumulator values of a tile, in the instruction's order: value v
  // is the register at the tile origin plus the XOR of the first register
  // bases its bits select.
  unsigned NumAcc = T == 32 ? 16 : 4;
  int64_t TileM = int64_t(T) * Warps.M, TileN = int64_t(T) * Warps.N, Chunk = int64_t(W) * 64 / T;
  for (int64_t K0 = 0; K0 < K; K0 += Chunk)
    for (int64_t M0 = 0; M0 < M; M0 += TileM)
      for (int64_t N0 = 0; N0 < N; N0 += TileN) {
        llvm::SmallVector<unsigned, 16> CRegs;
        for (unsigned V = 0; V < NumAcc; ++V) {
          LinearLayout::Basis Off = LC.applyIn(kRegister, int32_t(V));
          CRegs.push_back(fragmentReg(LC, M0 + Off[0], N0 + Off[1]));
        }
        for (unsigned J = 0; J < W / KWidth; ++J) {
          llvm::SmallVector<llvm::Value *, 8> A, Bv, Cs, D;
          for (unsigned E = 0; E < KWidth; ++E) {
            int64_t Kk = K0 + J * KWidth + E;
            A.push_back(AR[fragmentReg(LA, M0, Kk)]);
            Bv.push_back(BR[fragmentReg(LB, Kk, N0)]);
          }
          for (unsigned R : CRegs)
            Cs.push_back(Acc[R]);
          // The transposed tile is B^T A^T: the operands trade places.
          if (!TI.mfma(B, Elem, T, Match.Transposed ? Bv : A, Match.Transposed ? A : Bv, Cs, D))
            return false; // the first instruction: nothing emitted but loads
          for (unsigned V = 0; V < NumAcc; ++V)
            Acc[CRegs[V]] = D[V];
        }
      }
  C.set(I.getResult(), std::move(Acc));
  return true;
}
