//===- NVPTXTargetInfo.h - Lowering primitives for NVIDIA GPUs ---*- C++ -*-===//
//
// TargetInfo (codegen/lowering/TargetInfo.h) for NVIDIA GPUs: NVVM
// intrinsics and inline PTX, choosing instructions by the target's features
// (ir/Target.h), never by comparing architecture numbers.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_NVPTX_NVPTXTARGETINFO_H
#define TRITIUM_CODEGEN_NVPTX_NVPTXTARGETINFO_H

#include "codegen/nvptx/MMALayouts.h"
#include "codegen/lowering/TargetInfo.h"
#include "ir/Target.h"

namespace tritium {

/// Calls an inline PTX block; \p Outs its result types (zero, one or
/// several, then a struct).
llvm::Value *callAsm(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Type *> Outs,
                     llvm::ArrayRef<llvm::Value *> Ins, llvm::StringRef Asm,
                     llvm::StringRef Constraints, bool SideEffects);

/// The inline PTX operands $\p First, ... of \p N registers: "$4, $5, $6".
std::string asmOperands(unsigned First, unsigned N);

/// NVIDIA GPUs (NVVM intrinsics and inline PTX).
class NVPTXTargetInfo : public TargetInfo {
public:
  /// \p FlushDenormals: exp2 as ex2.approx.ftz, as libdevice's exp2f under
  /// __CUDA_FTZ=1 (Triton's enable_reflect_ftz).
  explicit NVPTXTargetInfo(const Target &GPU, bool FlushDenormals = true)
      : GPU(GPU), FlushDenormals(FlushDenormals) {}
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
  /// Dots on wgmma and mma.sync, mbarriers and TMA copies
  /// (NVPTXLowering.h).
  bool lowerInstruction(LoweringContext &C, Instruction &I) const override;
  void waitAsyncDots(llvm::IRBuilder<> &B, unsigned Num,
                     llvm::MutableArrayRef<llvm::Value *> Regs) const override;
  void fenceForAsyncReaders(llvm::IRBuilder<> &B) const override;
  unsigned sharedMemoryAlignment() const override;
  bool passesTensorMapsByValue() const override { return true; }
  bool storeMatrices(llvm::IRBuilder<> &B, llvm::Value *Ptr, bool Trans,
                     llvm::ArrayRef<llvm::Value *> Words) const override;
  bool loadMatrices(llvm::IRBuilder<> &B, llvm::Value *Ptr, unsigned Count, bool Trans,
                    llvm::SmallVectorImpl<llvm::Value *> &Words) const override;
  llvm::Value *unaryMath(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *X) const override;
  llvm::Value *fmod(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Y) const override;
  llvm::Value *approxDiv(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Y) const override;
  llvm::Value *truncTowardZero(llvm::IRBuilder<> &B, llvm::Value *X,
                               llvm::Type *To) const override;

  // The instructions NVPTXLowering.h's files build on.

  /// One warp's D = A * B + C on one tile of mma.sync of \p X's input and
  /// accumulator types (m16n8k16 f16 / bf16, m16n8k8 tf32, m16n8k32 s8):
  /// \p A four 32-bit words, \p Bw two, \p C four accumulator elements
  /// (f32, f16 or i32), in the PTX ISA's fragment order; the four elements
  /// of D go to \p D. False where the GPU has no such instruction.
  bool mmaSync(llvm::IRBuilder<> &B, const MMAInstr &X, llvm::ArrayRef<llvm::Value *> A,
               llvm::ArrayRef<llvm::Value *> Bw, llvm::ArrayRef<llvm::Value *> C,
               llvm::SmallVectorImpl<llvm::Value *> &D) const;

  // Hopper's warpgroup matrix multiply (sm_90a; NVPTXWGMMA.cpp).
  bool hasWGMMA() const { return GPU.has(Target::WGMMA); }
  /// One warpgroup's wgmma.mma_async m64nNk16 (k32 for 8-bit inputs) with
  /// f32 accumulation, inputs of PTX types \p AType and \p BType (f16,
  /// bf16; e4m3, e5m2: K-major only, no transpose bits) read through the
  /// shared memory matrix descriptors \p DescA and \p DescB (i64),
  /// \p TransA / \p TransB for M- / N-major operands, or with A from
  /// registers: \p AWords, four 32-bit words in mma.sync's A fragment order
  /// (then \p DescA is null): \p Acc (N / 2 f32, the PTX ISA's order) in,
  /// its new values (defined once the group is waited for) to \p D;
  /// \p Accumulate false: D = A * B (scale-d 0, \p Acc's values unused).
  void wgmma(llvm::IRBuilder<> &B, llvm::StringRef AType, llvm::StringRef BType,
             llvm::Value *DescA, llvm::ArrayRef<llvm::Value *> AWords, llvm::Value *DescB,
             bool TransA, bool TransB, bool Accumulate, llvm::ArrayRef<llvm::Value *> Acc,
             llvm::SmallVectorImpl<llvm::Value *> &D) const;
  /// wgmma.fence: registers written before it may be wgmma's accumulators.
  void wgmmaFence(llvm::IRBuilder<> &B) const;
  /// Closes this warpgroup's group of wgmma instructions (waitAsyncDots
  /// waits for groups).
  void wgmmaCommitGroup(llvm::IRBuilder<> &B) const;

  // Hopper's mbarriers and TMA (sm_90a; NVPTXTMA.cpp). \p Bar is a
  // barrier's shared address (ptr addrspace(3)); \p Pred says which
  // threads act (one, for all but the wait).
  bool hasTMA() const { return GPU.has(Target::WGMMA); }
  /// Makes \p Bar a barrier of \p Count arrivals, visible to the
  /// asynchronous proxy (a barrier must still order it before other
  /// threads' use).
  void mbarrierInit(llvm::IRBuilder<> &B, llvm::Value *Bar, unsigned Count,
                    llvm::Value *Pred) const;
  /// Arrives on \p Bar, announcing \p Bytes that asynchronous copies will
  /// complete on it.
  void mbarrierExpect(llvm::IRBuilder<> &B, llvm::Value *Bar, unsigned Bytes,
                      llvm::Value *Pred) const;
  /// Waits until \p Bar's phase of parity \p Phase (i32) has completed.
  void mbarrierWait(llvm::IRBuilder<> &B, llvm::Value *Bar, llvm::Value *Phase) const;
  /// Ends the barrier \p Bar, so that its bytes may hold other data.
  void mbarrierInval(llvm::IRBuilder<> &B, llvm::Value *Bar, llvm::Value *Pred) const;
  /// The generic address (i64) of the kernel parameter \p Param, a
  /// CUtensorMap passed by value.
  llvm::Value *tensorMapAddress(llvm::IRBuilder<> &B, llvm::Argument *Param) const;
  /// Starts the TMA copy of the box at \p Coords (i32, innermost first) of
  /// the tensor \p TensorMap describes into \p Dst, completing on \p Bar.
  void tmaLoad(llvm::IRBuilder<> &B, llvm::Value *Dst, llvm::Value *TensorMap,
               llvm::ArrayRef<llvm::Value *> Coords, llvm::Value *Bar, llvm::Value *Pred) const;
  /// Starts the TMA store of the box in \p Src to \p Coords of the tensor
  /// \p TensorMap describes (in the open bulk group).
  void tmaStore(llvm::IRBuilder<> &B, llvm::Value *TensorMap, llvm::ArrayRef<llvm::Value *> Coords,
                llvm::Value *Src, llvm::Value *Pred) const;
  /// Closes the bulk group and waits until its stores have read shared
  /// memory.
  void tmaStoreWait(llvm::IRBuilder<> &B, llvm::Value *Pred) const;

private:
  Target GPU;
  bool FlushDenormals;
};

} // namespace tritium

#endif // TRITIUM_CODEGEN_NVPTX_NVPTXTARGETINFO_H
