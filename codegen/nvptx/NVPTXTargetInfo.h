//===- NVPTXTargetInfo.h - Lowering primitives for NVIDIA GPUs ---*- C++ -*-===//
//
// TargetInfo (codegen/lowering/TargetInfo.h) for NVIDIA GPUs: NVVM
// intrinsics and inline PTX, choosing instructions by the target's features
// (ir/Target.h), never by comparing architecture numbers.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_NVPTX_NVPTXTARGETINFO_H
#define TRITIUM_CODEGEN_NVPTX_NVPTXTARGETINFO_H

#include "codegen/lowering/TargetInfo.h"
#include "ir/Target.h"

namespace tritium {

/// Calls an inline PTX block; \p Outs its result types (zero, one or
/// several, then a struct).
llvm::Value *callAsm(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Type *> Outs,
                     llvm::ArrayRef<llvm::Value *> Ins, llvm::StringRef Asm,
                     llvm::StringRef Constraints, bool SideEffects);

/// NVIDIA GPUs (NVVM intrinsics and inline PTX).
class NVPTXTargetInfo : public TargetInfo {
public:
  explicit NVPTXTargetInfo(const Target &GPU) : GPU(GPU) {}
  llvm::Value *threadId(llvm::IRBuilder<> &B) const override;
  llvm::Value *programId(llvm::IRBuilder<> &B, unsigned Axis) const override;
  llvm::Value *numPrograms(llvm::IRBuilder<> &B, unsigned Axis) const override;
  void barrier(llvm::IRBuilder<> &B) const override;
  void gridDepControl(llvm::IRBuilder<> &B, bool Wait) const override;
  llvm::Value *shuffleXor(llvm::IRBuilder<> &B, llvm::Value *V,
                          unsigned Mask) const override;
  llvm::Value *shuffleIdx(llvm::IRBuilder<> &B, llvm::Value *V,
                          llvm::Value *Lane) const override;
  llvm::Value *shuffleUp(llvm::IRBuilder<> &B, llvm::Value *V,
                         unsigned Delta) const override;
  unsigned sharedAddressSpace() const override { return 3; }
  llvm::Value *loadGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                          unsigned NumWords, unsigned WordBits,
                          llvm::Value *Pred, llvm::Value *Other,
                          const MemoryHints &Hints) const override;
  void storeGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr, llvm::Value *Words,
                   llvm::Value *Pred, const MemoryHints &Hints) const override;
  llvm::Value *atomicRMW(llvm::IRBuilder<> &B, AtomicKind Kind,
                         llvm::Value *Ptr, llvm::Value *Val, llvm::Value *Pred,
                         MemSem Sem, MemScope Scope,
                         Type *Elem) const override;
  llvm::Value *atomicCAS(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                         llvm::Value *Cmp, llvm::Value *Val, llvm::Value *Pred,
                         MemSem Sem, MemScope Scope) const override;
  void printf(llvm::IRBuilder<> &B, llvm::StringRef Format,
              llvm::ArrayRef<llvm::Value *> Args) const override;
  void assertFail(llvm::IRBuilder<> &B, llvm::Value *Failed,
                  llvm::StringRef Message, llvm::StringRef File, unsigned Line,
                  llvm::StringRef Func) const override;
  void annotateKernel(llvm::Function *F, unsigned NumThreads,
                      unsigned MaxRegisters) const override;
  bool canAsyncCopy(unsigned Bytes) const override;
  void asyncCopy(llvm::IRBuilder<> &B, llvm::Value *Shared, llvm::Value *Global, unsigned Bytes,
                 llvm::Value *SrcBytes) const override;
  void asyncCommitGroup(llvm::IRBuilder<> &B) const override;
  void asyncWait(llvm::IRBuilder<> &B, unsigned Num) const override;
  // NVPTXWGMMA.cpp
  bool hasWGMMA() const override { return GPU.has(Target::WGMMA); }
  void wgmma(llvm::IRBuilder<> &B, llvm::StringRef AType, llvm::StringRef BType,
             llvm::Value *DescA,
             llvm::ArrayRef<llvm::Value *> AWords, llvm::Value *DescB, bool TransA, bool TransB,
             bool Accumulate, llvm::ArrayRef<llvm::Value *> Acc,
             llvm::SmallVectorImpl<llvm::Value *> &D) const override;
  void wgmmaFence(llvm::IRBuilder<> &B) const override;
  void wgmmaCommitGroup(llvm::IRBuilder<> &B) const override;
  void wgmmaWait(llvm::IRBuilder<> &B, unsigned Num,
                 llvm::MutableArrayRef<llvm::Value *> Regs) const override;
  void fenceProxyAsync(llvm::IRBuilder<> &B) const override;
  // NVPTXTMA.cpp
  bool hasTMA() const override { return GPU.has(Target::WGMMA); }
  bool passesTensorMapsByValue() const override { return true; }
  void mbarrierInit(llvm::IRBuilder<> &B, llvm::Value *Bar, unsigned Count,
                    llvm::Value *Pred) const override;
  void mbarrierExpect(llvm::IRBuilder<> &B, llvm::Value *Bar, unsigned Bytes,
                      llvm::Value *Pred) const override;
  void mbarrierWait(llvm::IRBuilder<> &B, llvm::Value *Bar, llvm::Value *Phase) const override;
  void mbarrierInval(llvm::IRBuilder<> &B, llvm::Value *Bar, llvm::Value *Pred) const override;
  llvm::Value *tensorMapAddress(llvm::IRBuilder<> &B, llvm::Argument *Param) const override;
  void tmaLoad(llvm::IRBuilder<> &B, llvm::Value *Dst, llvm::Value *TensorMap,
               llvm::ArrayRef<llvm::Value *> Coords, llvm::Value *Bar,
               llvm::Value *Pred) const override;
  void tmaStore(llvm::IRBuilder<> &B, llvm::Value *TensorMap, llvm::ArrayRef<llvm::Value *> Coords,
                llvm::Value *Src, llvm::Value *Pred) const override;
  void tmaStoreWait(llvm::IRBuilder<> &B, llvm::Value *Pred) const override;
  bool loadMatrices(llvm::IRBuilder<> &B, llvm::Value *Ptr, unsigned Count, bool Trans,
                    llvm::SmallVectorImpl<llvm::Value *> &Words) const override;
  bool mmaSync(llvm::IRBuilder<> &B, const MMAInstr &X, llvm::ArrayRef<llvm::Value *> A,
               llvm::ArrayRef<llvm::Value *> Bw, llvm::ArrayRef<llvm::Value *> C,
               llvm::SmallVectorImpl<llvm::Value *> &D) const override;
  llvm::Value *unaryMath(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *X) const override;
  llvm::Value *fmod(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Y) const override;
  llvm::Value *truncTowardZero(llvm::IRBuilder<> &B, llvm::Value *X,
                               llvm::Type *To) const override;

private:
  Target GPU;
};

} // namespace tritium

#endif // TRITIUM_CODEGEN_NVPTX_NVPTXTARGETINFO_H
