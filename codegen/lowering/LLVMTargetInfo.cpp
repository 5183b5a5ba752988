//===- LLVMTargetInfo.cpp - Primitives in plain LLVM IR -------------------===//

#include "codegen/lowering/LLVMTargetInfo.h"
#include "codegen/lowering/FloatConversions.h"

#include "llvm/IR/Module.h"

using namespace tritium;

namespace {

llvm::Function *parentOf(llvm::IRBuilder<> &B) { return B.GetInsertBlock()->getParent(); }

llvm::AtomicOrdering ordering(MemSem Sem) {
  switch (Sem) {
  case MemSem::Relaxed: return llvm::AtomicOrdering::Monotonic;
  case MemSem::Acquire: return llvm::AtomicOrdering::Acquire;
  case MemSem::Release: return llvm::AtomicOrdering::Release;
  case MemSem::AcqRel: return llvm::AtomicOrdering::AcquireRelease;
  }
  return llvm::AtomicOrdering::AcquireRelease;
}

/// What a compare-and-swap may fail with: the ordering without its release.
llvm::AtomicOrdering failureOrdering(llvm::AtomicOrdering O) {
  return O == llvm::AtomicOrdering::AcquireRelease || O == llvm::AtomicOrdering::Acquire
             ? llvm::AtomicOrdering::Acquire
             : llvm::AtomicOrdering::Monotonic;
}

} // namespace

llvm::Value *tritium::whereHolds(llvm::IRBuilder<> &B, llvm::Value *Pred, llvm::StringRef Name,
                                 llvm::function_ref<llvm::Value *()> Body,
                                 llvm::function_ref<llvm::Value *(llvm::Type *)> Else) {
  if (!Pred)
    return Body();
  llvm::BasicBlock *From = B.GetInsertBlock(), *ThenEnd = nullptr;
  llvm::Value *V = nullptr;
  emitIf(B, Pred, Name, Name + ".done", [&] {
    V = Body();
    ThenEnd = B.GetInsertBlock();
  });
  if (!V)
    return nullptr;
  llvm::PHINode *P = B.CreatePHI(V->getType(), 2);
  P->addIncoming(V, ThenEnd);
  P->addIncoming(Else ? Else(V->getType()) : llvm::Constant::getNullValue(V->getType()), From);
  return P;
}

llvm::Value *LLVMTargetInfo::loadGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                                          unsigned NumWords, unsigned WordBits,
                                          llvm::Value *Pred, llvm::Value *Other,
                                          const MemoryHints &Hints) const {
  auto *VecTy = llvm::FixedVectorType::get(B.getIntNTy(WordBits), NumWords);
  return whereHolds(
      B, Pred, "load",
      [&]() -> llvm::Value * {
        llvm::LoadInst *L = B.CreateAlignedLoad(
            VecTy, Ptr, llvm::Align((alignsAccesses() ? NumWords : 1) * WordBits / 8));
        L->setVolatile(Hints.Volatile);
        return L;
      },
      [&](llvm::Type *T) -> llvm::Value * {
        return Other ? Other : llvm::Constant::getNullValue(T);
      });
}

void LLVMTargetInfo::storeGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr, llvm::Value *Words,
                                   llvm::Value *Pred, const MemoryHints &Hints) const {
  auto *VT = llvm::cast<llvm::FixedVectorType>(Words->getType());
  uint64_t Bytes = (alignsAccesses() ? VT->getNumElements() : 1) *
                   VT->getElementType()->getIntegerBitWidth() / 8;
  whereHolds(B, Pred, "store", [&]() -> llvm::Value * {
    B.CreateAlignedStore(Words, Ptr, llvm::Align(Bytes));
    return nullptr;
  });
}

llvm::Value *LLVMTargetInfo::atomicRMW(llvm::IRBuilder<> &B, AtomicKind Kind,
                                         llvm::Value *Ptr, llvm::Value *Val,
                                         llvm::Value *Pred, MemSem Sem, MemScope Scope,
                                         Type *Elem) const {
  llvm::AtomicOrdering Order = ordering(Sem);
  llvm::SyncScope::ID SS = syncScope(B.getContext(), Scope);
  bool BF16 = Elem->getScalarType()->getKind() == Type::Kind::BF16;
  return whereHolds(B, Pred, "atomic", [&]() -> llvm::Value * {
    if (BF16 && Kind == AtomicKind::FAdd) {
      // bf16 is carried as i16: a compare-and-swap loop adding in f32 and
      // rounding to nearest even, as bf16 arithmetic does.
      llvm::LoadInst *Init = B.CreateAlignedLoad(B.getInt16Ty(), Ptr, llvm::Align(2));
      Init->setAtomic(llvm::AtomicOrdering::Monotonic, SS);
      llvm::BasicBlock *Entry = B.GetInsertBlock();
      auto *Loop = llvm::BasicBlock::Create(B.getContext(), "atomic.cas", parentOf(B));
      auto *Done = llvm::BasicBlock::Create(B.getContext(), "atomic.cas.done", parentOf(B));
      B.CreateBr(Loop);
      B.SetInsertPoint(Loop);
      llvm::PHINode *Cur = B.CreatePHI(B.getInt16Ty(), 2);
      Cur->addIncoming(Init, Entry);
      llvm::Value *New = f32ToBF16(B, B.CreateFAdd(bf16ToF32(B, Cur), bf16ToF32(B, Val)));
      llvm::Value *Pair =
          B.CreateAtomicCmpXchg(Ptr, Cur, New, llvm::MaybeAlign(2), Order, failureOrdering(Order), SS);
      llvm::Value *Seen = B.CreateExtractValue(Pair, 0);
      Cur->addIncoming(Seen, B.GetInsertBlock());
      B.CreateCondBr(B.CreateExtractValue(Pair, 1), Done, Loop);
      B.SetInsertPoint(Done);
      return Cur;
    }
    llvm::AtomicRMWInst::BinOp Op = llvm::AtomicRMWInst::Xchg;
    switch (Kind) {
    case AtomicKind::Add: Op = llvm::AtomicRMWInst::Add; break;
    case AtomicKind::FAdd: Op = llvm::AtomicRMWInst::FAdd; break;
    case AtomicKind::Max: Op = llvm::AtomicRMWInst::Max; break;
    case AtomicKind::Min: Op = llvm::AtomicRMWInst::Min; break;
    case AtomicKind::UMax: Op = llvm::AtomicRMWInst::UMax; break;
    case AtomicKind::UMin: Op = llvm::AtomicRMWInst::UMin; break;
    case AtomicKind::And: Op = llvm::AtomicRMWInst::And; break;
    case AtomicKind::Or: Op = llvm::AtomicRMWInst::Or; break;
    case AtomicKind::Xor: Op = llvm::AtomicRMWInst::Xor; break;
    case AtomicKind::Xchg: Op = llvm::AtomicRMWInst::Xchg; break;
    }
    unsigned Bytes = Val->getType()->getPrimitiveSizeInBits() / 8;
    return B.CreateAtomicRMW(Op, Ptr, Val, llvm::MaybeAlign(Bytes), Order, SS);
  });
}

llvm::Value *LLVMTargetInfo::atomicCAS(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                                         llvm::Value *Cmp, llvm::Value *Val,
                                         llvm::Value *Pred, MemSem Sem,
                                         MemScope Scope) const {
  llvm::Type *T = Val->getType();
  unsigned Bits = T->getPrimitiveSizeInBits();
  llvm::Type *IntTy = B.getIntNTy(Bits);
  bool Float = T->isFloatingPointTy();
  llvm::Value *Old = whereHolds(B, Pred, "cas", [&]() -> llvm::Value * {
    llvm::AtomicOrdering Order = ordering(Sem);
    llvm::Value *Pair = B.CreateAtomicCmpXchg(
        Ptr, Float ? B.CreateBitCast(Cmp, IntTy) : Cmp, Float ? B.CreateBitCast(Val, IntTy) : Val,
        llvm::MaybeAlign(Bits / 8), Order, failureOrdering(Order),
        syncScope(B.getContext(), Scope));
    return B.CreateExtractValue(Pair, 0);
  });
  return Float ? B.CreateBitCast(Old, T) : Old;
}

llvm::Value *LLVMTargetInfo::truncTowardZero(llvm::IRBuilder<> &B, llvm::Value *X,
                                               llvm::Type *To) const {
  // Round to nearest, then step toward zero where that went away from it:
  // one ulp down in magnitude is the next smaller encoding (overflow to
  // infinity steps back to the largest finite value, as RTZ gives).
  llvm::Value *T = B.CreateFPTrunc(X, To);
  llvm::Value *Back = B.CreateFPExt(T, X->getType());
  llvm::Value *Away = B.CreateFCmpOGT(B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, Back),
                                      B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, X));
  llvm::Type *IntTy = B.getIntNTy(To->getPrimitiveSizeInBits());
  llvm::Value *Down = B.CreateBitCast(B.CreateSub(B.CreateBitCast(T, IntTy), llvm::ConstantInt::get(IntTy, 1)), To);
  return B.CreateSelect(Away, Down, T);
}

