//===- SharedMemory.h - Shared memory buffers of a kernel -------*- C++ -*-===//
//
// Which instructions use shared memory, in which buffers, when each buffer
// is live, and where it sits in the kernel's dynamic shared memory.
//
//   1. Buffers. A SharedBuffer is a size, an alignment and a live range.
//      A scratch buffer is needed by one instruction only while it runs (a
//      layout conversion through shared memory, the cross-warp step of a
//      reduction, a scan along lanes or warps, the FMA dot's staging of A
//      and B, a scalar atomic sharing its old value, a gather's source);
//      getScratchBytes says how much, in the terms its lowering uses. An
//      allocation is the buffer of a local_alloc: all its buffers (the
//      memdesc's leading dimension), aligned to one buffer's size up to
//      1024 bytes (the largest swizzle and TMA want that), live from the
//      local_alloc to the last use of its memdesc or of one derived from it
//      (memdesc_index, phis), by ProgramOrder::getLiveRange.
//
//   2. Program order. The reachable blocks in reverse post-order with each
//      loop's blocks kept together (a loop goes out whole at its header),
//      each block's instructions in order, numbered 0, 1, 2, ... A live range is
//      a half-open interval of those positions: [p, p + 1) for a scratch
//      buffer of the instruction at p; for a value, the hull of its
//      definition and its uses (a phi uses its operand at the end of the
//      incoming block), then closed over loops: a range that covers part of
//      a loop's positions and anything outside them (live into the loop,
//      out of it, or across its back edge) grows to the whole loop, until
//      no loop grows it. A loop is a natural loop (a back edge B -> H with
//      H dominating B, with every block that reaches B without passing H);
//      its positions are the hull of its blocks'.
//
//   3. Offsets. Two buffers interfere when their live ranges intersect.
//      Buffers are placed largest first (ties: earlier live range first,
//      then creation order), each at the lowest offset that is a multiple
//      of its alignment and overlaps no interfering buffer already placed
//      (first fit). The kernel needs the largest end, rounded up to 16
//      bytes. The same IR always gives the same offsets, and inserting
//      barriers does not change them (they have no buffer and keep the
//      order of everything else), so insert-barriers and the lowering,
//      which each compute this analysis, agree.
//
//   4. Accesses. For insert-barriers, getAccesses(I) says what I does to
//      shared memory, in order: a scratch instruction writes its buffer,
//      synchronizes (the barrier its lowering emits between its writes and
//      its reads) and reads its buffer. Its lowering emits no barrier before
//      the writes: that one is insert-barriers' to place, only where an
//      earlier access may still be in flight. An initializing local_alloc
//      and a local_store write the allocation's bytes, a local_load reads
//      them (all of an allocation's buffers; all of shared memory when a
//      memdesc's allocation is not known, through a phi of several). A
//      memdesc_index narrows that to its buffer when the index is a
//      constant, and names the slot of the ring (RingSlot) when it is the
//      remainder of a value by the buffer count, as the pipeliner's are.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_SHAREDMEMORY_H
#define TRITIUM_ANALYSIS_SHAREDMEMORY_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <optional>
#include <vector>

namespace tritium {

class AnalysisManager;
class BasicBlock;
class DominatorTree;
class Function;
class LoopInfo;
class Instruction;
class LinearLayout;
class Type;
class Value;

/// \p MemDesc seen through the views that keep its bytes (memdesc_trans):
/// the memdesc that names which bytes they are.
const Value &stripMemDescViews(const Value &MemDesc);

/// Whether converting \p Src to \p Dst moves data between threads (and so
/// goes through shared memory).
bool conversionNeedsSharedMemory(const LinearLayout &Src, const LinearLayout &Dst);

/// The number of warps a reduction or scan along \p Axis of a value in
/// layout \p L combines across (2^bits of the warp bases moving \p Axis).
unsigned getCrossWarpFactor(const LinearLayout &L, unsigned Axis);

/// Whether atomic \p I shares the old values it returns through shared
/// memory: its result is used, and it is scalar (thread 0 does it) or some
/// lanes or warps of its layout hold copies (their owners do it).
bool atomicSharesResult(const Instruction &I);

/// Scratch bytes \p I needs while it runs (0 for none). Layout-level IR.
unsigned getScratchBytes(const Instruction &I);

/// A half-open interval [Start, End) of positions or bytes.
struct Interval {
  unsigned Start = 0, End = 0;

  static constexpr unsigned Max = std::numeric_limits<unsigned>::max();
  /// Every byte.
  static Interval all() { return {0, Max}; }

  bool empty() const { return Start >= End; }
  unsigned size() const { return empty() ? 0 : End - Start; }
  /// Whether some point lies in both (adjacent intervals do not meet).
  bool intersects(Interval O) const {
    return !empty() && !O.empty() && Start < O.End && O.Start < End;
  }
  bool contains(Interval O) const { return Start <= O.Start && O.End <= End; }
  /// The smallest interval holding both.
  Interval hull(Interval O) const {
    if (empty())
      return O;
    if (O.empty())
      return *this;
    return {std::min(Start, O.Start), std::max(End, O.End)};
  }
  bool operator==(Interval O) const { return Start == O.Start && End == O.End; }
  bool operator!=(Interval O) const { return !(*this == O); }
  void print(llvm::raw_ostream &OS) const;
};

/// The reachable instructions of a function on one line (blocks in reverse
/// post-order with loops contiguous, instructions in block order), and its loops as intervals of
/// that line. Valid while the function does not change.
class ProgramOrder {
public:
  ProgramOrder(const Function &F, const DominatorTree &DT, const LoopInfo &LI);
  /// With the loops found here (for tests that build one by hand).
  ProgramOrder(const Function &F, const DominatorTree &DT);

  /// Whether \p I is in a reachable block (only those have a position).
  bool hasPosition(const Instruction &I) const { return Positions.count(&I); }
  unsigned getPosition(const Instruction &I) const;
  /// Positions of \p B's instructions.
  Interval getBlockRange(const BasicBlock &B) const;
  /// The positions of each natural loop, innermost (shortest) first.
  llvm::ArrayRef<Interval> getLoops() const { return Loops; }
  /// Number of positions.
  unsigned size() const { return NumPositions; }

  /// \p R grown to every loop it covers part of and leaves (repeated until
  /// no loop grows it).
  Interval closeOverLoops(Interval R) const;
  /// Where \p V is live: the hull of its definition (the entry for an
  /// argument) and its uses, a phi's use at the end of the incoming block,
  /// closed over loops. Empty for a value defined in an unreachable block.
  Interval getLiveRange(const Value &V) const;

private:
  llvm::DenseMap<const Instruction *, unsigned> Positions;
  llvm::DenseMap<const BasicBlock *, Interval> Blocks;
  llvm::SmallVector<Interval, 4> Loops;
  unsigned NumPositions = 0;
};

/// One buffer in the kernel's shared memory.
struct SharedBuffer {
  enum class Kind : uint8_t {
    /// Needed by Owner only while it runs.
    Scratch,
    /// The memory of Owner, a local_alloc.
    Allocation,
  };
  Kind BufferKind = Kind::Scratch;
  /// The instruction whose scratch or allocation this is.
  const Instruction *Owner = nullptr;
  unsigned Size = 0;
  /// A power of two.
  unsigned Alignment = 16;
  /// Positions in the ProgramOrder where the buffer holds live data.
  Interval Live;
  /// Byte offset in shared memory, once placed.
  unsigned Offset = 0;

  Interval bytes() const { return {Offset, Offset + Size}; }
};

/// Which buffer of a ring a dynamic memdesc_index picks, symbolically: the
/// index is `(Base + Offset) mod Count` (an `urem` or `srem` by the ring's
/// buffer count of `Base`, or of `Base + constant`). Two slots of one Base
/// and Count with different Offsets are different buffers, for as long as
/// Base keeps its value: insert-barriers forgets the slot when Base is
/// defined again (the next iteration of a loop).
struct RingSlot {
  const Value *Base = nullptr;
  unsigned Offset = 0, Count = 0;

  explicit operator bool() const { return Base; }
  /// Whether both are known to be different buffers of one ring.
  bool disjoint(const RingSlot &O) const {
    return Base && Base == O.Base && Count == O.Count && Offset != O.Offset;
  }
  bool operator==(const RingSlot &O) const {
    return Base == O.Base && Offset == O.Offset && Count == O.Count;
  }
};

/// One step of what an instruction does to shared memory.
struct SharedAccess {
  enum class Kind : uint8_t {
    /// Threads write Bytes.
    Write,
    /// Threads read Bytes.
    Read,
    /// The instruction's lowering synchronizes the block here.
    Barrier,
    /// Something this function does not see (a call) may read and write
    /// Bytes; it synchronizes itself before, and leaves them pending.
    Opaque,
    /// Threads start writing Bytes asynchronously (async_copy): in flight
    /// until a Wait retires the group they are committed in.
    AsyncWrite,
    /// Threads close their group of asynchronous writes.
    CommitGroup,
    /// Threads wait until at most the Num most recent groups are in flight;
    /// the older groups' bytes are then written (for this thread: a barrier
    /// still separates them from other threads' reads).
    Wait,
    /// TMA starts writing Bytes (async_tma_copy): like a write, no thread
    /// may still read them; they land on an mbarrier, whose wait makes
    /// them visible to each waiting thread, so no barrier follows.
    TMAWrite,
  };
  Kind AccessKind;
  Interval Bytes;
  unsigned Num = 0; // Wait's groups left in flight
  /// For a read or write of one buffer of a ring picked by a dynamic index:
  /// which (Bytes is then the whole ring).
  RingSlot Slot = {};
};
using SharedAccesses = llvm::SmallVector<SharedAccess, 3>;

/// Places \p Buffers (Size, Alignment and Live set) by interference-aware
/// first fit, setting each Offset; returns the bytes they need, a multiple
/// of 16.
unsigned assignSharedOffsets(llvm::MutableArrayRef<SharedBuffer> Buffers);

/// Every shared buffer of a function and where it sits.
class SharedMemoryAllocation {
public:
  using Result = SharedMemoryAllocation;
  static char ID;
  static Result run(Function &F, AnalysisManager &AM);

  /// Collects \p F's buffers and places them (live ranges over \p LI's
  /// loops; the two-argument form finds them itself).
  SharedMemoryAllocation(const Function &F, const DominatorTree &DT, const LoopInfo &LI);
  SharedMemoryAllocation(const Function &F, const DominatorTree &DT);

  llvm::ArrayRef<SharedBuffer> getBuffers() const { return Buffers; }
  /// \p I's scratch buffer, or null.
  const SharedBuffer *getScratchBuffer(const Instruction &I) const;
  /// The offset of \p I's scratch buffer, if it has one.
  std::optional<unsigned> getScratchOffset(const Instruction &I) const;
  /// The allocation a memdesc value points into (through memdesc_index and
  /// phis that agree), or null when it is not known.
  const SharedBuffer *getAllocation(const Value &MemDesc) const;
  /// Bytes of shared memory the function needs.
  unsigned getTotalBytes() const { return Total; }
  /// What \p I does to shared memory, in order (empty for nothing).
  SharedAccesses getAccesses(const Instruction &I) const;

  /// Prints the total and one line per buffer (owner, size, alignment,
  /// offset, live range), for print<shared-memory>.
  void print(llvm::raw_ostream &OS) const;

private:
  std::vector<SharedBuffer> Buffers;
  llvm::DenseMap<const Instruction *, unsigned> ScratchOf; // index in Buffers
  llvm::DenseMap<const Instruction *, unsigned> AllocationOf; // index in Buffers
  unsigned Total = 0;
};

} // namespace tritium

#endif // TRITIUM_ANALYSIS_SHAREDMEMORY_H
