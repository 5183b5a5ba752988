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

class LoweringContext; // LoweringContext.h

/// Cache and eviction hints of a memory access, as Triton spells them.
struct MemoryHints {
  std::optional<CacheModifier> Cache;
  std::optional<EvictionPolicy> Evict;
  bool Volatile = false;
};

/// \p V (a pointer, integer or float of at most 64 bits) through \p Move,
/// a cross-lane move of 32 bits: narrower values widened, 64-bit ones in
/// two halves.
llvm::Value *by32Bits(llvm::IRBuilder<> &B, llvm::Value *V,
                      llvm::function_ref<llvm::Value *(llvm::Value *)> Move);
/// A call of the device library's function \p Name returning \p Ret,
/// declared from \p Args' types where the module has none (linked later).
llvm::Value *callLibrary(llvm::IRBuilder<> &B, llvm::StringRef Name, llvm::Type *Ret,
                         llvm::ArrayRef<llvm::Value *> Args);
/// Emits \p Body in a new block \p Name that runs where \p Cond holds; the
/// builder goes on in the block after it, \p ContName. (The builder sits at
/// the end of a block still being filled: a branch around the code.)
void emitIf(llvm::IRBuilder<> &B, llvm::Value *Cond, const llvm::Twine &Name,
            const llvm::Twine &ContName, llvm::function_ref<void()> Body);

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
  /// Registers of a block worked on in LLVM vectors of this many, where a
  /// thread holds many (a cpu thread holds the whole block): carried by a
  /// loop or merged at a join in such vectors, and reduced by halving
  /// vectors; 1: register by register (the GPUs).
  virtual unsigned registerVectorWidth() const { return 1; }
  /// The widest global access, in bytes.
  virtual unsigned maxAccessBytes() const { return 16; }
  /// Whether a vector access must be aligned to its size (else contiguous
  /// addresses are enough).
  virtual bool alignsAccesses() const { return true; }
  /// Whether a global access's predicate may differ from element to
  /// element: loadGlobal's and storeGlobal's \p Pred is then <N x i1>, a bit
  /// per word, and a word is an element.
  virtual bool masksEachElement() const { return false; }
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
  /// Unary math (exp, exp2, log, log2, sqrt, rsqrt, sin, cos, erf) on one
  /// f32 or f64 value (a vector of them where registerVectorWidth() > 1),
  /// with the precision the language promises (Triton's:
  /// fast approximations for f32 where the hardware has them).
  virtual llvm::Value *unaryMath(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *X) const = 0;
  /// X / Y where the IR allows 2 ulp (an `approx` fdiv: Triton's `/` in
  /// fp32); exact by default.
  virtual llvm::Value *approxDiv(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Y) const {
    return B.CreateFDiv(X, Y);
  }
  /// C's fmod on two f32 or f64 values, exactly (sign of -0.0 kept).
  virtual llvm::Value *fmod(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Y) const = 0;
  /// Whether an integer division or remainder by zero (or of the most
  /// negative value by -1) traps (x86's idiv): the lowering then divides by 1
  /// there and gives 0 for a zero divisor, as the interpreter does. A GPU's
  /// division gives some value and goes on.
  virtual bool trapsOnIntegerDivision() const { return false; }
  /// \p X (a float) converted to the integer type \p To, toward zero. Out
  /// of range and NaN give the target's instruction's answer (NVIDIA's cvt
  /// saturates to 16, 32 or 64 bits, NaN -> 0); LLVM's fptosi/fptoui here.
  virtual llvm::Value *floatToInt(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Type *To,
                                  bool Signed) const {
    return Signed ? B.CreateFPToSI(X, To) : B.CreateFPToUI(X, To);
  }
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
  /// The same matrices the other way: each lane's \p Words (one 32-bit
  /// word per matrix, as loadMatrices gives them) stored at the rows the
  /// lanes' \p Ptr name (NVIDIA's stmatrix). False where the target has no
  /// such store.
  virtual bool storeMatrices(llvm::IRBuilder<> &B, llvm::Value *Ptr, bool Trans,
                             llvm::ArrayRef<llvm::Value *> Words) const {
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

  /// The target's own lowering of \p I at the builder's position: the
  /// instructions it has units of its own for (a dot on its matrix cores,
  /// its barriers and tensor copies). False, having emitted nothing, leaves
  /// I to the generic lowering (the FMA dot; an error for the others).
  virtual bool lowerInstruction(LoweringContext &C, Instruction &I) const { return false; }
  /// Waits until at most \p Num of the dots lowerInstruction left in
  /// flight (LoweringContext::deferDotWait) still run; \p Regs (the
  /// accumulators of those waited for) pass through the wait, so that
  /// nothing reads them before it.
  virtual void waitAsyncDots(llvm::IRBuilder<> &B, unsigned Num,
                             llvm::MutableArrayRef<llvm::Value *> Regs) const {}
  /// Orders this thread's shared memory writes before the reads of the
  /// target's asynchronous units (matrix cores, tensor copies) that a
  /// barrier then lets see them; nothing where the target has none.
  virtual void fenceForAsyncReaders(llvm::IRBuilder<> &B) const {}
  /// The alignment of the kernel's shared memory, in bytes.
  virtual unsigned sharedMemoryAlignment() const { return 16; }
  /// The address of the program's shared memory at the builder's position:
  /// the module's `global_smem`, an external array in sharedAddressSpace()
  /// (CUDA's dynamic shared memory; the AMD backend sizes it).
  virtual llvm::Value *sharedMemoryBase(llvm::IRBuilder<> &B) const;
  /// Whether a tensormap argument is a 128-byte parameter passed by value
  /// (where a target has no tensor copies, a pointer holds its place,
  /// unread).
  virtual bool passesTensorMapsByValue() const { return false; }
  /// Marks \p F a kernel of \p NumThreads threads whose threads use at most
  /// \p MaxRegisters registers (0: no limit).
  virtual void annotateKernel(llvm::Function *F, unsigned NumThreads,
                              unsigned MaxRegisters) const = 0;
};

} // namespace tritium

#endif // TRITIUM_CODEGEN_LOWERING_TARGETINFO_H
