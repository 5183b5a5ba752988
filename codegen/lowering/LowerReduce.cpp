//===- LowerReduce.cpp - Reductions and argmin/argmax ---------------------===//
//
// A reduction along `axis` of a value in layout L works level by level, the
// way L spreads that axis:
//
//   1. registers: each thread combines its registers that differ only along
//      the axis, in increasing coordinate order: a chain of up to 8, a tree
//      of neighbours past that (where the target works in vectors, a
//      built-in combine of several groups runs on the registers' vectors,
//      all groups at once; of one group, it halves a vector of them to 8);
//   2. lanes: for each lane bit that moves along the axis, a butterfly
//      shuffle with the lane whose bit differs, combining the lower
//      coordinate's value first;
//   3. warps: if warp bits move along the axis, each warp's partial goes to
//      shared memory (one slot per warp and result element), a barrier, and
//      every thread combines the partials of its result elements in order.
//      The barrier that frees the scratch before the writes is in the IR,
//      where insert-barriers found one necessary.
//
// Afterwards every thread that holds a result element (in the slice layout
// of L, which assign-layouts gave the result) has its value. argmin/argmax
// reduce (value, index) pairs, the index starting as the axis coordinate.
// A custom combine is the lowered combine function, called (and inlined by
// LLVM's optimizer).
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/FloatConversions.h"
#include "codegen/lowering/LoweringContext.h"
#include "ir/Module.h"

#include <map>

using namespace tritium;

namespace {

using Regs = LoweringContext::Regs;
using Basis = LinearLayout::Basis;

/// A built-in combine on two elements of type \p Elem (bf16 and fp8 in f32,
/// rounded back; null: none carried), or two vectors of them.
llvm::Value *combineBuiltin(llvm::IRBuilder<> &B, CombineKind K, llvm::Value *X, llvm::Value *Y,
                           Type *Elem) {
  bool Carried = Elem && isCarriedFloat(Elem);
  if (Carried)
    X = toF32(B, X, Elem), Y = toF32(B, Y, Elem);
  llvm::Value *R = nullptr;
  switch (K) {
  case CombineKind::Add: R = B.CreateAdd(X, Y); break;
  case CombineKind::FAdd: R = B.CreateFAdd(X, Y); break;
  case CombineKind::Mul: R = B.CreateMul(X, Y); break;
  case CombineKind::FMul: R = B.CreateFMul(X, Y); break;
  case CombineKind::SMin: R = B.CreateBinaryIntrinsic(llvm::Intrinsic::smin, X, Y); break;
  case CombineKind::SMax: R = B.CreateBinaryIntrinsic(llvm::Intrinsic::smax, X, Y); break;
  case CombineKind::UMin: R = B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, X, Y); break;
  case CombineKind::UMax: R = B.CreateBinaryIntrinsic(llvm::Intrinsic::umax, X, Y); break;
  case CombineKind::FMin: R = B.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, X, Y); break;
  case CombineKind::FMax: R = B.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, X, Y); break;
  case CombineKind::And: R = B.CreateAnd(X, Y); break;
  case CombineKind::Or: R = B.CreateOr(X, Y); break;
  case CombineKind::Xor: R = B.CreateXor(X, Y); break;
  }
  return Carried ? fromF32(B, R, Elem) : R;
}

/// Combines tuples of values (one per operand, or (value, index) for
/// argmin/argmax).
class Combiner {
public:
  Combiner(LoweringContext &C, Instruction &I) : C(C), I(I) {}

  /// Whether combine(a, b) == combine(b, a) is known, so order can be ignored.
  bool isCommutative() const {
    return IsArg() || llvm::cast<CombineInstBase>(I).getKind().has_value();
  }

  Regs operator()(const Regs &A, const Regs &B) const {
    if (IsArg())
      return argCombine(A, B);
    return combineTuples(C, llvm::cast<CombineInstBase>(I), A, B);
  }

private:
  bool IsArg() const { return I.getFamily() == OpFamily::ArgMinMax; }

  /// (value, index) pairs: the larger (smaller) value wins; equal values
  /// keep the smaller index with tie_break_left. NaN counts as the largest
  /// (smallest) value, as in Triton.
  Regs argCombine(const Regs &A, const Regs &B2) const {
    llvm::IRBuilder<> &B = C.B;
    auto &Arg = llvm::cast<ArgMinMaxInst>(I);
    Type *Elem = I.getOperand(0)->getType()->getScalarType();
    llvm::Value *V1 = A[0], *V2 = B2[0];
    if (isCarriedFloat(Elem))
      V1 = toF32(B, V1, Elem), V2 = toF32(B, V2, Elem);
    bool Float = V1->getType()->isFloatingPointTy();
    bool Max = Arg.isMax();
    llvm::Value *Better, *Equal;
    if (Float) {
      Better = Max ? B.CreateFCmpOGT(V1, V2) : B.CreateFCmpOLT(V1, V2);
      // A NaN beats everything but an earlier NaN.
      llvm::Value *Nan1 = B.CreateFCmpUNO(V1, V1), *Nan2 = B.CreateFCmpUNO(V2, V2);
      Better = B.CreateOr(Better, B.CreateAnd(Nan1, B.CreateNot(Nan2)));
      Equal = B.CreateOr(B.CreateFCmpOEQ(V1, V2), B.CreateAnd(Nan1, Nan2));
    } else {
      bool Unsigned = Arg.isUnsigned();
      Better = Max ? (Unsigned ? B.CreateICmpUGT(V1, V2) : B.CreateICmpSGT(V1, V2))
                   : (Unsigned ? B.CreateICmpULT(V1, V2) : B.CreateICmpSLT(V1, V2));
      Equal = B.CreateICmpEQ(V1, V2);
    }
    llvm::Value *Tie = Arg.tieBreakLeft() ? B.CreateICmpSLT(A[1], B2[1])
                                          : B.CreateICmpSGT(A[1], B2[1]);
    llvm::Value *First = B.CreateOr(Better, B.CreateAnd(Equal, Tie));
    return {B.CreateSelect(First, A[0], B2[0]), B.CreateSelect(First, A[1], B2[1])};
  }

  LoweringContext &C;
  Instruction &I;
};

/// The bits of a hardware dimension whose bases move along \p Axis; an
/// error if a basis moves along the axis and another dimension at once.
llvm::SmallVector<unsigned, 4> axisBits(LoweringContext &C, const Instruction &I,
                                        const LinearLayout &L, const char *Name,
                                        unsigned Axis) {
  llvm::SmallVector<unsigned, 4> Bits;
  llvm::ArrayRef<Basis> Bases = L.getBases(Name);
  for (unsigned B = 0; B < Bases.size(); ++B) {
    if (!Bases[B][Axis])
      continue;
    for (unsigned D = 0; D < Bases[B].size(); ++D)
      if (D != Axis && Bases[B][D])
        C.unsupported(I, "a reduction over a layout that mixes dimensions");
    Bits.push_back(B);
  }
  return Bits;
}

/// The built-in combine of \p I to apply to its registers in vectors, where
/// the target works in vectors (one operand, not an arg-reduction, no
/// carried floats).
std::optional<CombineKind> vectorCombine(LoweringContext &C, const Instruction &I) {
  if (C.getTarget().registerVectorWidth() <= 1 || I.getFamily() == OpFamily::ArgMinMax ||
      I.getNumOperands() != 1 || isCarriedFloat(I.getOperand(0)->getType()->getScalarType()))
    return std::nullopt;
  return llvm::cast<CombineInstBase>(I).getKind();
}

/// Step 1 in vectors (a cpu thread holds whole blocks): the registers as
/// vectors of W, combined lane by lane across vectors for the axis's
/// register bits at or above log2(W), then each vector with a shuffle of
/// itself for the bits below, all groups at once: log2(n) vector operations
/// and no scalar until each group's result, which stays in the register
/// with the axis bits clear. (Another tree than the scalar one: the built-in
/// combines are associative and commutative.) Nothing where a register
/// basis is zero or moves along the axis and another dimension at once.
std::optional<std::map<std::vector<int32_t>, Regs>>
reduceInVectors(LoweringContext &C, const Instruction &I, const LinearLayout &L, unsigned Axis,
                const AxisGroups &Groups) {
  std::optional<CombineKind> K = vectorCombine(C, I);
  unsigned N = LoweringContext::numRegs(L), W = C.getTarget().registerVectorWidth();
  if (!K || N < W || N % W)
    return std::nullopt;
  unsigned AxisMask = 0;
  llvm::ArrayRef<Basis> Bases = L.getBases(kRegister);
  for (unsigned Bit = 0; Bit < Bases.size(); ++Bit) {
    unsigned Moving = 0;
    for (int32_t X : Bases[Bit])
      Moving += X != 0;
    if (Moving == 0 || (Bases[Bit][Axis] && Moving > 1))
      return std::nullopt;
    if (Bases[Bit][Axis])
      AxisMask |= 1u << Bit;
  }
  // One group (a whole row in registers): halveInVectors' scalar result
  // keeps the code around it as SLP and the vector library want it (here
  // a softmax's exp went to 1,024 scalar expf calls, 3.6 -> 12 ms).
  if (AxisMask == (1u << Bases.size()) - 1)
    return std::nullopt;
  llvm::IRBuilder<> &B = C.B;
  const Regs &In = C.get(I.getOperand(0));
  std::vector<llvm::Value *> Vecs;
  for (unsigned R = 0; R < N; R += W)
    Vecs.push_back(packRegisters(B, llvm::ArrayRef<llvm::Value *>(In).slice(R, W)));
  unsigned LaneBits = llvm::Log2_32(W), VecAxis = AxisMask >> LaneBits;
  // Across vectors, bit by bit, into the vector with the bit clear (those
  // with a lower axis bit set are already spent).
  for (unsigned Bit = 0; (1u << Bit) < Vecs.size(); ++Bit)
    for (unsigned V = 0; V < Vecs.size() && (VecAxis >> Bit & 1); ++V)
      if (!(V >> Bit & 1) && !(V & VecAxis & ((1u << Bit) - 1)))
        Vecs[V] = combineBuiltin(B, *K, Vecs[V], Vecs[V | 1u << Bit], nullptr);
  for (unsigned V = 0; V < Vecs.size(); ++V) // then within the vectors left
    for (unsigned Bit = 0; Bit < LaneBits && !(V & VecAxis); ++Bit) {
      if (!(AxisMask >> Bit & 1))
        continue;
      llvm::SmallVector<int, 16> Swap;
      for (unsigned Lane = 0; Lane < W; ++Lane)
        Swap.push_back(int(Lane ^ (1u << Bit)));
      Vecs[V] = combineBuiltin(B, *K, Vecs[V], B.CreateShuffleVector(Vecs[V], Swap), nullptr);
    }
  std::map<std::vector<int32_t>, Regs> Acc;
  for (auto &[Key, Members] : Groups) {
    unsigned R = Members.front().second & ~AxisMask;
    Acc[Key] = {B.CreateExtractElement(Vecs[R / W], uint64_t(R % W))};
  }
  return Acc;
}

/// \p Run (single values) as one vector, combined half against half until 8
/// values remain: log2(n) - 3 vector operations and shuffles, not n - 8
/// scalar ones. (A different tree than the scalar one: the built-in
/// combines are associative and commutative.)
std::vector<Regs> halveInVectors(LoweringContext &C, CombineKind K, const std::vector<Regs> &Run) {
  llvm::IRBuilder<> &B = C.B;
  unsigned N = unsigned(Run.size());
  Regs Singles;
  for (const Regs &R : Run)
    Singles.push_back(R[0]);
  llvm::Value *V = packRegisters(B, Singles);
  for (; N > 8; N /= 2) {
    llvm::SmallVector<int, 64> Lo, Hi;
    for (unsigned R = 0; R < N / 2; ++R)
      Lo.push_back(int(R)), Hi.push_back(int(R + N / 2));
    V = combineBuiltin(B, K, B.CreateShuffleVector(V, Lo), B.CreateShuffleVector(V, Hi), nullptr);
  }
  std::vector<Regs> Out;
  for (unsigned R = 0; R < N; ++R)
    Out.push_back({B.CreateExtractElement(V, R)});
  return Out;
}

} // namespace

void tritium::lowerReduce(LoweringContext &C, Instruction &I) {
  llvm::IRBuilder<> &B = C.B;
  Combiner Combine(C, I);
  const LinearLayout &L = C.layout(I.getOperand(0));
  unsigned Axis = unsigned(I.getIntAttr(AttrKey::Axis));
  unsigned Rank = L.getOutDims().size();
  bool IsArg = I.getFamily() == OpFamily::ArgMinMax;

  // The tuple each register starts with.
  unsigned NRegs = LoweringContext::numRegs(L);
  std::vector<Regs> Init(NRegs);
  std::vector<Regs> Coords;
  if (IsArg)
    Coords = C.coordinates(L);
  for (unsigned R = 0; R < NRegs; ++R) {
    for (Value *Op : I.getOperands())
      Init[R].push_back(C.get(Op)[R]);
    if (IsArg)
      Init[R].push_back(Coords[R][Axis]);
  }

  // 1. Registers, grouped by their coordinates off the axis.
  AxisGroups Groups = registersAlongAxis(L, Axis);
  std::map<std::vector<int32_t>, Regs> Acc;
  if (auto InVectors = reduceInVectors(C, I, L, Axis, Groups))
    Acc = std::move(*InVectors);
  for (auto &[Key, Members] : Acc.empty() ? Groups : AxisGroups()) {
    std::vector<Regs> Run;
    for (auto &M : Members)
      Run.push_back(Init[M.second]);
    if (std::optional<CombineKind> K = vectorCombine(C, I); K && Run.size() > 8 &&
        !(Run.size() & (Run.size() - 1)))
      Run = halveInVectors(C, *K, Run);
    // Many registers (a cpu thread holds whole rows) in a tree of
    // neighbours, in order: log2(n) steps deep, not n; the last 8 in a chain.
    while (Run.size() > 8) {
      std::vector<Regs> Next;
      for (unsigned K = 0; K + 1 < Run.size(); K += 2)
        Next.push_back(Combine(Run[K], Run[K + 1]));
      if (Run.size() % 2)
        Next.push_back(Run.back());
      Run = std::move(Next);
    }
    for (unsigned K = 1; K < Run.size(); ++K)
      Run[0] = Combine(Run[0], Run[K]);
    Acc[Key] = Run[0];
  }

  // 2. Lanes.
  for (unsigned Bit : axisBits(C, I, L, kLane, Axis)) {
    llvm::Value *Upper = B.CreateICmpNE(
        B.CreateAnd(C.laneId(), B.getInt32(1u << Bit)), B.getInt32(0));
    for (auto &[Key, A] : Acc) {
      Regs Other;
      for (llvm::Value *V : A)
        Other.push_back(C.getTarget().shuffleXor(B, V, 1u << Bit));
      if (Combine.isCommutative()) {
        A = Combine(A, Other);
      } else {
        // Keep coordinate order: the lane with the bit set holds the later
        // elements.
        Regs Lo, Hi;
        for (unsigned K = 0; K < A.size(); ++K) {
          Lo.push_back(B.CreateSelect(Upper, Other[K], A[K]));
          Hi.push_back(B.CreateSelect(Upper, A[K], Other[K]));
        }
        A = Combine(Lo, Hi);
      }
    }
  }

  // 3. Warps, through shared memory.
  llvm::SmallVector<unsigned, 4> WarpBits = axisBits(C, I, L, kWarp, Axis);
  if (!WarpBits.empty()) {
    unsigned W = 1u << WarpBits.size();
    // This warp's index along the axis.
    llvm::Value *WarpIdx = B.getInt32(0);
    for (unsigned K = 0; K < WarpBits.size(); ++K)
      WarpIdx = B.CreateOr(WarpIdx,
                           B.CreateShl(B.CreateAnd(B.CreateLShr(C.warpId(), WarpBits[K]), 1), K));
    Type *InTy = I.getOperand(0)->getType();
    llvm::SmallVector<int64_t, 4> OutShape(InTy->getShape().begin(), InTy->getShape().end());
    OutShape.erase(OutShape.begin() + Axis);
    int64_t Slots = 1;
    for (int64_t D : OutShape)
      Slots *= D;
    // Slot of a group: row-major index of its coordinates off the axis
    // (register part XOR this thread's part).
    const Regs &Thread = C.threadOffsets(L);
    auto SlotOf = [&](const std::vector<int32_t> &Key) {
      llvm::Value *Idx = B.getInt32(0);
      for (unsigned D = 0; D < Rank; ++D) {
        if (D == Axis)
          continue;
        llvm::Value *Co = B.CreateXor(Thread[D], B.getInt32(Key[D]));
        Idx = B.CreateAdd(B.CreateMul(Idx, B.getInt32(InTy->getShape()[D])), Co);
      }
      return Idx;
    };
    // Each tuple member gets its own region of Slots * W elements.
    unsigned Base = C.scratchOffset(I);
    llvm::SmallVector<unsigned, 4> RegionOffsets;
    unsigned Off = Base;
    const Regs &First = Acc.begin()->second;
    for (llvm::Value *V : First) {
      RegionOffsets.push_back(Off);
      // Each member's region starts 8-byte aligned (SharedMemory.cpp
      // counts the same).
      Off += unsigned(llvm::alignTo(uint64_t(Slots) * W * LoweringContext::sharedBytes(V->getType()), 8));
    }
    auto Address = [&](unsigned Member, llvm::Value *Slot, llvm::Value *Warp,
                       llvm::Type *Ty) {
      unsigned Bytes = LoweringContext::sharedBytes(Ty);
      llvm::Value *Elem = B.CreateAdd(B.CreateMul(Slot, B.getInt32(W)), Warp);
      return C.sharedPtr(B.CreateAdd(B.getInt32(RegionOffsets[Member]),
                                     B.CreateMul(Elem, B.getInt32(Bytes))));
    };
    for (auto &[Key, A] : Acc) {
      llvm::Value *Slot = SlotOf(Key);
      for (unsigned M = 0; M < A.size(); ++M)
        B.CreateStore(A[M], Address(M, Slot, WarpIdx, A[M]->getType()));
    }
    C.getTarget().barrier(B);
    for (auto &[Key, A] : Acc) {
      llvm::Value *Slot = SlotOf(Key);
      Regs R;
      for (unsigned Wi = 0; Wi < W; ++Wi) {
        Regs Part;
        for (unsigned M = 0; M < A.size(); ++M)
          Part.push_back(B.CreateLoad(A[M]->getType(),
                                      Address(M, Slot, B.getInt32(Wi), A[M]->getType())));
        R = Wi == 0 ? Part : Combine(R, Part);
      }
      A = R;
    }
  }

  // The result registers: in the slice layout, each register is one group.
  unsigned NumResults = I.getNumResults();
  Type *ResTy = I.getResult(0)->getType();
  auto Member = [&](const Regs &A, unsigned K) { return IsArg ? A[1] : A[K]; };
  if (!ResTy->isBlock()) {
    const Regs &A = Acc.begin()->second;
    for (unsigned K = 0; K < NumResults; ++K)
      C.set(I.getResult(K), {Member(A, K)});
    return;
  }
  const LinearLayout &RL = C.layout(I.getResult(0));
  std::vector<Regs> Outs(NumResults);
  for (uint32_t R = 0; R < LoweringContext::numRegs(RL); ++R) {
    Basis Co = RL.applyIn(kRegister, int32_t(R));
    Co.insert(Co.begin() + Axis, 0);
    auto It = Acc.find(std::vector<int32_t>(Co.begin(), Co.end()));
    if (It == Acc.end())
      C.unsupported(I, "a reduction whose result layout is not the slice of its "
                       "operand's");
    for (unsigned K = 0; K < NumResults; ++K)
      Outs[K].push_back(Member(It->second, K));
  }
  for (unsigned K = 0; K < NumResults; ++K)
    C.set(I.getResult(K), std::move(Outs[K]));
}

AxisGroups tritium::registersAlongAxis(const LinearLayout &L, unsigned Axis) {
  AxisGroups Groups;
  for (unsigned R = 0; R < LoweringContext::numRegs(L); ++R) {
    Basis Co = L.applyIn(kRegister, int32_t(R));
    int32_t AlongAxis = Co[Axis];
    Co[Axis] = 0;
    Groups[std::vector<int32_t>(Co.begin(), Co.end())].push_back({AlongAxis, R});
  }
  for (auto &[Key, Members] : Groups)
    llvm::sort(Members);
  return Groups;
}

Regs tritium::combineTuples(LoweringContext &C, const CombineInstBase &I, const Regs &A,
                            const Regs &Bv) {
  llvm::IRBuilder<> &B = C.B;
  if (std::optional<CombineKind> K = I.getKind())
    return {combineBuiltin(B, *K, A[0], Bv[0], I.getOperand(0)->getType()->getScalarType())};
  llvm::Function *Fn = C.getLLVMModule().getFunction(I.getCombine());
  if (!Fn)
    C.unsupported(I, "a combine function that was not lowered");
  llvm::SmallVector<llvm::Value *, 8> Args(A.begin(), A.end());
  Args.append(Bv.begin(), Bv.end());
  llvm::Value *R = B.CreateCall(Fn, Args);
  if (A.size() == 1)
    return {R};
  Regs Out;
  for (unsigned K = 0; K < A.size(); ++K)
    Out.push_back(B.CreateExtractValue(R, K));
  return Out;
}
