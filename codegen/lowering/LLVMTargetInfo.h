//===- LLVMTargetInfo.h - Primitives in plain LLVM IR ------------*- C++ -*-===//
//
// The part of TargetInfo that targets whose LLVM backend does the work share
// (AMDGPU, the CPU): a predicated access is an ordinary load or store under a
// branch, atomics are LLVM's atomicrmw and cmpxchg in the target's sync
// scopes, and a truncation toward zero is LLVM's rounding stepped back.
// NVIDIA has instructions of its own for all of these (NVPTXTargetInfo).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_LOWERING_LLVMTARGETINFO_H
#define TRITIUM_CODEGEN_LOWERING_LLVMTARGETINFO_H

#include "codegen/lowering/TargetInfo.h"

namespace tritium {

/// Runs \p Body where \p Pred (may be null) holds, under a branch; the value
/// it returns (may be null) is merged with \p Else's (zero without one).
llvm::Value *whereHolds(llvm::IRBuilder<> &B, llvm::Value *Pred, llvm::StringRef Name,
                        llvm::function_ref<llvm::Value *()> Body,
                        llvm::function_ref<llvm::Value *(llvm::Type *)> Else = nullptr);

class LLVMTargetInfo : public TargetInfo {
public:
  llvm::Value *loadGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr, unsigned NumWords,
                          unsigned WordBits, llvm::Value *Pred, llvm::Value *Other,
                          const MemoryHints &Hints) const override;
  void storeGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr, llvm::Value *Words, llvm::Value *Pred,
                   const MemoryHints &Hints) const override;
  /// bf16 adds as a compare-and-swap loop in f32 (bf16 is carried as i16).
  llvm::Value *atomicRMW(llvm::IRBuilder<> &B, AtomicKind Kind, llvm::Value *Ptr,
                         llvm::Value *Val, llvm::Value *Pred, MemSem Sem, MemScope Scope,
                         Type *Elem) const override;
  llvm::Value *atomicCAS(llvm::IRBuilder<> &B, llvm::Value *Ptr, llvm::Value *Cmp,
                         llvm::Value *Val, llvm::Value *Pred, MemSem Sem,
                         MemScope Scope) const override;
  llvm::Value *truncTowardZero(llvm::IRBuilder<> &B, llvm::Value *X,
                               llvm::Type *To) const override;

protected:
  /// The target's LLVM sync scope of \p Scope.
  virtual llvm::SyncScope::ID syncScope(llvm::LLVMContext &Ctx, MemScope Scope) const = 0;
};

} // namespace tritium

#endif // TRITIUM_CODEGEN_LOWERING_LLVMTARGETINFO_H
