//===- LoopInfo.h - Natural loops and counted loops --------------*- C++ -*-===//
//
// The natural loops of a function, found once for every pass that needs
// them (licm, the shared-memory liveness, the pipeliner): a back edge B -> H
// is an edge whose target dominates its source; the loop of H is H and
// every block that reaches a back edge's source without passing H (loops
// sharing a header are one loop). Loops nest by containment.
//
// A loop is counted when it is what a `for i in range(lo, hi, step)` becomes:
// the header ends in `cond_br (icmp pred %iv, %bound), body, exit` (or the
// operands swapped), %iv is a header phi whose entry from the preheader is
// the start and whose entry from the single latch is `%iv + step`, step and
// bound are defined outside the loop, and the header is the only block
// leaving the loop. Then the trip count is known when start, step and bound
// are constants.
//
// Requires: verified IR. LoopAnalysis caches it (with DominatorTreeAnalysis);
// a pass that adds blocks keeps it current with addBlockToLoop or drops it.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_LOOPINFO_H
#define TRITIUM_ANALYSIS_LOOPINFO_H

#include "ir/Attribute.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <vector>

namespace tritium {

class AnalysisManager;
class BasicBlock;
class DominatorTree;
class Function;
class Instruction;
class PhiInst;
class Value;

/// What a counted loop counts.
struct CountedLoop {
  PhiInst *IV = nullptr;
  Value *Start = nullptr;
  /// `%iv + Step`, the latch's entry of the phi.
  Instruction *Next = nullptr;
  Value *Step = nullptr;
  Value *Bound = nullptr;
  /// The loop goes on while `%iv Pred Bound` holds.
  ICmpPredicate Pred = ICmpPredicate::SLT;
  /// How many times the body runs, where start, step and bound are
  /// constants.
  std::optional<int64_t> TripCount;
};

class Loop {
public:
  BasicBlock *getHeader() const { return Blocks.front(); }
  /// The blocks in reverse post-order (the header first).
  llvm::ArrayRef<BasicBlock *> getBlocks() const { return Blocks; }
  bool contains(const BasicBlock *B) const { return Members.count(B); }
  bool contains(const Loop *L) const;
  /// Whether \p V is computed outside the loop (arguments always are).
  bool isInvariant(const Value *V) const;
  Loop *getParent() const { return Parent; }
  llvm::ArrayRef<Loop *> getSubLoops() const { return SubLoops; }
  /// 1 for an outermost loop.
  unsigned getDepth() const;
  /// The blocks of the loop that branch to the header.
  llvm::ArrayRef<BasicBlock *> getLatches() const { return Latches; }
  /// The one block outside the loop that enters it, if it branches only
  /// to the header; else null (licm makes one).
  BasicBlock *getPreheader() const;
  /// The blocks of the loop with a successor outside it.
  llvm::SmallVector<BasicBlock *, 4> getExitingBlocks() const;
  const std::optional<CountedLoop> &getCounted() const { return Counted; }
  /// The num_stages on the header's branch (tl.range's), if any.
  std::optional<int64_t> getNumStages() const;
  void print(llvm::raw_ostream &OS) const;

private:
  friend class LoopInfo;
  llvm::SmallVector<BasicBlock *, 8> Blocks;
  llvm::SmallPtrSet<const BasicBlock *, 8> Members;
  llvm::SmallVector<BasicBlock *, 2> Latches;
  Loop *Parent = nullptr;
  llvm::SmallVector<Loop *, 2> SubLoops;
  std::optional<CountedLoop> Counted;
};

class LoopInfo {
public:
  LoopInfo(const Function &F, const DominatorTree &DT);
  LoopInfo(LoopInfo &&) = default;
  LoopInfo &operator=(LoopInfo &&) = default;

  /// Every loop, innermost first (a loop comes before the loops around it).
  llvm::ArrayRef<Loop *> getLoopsInnermostFirst() const { return Order; }
  llvm::ArrayRef<Loop *> getTopLevelLoops() const { return TopLevel; }
  /// The innermost loop containing \p B, or null.
  Loop *getLoopFor(const BasicBlock *B) const { return Innermost.lookup(B); }
  bool empty() const { return Order.empty(); }
  /// Records \p B (new, e.g. a preheader) as a block of \p L and of every
  /// loop around it (\p L null: of no loop), placed before \p Before in
  /// their block order (at the end if null or absent).
  void addBlockToLoop(BasicBlock *B, Loop *L, BasicBlock *Before = nullptr);
  /// One line per loop, outermost first: header, depth, blocks, latches and
  /// what it counts.
  void print(llvm::raw_ostream &OS) const;

private:
  std::vector<std::unique_ptr<Loop>> Loops;
  llvm::SmallVector<Loop *, 8> Order, TopLevel;
  llvm::DenseMap<const BasicBlock *, Loop *> Innermost;
};

struct LoopAnalysis {
  using Result = LoopInfo;
  static char ID;
  static LoopInfo run(Function &F, AnalysisManager &AM);
};

} // namespace tritium

#endif // TRITIUM_ANALYSIS_LOOPINFO_H
