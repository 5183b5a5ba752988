//===- TargetInfo.cpp - What the targets' primitives share ---------------===//

#include "codegen/lowering/TargetInfo.h"

#include "llvm/IR/Module.h"

using namespace tritium;

llvm::Value *tritium::by32Bits(llvm::IRBuilder<> &B, llvm::Value *V,
                               llvm::function_ref<llvm::Value *(llvm::Value *)> Move) {
  llvm::Type *T = V->getType();
  const llvm::DataLayout &DL = B.GetInsertBlock()->getModule()->getDataLayout();
  unsigned Bits = DL.getTypeSizeInBits(T);
  llvm::Type *IntTy = B.getIntNTy(Bits);
  llvm::Value *I = T->isPointerTy() ? B.CreatePtrToInt(V, IntTy) : B.CreateBitCast(V, IntTy);
  llvm::Value *R;
  if (Bits <= 32) {
    llvm::Value *W = Bits < 32 ? B.CreateZExt(I, B.getInt32Ty()) : I;
    W = Move(W);
    R = Bits < 32 ? B.CreateTrunc(W, IntTy) : W;
  } else {
    assert(Bits == 64 && "cross-lane moves take at most 64 bits");
    llvm::Value *Lo = Move(B.CreateTrunc(I, B.getInt32Ty()));
    llvm::Value *Hi = Move(B.CreateTrunc(B.CreateLShr(I, 32), B.getInt32Ty()));
    R = B.CreateOr(B.CreateZExt(Lo, IntTy),
                   B.CreateShl(B.CreateZExt(Hi, IntTy), 32));
  }
  return T->isPointerTy() ? B.CreateIntToPtr(R, T) : B.CreateBitCast(R, T);
}

llvm::Value *tritium::callLibrary(llvm::IRBuilder<> &B, llvm::StringRef Name, llvm::Type *Ret,
                                  llvm::ArrayRef<llvm::Value *> Args) {
  llvm::SmallVector<llvm::Type *, 10> Tys;
  for (llvm::Value *A : Args)
    Tys.push_back(A->getType());
  llvm::Module *M = B.GetInsertBlock()->getModule();
  llvm::FunctionCallee F = M->getOrInsertFunction(Name, llvm::FunctionType::get(Ret, Tys, false));
  return B.CreateCall(F, Args);
}

void tritium::emitIf(llvm::IRBuilder<> &B, llvm::Value *Cond, const llvm::Twine &Name,
                     const llvm::Twine &ContName, llvm::function_ref<void()> Body) {
  llvm::Function *Fn = B.GetInsertBlock()->getParent();
  auto *Then = llvm::BasicBlock::Create(B.getContext(), Name, Fn);
  auto *Cont = llvm::BasicBlock::Create(B.getContext(), ContName, Fn);
  B.CreateCondBr(Cond, Then, Cont);
  B.SetInsertPoint(Then);
  Body();
  B.CreateBr(Cont);
  B.SetInsertPoint(Cont);
}

llvm::Value *TargetInfo::sharedMemoryBase(llvm::IRBuilder<> &B) const {
  llvm::Module &M = *B.GetInsertBlock()->getModule();
  llvm::GlobalVariable *G = M.getGlobalVariable("global_smem");
  if (!G) {
    G = new llvm::GlobalVariable(M, llvm::ArrayType::get(B.getInt8Ty(), 0), false,
                                 llvm::GlobalValue::ExternalLinkage, nullptr, "global_smem",
                                 nullptr, llvm::GlobalValue::NotThreadLocal, sharedAddressSpace());
    G->setAlignment(llvm::Align(sharedMemoryAlignment()));
  }
  return G;
}
