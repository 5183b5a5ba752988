//===- LayoutRules.cpp - How layouts flow through instructions ------------===//

#include "analysis/LayoutRules.h"
#include "analysis/MatrixCores.h"
#include "analysis/AxisInfo.h"
#include "ir/Instructions.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace tritium;

namespace {

using Basis = LinearLayout::Basis;

/// Rebuilds \p L with each basis mapped by \p F and outputs \p Outs;
/// register bases that become zero are dropped (they would only hold copies)
/// unless \p KeepZeroRegisters.
template <typename Fn>
LinearLayout mapBases(const LinearLayout &L, llvm::ArrayRef<LinearLayout::OutDim> Outs, Fn F,
                      bool KeepZeroRegisters = false) {
  llvm::SmallVector<LinearLayout::InDim, 3> Ins;
  for (const LinearLayout::InDim &In : L.getInDims()) {
    LinearLayout::InDim N{In.Name, {}};
    for (const Basis &B : In.Bases) {
      Basis R = F(B);
      bool Zero = llvm::all_of(R, [](int32_t C) { return C == 0; });
      if (Zero && In.Name == kRegister && !KeepZeroRegisters)
        continue;
      N.Bases.push_back(R);
    }
    Ins.push_back(std::move(N));
  }
  return LinearLayout(Ins, Outs);
}

llvm::SmallVector<LinearLayout::OutDim, 4> outsFor(llvm::ArrayRef<int64_t> Shape) {
  llvm::SmallVector<LinearLayout::OutDim, 4> Outs;
  for (unsigned D = 0; D < Shape.size(); ++D)
    Outs.push_back({outDimName(D), int32_t(Shape[D])});
  return Outs;
}

/// Dimensions from the last (fastest) to the first.
llvm::SmallVector<unsigned, 4> rowMajorOrder(unsigned Rank) {
  llvm::SmallVector<unsigned, 4> Order;
  for (unsigned D = Rank; D-- > 0;)
    Order.push_back(D);
  return Order;
}

LinearLayout blocked(llvm::ArrayRef<int64_t> Shape, llvm::ArrayRef<unsigned> Spt,
                     llvm::ArrayRef<unsigned> Order, const LayoutOptions &Opts) {
  return blockedLayout(Shape,
                       defaultBlockedParams(Shape, Spt, Order, Opts.NumWarps, Opts.WarpSize));
}

/// LayoutOptions::ThreadRuns: each thread's share of \p Shape as one run,
/// the dimensions of \p Order filled in turn.
LinearLayout threadRuns(llvm::ArrayRef<int64_t> Shape, llvm::ArrayRef<unsigned> Order,
                        const LayoutOptions &Opts) {
  int64_t Numel = 1;
  for (int64_t S : Shape)
    Numel *= S;
  int64_t Share = std::max<int64_t>(1, Numel / (int64_t(Opts.NumWarps) * Opts.WarpSize));
  llvm::SmallVector<unsigned, 4> Spt(Shape.size(), 1);
  for (unsigned D : Order) {
    Spt[D] = unsigned(std::min(Shape[D], Share));
    Share /= Spt[D];
  }
  return blocked(Shape, Spt, Order, Opts);
}

/// \p B with the dimensions where \p SrcShape is 1 zeroed.
Basis zeroBroadcastDims(const Basis &B, llvm::ArrayRef<int64_t> SrcShape) {
  Basis R(B.begin(), B.end());
  for (unsigned D = 0; D < SrcShape.size(); ++D)
    if (SrcShape[D] == 1)
      R[D] = 0;
  return R;
}

/// Renames outputs to dim0.. in order (after transposes and reshapes).
LinearLayout renumber(const LinearLayout &L) {
  llvm::SmallVector<int64_t, 4> Shape;
  for (const LinearLayout::OutDim &O : L.getOutDims())
    Shape.push_back(O.Size);
  return mapBases(L, outsFor(Shape), [](const Basis &B) { return B; });
}

/// The index of the register basis that alone moves output \p Dim (by 1),
/// or -1 if that dimension is spread over lanes or warps too.
int registerBitAlong(const LinearLayout &L, unsigned Dim) {
  int Found = -1;
  for (const LinearLayout::InDim &In : L.getInDims())
    for (unsigned B = 0; B < In.Bases.size(); ++B) {
      if (In.Bases[B][Dim] == 0)
        continue;
      bool Unit = In.Bases[B][Dim] == 1;
      for (unsigned K = 0; K < In.Bases[B].size(); ++K)
        Unit &= K == Dim || In.Bases[B][K] == 0;
      if (In.Name != kRegister || !Unit || Found >= 0)
        return -1;
      Found = B;
    }
  return Found;
}

/// The input dimensions of \p L without register basis \p Bit.
llvm::SmallVector<LinearLayout::InDim, 3> withoutRegisterBasis(const LinearLayout &L,
                                                               unsigned Bit) {
  llvm::SmallVector<LinearLayout::InDim, 3> Ins(L.getInDims().begin(), L.getInDims().end());
  for (LinearLayout::InDim &In : Ins)
    if (In.Name == kRegister)
      In.Bases.erase(In.Bases.begin() + Bit);
  return Ins;
}

/// \p L without register basis \p Bit and output \p Dim of size 2.
LinearLayout dropRegisterDim(const LinearLayout &L, unsigned Bit, unsigned Dim) {
  llvm::SmallVector<int64_t, 4> Shape;
  for (unsigned K = 0; K < L.getOutDims().size(); ++K)
    if (K != Dim)
      Shape.push_back(L.getOutDims()[K].Size);
  llvm::SmallVector<LinearLayout::InDim, 3> Ins = withoutRegisterBasis(L, Bit);
  for (LinearLayout::InDim &In : Ins)
    for (Basis &B : In.Bases)
      B.erase(B.begin() + Dim);
  return LinearLayout(Ins, outsFor(Shape));
}

bool isElementwise(const Instruction &I) {
  switch (I.getFamily()) {
  case OpFamily::Binary:
  case OpFamily::Unary:
  case OpFamily::Fma:
  case OpFamily::Cmp:
  case OpFamily::Select:
  case OpFamily::Cast:
  case OpFamily::GetElementPtr:
  case OpFamily::ExternElementwise:
  case OpFamily::InlineAsm:
  case OpFamily::MapElementwise:
  case OpFamily::Hint:
  case OpFamily::Phi:
  case OpFamily::Scan:
    return true;
  default:
    return false;
  }
}

} // namespace

llvm::SmallVector<unsigned, 4> tritium::accessOrder(const Value *Ptr, const AxisInfoAnalysis &AI) {
  unsigned Rank = Ptr->getType()->getRank();
  const AxisInfo &Info = AI.get(Ptr);
  llvm::SmallVector<unsigned, 4> Order = rowMajorOrder(Rank);
  llvm::stable_sort(
      Order, [&](unsigned A, unsigned B) { return Info.Contiguity[A] > Info.Contiguity[B]; });
  return Order;
}

int64_t tritium::accessVectorWidth(const Value *Ptr, const AxisInfoAnalysis &AI) {
  auto *PT = llvm::cast<PointerType>(Ptr->getType()->getScalarType());
  int64_t ElemBytes = PT->getPointee()->getScalarSizeInBytes();
  return std::min<int64_t>(16 / ElemBytes, AI.getPtrVectorWidth(Ptr, accessOrder(Ptr, AI)[0]));
}

LinearLayout tritium::coalescedLayout(const Value *Ptr, const AxisInfoAnalysis &AI,
                                      const LayoutOptions &Opts, int64_t AtLeast) {
  llvm::ArrayRef<int64_t> Shape = Ptr->getType()->getShape();
  llvm::SmallVector<unsigned, 4> Order = accessOrder(Ptr, AI);
  if (Opts.ThreadRuns)
    return threadRuns(Shape, Order, Opts);
  unsigned Fast = Order[0];
  int64_t Threads = int64_t(Opts.NumWarps) * Opts.WarpSize;
  int64_t PerThread = std::max(accessVectorWidth(Ptr, AI), AtLeast);
  // Don't give one thread more than its share: every thread should access.
  int64_t Numel = Ptr->getType()->getNumElements();
  PerThread = std::max<int64_t>(1, std::min(PerThread, Numel / Threads));
  PerThread = std::min(PerThread, Shape[Fast]);
  // Layouts split dimensions by powers of two.
  PerThread = int64_t(llvm::PowerOf2Floor(uint64_t(PerThread)));
  llvm::SmallVector<unsigned, 4> Spt(Shape.size(), 1);
  Spt[Fast] = unsigned(PerThread);
  return blocked(Shape, Spt, Order, Opts);
}

LinearLayout tritium::descriptorBlockLayout(const Type *Block, const LayoutOptions &Opts) {
  llvm::ArrayRef<int64_t> Shape = Block->getShape();
  llvm::SmallVector<unsigned, 4> Spt(Shape.size(), 1);
  int64_t Bytes = Block->getScalarSizeInBytes();
  int64_t Threads = int64_t(Opts.NumWarps) * Opts.WarpSize;
  int64_t PerThread =
      std::min({16 / Bytes, Shape.back(), std::max<int64_t>(1, Block->getNumElements() / Threads)});
  Spt.back() = unsigned(llvm::PowerOf2Floor(uint64_t(std::max<int64_t>(1, PerThread))));
  return blocked(Shape, Spt, rowMajorOrder(Shape.size()), Opts);
}

LinearLayout tritium::defaultLayout(llvm::ArrayRef<int64_t> Shape, const LayoutOptions &Opts) {
  if (Opts.ThreadRuns)
    return threadRuns(Shape, rowMajorOrder(Shape.size()), Opts);
  llvm::SmallVector<unsigned, 4> Spt(Shape.size(), 1);
  return blocked(Shape, Spt, rowMajorOrder(Shape.size()), Opts);
}

LinearLayout tritium::scalarLayout(const LayoutOptions &Opts) {
  llvm::SmallVector<LinearLayout::InDim, 3> Ins = {
      {kRegister, {}},
      {kLane, llvm::SmallVector<Basis, 8>(llvm::Log2_32(Opts.WarpSize), Basis{})},
      {kWarp, llvm::SmallVector<Basis, 8>(llvm::Log2_32(Opts.NumWarps), Basis{})}};
  return LinearLayout(Ins, {});
}

LinearLayout tritium::dotLayout(const Instruction &Dot, const LayoutOptions &Opts) {
  if (Opts.Cores)
    if (std::optional<LinearLayout> L = Opts.Cores->accumulatorLayout(Dot, Opts))
      return *L;
  return fmaDotLayout(Dot.getResult(0)->getType()->getShape(), Opts);
}

LinearLayout tritium::fmaDotLayout(llvm::ArrayRef<int64_t> Shape, const LayoutOptions &Opts) {
  unsigned Rank = Shape.size();
  // The cpu's dot goes through row-major buffers (codegen/cpu/CPULowerDot.cpp):
  // rows of registers move as whole vectors, where 4x4 tiles moved as
  // 4-element pieces, a shuffle each.
  if (Opts.ThreadRuns)
    return threadRuns(Shape, rowMajorOrder(Rank), Opts);
  llvm::SmallVector<unsigned, 4> Spt(Rank, 1);
  // A 4x4 tile per thread (where the block has room) reuses each loaded A
  // and B value four times.
  int64_t Threads = int64_t(Opts.NumWarps) * Opts.WarpSize;
  unsigned M = Rank - 2, N = Rank - 1;
  Spt[N] = unsigned(std::min<int64_t>(4, Shape[N]));
  Spt[M] = unsigned(
      std::min<int64_t>(4, std::max<int64_t>(1, Shape[M] * Shape[N] / (Threads * Spt[N]))));
  return blocked(Shape, Spt, rowMajorOrder(Rank), Opts);
}

LinearLayout tritium::restrictLayout(const LinearLayout &L, llvm::ArrayRef<int64_t> SrcShape) {
  return mapBases(L, outsFor(SrcShape),
                  [&](const Basis &B) { return zeroBroadcastDims(B, SrcShape); });
}

std::optional<LinearLayout> tritium::inferResultLayout(const Instruction &I,
                                                       llvm::ArrayRef<const LinearLayout *> Ops) {
  if (I.getNumResults() == 0 || !I.getResult(0)->getType()->isBlock())
    return std::nullopt;
  if (isElementwise(I)) {
    for (const LinearLayout *L : Ops)
      if (L)
        return *L;
    return std::nullopt;
  }
  const LinearLayout *Src = Ops.empty() ? nullptr : Ops[0];
  Type *ResultTy = I.getResult(0)->getType();
  switch (I.getOpcode()) {
  case Opcode::ExpandDims:
    if (!Src)
      return std::nullopt;
    return expandDimsLayout(*Src, llvm::cast<ExpandDimsInst>(I).getAxis());
  case Opcode::Reshape:
    if (!Src)
      return std::nullopt;
    // Row-major order is kept, so the same bits name the same elements.
    return Src->reshapeOuts(outsFor(ResultTy->getShape()));
  case Opcode::Trans: {
    if (!Src)
      return std::nullopt;
    llvm::SmallVector<unsigned, 4> Order;
    for (int64_t D : llvm::cast<TransInst>(I).getOrder())
      Order.push_back(unsigned(D));
    return renumber(Src->transposeOuts(Order));
  }
  case Opcode::Join: {
    const LinearLayout *L = Ops[0] ? Ops[0] : Ops[1];
    if (!L)
      return std::nullopt;
    unsigned Rank = L->getOutDims().size();
    return *L * LinearLayout::identity1D(2, kRegister, outDimName(Rank));
  }
  case Opcode::Split: {
    if (!Src)
      return std::nullopt;
    unsigned Last = Src->getOutDims().size() - 1;
    int Bit = registerBitAlong(*Src, Last);
    if (Bit < 0)
      return std::nullopt;
    return dropRegisterDim(*Src, Bit, Last);
  }
  case Opcode::Cat: {
    const LinearLayout *L = Ops[0] ? Ops[0] : Ops[1];
    if (!L)
      return std::nullopt;
    return *L * LinearLayout::identity1D(2, kRegister, outDimName(0));
  }
  case Opcode::Reduce:
  case Opcode::ArgMin:
  case Opcode::ArgMax: {
    if (!Src)
      return std::nullopt;
    int64_t Axis = I.getIntAttr(AttrKey::Axis);
    return sliceLayout(*Src, unsigned(Axis));
  }
  case Opcode::ConvertLayout:
    if (const LinearLayout *L = I.getLayout())
      return *L;
    return std::nullopt;
  case Opcode::Gather:
    // Each thread reads the elements its indices name: the indices' layout.
    if (Ops.size() > 1 && Ops[1])
      return *Ops[1];
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

std::optional<LinearLayout> tritium::requiredOperandLayout(const Instruction &I, unsigned K,
                                                           const LinearLayout &Result) {
  Value *Op = I.getOperand(K);
  if (!Op->getType()->isBlock())
    return std::nullopt;
  switch (I.getOpcode()) {
  case Opcode::Load:
  case Opcode::Store:
  case Opcode::AtomicRMW:
  case Opcode::AtomicCAS:
    return Result;
  case Opcode::Gather:
    // The indices as the result; the source goes through shared memory
    // from whatever layout it has.
    if (K == 1)
      return Result;
    return std::nullopt;
  case Opcode::Dot: {
    // The accumulator is in the result's layout. A dot on matrix units
    // (the result's layout says whose) takes A and B in their operand
    // layouts; the FMA dot reads them through shared memory, whatever their
    // layouts.
    if (K == 2)
      return Result;
    for (const MatrixCores *C : allMatrixCores())
      if (std::optional<LinearLayout> L = C->operandLayout(I, K, Result))
        return L;
    return std::nullopt;
  }
  case Opcode::ExpandDims:
    return sliceLayout(Result, unsigned(llvm::cast<ExpandDimsInst>(I).getAxis()));
  case Opcode::Broadcast:
    return restrictLayout(Result, Op->getType()->getShape());
  case Opcode::Reshape:
    return Result.reshapeOuts(outsFor(Op->getType()->getShape()));
  case Opcode::Trans: {
    llvm::ArrayRef<int64_t> Order = llvm::cast<TransInst>(I).getOrder();
    llvm::SmallVector<unsigned, 4> Inverse(Order.size());
    for (unsigned D = 0; D < Order.size(); ++D)
      Inverse[Order[D]] = D;
    return renumber(Result.transposeOuts(Inverse));
  }
  case Opcode::Join: {
    unsigned Last = Result.getOutDims().size() - 1;
    int Bit = registerBitAlong(Result, Last);
    if (Bit < 0)
      return std::nullopt;
    return dropRegisterDim(Result, Bit, Last);
  }
  case Opcode::Split: {
    unsigned Rank = Result.getOutDims().size();
    return Result * LinearLayout::identity1D(2, kRegister, outDimName(Rank));
  }
  case Opcode::Cat: {
    // The top bit of dimension 0 must be a register bit to split the halves.
    llvm::ArrayRef<LinearLayout::Basis> Regs = Result.getBases(kRegister);
    if (Regs.empty())
      return std::nullopt;
    int32_t Half = Result.getOutDims()[0].Size / 2;
    for (unsigned B = 0; B < Regs.size(); ++B) {
      bool Top = Regs[B][0] == Half;
      for (unsigned D = 1; D < Regs[B].size(); ++D)
        Top &= Regs[B][D] == 0;
      if (!Top)
        continue;
      llvm::SmallVector<LinearLayout::InDim, 3> Ins = withoutRegisterBasis(Result, B);
      // No other basis may reach the upper half.
      for (const LinearLayout::InDim &In : Ins)
        for (const LinearLayout::Basis &Bs : In.Bases)
          if (Bs[0] >= Half)
            return std::nullopt;
      return LinearLayout(Ins, outsFor(Op->getType()->getShape()));
    }
    return std::nullopt;
  }
  default:
    if (isElementwise(I))
      return Result;
    return std::nullopt;
  }
}

const Value *tritium::sharedLayoutOperand(const Instruction &I) {
  if (I.getOpcode() != Opcode::Reduce && I.getOpcode() != Opcode::Print)
    return nullptr;
  for (const Value *V : I.getOperands())
    if (V->getType()->isBlock())
      return V;
  return nullptr;
}

std::string tritium::checkLayoutFits(const LinearLayout &L, const LayoutOptions &Opts) {
  if (L.getInDimSizeLog2(kLane) != llvm::Log2_32(Opts.WarpSize) ||
      L.getInDimSizeLog2(kWarp) != llvm::Log2_32(Opts.NumWarps))
    return "the layout " + L.str() + " is not one of " + std::to_string(Opts.NumWarps) +
           " warps of " + std::to_string(Opts.WarpSize) + " lanes";
  if (L.getInDimSizeLog2(kRegister) > BlockType::MaxElementsLog2)
    return "the layout " + L.str() + " has more than 2^" +
           std::to_string(BlockType::MaxElementsLog2) + " registers";
  return "";
}

std::string tritium::checkLayouts(const Instruction &I, const LayoutOptions &Opts) {
  const LinearLayout *Result = nullptr;
  if (I.getNumResults() && I.getResult(0)->getType()->isBlock()) {
    Result = I.getLayout();
    if (!Result)
      return "the result has no layout";
    std::string Why = checkLayoutFits(*Result, Opts);
    if (!Why.empty())
      return Why;
  }
  auto LayoutOf = [](const Value *V) -> const LinearLayout * {
    const Instruction *Def = V->getDefiningInstruction();
    return Def ? Def->getLayout() : nullptr;
  };
  llvm::SmallVector<const LinearLayout *, 4> Ops;
  for (const Value *V : I.getOperands())
    Ops.push_back(V->getType()->isBlock() ? LayoutOf(V) : nullptr);
  const Value *Shared = sharedLayoutOperand(I);
  for (unsigned K = 0; K < I.getNumOperands(); ++K) {
    const Value *V = I.getOperand(K);
    if (!V->getType()->isBlock())
      continue;
    if (!Ops[K])
      return "operand " + std::to_string(K) + " has no layout";
    std::optional<LinearLayout> Need;
    if (Shared)
      Need = *LayoutOf(Shared);
    else if (Result)
      Need = requiredOperandLayout(I, K, *Result);
    else if (I.getOpcode() == Opcode::Store && K > 0)
      Need = *Ops[0];                        // the value and the mask follow the pointer
    else if (I.getOpcode() == Opcode::Split) // into scalars
      Need = requiredOperandLayout(I, K, scalarLayout(Opts));
    if (Need && *Need != *Ops[K])
      return "operand " + std::to_string(K) + " has the layout " + Ops[K]->str() +
             ", but this instruction needs " + Need->str();
  }
  bool Implied = I.getOpcode() == Opcode::Reduce || I.getOpcode() == Opcode::ArgMin ||
                 I.getOpcode() == Opcode::ArgMax || I.getOpcode() == Opcode::Join ||
                 I.getOpcode() == Opcode::Cat;
  if (Result && Implied) {
    // A join of scalars stacks them in registers of every thread.
    LinearLayout Scalar = scalarLayout(Opts);
    if (I.getOpcode() == Opcode::Join)
      for (const LinearLayout *&L : Ops)
        if (!L)
          L = &Scalar;
    std::optional<LinearLayout> Want = inferResultLayout(I, Ops);
    if (!Want || *Want != *Result)
      return "the result's layout " + Result->str() + " is not the one its operands imply" +
             (Want ? " (" + Want->str() + ")" : "");
  }
  return "";
}

LinearLayout tritium::projectLayout(const LinearLayout &L, llvm::ArrayRef<int64_t> SrcShape) {
  return mapBases(
      L, outsFor(SrcShape), [&](const Basis &B) { return zeroBroadcastDims(B, SrcShape); },
      /*KeepZeroRegisters=*/true);
}

bool tritium::isRematerializable(const Instruction &I) {
  switch (I.getOpcode()) {
  case Opcode::MakeRange:
  case Opcode::Splat:
  case Opcode::Constant:
  case Opcode::Undef:
    return true;
  default:
    return false;
  }
}
