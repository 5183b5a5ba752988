//===- DCE.cpp - Dead code elimination ----------------------------------===//
//
// `dce` removes the blocks the entry cannot reach and every instruction
// whose results no instruction with a side effect needs, dead phi cycles
// included. It assumes an instruction is dead until proven live, as LLVM's
// ADCE does, so a loop-carried phi that only feeds itself goes too:
//
//   1. Walk the CFG from the entry; every other block is unreachable. Drop
//      the phi entries that flow in from unreachable blocks, then delete
//      those blocks.
//   2. Mark live the roots: instructions with side effects
//      (Instruction::hasSideEffects; terminators count).
//   3. Propagate: the instruction defining an operand of a live
//      instruction is live.
//   4. Sweep: drop the references of everything not live, then erase it.
//
// Branches are always live: dce never removes control flow between
// reachable blocks (that needs post-dominance and is left to a CFG pass).
//
// Requires: verified IR. Preserves: the dominator tree when no block was
// unreachable.
//
//===----------------------------------------------------------------------===//

#include "codegen/transforms/TransformUtils.h"
#include "codegen/transforms/Transforms.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace tritium;

namespace {

class DeadCodeElimination {
public:
  explicit DeadCodeElimination(Function &F) : F(F) {}

  /// Runs the four steps; sets RemovedBlocks when the CFG changed.
  bool run();
  bool removedBlocks() const { return RemovedBlocks; }

private:
  void removeUnreachableBlocks();
  void markLive();
  bool sweep();

  Function &F;
  llvm::DenseSet<Instruction *> Live;
  bool RemovedBlocks = false;
};

bool DeadCodeElimination::run() {
  if (F.empty())
    return false;
  removeUnreachableBlocks();
  markLive();
  return sweep() || RemovedBlocks;
}

void DeadCodeElimination::removeUnreachableBlocks() {
  llvm::SmallPtrSet<BasicBlock *, 32> Reachable;
  llvm::SmallVector<BasicBlock *, 32> Stack = {F.getEntryBlock()};
  Reachable.insert(F.getEntryBlock());
  while (!Stack.empty())
    for (BasicBlock *S : Stack.pop_back_val()->successors())
      if (S && Reachable.insert(S).second)
        Stack.push_back(S);

  llvm::SmallVector<BasicBlock *, 8> Dead;
  for (BasicBlock &B : F)
    if (!Reachable.count(&B))
      Dead.push_back(&B);
  if (Dead.empty())
    return;

  // The edges from dead blocks into live ones disappear with the dead
  // blocks; their phi entries go first.
  for (BasicBlock *B : Dead)
    for (BasicBlock *S : B->successors())
      if (S && Reachable.count(S))
        for (PhiInst *P : S->phis())
          for (unsigned K = P->getNumIncoming(); K-- > 0;)
            if (P->getIncomingBlock(K) == B)
              P->removeIncoming(K);

  // Verified IR (I4) uses no value of an unreachable block elsewhere, so
  // dropping their references leaves every value of theirs unused.
  for (BasicBlock *B : Dead)
    for (Instruction &I : *B)
      I.dropAllReferences();
  for (BasicBlock *B : Dead)
    B->eraseFromParent();
  RemovedBlocks = true;
}

void DeadCodeElimination::markLive() {
  llvm::SmallVector<Instruction *, 64> Worklist;
  for (BasicBlock &B : F)
    for (Instruction &I : B)
      if (I.hasSideEffects() && Live.insert(&I).second)
        Worklist.push_back(&I);
  while (!Worklist.empty()) {
    Instruction *I = Worklist.pop_back_val();
    for (Value *Op : I->getOperands())
      if (Instruction *Def = Op ? Op->getDefiningInstruction() : nullptr)
        if (Live.insert(Def).second)
          Worklist.push_back(Def);
  }
}

bool DeadCodeElimination::sweep() {
  llvm::SmallVector<Instruction *, 32> Dead;
  for (BasicBlock &B : F)
    for (Instruction &I : B)
      if (!Live.count(&I))
        Dead.push_back(&I);
  // Dead instructions may use each other (a phi cycle); break every such
  // use before erasing any of them.
  for (Instruction *I : Dead)
    I->dropAllReferences();
  for (Instruction *I : Dead)
    I->eraseFromParent();
  return !Dead.empty();
}

} // namespace

PreservedAnalyses DCEPass::runOnFunction(Function &F, AnalysisManager &) {
  DeadCodeElimination DCE(F);
  if (!DCE.run())
    return PreservedAnalyses::all();
  if (DCE.removedBlocks())
    return PreservedAnalyses::none();
  return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>();
}
