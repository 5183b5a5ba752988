//===- LowerMemory.cpp - Loads, stores and atomics ------------------------===//
//
// Global loads and stores are vectorized: a thread's consecutive registers
// that hold consecutive elements of the fastest dimension (the layout says
// how many) become one access of up to 16 bytes, as far as the axis analysis
// proves the addresses contiguous and aligned and the mask uniform over the
// vector. Each vector is one predicated PTX instruction; masked-off lanes of
// a load take `other` (zero without it).
//
// Stores and atomics go element by element. A lane or warp holding a copy of
// an element another thread also holds (a layout's zero basis) does not repeat
// the store or the atomic, and a scalar one runs in thread 0 alone: a copy
// storing after another thread loaded the same address would race with it.
// Where copies exist and the old values of an atomic are used, the owners
// share them through shared memory (getScratchBytes says where).
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringContext.h"

using namespace tritium;

namespace {

using Regs = LoweringContext::Regs;

/// The LLVM type an element has in memory.
llvm::Type *memType(LoweringContext &C, Type *T) {
  Type *E = T->getScalarType();
  if (E->isBool())
    return C.B.getInt8Ty();
  if (E->isPointer())
    return C.B.getInt64Ty();
  return C.elemType(E);
}

llvm::Value *toMem(LoweringContext &C, llvm::Value *V, Type *T) {
  Type *E = T->getScalarType();
  if (E->isBool())
    return C.B.CreateZExt(V, C.B.getInt8Ty());
  if (E->isPointer())
    return C.B.CreatePtrToInt(V, C.B.getInt64Ty());
  return V;
}

llvm::Value *fromMem(LoweringContext &C, llvm::Value *V, Type *T) {
  Type *E = T->getScalarType();
  if (E->isBool())
    return C.B.CreateICmpNE(V, C.B.getInt8(0));
  if (E->isPointer())
    return C.B.CreateIntToPtr(V, C.elemType(E));
  return V;
}

} // namespace

Vectorization tritium::planGlobalAccess(LoweringContext &C, Value *Ptr, Value *Mask,
                                        Type *ElemTy, unsigned MaxVec, bool PrefixMasks) {
  Vectorization V;
  unsigned Bytes = ElemTy->getScalarSizeInBytes();
  if (Ptr->getType()->isBlock()) {
    const LinearLayout &L = C.layout(Ptr);
    unsigned Rank = L.getOutDims().size();
    // The dimension the first register bits walk along.
    unsigned Best = 1, Dim = 0;
    for (unsigned D = 0; D < Rank; ++D) {
      unsigned N = unsigned(L.getNumConsecutiveInOut(kRegister, outDimName(D)));
      if (N > Best)
        Best = N, Dim = D;
    }
    int64_t Vec = Best;
    const AxisInfoAnalysis &AI = C.getAxisInfo();
    Vec = std::min<int64_t>(Vec, C.getTarget().alignsAccesses() ? AI.getPtrVectorWidth(Ptr, Dim)
                                                                : AI.getContiguity(Ptr, Dim));
    V.MaskEach = C.getTarget().masksEachElement();
    if (Mask && !V.MaskEach) {
      V.MaskRun = unsigned(std::min<int64_t>(~0u, AI.getMaskConstancy(Mask, Dim)));
      Vec = std::min<int64_t>(Vec, PrefixMasks ? AI.getMaskPrefix(Mask, Dim) : V.MaskRun);
    }
    Vec = std::min<int64_t>({Vec, std::max(1u, C.getTarget().maxAccessBytes() / Bytes), MaxVec});
    // Powers of two only (facts are, but stay safe).
    while (Vec & (Vec - 1))
      Vec &= Vec - 1;
    V.Vec = unsigned(std::max<int64_t>(1, Vec));
  }
  unsigned Total = V.Vec * Bytes * 8;
  V.WordBits = Bytes == 8 || V.MaskEach ? Bytes * 8 : std::min(32u, Total);
  V.NumWords = Total / V.WordBits;
  return V;
}

llvm::Value *tritium::accessPredicate(LoweringContext &C, const LoweringContext::Regs *Masks,
                                      unsigned First, const Vectorization &V) {
  if (!Masks)
    return nullptr;
  if (!V.MaskEach)
    return (*Masks)[First];
  return packRegisters(C.B, llvm::ArrayRef<llvm::Value *>(*Masks).slice(First, V.Vec));
}

namespace {

/// <Vec x memType> packed as <NumWords x iWordBits> and back.
llvm::Value *pack(LoweringContext &C, llvm::ArrayRef<llvm::Value *> Elems,
                  const Vectorization &V) {
  llvm::IRBuilder<> &B = C.B;
  llvm::Type *Words = llvm::FixedVectorType::get(B.getIntNTy(V.WordBits), V.NumWords);
  return B.CreateBitCast(packRegisters(B, Elems), Words);
}

Regs unpack(LoweringContext &C, llvm::Value *Words, llvm::Type *ET, unsigned Vec) {
  llvm::IRBuilder<> &B = C.B;
  llvm::Value *V = B.CreateBitCast(Words, llvm::FixedVectorType::get(ET, Vec));
  Regs Out;
  for (unsigned I = 0; I < Vec; ++I)
    Out.push_back(B.CreateExtractElement(V, I));
  return Out;
}

MemoryHints hintsOf(const Instruction &I) {
  MemoryHints H;
  if (auto *L = llvm::dyn_cast<LoadInst>(&I)) {
    H.Cache = L->getCache();
    H.Evict = L->getEvict();
    H.Volatile = L->isVolatile();
  } else if (auto *S = llvm::dyn_cast<StoreInst>(&I)) {
    H.Cache = S->getCache();
    H.Evict = S->getEvict();
  }
  return H;
}

void lowerLoad(LoweringContext &C, LoadInst &I) {
  Value *Res = I.getResult();
  Type *T = Res->getType();
  Vectorization V = planGlobalAccess(C, I.getPtr(), I.getMask(), T);
  const Regs &Ptrs = C.get(I.getPtr());
  const Regs *Masks = I.getMask() ? &C.get(I.getMask()) : nullptr;
  const Regs *Others = I.getOther() ? &C.get(I.getOther()) : nullptr;
  llvm::Type *MT = memType(C, T);
  MemoryHints H = hintsOf(I);
  Regs Out;
  for (unsigned G = 0; G < Ptrs.size(); G += V.Vec) {
    llvm::Value *Other = nullptr;
    if (Others) {
      llvm::SmallVector<llvm::Value *, 8> Elems;
      for (unsigned K = 0; K < V.Vec; ++K)
        Elems.push_back(toMem(C, (*Others)[G + K], T));
      Other = pack(C, Elems, V);
    }
    llvm::Value *Words = C.getTarget().loadGlobal(
        C.B, Ptrs[G], V.NumWords, V.WordBits, accessPredicate(C, Masks, G, V), Other, H);
    for (llvm::Value *E : unpack(C, Words, MT, V.Vec))
      Out.push_back(fromMem(C, E, T));
  }
  C.set(Res, std::move(Out));
}

/// \p X and \p Y, either of which may be null (true); null if both are.
llvm::Value *both(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Y) {
  auto IsTrue = [](llvm::Value *V) {
    auto *K = llvm::dyn_cast_or_null<llvm::ConstantInt>(V);
    return !V || (K && K->isOne());
  };
  if (IsTrue(X))
    return IsTrue(Y) ? nullptr : Y;
  if (IsTrue(Y))
    return X;
  if (auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(Y->getType())) // a bit per element
    X = B.CreateVectorSplat(VT->getNumElements(), X);
  return B.CreateAnd(X, Y);
}

void lowerStore(LoweringContext &C, StoreInst &I) {
  Type *T = I.getValue()->getType();
  Vectorization V = planGlobalAccess(C, I.getPtr(), I.getMask(), T);
  const Regs &Ptrs = C.get(I.getPtr());
  const Regs &Vals = C.get(I.getValue());
  const Regs *Masks = I.getMask() ? &C.get(I.getMask()) : nullptr;
  MemoryHints H = hintsOf(I);
  // Copies of an element store nothing: a copy that stored after another
  // thread of the program loaded the old value would race with it.
  llvm::Value *Own = C.owner(I.getPtr());
  for (unsigned G = 0; G < Ptrs.size(); G += V.Vec) {
    llvm::SmallVector<llvm::Value *, 8> Elems;
    for (unsigned K = 0; K < V.Vec; ++K)
      Elems.push_back(toMem(C, Vals[G + K], T));
    C.getTarget().storeGlobal(C.B, Ptrs[G], pack(C, Elems, V),
                              both(C.B, Own, accessPredicate(C, Masks, G, V)), H);
  }
}

void lowerAtomic(LoweringContext &C, Instruction &I) {
  llvm::IRBuilder<> &B = C.B;
  bool IsCAS = I.getOpcode() == Opcode::AtomicCAS;
  Value *Ptr = I.getOperand(0);
  Value *Mask = I.getNumOperands() > (IsCAS ? 3u : 2u) ? I.getOperand(IsCAS ? 3 : 2) : nullptr;
  Type *T = I.getResult()->getType();
  const Regs &Ptrs = C.get(Ptr);
  unsigned N = Ptrs.size();
  auto Reg = [&](unsigned K, unsigned R) {
    const Regs &Rs = C.get(I.getOperand(K));
    return Rs.size() == 1 ? Rs[0] : Rs[R];
  };
  bool Scalar = !Ptr->getType()->isBlock();
  llvm::Value *Own = C.owner(Ptr);
  MemSem Sem = IsCAS ? llvm::cast<AtomicCASInst>(I).getSem()
                     : llvm::cast<AtomicRMWInst>(I).getSem();
  MemScope Scope = IsCAS ? llvm::cast<AtomicCASInst>(I).getScope()
                         : llvm::cast<AtomicRMWInst>(I).getScope();
  Regs Out;
  for (unsigned R = 0; R < N; ++R) {
    llvm::Value *Pred = Own;
    if (Mask)
      Pred = B.CreateAnd(Pred, Reg(IsCAS ? 3 : 2, R));
    llvm::Value *Old =
        IsCAS ? C.getTarget().atomicCAS(B, Ptrs[R], Reg(1, R), Reg(2, R), Pred, Sem, Scope)
              : C.getTarget().atomicRMW(B, llvm::cast<AtomicRMWInst>(I).getKind(),
                                        Ptrs[R], Reg(1, R), Pred, Sem, Scope, T);
    Out.push_back(Old);
  }
  if (atomicSharesResult(I)) { // its result is used, and copies read it
    // Only the owner of each element did the atomic; it writes the old
    // value at the element's row-major slot, and every copy reads it back.
    // The slots are free to write: insert-barriers put a barrier before
    // this instruction in the IR if an earlier access may still be in
    // flight.
    unsigned Bytes = T->getScalarSizeInBytes();
    Regs Offsets = Scalar ? Regs{C.constI32(0)} : C.elementOffsets(C.layout(Ptr));
    auto SlotOf = [&](unsigned R) {
      return C.sharedPtr(B.CreateAdd(B.CreateMul(Offsets[R], C.constI32(Bytes)),
                                     C.constI32(C.scratchOffset(I))));
    };
    emitIf(B, Own, "atomic.share", "atomic.read", [&] {
      for (unsigned R = 0; R < N; ++R)
        B.CreateStore(Out[R], SlotOf(R));
    });
    C.getTarget().barrier(B);
    for (unsigned R = 0; R < N; ++R)
      Out[R] = B.CreateLoad(Out[R]->getType(), SlotOf(R));
  }
  C.set(I.getResult(), std::move(Out));
}

} // namespace

void tritium::lowerMemory(LoweringContext &C, Instruction &I) {
  switch (I.getOpcode()) {
  case Opcode::Load:
    lowerLoad(C, llvm::cast<LoadInst>(I));
    return;
  case Opcode::Store:
    lowerStore(C, llvm::cast<StoreInst>(I));
    return;
  default:
    lowerAtomic(C, I);
    return;
  }
}
