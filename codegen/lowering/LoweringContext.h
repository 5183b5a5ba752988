//===- LoweringContext.h - State shared by the lowering files ---*- C++ -*-===//
//
// Lowering turns a function of layout-level Tritium IR into an LLVM function
// that one thread runs. A block value becomes one LLVM value per register of
// its layout (the elements this thread holds, in register order); a scalar
// becomes one LLVM value, the same in every thread. Each op family lowers in
// its own file (LowerElementwise, LowerMemory, LowerShape, LowerReduce,
// LowerDot, LowerSharedMemory, ...), or in the target's folder where the
// target lowers it itself (TargetInfo::lowerInstruction: its matrix cores,
// barriers and tensor copies), all through this context: the LLVM builder,
// the value map, layouts, thread coordinates and the target's primitives.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_LOWERING_LOWERINGCONTEXT_H
#define TRITIUM_CODEGEN_LOWERING_LOWERINGCONTEXT_H

#include "analysis/AxisInfo.h"
#include "analysis/LayoutRules.h"
#include "analysis/SharedMemory.h"
#include "codegen/lowering/TargetInfo.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/Target.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <optional>

#include <map>
#include <string>

namespace tritium {

/// The LLVM type of one element of \p T: iN, half, float, double; bf16 and
/// fp8 are carried as i16 and i8 (their arithmetic goes through f32);
/// pointers keep their address space; a memdesc is its buffer's byte offset
/// in shared memory (i32). Null for a type no lowered value has (void, a
/// tensor descriptor).
llvm::Type *elementType(llvm::LLVMContext &Ctx, Type *T);

/// \p Regs (registers of one type) as one vector at \p B: the vector they
/// were extracted from where they are its consecutive elements (a shuffle
/// of it for a part), else a chain of inserts. A register is often a lane of
/// a vector (a vector load, a vector phi, the cpu's vector arithmetic), and
/// handing LLVM the vector back spares it folding thousands of
/// insert/extract pairs (a cpu tile of 16,384 elements took minutes).
llvm::Value *packRegisters(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> Regs);

/// Calls \p Run(first, count) for each run of \p Offsets (i32 values, one
/// a register) that are consecutive constants, at most \p MaxRun a run, in
/// order; a register whose offset is not a constant is a run of its own.
void forEachConstantRun(llvm::ArrayRef<llvm::Value *> Offsets, unsigned MaxRun,
                        llvm::function_ref<void(unsigned, unsigned)> Run);

struct LoweringOptions {
  unsigned NumWarps = 4;
  /// The GPU compiled for; its warp size sizes the layouts.
  Target GPU;
  unsigned warpSize() const { return GPU.getWarpSize(); }
  /// The most registers a thread of a kernel may use; 0: no limit.
  unsigned MaxRegisters = 0;
  /// device_assert is emitted only with debug.
  bool Debug = false;
  /// Each instruction's source line as its debug location (LineTable.h).
  bool LineInfo = false;
  /// Elements of one block a thread may hold: the lowering unrolls every
  /// element, and past this the GPU assemblers' time explodes (2^20 f32 on 4
  /// warps, 8,192 a thread: 1.7 MB of PTX, five minutes of ptxas on two
  /// cores; 4,096: 20 s). More is an OutOfResources the autotuner skips.
  unsigned MaxElementsPerThread = 4096;
};

class LoweringContext {
public:
  using Regs = llvm::SmallVector<llvm::Value *, 4>;

  LoweringContext(llvm::Module &LLM, llvm::Function *LLF, Function &F,
                  const LoweringOptions &Opts, const TargetInfo &Target,
                  AxisInfoAnalysis &AI, const SharedMemoryAllocation &Smem);

  llvm::LLVMContext &getLLVMContext() const { return LLM.getContext(); }
  llvm::Module &getLLVMModule() const { return LLM; }
  llvm::Function *getLLVMFunction() const { return LLF; }
  Function &getFunction() const { return F; }
  const LoweringOptions &getOptions() const { return Opts; }
  const TargetInfo &getTarget() const { return Target; }
  AxisInfoAnalysis &getAxisInfo() const { return AI; }
  const SharedMemoryAllocation &getSharedMemory() const { return Smem; }
  llvm::IRBuilder<> &B;

  // The values of lowered instructions.
  bool has(const Value *V) const { return Values.count(V); }
  const Regs &get(const Value *V) const;
  /// The LLVM value of a scalar.
  llvm::Value *scalar(const Value *V) const;
  void set(const Value *V, Regs R);
  llvm::BasicBlock *getBlock(const BasicBlock *BB) const { return Blocks.lookup(BB); }
  void setBlock(const BasicBlock *BB, llvm::BasicBlock *LB) { Blocks[BB] = LB; }

  /// The layout of a block value (from its defining instruction).
  const LinearLayout &layout(const Value *V) const;
  /// Bytes an LLVM value of type \p T takes in shared memory (pointers are
  /// 64-bit; i1 takes a byte), as analysis/SharedMemory.cpp counts them.
  static unsigned sharedBytes(llvm::Type *T) {
    return T->isPointerTy() ? 8 : std::max<unsigned>(1, T->getPrimitiveSizeInBits() / 8);
  }
  /// Registers a thread holds of a value in layout \p L.
  static unsigned numRegs(const LinearLayout &L) { return getNumRegisters(L); }

  // Types.
  /// The LLVM type of one element of \p T (elementType below).
  llvm::Type *elemType(Type *T) const { return elementType(LLM.getContext(), T); }
  llvm::Type *i1() const { return B.getInt1Ty(); }
  llvm::Type *i32() const { return B.getInt32Ty(); }
  llvm::Value *constI32(int64_t V) const { return B.getInt32(uint32_t(V)); }

  // Thread geometry, computed once in the entry block.
  llvm::Value *laneId() const { return Lane; }
  llvm::Value *warpId() const { return Warp; }
  /// For each register of layout \p L, the coordinates (i32, one per
  /// dimension) of the element this thread holds there.
  std::vector<Regs> coordinates(const LinearLayout &L);
  /// The part of the coordinates contributed by the lane and warp bits,
  /// computed in the entry block once per layout.
  const Regs &threadOffsets(const LinearLayout &L) { return threadPart(L).Offsets; }
  /// For each register of \p L, the row-major element offset (i32) of its
  /// element in a tensor of L's shape: the thread's offset plus a constant
  /// where the bits allow, so memory accesses get immediate offsets.
  Regs elementOffsets(const LinearLayout &L);
  /// True (i1) in the one thread of each group of copies of a value in
  /// layout \p L (lanes and warps whose bits L ignores are the copies); in
  /// thread 0 alone where \p L is null (a scalar).
  llvm::Value *owner(const LinearLayout *L = nullptr);
  /// The owner of each element \p Ptr addresses: the thread that writes or
  /// updates it.
  llvm::Value *owner(const Value *Ptr) {
    return owner(Ptr->getType()->isBlock() ? &layout(Ptr) : nullptr);
  }

  /// The shared memory of the kernel as `ptr addrspace(3)`, plus a byte
  /// offset.
  llvm::Value *sharedPtr(llvm::Value *ByteOffset);
  /// The same at \p ByteOffset + \p ConstBytes, the constant in a GEP of
  /// its own, which the code generator folds into the access's immediate
  /// offset wherever the variable part is computed (LLVM hoists the
  /// loop-invariant parts of addresses out of loops: one register each,
  /// unless they differ only by such constants).
  llvm::Value *sharedPtr(llvm::Value *ByteOffset, uint32_t ConstBytes);
  /// The byte offset of \p I's scratch buffer. The contract with
  /// insert-barriers (codegen/layouts/InsertBarriers.cpp), which models
  /// every scratch user as "write, barrier, read": a lowering writes its
  /// scratch, synchronizes the block, then reads it (more phases may follow,
  /// each behind a barrier, ending in reads); it never synchronizes before
  /// its first writes, since the pass put a `barrier` in the IR wherever an
  /// earlier access may still be in flight.
  unsigned scratchOffset(const Instruction &I) const;

  /// Inserts code at the end of the entry block (before its terminator, if
  /// any) while the builder is elsewhere.
  template <typename Fn> auto inEntry(Fn F) {
    llvm::IRBuilderBase::InsertPointGuard G(B);
    llvm::BasicBlock *Entry = &LLF->getEntryBlock();
    if (llvm::Instruction *T = Entry->getTerminator())
      B.SetInsertPoint(T);
    else
      B.SetInsertPoint(Entry);
    return F();
  }

  [[noreturn]] void unsupported(const Instruction &I, const llvm::Twine &What) const;

  /// A dot on asynchronous matrix cores that this block has issued and not
  /// waited for (the target's lowerInstruction defers it): the dot and
  /// which of its result's registers it writes. The copies the pipeliner
  /// issues after the dot go out while it runs; the wait
  /// (TargetInfo::waitAsyncDots) comes before the first instruction that
  /// could read its registers or its operands' shared memory
  /// (flushPendingDot). InFlight: the dot stays in flight into the next
  /// iteration (the wait there is for the one before it, and the loop's
  /// exit waits for the last one).
  struct PendingDot {
    const Instruction *Dot = nullptr;
    llvm::SmallVector<unsigned, 128> Regs;
    bool InFlight = false;
  };
  void deferDotWait(PendingDot P) { Pending = std::move(P); }
  /// Waits for the pending dot, if any, before lowering \p Next (null:
  /// the block ends), unless \p Next may run while it is in flight.
  void flushPendingDot(const Instruction *Next);
  /// At the exits of the loops whose last dot is in flight, waits for it:
  /// the accumulators' uses there read them through the wait. Once the
  /// function's blocks and phis are complete.
  void waitAtLoopExits();

private:
  PendingDot Pending;
  /// The accumulator phis of in-flight dots, and the blocks their loops
  /// exit to.
  llvm::SmallVector<std::pair<const Value *, const BasicBlock *>, 2> InFlightExits;
  llvm::Module &LLM;
  llvm::Function *LLF;
  Function &F;
  const LoweringOptions &Opts;
  const TargetInfo &Target;
  AxisInfoAnalysis &AI;
  const SharedMemoryAllocation &Smem;
  llvm::IRBuilder<> Builder;
  llvm::DenseMap<const Value *, Regs> Values;
  llvm::DenseMap<const BasicBlock *, llvm::BasicBlock *> Blocks;
  llvm::Value *Lane = nullptr, *Warp = nullptr;
  /// Per layout (keyed by its text): the thread's coordinate offsets and,
  /// per dimension, the bits they may set.
  struct ThreadPart {
    Regs Offsets;
    std::vector<int32_t> Bits;
    llvm::Value *RowMajor = nullptr; ///< the offsets' row-major element offset, once asked
  };
  std::map<std::string, ThreadPart> ThreadParts;
  ThreadPart &threadPart(const LinearLayout &L);

public:
  friend struct LoweringContextInit;
};

// One entry point per op family; each lowers \p I at the builder's position.
void lowerElementwise(LoweringContext &C, Instruction &I);
void lowerMemory(LoweringContext &C, Instruction &I);
void lowerShape(LoweringContext &C, Instruction &I);
void lowerReduce(LoweringContext &C, Instruction &I);
void lowerScan(LoweringContext &C, Instruction &I);
/// combine(\p A, \p B) of the reduction or scan \p I on tuples of one value
/// per operand: its built-in kind or its combine function (LowerReduce.cpp).
LoweringContext::Regs combineTuples(LoweringContext &C, const CombineInstBase &I,
                                    const LoweringContext::Regs &A,
                                    const LoweringContext::Regs &B);
/// The registers of layout \p L grouped by their coordinates off \p Axis
/// (the key, 0 at Axis): each group's (coordinate along Axis, register),
/// in increasing coordinate order.
using AxisGroups = std::map<std::vector<int32_t>, std::vector<std::pair<int32_t, unsigned>>>;
AxisGroups registersAlongAxis(const LinearLayout &L, unsigned Axis);
void lowerDot(LoweringContext &C, Instruction &I);
/// How a dot without matrix units sums (LowerDot.cpp, the cpu's dot): in f32
/// for float inputs (exact for fp16, bf16 and fp8 products), f64 for f64,
/// i32 for integers; elements widened to it, the sums narrowed back.
struct DotSums {
  DotSums(LoweringContext &C, Type *Result);
  /// Scalars or vectors alike.
  llvm::Value *widen(llvm::Value *V, Type *Elem) const;
  llvm::Value *narrow(llvm::Value *Sum) const;
  LoweringContext &C;
  Type *Result;
  bool Int;
  llvm::Type *Work;
};
/// \p Deferred: lower a local_load that isLoadedByUser now anyway (its dot
/// fell back to FMA).
void lowerSharedMemory(LoweringContext &C, Instruction &I, bool Deferred = false);

/// How a block access through \p Ptr (with \p Mask, may be null) splits
/// into vectors: elements consecutive in a thread's registers along one
/// dimension, contiguous and aligned in memory as the axis facts say, the
/// mask constant over each (with \p PrefixMasks: true on a prefix of each,
/// for an access that can read a prefix), at most the target's
/// maxAccessBytes and \p MaxVec elements; each vector as NumWords words of
/// WordBits bits. Where the target masks each element (masksEachElement),
/// the mask does not narrow the vectors and a word is an element.
struct Vectorization {
  unsigned Vec = 1;       ///< elements per access
  unsigned WordBits = 32; ///< bits of each word of the access
  unsigned NumWords = 1;
  /// Elements of a vector that share one mask bit; fewer than Vec where
  /// the mask is a prefix of each vector.
  unsigned MaskRun = ~0u;
  /// The target's predicate of an access is a vector, a bit per element.
  bool MaskEach = false;
};
Vectorization planGlobalAccess(LoweringContext &C, Value *Ptr, Value *Mask, Type *ElemTy,
                               unsigned MaxVec = ~0u, bool PrefixMasks = false);
/// The predicate of the access of \p V at register \p First: null without
/// \p Masks, the first element's mask, or all of them (V.MaskEach).
llvm::Value *accessPredicate(LoweringContext &C, const LoweringContext::Regs *Masks,
                             unsigned First, const Vectorization &V);
/// Loads or stores (\p Vals non-null) registers [From, From + Count) of a
/// block of type \p BlockTy in layout \p L, in a buffer at byte offset
/// \p Base laid out by the shared layout \p Shared ("offset" -> the
/// block's coordinates), in vectors as wide as the layouts allow (at most
/// \p MaxWidth elements).
LoweringContext::Regs accessShared(LoweringContext &C, llvm::Value *Base,
                                   const LinearLayout &Shared, const LinearLayout &L,
                                   Type *BlockTy, const LoweringContext::Regs *Vals,
                                   unsigned From = 0, unsigned Count = ~0u,
                                   unsigned MaxWidth = 16);

/// Stores the registers \p Vals of a block of type \p BlockTy in layout
/// \p L into the buffer at \p Base laid out by \p Shared with the target's
/// matrix stores; false (nothing stored) where they do not fit or it has
/// none.
bool storeMatrices(LoweringContext &C, llvm::Value *Base, const LinearLayout &Shared,
                   const LinearLayout &L, Type *BlockTy, const LoweringContext::Regs &Vals);

/// Whether the local_load \p LocalLoad is lowered by its only user, a
/// matrix-core dot right after it in the same block (only loads and pure
/// instructions in between): DeferredLocalLoad.
bool isLoadedByUser(const Instruction &LocalLoad);

/// The registers of such a local_load, loaded when first asked for, one
/// ldmatrix (or vector) group at a time (LowerSharedMemory.cpp): the dot
/// asks in K-step order, so that only a K step's fragments are live at once
/// instead of the whole operand.
class DeferredLocalLoad {
public:
  DeferredLocalLoad(LoweringContext &C, const Instruction &LocalLoad);
  llvm::Value *get(unsigned Reg);

private:
  LoweringContext &C;
  const Instruction &Load;
  const LinearLayout &Layout;
  std::vector<llvm::Value *> Regs;
  unsigned MatrixGroup = 0; // registers per ldmatrix; 0: no ldmatrix
};

/// An operand of a matrix-core dot: its registers, or those of the
/// local_load the dot lowers itself (isLoadedByUser), loaded as asked for.
class DotOperandRegs {
public:
  DotOperandRegs(LoweringContext &C, Value *V);
  llvm::Value *operator[](unsigned R) { return Ready ? (*Ready)[R] : Deferred->get(R); }

private:
  std::optional<DeferredLocalLoad> Deferred;
  const LoweringContext::Regs *Ready = nullptr;
};
/// The register of layout \p L, a matrix-core dot's operand or result,
/// that holds the element (\p Row, \p Col): the layouts have one at every
/// coordinate of the instructions' fragments.
unsigned fragmentReg(const LinearLayout &L, int64_t Row, int64_t Col);
void lowerDebug(LoweringContext &C, Instruction &I);

} // namespace tritium

#endif // TRITIUM_CODEGEN_LOWERING_LOWERINGCONTEXT_H
