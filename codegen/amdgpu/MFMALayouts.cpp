//===- MFMALayouts.cpp - Layouts of AMD's MFMA and its operands -----------===//

#include "codegen/amdgpu/MFMALayouts.h"
#include "analysis/Layouts.h"
#include "ir/Instructions.h"

#include "llvm/Support/MathExtras.h"

using namespace tritium;

namespace {
using Basis = LinearLayout::Basis;

Basis at(int32_t D0, int32_t D1) { return Basis{D0, D1}; }

/// Bases doubling from \p From below \p Size along \p Dim.
void repeat(llvm::SmallVector<Basis, 8> &Out, unsigned Dim, int64_t From, int64_t Size) {
  for (int64_t S = From; S < Size; S *= 2)
    Out.push_back(Dim == 0 ? at(int32_t(S), 0) : at(0, int32_t(S)));
}

/// Warp bases: log2(W.M) bits along \p MDim by T, then log2(W.N) along
/// \p NDim (-1: the operand does not move there; copies past the shape).
llvm::SmallVector<Basis, 8> warpBases(MMAWarps W, unsigned T, int MDim, int NDim,
                                      llvm::ArrayRef<int64_t> Shape) {
  llvm::SmallVector<Basis, 8> Out;
  auto Push = [&](int Dim, unsigned Count) {
    int64_t Step = T;
    for (unsigned I = 0; I < Count; ++I, Step *= 2) {
      Basis B(2, 0);
      if (Dim >= 0 && Step < Shape[Dim])
        B[Dim] = int32_t(Step);
      Out.push_back(B);
    }
  };
  Push(MDim, llvm::Log2_32(W.M));
  Push(NDim, llvm::Log2_32(W.N));
  return Out;
}

LinearLayout make(llvm::SmallVector<Basis, 8> Regs, llvm::SmallVector<Basis, 8> Lanes,
                  llvm::SmallVector<Basis, 8> Warps, int64_t D0, int64_t D1) {
  return LinearLayout({{kRegister, std::move(Regs)}, {kLane, std::move(Lanes)},
                       {kWarp, std::move(Warps)}},
                      {{outDimName(0), int32_t(D0)}, {outDimName(1), int32_t(D1)}});
}
} // namespace

unsigned tritium::mfmaLoadWidth(const Type *Elem) {
  return 16 / Elem->getScalarSizeInBytes();
}

unsigned tritium::mfmaTileFor(int64_t M, int64_t N, int64_t K, unsigned W) {
  if (M >= 32 && N >= 32 && K % (2 * W) == 0)
    return 32;
  if (M >= 16 && N >= 16 && K % (4 * W) == 0)
    return 16;
  return 0;
}

MMAWarps tritium::mfmaWarps(llvm::ArrayRef<int64_t> Shape, unsigned NumWarps, unsigned T) {
  return warpsPerTile(Shape, NumWarps, T, T);
}

LinearLayout tritium::mfmaAccumulatorLayout(llvm::ArrayRef<int64_t> Shape, const MFMAConfig &Cfg) {
  MMAWarps W = Cfg.Warps;
  unsigned T = Cfg.Tile;
  bool Transposed = Cfg.Transposed;
  // Within a tile: the instruction's (row, column), or (column, row) when
  // it computes the transposed tile.
  auto In = [&](int32_t Row, int32_t Col) { return Transposed ? at(Col, Row) : at(Row, Col); };
  llvm::SmallVector<Basis, 8> Regs = {In(1, 0), In(2, 0)}, Lanes;
  for (int32_t C = 1; C < int32_t(T); C *= 2)
    Lanes.push_back(In(0, C));
  for (int32_t R = 4; R < 16 && Lanes.size() < 6; R *= 2)
    Lanes.push_back(In(R, 0));
  if (T == 32) {
    Regs.push_back(In(8, 0));
    Regs.push_back(In(16, 0));
  }
  repeat(Regs, 1, int64_t(T) * W.N, Shape[1]);
  repeat(Regs, 0, int64_t(T) * W.M, Shape[0]);
  return make(std::move(Regs), std::move(Lanes), warpBases(W, T, 0, 1, Shape), Shape[0],
              Shape[1]);
}

LinearLayout tritium::mfmaOperandLayout(unsigned OpIdx, llvm::ArrayRef<int64_t> OperandShape,
                                        llvm::ArrayRef<int64_t> ResultShape,
                                        const MFMAConfig &Cfg) {
  MMAWarps Warps = Cfg.Warps;
  unsigned T = Cfg.Tile, W = Cfg.Width;
  // K is dim1 of A and dim0 of B; the other dimension is M or N.
  unsigned KDim = OpIdx == 0 ? 1 : 0, MNDim = 1 - KDim;
  auto Along = [](unsigned Dim, int32_t V) { return Dim == 0 ? at(V, 0) : at(0, V); };
  llvm::SmallVector<Basis, 8> Regs, Lanes;
  for (int32_t K = 1; K < int32_t(W); K *= 2)
    Regs.push_back(Along(KDim, K));
  for (int32_t R = 1; R < int32_t(T); R *= 2)
    Lanes.push_back(Along(MNDim, R));
  for (int32_t K = int32_t(W); Lanes.size() < 6; K *= 2)
    Lanes.push_back(Along(KDim, K));
  int64_t Chunk = int64_t(W) * 64 / T;
  repeat(Regs, KDim, Chunk, OperandShape[KDim]);
  repeat(Regs, MNDim, int64_t(T) * (OpIdx == 0 ? Warps.M : Warps.N), OperandShape[MNDim]);
  return make(std::move(Regs), std::move(Lanes),
              warpBases(Warps, T, OpIdx == 0 ? 0 : -1, OpIdx == 0 ? -1 : 1, OperandShape),
              OperandShape[0], OperandShape[1]);
}

bool tritium::isMFMACandidate(const Instruction &Dot) {
  if (!is2DDot(Dot))
    return false;
  Type *A = Dot.getOperand(0)->getType(), *B = Dot.getOperand(1)->getType();
  Type *C = Dot.getResult(0)->getType();
  Type *AE = A->getScalarType(), *BE = B->getScalarType(), *CE = C->getScalarType();
  if (AE->getKind() != BE->getKind())
    return false;
  switch (AE->getKind()) {
  case Type::Kind::F16:
  case Type::Kind::BF16:
  case Type::Kind::F32:
    if (CE->getKind() != Type::Kind::F32)
      return false;
    break;
  case Type::Kind::Int:
    if (AE->getScalarSizeInBits() != 8 || BE->getScalarSizeInBits() != 8 || !CE->isInt() ||
        CE->getScalarSizeInBits() != 32)
      return false;
    break;
  default:
    return false;
  }
  int64_t M = A->getShape()[0], K = A->getShape()[1], N = B->getShape()[1];
  return mfmaTileFor(M, N, K, mfmaLoadWidth(AE)) != 0;
}

std::optional<MFMAConfig> tritium::chooseMFMA(const Instruction &Dot, unsigned NumWarps) {
  if (!isMFMACandidate(Dot))
    return std::nullopt;
  Type *Elem = Dot.getOperand(0)->getType()->getScalarType();
  llvm::ArrayRef<int64_t> Shape = Dot.getResult(0)->getType()->getShape();
  int64_t K = Dot.getOperand(0)->getType()->getShape()[1];
  MFMAConfig C;
  C.Width = mfmaLoadWidth(Elem);
  bool Chained = isChainedDot(Dot);
  if (takesADotResult(Dot)) {
    unsigned Bits = Elem->getScalarSizeInBits();
    C.Width = Bits == 16 ? 4 : Bits == 32 ? 1 : 0;
    if (!C.Width)
      return std::nullopt;
  }
  C.Tile = mfmaTileFor(Shape[0], Shape[1], K, C.Width);
  if (!C.Tile)
    return std::nullopt;
  C.Warps = mfmaWarps(Shape, NumWarps, C.Tile);
  if (Chained && Shape[0] >= int64_t(C.Tile) * NumWarps)
    C.Warps = {NumWarps, 1};
  return C;
}

std::optional<MFMAConfig> tritium::matchMFMADot(const Instruction &Dot) {
  if (!isMFMACandidate(Dot))
    return std::nullopt;
  auto LayoutOf = [](const Value *V) -> const LinearLayout * {
    const Instruction *D = V->getDefiningInstruction();
    return D ? D->getLayout() : nullptr;
  };
  const LinearLayout *C = Dot.getLayout();
  const LinearLayout *A = LayoutOf(Dot.getOperand(0)), *B = LayoutOf(Dot.getOperand(1));
  if (!C || !A || !B || !C->hasInDim(kWarp) || C->getInDimSizeLog2(kLane) != 6)
    return std::nullopt;
  std::optional<MFMAConfig> Cfg = chooseMFMA(Dot, unsigned(C->getInDimSize(kWarp)));
  if (!Cfg)
    return std::nullopt;
  llvm::ArrayRef<int64_t> Shape = Dot.getResult(0)->getType()->getShape();
  if (*A != mfmaOperandLayout(0, Dot.getOperand(0)->getType()->getShape(), Shape, *Cfg) ||
      *B != mfmaOperandLayout(1, Dot.getOperand(1)->getType()->getShape(), Shape, *Cfg))
    return std::nullopt;
  for (bool Transposed : {true, false}) {
    Cfg->Transposed = Transposed;
    if (*C == mfmaAccumulatorLayout(Shape, *Cfg))
      return Cfg;
  }
  return std::nullopt;
}
