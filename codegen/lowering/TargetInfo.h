//===- TargetInfo.h - What lowering asks of a GPU target --------*- C++ -*-===//
//
// The target-specific primitives the lowering files build on: thread and
// program ids, barriers, warp shuffles, predicated vector loads and stores,
// atomics, printf and assert. Everything else lowering emits is plain LLVM
// IR. codegen/nvptx/NVPTXTargetInfo.h implements it with NVVM intrinsics and
// inline PTX; an AMDGPU implementation plugs in the same way.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_LOWERING_TARGETINFO_H
#define TRITIUM_CODEGEN_LOWERING_TARGETINFO_H

#include "ir/Attribute.h"
#include "ir/Instruction.h"
#include "ir/Types.h"

#include "llvm/IR/IRBuilder.h"

#include <optional>

namespace tritium {

struct MMAInstr; // analysis/MMALayouts.h

/// Cache and eviction hints of a memory access, as Triton spells them.
struct MemoryHints {
  std::optional<CacheModifier> Cache;
  std::optional<EvictionPolicy> Evict;
  bool Volatile = false;
};

class TargetInfo {
public:
  virtual ~TargetInfo() = default;

  virtual llvm::Value *threadId(llvm::IRBuilder<> &B) const = 0;
  virtual llvm::Value *programId(llvm::IRBuilder<> &B, unsigned Axis) const = 0;
  virtual llvm::Value *numPrograms(llvm::IRBuilder<> &B, unsigned Axis) const = 0;
  /// A barrier of all threads of the program (and a fence on shared memory).
  virtual void barrier(llvm::IRBuilder<> &B) const = 0;
  /// Programmatic dependent launch: wait until the grids this one depends
  /// on have finished and their writes are visible (\p Wait, a memory
  /// barrier for the compiler too), or let the dependent grids start.
  /// Nothing where the target has no such launch: its grids on one stream
  /// run one after the other.
  virtual void gridDepControl(llvm::IRBuilder<> &B, bool Wait) const {}
  /// \p V (32 bits or narrower) of lane `lane ^ Mask`.
  virtual llvm::Value *shuffleXor(llvm::IRBuilder<> &B, llvm::Value *V,
                                  unsigned Mask) const = 0;
  /// \p V (32 bits or narrower) of lane \p Lane.
  virtual llvm::Value *shuffleIdx(llvm::IRBuilder<> &B, llvm::Value *V,
                                  llvm::Value *Lane) const = 0;
  /// \p V of lane `lane - Delta` (own value for lanes below Delta).
  virtual llvm::Value *shuffleUp(llvm::IRBuilder<> &B, llvm::Value *V,
                                 unsigned Delta) const = 0;
  virtual unsigned sharedAddressSpace() const = 0;

  /// Loads \p NumWords words of \p WordBits bits (8, 16, 32 or 64) from the
  /// global address \p Ptr; lanes whose \p Pred (i1, may be null) is false
  /// get \p Other (a vector of the words, may be null). Returns
  /// <NumWords x iWordBits>.
  virtual llvm::Value *loadGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                                  unsigned NumWords, unsigned WordBits,
                                  llvm::Value *Pred, llvm::Value *Other,
                                  const MemoryHints &Hints) const = 0;
  /// Stores the words of \p Words (<N x iW>) where \p Pred (may be null) holds.
  virtual void storeGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                           llvm::Value *Words, llvm::Value *Pred,
                           const MemoryHints &Hints) const = 0;

  /// An atomic read-modify-write of one element at \p Ptr where \p Pred
  /// holds; returns the old value (undefined where Pred is false).
  virtual llvm::Value *atomicRMW(llvm::IRBuilder<> &B, AtomicKind Kind,
                                 llvm::Value *Ptr, llvm::Value *Val,
                                 llvm::Value *Pred, MemSem Sem, MemScope Scope,
                                 Type *Elem) const = 0;
  virtual llvm::Value *atomicCAS(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                                 llvm::Value *Cmp, llvm::Value *Val,
                                 llvm::Value *Pred, MemSem Sem,
                                 MemScope Scope) const = 0;

  /// printf on the device (\p Args already promoted as C varargs are).
  virtual void printf(llvm::IRBuilder<> &B, llvm::StringRef Format,
                      llvm::ArrayRef<llvm::Value *> Args) const = 0;
  /// Aborts the kernel with a message where \p Failed (i1) holds.
  virtual void assertFail(llvm::IRBuilder<> &B, llvm::Value *Failed,
                          llvm::StringRef Message, llvm::StringRef File,
                          unsigned Line, llvm::StringRef Func) const = 0;
  /// Unary math (exp, exp2, log, log2, sqrt, sqrt_rn, rsqrt, sin, cos, erf,
  /// floor, ceil) on one f32 or f64 value, with the precision the language
  /// promises (Triton's: fast approximations for f32 where the hardware has
  /// them, correctly rounded sqrt_rn).
  virtual llvm::Value *unaryMath(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *X) const = 0;
  /// C's fmod on two f32 or f64 values, exactly (sign of -0.0 kept).
  virtual llvm::Value *fmod(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Y) const = 0;
  /// \p X (f32 or f64) truncated to the narrower float \p To rounding toward
  /// zero.
  virtual llvm::Value *truncTowardZero(llvm::IRBuilder<> &B, llvm::Value *X,
                                       llvm::Type *To) const = 0;
  /// The warp's cooperative load of \p Count (1, 2 or 4) 8x8 matrices of
  /// 16-bit elements from shared memory (NVIDIA's ldmatrix): lane 8i + r
  /// gives \p Ptr, the 16-byte row r of matrix i; each lane gets one 32-bit
  /// word per matrix, the elements (g, 2t) and (g, 2t + 1) of it (g = lane
  /// / 4, t = lane % 4), or (2t, g) and (2t + 1, g) when \p Trans. False
  /// where the target has no such load.
  virtual bool loadMatrices(llvm::IRBuilder<> &B, llvm::Value *Ptr, unsigned Count, bool Trans,
                            llvm::SmallVectorImpl<llvm::Value *> &Words) const {
    return false;
  }
  /// One warp's D = A * B + C on one tile of NVIDIA's mma.sync of \p X's
  /// input and accumulator types (m16n8k16 f16 / bf16, m16n8k8 tf32,
  /// m16n8k32 s8): \p A four 32-bit words, \p B two, \p C four
  /// accumulator elements (f32, f16 or i32), in the PTX ISA's fragment
  /// order; the four elements of D go to \p D. False where the target has
  /// no such instruction.
  virtual bool mmaSync(llvm::IRBuilder<> &B, const MMAInstr &X, llvm::ArrayRef<llvm::Value *> A,
                       llvm::ArrayRef<llvm::Value *> Bw, llvm::ArrayRef<llvm::Value *> C,
                       llvm::SmallVectorImpl<llvm::Value *> &D) const {
    return false;
  }
  /// Whether the target has an asynchronous copy of \p Bytes from global
  /// to shared memory (asyncCopy below).
  virtual bool canAsyncCopy(unsigned Bytes) const { return false; }
  /// Starts an asynchronous copy of \p Bytes (one canAsyncCopy accepts)
  /// from the global address \p Global to the shared address \p Shared
  /// that reads only the first \p SrcBytes bytes (i32; null: all) and
  /// writes zeros after them (NVIDIA's cp.async with a source size).
  virtual void asyncCopy(llvm::IRBuilder<> &B, llvm::Value *Shared, llvm::Value *Global,
                         unsigned Bytes, llvm::Value *SrcBytes) const {}
  /// Closes this thread's group of asynchronous copies.
  virtual void asyncCommitGroup(llvm::IRBuilder<> &B) const {}
  /// Waits until at most the \p Num most recent groups are in flight.
  virtual void asyncWait(llvm::IRBuilder<> &B, unsigned Num) const {}

  /// Hopper's warpgroup matrix multiply (sm_90a), analysis/WGMMALayouts.h.
  virtual bool hasWGMMA() const { return false; }
  /// One warpgroup's wgmma.mma_async m64nNk16 (k32 for 8-bit inputs) with
  /// f32 accumulation, inputs of PTX types \p AType and \p BType (f16,
  /// bf16; e4m3, e5m2: K-major only, no transpose bits) read through the
  /// shared memory matrix
  /// descriptors \p DescA and \p DescB (i64), \p TransA / \p TransB for
  /// M- / N-major operands, or with A from registers: \p AWords, four
  /// 32-bit words in mma.sync's A fragment order (then \p DescA is null):
  /// \p Acc (N / 2 f32, the PTX ISA's order) in, its new values (defined
  /// once the group is waited for) to \p D; \p Accumulate false: D = A * B
  /// (scale-d 0, \p Acc's values unused).
  virtual void wgmma(llvm::IRBuilder<> &B, llvm::StringRef AType, llvm::StringRef BType,
                     llvm::Value *DescA,
                     llvm::ArrayRef<llvm::Value *> AWords, llvm::Value *DescB, bool TransA,
                     bool TransB, bool Accumulate, llvm::ArrayRef<llvm::Value *> Acc,
                     llvm::SmallVectorImpl<llvm::Value *> &D) const {}
  /// wgmma.fence: registers written before it may be wgmma's accumulators.
  virtual void wgmmaFence(llvm::IRBuilder<> &B) const {}
  /// Closes this warpgroup's group of wgmma instructions.
  virtual void wgmmaCommitGroup(llvm::IRBuilder<> &B) const {}
  /// Waits until at most \p Num groups are in flight; \p Regs (the
  /// accumulators of those waited for) pass through it, so that nothing
  /// reads them before it.
  virtual void wgmmaWait(llvm::IRBuilder<> &B, unsigned Num,
                         llvm::MutableArrayRef<llvm::Value *> Regs) const {}
  /// Orders this thread's shared memory writes (generic proxy) before
  /// reads of the asynchronous proxy (wgmma, TMA) that a barrier then
  /// lets see them; nothing where the target has no such reads.
  virtual void fenceProxyAsync(llvm::IRBuilder<> &B) const {}

  /// Hopper's mbarriers and TMA (sm_90a). \p Bar is a barrier's shared
  /// address (ptr addrspace(3)); \p Pred says which threads act (one, for
  /// all but the wait). Targets without TMA never get its ops: the
  /// layout pipeline keeps descriptor loads for TMA only where wgmma runs.
  /// Makes \p Bar a barrier of \p Count arrivals, visible to the
  /// asynchronous proxy (a barrier must still order it before other
  /// threads' use).
  virtual void mbarrierInit(llvm::IRBuilder<> &B, llvm::Value *Bar, unsigned Count,
                            llvm::Value *Pred) const {}
  /// Arrives on \p Bar, announcing \p Bytes that asynchronous copies will
  /// complete on it.
  virtual void mbarrierExpect(llvm::IRBuilder<> &B, llvm::Value *Bar, unsigned Bytes,
                              llvm::Value *Pred) const {}
  /// Ends the barrier \p Bar, so that its bytes may hold other data.
  virtual void mbarrierInval(llvm::IRBuilder<> &B, llvm::Value *Bar, llvm::Value *Pred) const {}
  /// Waits until \p Bar's phase of parity \p Phase (i32) has completed.
  virtual void mbarrierWait(llvm::IRBuilder<> &B, llvm::Value *Bar, llvm::Value *Phase) const {}
  /// Whether the target has the hooks below (sm_90a).
  virtual bool hasTMA() const { return false; }
  /// Whether a tensormap argument is a 128-byte parameter passed by value
  /// (where a target has no TMA, a pointer holds its place, unread).
  virtual bool passesTensorMapsByValue() const { return false; }
  /// The generic address (i64) of the kernel parameter \p Param, a
  /// CUtensorMap passed by value.
  virtual llvm::Value *tensorMapAddress(llvm::IRBuilder<> &B, llvm::Argument *Param) const {
    return nullptr;
  }
  /// Starts the TMA copy of the box at \p Coords (i32, innermost first) of
  /// the tensor \p TensorMap describes into \p Dst, completing on \p Bar.
  virtual void tmaLoad(llvm::IRBuilder<> &B, llvm::Value *Dst, llvm::Value *TensorMap,
                       llvm::ArrayRef<llvm::Value *> Coords, llvm::Value *Bar,
                       llvm::Value *Pred) const {}
  /// Starts the TMA store of the box in \p Src to \p Coords of the tensor
  /// \p TensorMap describes (in the open bulk group).
  virtual void tmaStore(llvm::IRBuilder<> &B, llvm::Value *TensorMap,
                        llvm::ArrayRef<llvm::Value *> Coords, llvm::Value *Src,
                        llvm::Value *Pred) const {}
  /// Closes the bulk group and waits until its stores have read shared
  /// memory.
  virtual void tmaStoreWait(llvm::IRBuilder<> &B, llvm::Value *Pred) const {}
  /// K elements of \p Elem inputs a lane gives one of the target's wave-wide
  /// matrix instructions (AMD's MFMA kWidth); 0 where it has none.
  virtual unsigned mfmaKWidth(Type *Elem) const { return 0; }
  /// One wave's D = A * B + C on a \p T x \p T tile (T = 32 or 16) of
  /// \p Elem inputs (AMD's v_mfma_*): \p A and \p Bv this lane's
  /// mfmaKWidth elements, \p C its 16 (T = 32) or 4 accumulator values, in
  /// the instruction's order; D's go to \p D.
  virtual bool mfma(llvm::IRBuilder<> &B, Type *Elem, unsigned T, llvm::ArrayRef<llvm::Value *> A,
                    llvm::ArrayRef<llvm::Value *> Bv, llvm::ArrayRef<llvm::Value *> C,
                    llvm::SmallVectorImpl<llvm::Value *> &D) const {
    return false;
  }
  /// Marks \p F a kernel of \p NumThreads threads whose threads use at most
  /// \p MaxRegisters registers (0: no limit).
  virtual void annotateKernel(llvm::Function *F, unsigned NumThreads,
                              unsigned MaxRegisters) const = 0;
};

} // namespace tritium

#endif // TRITIUM_CODEGEN_LOWERING_TARGETINFO_H
