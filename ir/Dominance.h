//===- Dominance.h - Dominator tree of a function ----------------*- C++ -*-===//
#ifndef TRITIUM_IR_DOMINANCE_H
#define TRITIUM_IR_DOMINANCE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace tritium {

class BasicBlock;
class Function;
class Instruction;
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
  /// dominates itself). Unreachable blocks are dominated by everything.
  bool dominates(const BasicBlock *A, const BasicBlock *B) const;
  /// Whether \p Def is available at \p User: for a phi user, at the end of
  /// the corresponding incoming block (use dominatesUse for phis).
  bool dominates(const Value *Def, const Instruction *User) const;
  /// Whether \p Def is available on the edge from \p Pred into a phi.
  bool dominatesEdgeUse(const Value *Def, const BasicBlock *Pred) const;

private:
  llvm::SmallVector<BasicBlock *, 16> RPO;
  llvm::DenseMap<const BasicBlock *, unsigned> Index; // position in RPO
  llvm::SmallVector<unsigned, 16> IDom;               // by RPO position
};

} // namespace tritium

#endif // TRITIUM_IR_DOMINANCE_H
