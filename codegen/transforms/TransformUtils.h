//===- TransformUtils.h - Helpers shared by the transforms ------*- C++ -*-===//
//
// Small pieces several passes of codegen/transforms need: a worklist of
// instructions that tolerates erasure, the trivially-dead test, phi fix-up
// after a CFG edge disappears, and merging a block into its predecessor.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_TRANSFORMS_TRANSFORMUTILS_H
#define TRITIUM_CODEGEN_TRANSFORMS_TRANSFORMUTILS_H

#include "ir/Builder.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace tritium {

class BasicBlock;
class Function;
class Instruction;
class Value;
enum class Opcode : uint16_t;

/// A LIFO worklist of instructions without duplicates. An instruction that
/// is about to be erased must be remove()d first; pop() then never returns
/// it, even though a stale pointer may remain in the list.
class InstructionWorklist {
public:
  void push(Instruction *I) {
    if (I && Members.insert(I).second)
      List.push_back(I);
  }
  /// Pushes the instruction defining \p V, if any.
  void pushDefOf(Value *V);
  /// Pushes every instruction of \p F so that pop() returns them in program
  /// order.
  void pushFunction(Function &F);
  /// The next instruction, or null when the list is empty.
  Instruction *pop() {
    while (!List.empty()) {
      Instruction *I = List.pop_back_val();
      if (Members.erase(I))
        return I;
    }
    return nullptr;
  }
  void remove(Instruction *I) { Members.erase(I); }
  bool empty() const { return Members.empty(); }

private:
  llvm::SmallVector<Instruction *, 64> List;
  llvm::DenseSet<Instruction *> Members;
};

/// The driver of a rewrite to a fixed point (canonicalize, peephole): each
/// instruction of the function is offered to simplify(), first in program
/// order, then again whenever an operand's definition or a user changed; a
/// value it returns replaces the instruction, and dead instructions go.
class WorklistRewriter {
public:
  explicit WorklistRewriter(Function &F);
  virtual ~WorklistRewriter() = default;
  /// Whether anything changed.
  bool rewrite();

protected:
  /// A value equivalent to \p I (existing, or new and inserted before \p I
  /// at the builder's point), or null; may change or erase \p I instead
  /// (then sets Changed).
  virtual Value *simplify(Instruction *I) = 0;
  /// Replaces \p I's result by \p V and erases \p I, queueing its users.
  void replace(Instruction *I, Value *V);
  /// Erases \p I (unused), queueing the definitions of its operands.
  void erase(Instruction *I);

  Function &F;
  IRBuilder Builder;
  InstructionWorklist Worklist;
  bool Changed = false;
};

/// Whether `a Op b` equals `b Op a` for every a and b.
bool isCommutative(Opcode Op);

/// True if \p I has no used result and no side effect, so erasing it
/// changes nothing observable.
bool isTriviallyDead(const Instruction &I);

/// Updates the phis of \p Succ after one edge from \p Pred to \p Succ was
/// removed: if \p Pred no longer branches to \p Succ at all its entries go;
/// otherwise entries beyond one per remaining edge go.
void removePhiEntriesForEdge(BasicBlock *Succ, BasicBlock *Pred);

/// If \p B's only predecessor ends in an unconditional branch to \p B,
/// moves \p B's instructions to the end of that predecessor (in place of the
/// branch), points the phis of \p B's successors at it and erases \p B.
/// Phis of \p B, which have one entry then, are replaced by it. Returns
/// whether it merged.
bool mergeBlockIntoPredecessor(BasicBlock *B);

} // namespace tritium

#endif // TRITIUM_CODEGEN_TRANSFORMS_TRANSFORMUTILS_H
