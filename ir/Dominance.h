//===- Dominance.h - Dominator tree of a function ----------------*- C++ -*-===//
//
// Which blocks (and so which definitions) are available where. Built once
// per function from the CFG that the terminators spell out; it stays valid
// while no block or terminator is added, removed or retargeted, whatever
// happens to other instructions.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_DOMINANCE_H
#define TRITIUM_IR_DOMINANCE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

namespace tritium {

class AnalysisManager;
class BasicBlock;
class Function;
class Instruction;
class Use;
class Value;

/// Immediate dominators of the blocks reachable from the entry (Cooper,
/// Harvey and Kennedy, "A Simple, Fast Dominance Algorithm", 2001).
class DominatorTree {
public:
  explicit DominatorTree(const Function &F);

  /// Blocks reachable from the entry in reverse post-order.
  llvm::ArrayRef<BasicBlock *> getReversePostOrder() const { return RPO; }
  bool isReachable(const BasicBlock *B) const { return Index.count(B); }
  /// Null for the entry and for unreachable blocks.
  BasicBlock *getIDom(const BasicBlock *B) const;
  /// Whether every path from the entry to \p B passes through \p A (a block
  /// dominates itself). Unreachable blocks are dominated by everything and
  /// dominate only unreachable blocks. Constant time.
  bool dominates(const BasicBlock *A, const BasicBlock *B) const;
  /// Whether \p Def is available right before \p User executes: an argument
  /// always is, a result of the same block if its instruction comes first
  /// (linear in the block's length). This is the position of \p User; a phi
  /// reads its operands on the incoming edges, so ask about those with the
  /// Use overload or dominatesEdgeUse.
  bool dominates(const Value *Def, const Instruction *User) const;
  /// Whether \p Def is available where \p U reads it: at the end of the
  /// incoming block for a phi operand, at the user otherwise.
  bool dominates(const Value *Def, const Use &U) const;
  /// Whether \p Def is available at the end of \p Pred, where a phi reads
  /// the value that flows in from \p Pred.
  bool dominatesEdgeUse(const Value *Def, const BasicBlock *Pred) const;

  /// Prints each reachable block with its immediate dominator, in reverse
  /// post-order, then the unreachable ones: "bb2 <- bb0", "bb3 unreachable".
  void print(llvm::raw_ostream &OS) const;

private:
  const Function *F;
  llvm::SmallVector<BasicBlock *, 16> RPO;
  llvm::DenseMap<const BasicBlock *, unsigned> Index; // position in RPO
  llvm::SmallVector<unsigned, 16> IDom;               // by RPO position
  // Entry and exit times of a depth-first walk of the tree, by RPO position:
  // A dominates B iff A's interval encloses B's.
  llvm::SmallVector<unsigned, 16> DFSIn, DFSOut;
};

/// The dominator tree as an analysis of the pass manager.
struct DominatorTreeAnalysis {
  using Result = DominatorTree;
  static char ID;
  static DominatorTree run(Function &F, AnalysisManager &AM);
};

} // namespace tritium

#endif // TRITIUM_IR_DOMINANCE_H
