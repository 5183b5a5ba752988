//===- MMALayouts.cpp - Layouts of mma.sync and its operands --------------===//

#include "codegen/nvptx/MMALayouts.h"
#include "analysis/Layouts.h"
#include "ir/Instructions.h"

#include "llvm/Support/MathExtras.h"

using namespace tritium;

namespace {
using Basis = LinearLayout::Basis;

llvm::SmallVector<LinearLayout::OutDim, 2> outs2(int64_t D0, int64_t D1) {
  return {{outDimName(0), int32_t(D0)}, {outDimName(1), int32_t(D1)}};
}

/// Bases of warp bits: the first log2(W.M) move along \p MDim by 16 per
/// bit, the rest along \p NDim by 8 (-1: that operand does not move along
/// it, so those warps hold copies); coordinates past the shape are copies.
llvm::SmallVector<Basis, 8> warpBases(MMAWarps W, int MDim, int NDim,
                                      llvm::ArrayRef<int64_t> Shape) {
  llvm::SmallVector<Basis, 8> Out;
  auto Push = [&](int Dim, int64_t Step, unsigned Count) {
    for (unsigned I = 0; I < Count; ++I, Step *= 2) {
      Basis B(2, 0);
      if (Dim >= 0 && Step < Shape[Dim])
        B[Dim] = int32_t(Step);
      Out.push_back(B);
    }
  };
  Push(MDim, 16, llvm::Log2_32(W.M));
  Push(NDim, 8, llvm::Log2_32(W.N));
  return Out;
}

/// Register bases stepping along \p Dim from \p From (doubling) below the
/// shape's size.
void repeat(llvm::SmallVector<Basis, 8> &Regs, unsigned Dim, int64_t From, int64_t Size) {
  for (int64_t S = From; S < Size; S *= 2) {
    Basis B(2, 0);
    B[Dim] = int32_t(S);
    Regs.push_back(B);
  }
}

LinearLayout make(llvm::SmallVector<Basis, 8> Regs, llvm::SmallVector<Basis, 8> Lanes,
                  llvm::SmallVector<Basis, 8> Warps, int64_t D0, int64_t D1) {
  return LinearLayout({{kRegister, std::move(Regs)}, {kLane, std::move(Lanes)},
                       {kWarp, std::move(Warps)}},
                      outs2(D0, D1));
}

} // namespace

MMAWarps tritium::mmaWarps(llvm::ArrayRef<int64_t> Shape, unsigned NumWarps) {
  return warpsPerTile(Shape, NumWarps, 16, 8);
}

MMAWarps tritium::mmaWarpsAlongM(llvm::ArrayRef<int64_t> Shape, unsigned NumWarps) {
  if (Shape[0] >= 16 * int64_t(NumWarps))
    return {NumWarps, 1};
  return mmaWarps(Shape, NumWarps);
}

std::optional<MMAWarps> tritium::matchMMAAccumulator(const LinearLayout &L,
                                                     llvm::ArrayRef<int64_t> Shape) {
  if (Shape.size() != 2 || !L.hasInDim(kWarp) || Shape[0] < 16 || Shape[1] < 8)
    return std::nullopt;
  unsigned NumWarps = unsigned(L.getInDimSize(kWarp));
  for (MMAWarps W : {mmaWarps(Shape, NumWarps), mmaWarpsAlongM(Shape, NumWarps)})
    if (L == mmaAccumulatorLayout(Shape, W))
      return W;
  return std::nullopt;
}

LinearLayout tritium::mmaAccumulatorLayout(llvm::ArrayRef<int64_t> Shape, MMAWarps W) {
  llvm::SmallVector<Basis, 8> Regs = {{0, 1}, {8, 0}};
  repeat(Regs, 1, 8 * W.N, Shape[1]);
  repeat(Regs, 0, 16 * W.M, Shape[0]);
  return make(std::move(Regs), {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}},
              warpBases(W, 0, 1, Shape), Shape[0], Shape[1]);
}

LinearLayout tritium::mmaOperandLayout(unsigned OpIdx, llvm::ArrayRef<int64_t> OperandShape,
                                       llvm::ArrayRef<int64_t> ResultShape, MMAWarps W,
                                       unsigned KWidth) {
  int64_t D0 = OperandShape[0], D1 = OperandShape[1], KW = KWidth;
  llvm::SmallVector<Basis, 8> Regs;
  if (OpIdx == 0) { // A: [M, K]
    for (int32_t S = 1; S < KW; S *= 2)
      Regs.push_back({0, S});
    Regs.append({{8, 0}, {0, int32_t(4 * KW)}});
    repeat(Regs, 1, 8 * KW, D1);
    repeat(Regs, 0, 16 * W.M, D0);
    return make(std::move(Regs), {{0, int32_t(KW)}, {0, int32_t(2 * KW)}, {1, 0}, {2, 0}, {4, 0}},
                warpBases(W, 0, -1, OperandShape), D0, D1);
  }
  // B: [K, N]. The register after a K tile's is the next n8 tile, so that
  // one ldmatrix.x4 loads two of them.
  for (int32_t S = 1; S < KW; S *= 2)
    Regs.push_back({S, 0});
  Regs.push_back({int32_t(4 * KW), 0});
  int64_t NextN = 8 * W.N;
  if (NextN < D1) {
    Regs.push_back({0, int32_t(NextN)});
    NextN *= 2;
  }
  repeat(Regs, 0, 8 * KW, D0);
  repeat(Regs, 1, NextN, D1);
  return make(std::move(Regs), {{int32_t(KW), 0}, {int32_t(2 * KW), 0}, {0, 1}, {0, 2}, {0, 4}},
              warpBases(W, -1, 1, OperandShape), D0, D1);
}

std::optional<MMAInstr> tritium::mmaInstrOf(const Instruction &Dot) {
  if (!is2DDot(Dot))
    return std::nullopt;
  Type *A = Dot.getOperand(0)->getType(), *B = Dot.getOperand(1)->getType();
  using K = Type::Kind;
  K AK = A->getScalarType()->getKind(), BK = B->getScalarType()->getKind();
  K CK = Dot.getResult(0)->getType()->getScalarType()->getKind();
  MMAInstr X;
  bool FP8 = A->getScalarType()->isFP8() && B->getScalarType()->isFP8();
  if (AK != BK && !FP8)
    return std::nullopt;
  if (FP8 || AK == K::F16) {
    if (CK != K::F32 && CK != K::F16)
      return std::nullopt;
    X.Acc = CK == K::F16 ? MMAInstr::Accum::F16 : MMAInstr::Accum::F32;
    X.UpcastFP8 = FP8;
    X.KWidth = FP8 ? 4 : 2;
  } else if (AK == K::BF16 && CK == K::F32) {
    X.In = MMAInstr::Input::BF16;
  } else if (AK == K::F32 && CK == K::F32) {
    DotPrecision P = llvm::cast<DotInst>(Dot).getPrecision();
    if (P == DotPrecision::IEEE)
      return std::nullopt;
    X.In = MMAInstr::Input::TF32;
    X.KWidth = 1;
    X.Split3 = P == DotPrecision::TF32x3;
  } else if (A->getScalarType()->isInt(8) && Dot.getResult(0)->getType()->getScalarType()->isInt(32)) {
    X.In = MMAInstr::Input::S8;
    X.Acc = MMAInstr::Accum::S32;
    X.KWidth = 4;
  } else {
    return std::nullopt;
  }
  int64_t M = A->getShape()[0], Kd = A->getShape()[1], N = B->getShape()[1];
  if (M < 16 || N < 8 || Kd < int64_t(X.kTile()))
    return std::nullopt;
  return X;
}

bool tritium::isMMADot(const Instruction &Dot) {
  std::optional<MMAInstr> X = mmaInstrOf(Dot);
  if (!X)
    return false;
  const LinearLayout *C = Dot.getLayout();
  auto LayoutOf = [](const Value *V) -> const LinearLayout * {
    const Instruction *D = V->getDefiningInstruction();
    return D ? D->getLayout() : nullptr;
  };
  const LinearLayout *A = LayoutOf(Dot.getOperand(0)), *B = LayoutOf(Dot.getOperand(1));
  if (!C || !A || !B)
    return false;
  llvm::ArrayRef<int64_t> Shape = Dot.getResult(0)->getType()->getShape();
  std::optional<MMAWarps> W = matchMMAAccumulator(*C, Shape);
  return W &&
         *A == mmaOperandLayout(0, Dot.getOperand(0)->getType()->getShape(), Shape, *W,
                                X->KWidth) &&
         *B == mmaOperandLayout(1, Dot.getOperand(1)->getType()->getShape(), Shape, *W,
                                X->KWidth);
}
