//===- InsertBarriers.cpp - Barriers between shared memory accesses -------===//
//
// insert-barriers places a `barrier` before every instruction whose shared
// memory accesses could race with another thread's earlier access of the
// same bytes still in flight (a write after a read or a write, a read after
// a write), and nowhere else:
//
//   1. The model. SharedMemoryAllocation::getAccesses says what each
//      instruction does to shared memory, as steps: a scratch user (a
//      layout conversion, a cross-warp reduction, a scan, the FMA dot, a
//      scalar atomic's broadcast, a gather) writes its buffer, synchronizes
//      (the barrier its lowering emits between its writes and its reads)
//      and reads its buffer; a call that may touch shared memory is opaque.
//   2. The state at a point: the byte intervals read and written since the
//      last barrier on some path to it. A kernel starts with none; a device
//      function with every byte (its caller's accesses are unknown).
//   3. The transfer of an instruction. A `barrier` (the user's
//      debug_barrier is the same opcode) clears the state. Otherwise, if a
//      write before the instruction's own barrier overlaps a pending read
//      or write, or a read there overlaps a pending write, a barrier goes
//      before the instruction and clears the state; then the steps apply:
//      writes and reads add their bytes, the internal barrier clears, an
//      opaque step leaves its bytes both read and written. Only intervals
//      that really intersect conflict ([0, 16) and [16, 32) do not; Triton
//      v1's membar tested `a.start < b.end || b.start < a.end`, always true).
//      Asynchronous copies (async_copy) are writes in flight: they need
//      a barrier before them like any write (other threads may still read
//      those bytes), join the open group, move into the committed groups at
//      async_commit_group, and become ordinary pending writes at the
//      async_wait that retires their group, so that the first read after
//      it gets the barrier. A barrier does not complete them; reading
//      bytes still in flight is the pipeliner's error, not something a
//      barrier fixes. A TMA copy (async_tma_copy) needs a barrier before
//      it like any write, but leaves nothing pending: its bytes land on an
//      mbarrier, and wait_barrier makes them visible to each thread that
//      waits (the barrier itself is written by init_barrier and read by
//      the others, which orders its initialization before its use).
//      An access of one buffer of a ring by a remainder
//      index (RingSlot: `(%n + c) mod S`) conflicts with another slot of
//      %n only where their c differ by a multiple of S; once %n is defined
//      again (the next iteration), its slots become the whole ring.
//   4. A forward dataflow over the CFG: the state entering a block is the
//      union of what leaves its predecessors (accumulated, so that it only
//      grows, which bounds the iteration even though a barrier placed on the
//      way makes the transfer not monotone), iterated in reverse post-order
//      until nothing changes, so a loop's back edge carries the accesses at
//      the end of its body to its top. Then each block is walked once more
//      from its final entry state, placing the barriers found.
//
// Since all scratch buffers share offset 0 today, two shared memory
// instructions with no barrier between them still get one; the first use in
// a kernel, or one after a barrier on every path, gets none.
//
// Contract with the lowering (codegen/lowering/Lower{Shape,Reduce,Scan,Dot,
// Memory}.cpp): an instruction's lowering synchronizes between its own
// writes and reads of its scratch, and never before its writes; that
// barrier is this pass's.
//
// Requires: layout-level IR (assign-layouts), nothing that changes the
// shared memory allocation afterwards. Produces: `barrier` instructions.
// Preserves: the CFG (dominator tree) and the axis facts.
//
//===----------------------------------------------------------------------===//

#include "analysis/AxisInfo.h"
#include "analysis/SharedMemory.h"
#include "codegen/layouts/LayoutPasses.h"
#include "ir/Builder.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/PassManager.h"

#include "llvm/ADT/DenseMap.h"

using namespace tritium;

namespace {

/// A set of bytes as sorted, disjoint, non-adjacent intervals.
class IntervalSet {
public:
  bool empty() const { return Ivs.empty(); }
  bool intersects(Interval I) const {
    return llvm::any_of(Ivs, [&](Interval J) { return J.intersects(I); });
  }
  void insert(Interval I) {
    if (I.empty())
      return;
    llvm::SmallVector<Interval, 4> Out;
    for (Interval J : Ivs) {
      if (J.End < I.Start || I.End < J.Start)
        Out.push_back(J);
      else
        I = I.hull(J); // overlapping or adjacent: merge
    }
    Out.push_back(I);
    llvm::sort(Out, [](Interval A, Interval B) { return A.Start < B.Start; });
    Ivs = std::move(Out);
  }
  void insert(const IntervalSet &O) {
    for (Interval I : O.Ivs)
      insert(I);
  }
  bool operator==(const IntervalSet &O) const { return Ivs == O.Ivs; }

private:
  llvm::SmallVector<Interval, 4> Ivs;
};

/// Bytes accessed: plain intervals, and accesses of one ring slot each
/// (RingSlot), which conflict with another slot's only if they are not
/// known to be different buffers.
class AccessSet {
public:
  bool intersects(Interval I, const RingSlot &Slot) const {
    return Plain.intersects(I) || llvm::any_of(Slots, [&](const SlotAccess &T) {
             return T.Bytes.intersects(I) && !T.Slot.disjoint(Slot);
           });
  }
  void insert(Interval I, const RingSlot &Slot) {
    if (!Slot) {
      Plain.insert(I);
      return;
    }
    SlotAccess T{I, Slot};
    auto *Pos = llvm::lower_bound(Slots, T);
    if (Pos == Slots.end() || !(*Pos == T))
      Slots.insert(Pos, T);
  }
  void insert(const AccessSet &O) {
    Plain.insert(O.Plain);
    for (const SlotAccess &T : O.Slots)
      insert(T.Bytes, T.Slot);
  }
  /// \p V is defined anew: slots named after its old value are any buffer.
  void forget(const Value *V) {
    llvm::erase_if(Slots, [&](const SlotAccess &T) {
      if (T.Slot.Base != V)
        return false;
      Plain.insert(T.Bytes);
      return true;
    });
  }
  bool hasSlots() const { return !Slots.empty(); }
  bool operator==(const AccessSet &O) const { return Plain == O.Plain && Slots == O.Slots; }

private:
  struct SlotAccess {
    Interval Bytes;
    RingSlot Slot;
    bool operator==(const SlotAccess &O) const { return Bytes == O.Bytes && Slot == O.Slot; }
    bool operator<(const SlotAccess &O) const {
      return std::make_tuple(Slot.Base, Slot.Offset, Slot.Count, Bytes.Start, Bytes.End) <
             std::make_tuple(O.Slot.Base, O.Slot.Offset, O.Slot.Count, O.Bytes.Start,
                             O.Bytes.End);
    }
  };
  IntervalSet Plain;
  llvm::SmallVector<SlotAccess, 2> Slots; // sorted
};

/// Shared memory accessed since the last barrier, and asynchronous writes
/// still in flight (which no barrier completes): those not committed yet,
/// and the committed groups, most recent first.
struct Pending {
  AccessSet Reads, Writes;
  AccessSet Uncommitted;
  llvm::SmallVector<AccessSet, 4> Groups;

  /// What a barrier does: everything but the asynchronous writes.
  void clear() { Reads = Writes = AccessSet(); }
  void insert(const Pending &O) {
    Reads.insert(O.Reads);
    Writes.insert(O.Writes);
    Uncommitted.insert(O.Uncommitted);
    if (Groups.size() < O.Groups.size())
      Groups.resize(O.Groups.size());
    for (unsigned G = 0; G < O.Groups.size(); ++G)
      Groups[G].insert(O.Groups[G]);
  }
  void commit() {
    Groups.insert(Groups.begin(), Uncommitted);
    Uncommitted = AccessSet();
    // A bounded state: the oldest group merges into the next one, which
    // retires no earlier.
    if (Groups.size() > kMaxGroups) {
      Groups[kMaxGroups - 1].insert(Groups.back());
      Groups.pop_back();
    }
  }
  /// The groups past the \p Num most recent have landed: written.
  void wait(unsigned Num) {
    for (unsigned G = Num; G < Groups.size(); ++G)
      Writes.insert(Groups[G]);
    if (Groups.size() > Num)
      Groups.resize(Num);
  }
  /// \p V gets a new value (its instruction runs again).
  void forget(const Value *V) {
    Reads.forget(V);
    Writes.forget(V);
    Uncommitted.forget(V);
    for (AccessSet &G : Groups)
      G.forget(V);
  }
  bool hasSlots() const {
    return Reads.hasSlots() || Writes.hasSlots() || Uncommitted.hasSlots() ||
           llvm::any_of(Groups, [](const AccessSet &G) { return G.hasSlots(); });
  }
  bool operator==(const Pending &O) const {
    return Reads == O.Reads && Writes == O.Writes && Uncommitted == O.Uncommitted &&
           Groups == O.Groups;
  }
  bool operator!=(const Pending &O) const { return !(*this == O); }

  static constexpr unsigned kMaxGroups = 16;
};

class BarrierPlacer {
public:
  BarrierPlacer(Function &F, const DominatorTree &DT, SharedAccessFn Accesses)
      : F(F), DT(DT), Accesses(Accesses) {}

  unsigned run() {
    solve();
    unsigned Placed = 0;
    IRBuilder B(F.getContext());
    for (BasicBlock *BB : DT.getReversePostOrder()) {
      Pending S = In[BB];
      llvm::SmallVector<Instruction *, 4> Before;
      for (Instruction &I : *BB)
        if (transfer(S, I))
          Before.push_back(&I);
      for (Instruction *I : Before) {
        B.setInsertPoint(I);
        B.setLoc(I->getLoc());
        B.createBarrier();
        ++Placed;
      }
    }
    return Placed;
  }

private:
  /// Applies \p I to \p S; true if \p I needs a barrier before it (which
  /// \p S then reflects).
  bool transfer(Pending &S, const Instruction &I) {
    if (S.hasSlots())
      for (const Value *R : I.getResults())
        S.forget(R);
    if (I.getOpcode() == Opcode::Barrier) {
      S.clear();
      return false;
    }
    SharedAccesses Steps = Accesses(I);
    if (Steps.empty())
      return false;
    bool Needed = hazard(S, Steps);
    if (Needed)
      S.clear();
    for (const SharedAccess &A : Steps)
      switch (A.AccessKind) {
      case SharedAccess::Kind::Write:
        S.Writes.insert(A.Bytes, A.Slot);
        break;
      case SharedAccess::Kind::Read:
        S.Reads.insert(A.Bytes, A.Slot);
        break;
      case SharedAccess::Kind::Barrier:
        S.clear();
        break;
      case SharedAccess::Kind::Opaque:
        S.Reads.insert(A.Bytes, {});
        S.Writes.insert(A.Bytes, {});
        break;
      case SharedAccess::Kind::AsyncWrite:
        S.Uncommitted.insert(A.Bytes, A.Slot);
        break;
      case SharedAccess::Kind::CommitGroup:
        S.commit();
        break;
      case SharedAccess::Kind::Wait:
        S.wait(A.Num);
        break;
      case SharedAccess::Kind::TMAWrite: // visible through its mbarrier
        break;
      }
    return Needed;
  }

  /// Whether a step before the instruction's own synchronization conflicts
  /// with \p S: WAR, WAW or RAW on intersecting bytes.
  static bool hazard(const Pending &S, llvm::ArrayRef<SharedAccess> Steps) {
    for (const SharedAccess &A : Steps)
      switch (A.AccessKind) {
      case SharedAccess::Kind::Write:
      case SharedAccess::Kind::TMAWrite:
      case SharedAccess::Kind::AsyncWrite: // other threads may still read
        if (S.Reads.intersects(A.Bytes, A.Slot) || S.Writes.intersects(A.Bytes, A.Slot))
          return true;
        break;
      case SharedAccess::Kind::Read:
        if (S.Writes.intersects(A.Bytes, A.Slot))
          return true;
        break;
      case SharedAccess::Kind::Barrier:
      case SharedAccess::Kind::Opaque: // synchronizes itself first
        return false;
      case SharedAccess::Kind::CommitGroup:
      case SharedAccess::Kind::Wait:
        break;
      }
    return false;
  }

  void solve() {
    llvm::ArrayRef<BasicBlock *> RPO = DT.getReversePostOrder();
    if (RPO.empty())
      return;
    if (!F.isKernel()) {
      Pending &Entry = In[RPO.front()];
      Entry.Reads.insert(Interval::all(), {});
      Entry.Writes.insert(Interval::all(), {});
    }
    llvm::DenseMap<const BasicBlock *, Pending> Out;
    bool Changed = true;
    while (Changed) {
      Changed = false;
      for (BasicBlock *BB : RPO) {
        Pending &BIn = In[BB];
        for (BasicBlock *P : BB->predecessors())
          if (DT.isReachable(P))
            BIn.insert(Out[P]);
        Pending S = BIn;
        for (const Instruction &I : *BB)
          transfer(S, I);
        Pending &BOut = Out[BB];
        if (S != BOut) {
          BOut = std::move(S);
          Changed = true;
        }
      }
    }
  }

  Function &F;
  const DominatorTree &DT;
  SharedAccessFn Accesses;
  llvm::DenseMap<const BasicBlock *, Pending> In;
};

class InsertBarriersPass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "insert-barriers"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override {
    if (F.empty())
      return PreservedAnalyses::all();
    const SharedMemoryAllocation &Smem = AM.get<SharedMemoryAllocation>(F);
    unsigned Placed = insertBarriers(
        F, AM.get<DominatorTreeAnalysis>(F),
        [&](const Instruction &I) { return Smem.getAccesses(I); });
    if (!Placed)
      return PreservedAnalyses::all();
    // Barriers own no buffer and keep the order of everything else, so the
    // offsets stay as they are; the positions of the live ranges move.
    return PreservedAnalyses::none()
        .preserve<DominatorTreeAnalysis>()
        .preserve<AxisInfoAnalysis>();
  }
};

} // namespace

unsigned tritium::insertBarriers(Function &F, const DominatorTree &DT,
                                 SharedAccessFn Accesses) {
  return BarrierPlacer(F, DT, Accesses).run();
}

std::unique_ptr<Pass> tritium::createInsertBarriersPass() {
  return std::make_unique<InsertBarriersPass>();
}
