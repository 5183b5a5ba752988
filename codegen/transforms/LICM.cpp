//===- LICM.cpp - Loop-invariant code motion ----------------------------===//
//
// `licm` moves instructions that compute the same value on every iteration
// of a loop into the loop's preheader, so they run once:
//
//   1. Take the natural loops from the loop analysis (analysis/LoopInfo.h).
//   2. Visit the loops innermost first, so what leaves an inner loop can
//      leave the outer one too.
//   3. Give the loop a preheader: the single predecessor from outside when
//      it branches only to the header, or else a new block that the
//      outside predecessors branch to instead, taking over their phi
//      entries in the header.
//      A loop whose header's cond_br says disable_licm is left as it is
//      (tl.range / tl.condition's disable_licm; LLVM gets llvm.licm.disable).
//   4. Hoist, with a worklist, every instruction whose operands are all
//      defined outside the loop and that is safe to run even when the loop
//      would not have reached it: no side effects, no memory access at all
//      (loads stay, since nothing proves yet that the loop does not store
//      to the same address), no phis, calls or atomics, and no integer
//      division or remainder unless the divisor is a constant that cannot
//      trap (not 0, nor -1 for the signed ones).
//
// Requires: verified IR. Preserves: the dominator tree unless a preheader was
// created.
//
//===----------------------------------------------------------------------===//

#include "analysis/LoopInfo.h"
#include "codegen/transforms/TransformUtils.h"
#include "codegen/transforms/Transforms.h"
#include "ir/Builder.h"
#include "ir/Dominance.h"
#include "ir/Function.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace tritium;

namespace {

/// Whether running \p I where the loop might not have run it is harmless.
bool isSafeToHoist(const Instruction &I) {
  // Terminators have side effects; loads, atomics and calls read memory.
  if (I.hasSideEffects() || I.mayReadMemory() || I.mayWriteMemory())
    return false;
  switch (I.getOpcode()) {
  case Opcode::Phi:
    return false;
  case Opcode::SDiv:
  case Opcode::SRem: {
    std::optional<int64_t> D = getConstantIntValue(I.getOperand(1));
    return D && *D != 0 && *D != -1;
  }
  case Opcode::UDiv:
  case Opcode::URem: {
    std::optional<int64_t> D = getConstantIntValue(I.getOperand(1));
    return D && *D != 0;
  }
  default:
    return true;
  }
}

class LoopInvariantCodeMotion {
public:
  LoopInvariantCodeMotion(Function &F, LoopInfo &LI) : F(F), LI(LI) {}

  bool run();
  bool createdPreheader() const { return CreatedPreheader; }

private:
  /// The preheader of \p L, created if needed; null if there is none.
  BasicBlock *getOrCreatePreheader(Loop &L);
  bool hoist(Loop &L, BasicBlock *Preheader);

  Function &F;
  LoopInfo &LI;
  bool CreatedPreheader = false;
};

bool LoopInvariantCodeMotion::run() {
  bool Changed = false;
  // Innermost first, so that what leaves an inner loop can leave the outer
  // one too; a new preheader of an inner loop is a block of the loops
  // around it (LoopInfo::addBlockToLoop).
  for (Loop *L : LI.getLoopsInnermostFirst()) {
    auto *Br = llvm::dyn_cast_or_null<CondBrInst>(L->getHeader()->getTerminator());
    if (Br && Br->disablesLicm())
      continue; // the user keeps its invariant code in it
    if (BasicBlock *Preheader = getOrCreatePreheader(*L))
      Changed |= hoist(*L, Preheader);
  }
  return Changed || CreatedPreheader;
}

BasicBlock *LoopInvariantCodeMotion::getOrCreatePreheader(Loop &L) {
  BasicBlock *H = L.getHeader();
  // (A SmallSetVector here trips GCC 13's -Wmaybe-uninitialized in DenseMap.)
  llvm::SetVector<BasicBlock *, llvm::SmallVector<BasicBlock *, 4>, llvm::DenseSet<BasicBlock *>>
      Outside;
  for (BasicBlock *P : H->predecessors())
    if (!L.contains(P))
      Outside.insert(P);
  if (Outside.empty())
    return nullptr; // the entry block, which verified IR never loops to (F2)
  if (Outside.size() == 1 && Outside[0]->successors().size() == 1)
    return Outside[0];

  auto *Pre = new BasicBlock(H->hasName() ? H->getName().str() + ".preheader"
                                          : std::string("preheader"));
  F.insert(H->getIterator(), Pre);
  IRBuilder Builder(F.getContext());
  // The header's phis keep their entries from inside the loop; the entries
  // from outside merge in the preheader, through a phi there unless they
  // all carry one value.
  for (PhiInst *P : H->phis()) {
    Builder.setLoc(P->getLoc());
    llvm::SmallVector<std::pair<Value *, BasicBlock *>, 4> In, Back;
    for (unsigned K = 0; K < P->getNumIncoming(); ++K)
      (Outside.count(P->getIncomingBlock(K)) ? In : Back)
          .push_back({P->getIncomingValue(K), P->getIncomingBlock(K)});
    Value *Merged = In.empty() ? nullptr : In.front().first;
    if (llvm::any_of(In, [&](auto &E) { return E.first != Merged; })) {
      Builder.setInsertPoint(Pre);
      PhiInst *NewPhi = Builder.createPhi(P->getResult()->getType());
      for (auto &[V, B] : In)
        NewPhi->addIncoming(V, B);
      Merged = NewPhi->getResult();
    }
    // Rebuild the entries with the preheader's first, where the entry
    // from outside usually stands.
    while (P->getNumIncoming())
      P->removeIncoming(P->getNumIncoming() - 1);
    if (Merged)
      P->addIncoming(Merged, Pre);
    for (auto &[V, B] : Back)
      P->addIncoming(V, B);
  }
  for (BasicBlock *O : Outside) {
    Instruction *T = O->getTerminator();
    for (unsigned K = 0; K < T->getNumBlockOperands(); ++K)
      if (T->getBlockOperand(K) == H)
        T->setBlockOperand(K, Pre);
  }
  Builder.setInsertPoint(Pre);
  Builder.setLoc(H->front().getLoc());
  Builder.createBr(H);
  LI.addBlockToLoop(Pre, L.getParent(), H);
  CreatedPreheader = true;
  return Pre;
}

bool LoopInvariantCodeMotion::hoist(Loop &L, BasicBlock *Preheader) {
  InstructionWorklist Worklist;
  // Pushed in reverse so that pop() returns them in program order.
  for (BasicBlock *B : llvm::reverse(L.getBlocks()))
    for (Instruction &I : llvm::reverse(*B))
      Worklist.push(&I);
  Instruction *InsertPt = Preheader->getTerminator();
  bool Changed = false;
  while (Instruction *I = Worklist.pop()) {
    if (!L.contains(I->getParent()) || !isSafeToHoist(*I) ||
        !llvm::all_of(I->getOperands(),
                      [&](Value *V) { return L.isInvariant(V); }))
      continue;
    I->moveBefore(InsertPt);
    Changed = true;
    for (Value *R : I->getResults())
      for (Instruction *User : R->getUsers())
        if (L.contains(User->getParent()))
          Worklist.push(User);
  }
  return Changed;
}

} // namespace

PreservedAnalyses LICMPass::runOnFunction(Function &F, AnalysisManager &AM) {
  if (F.empty())
    return PreservedAnalyses::all();
  LoopInvariantCodeMotion LICM(F, AM.get<LoopAnalysis>(F));
  if (!LICM.run())
    return PreservedAnalyses::all();
  if (LICM.createdPreheader())
    return PreservedAnalyses::none();
  return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>().preserve<LoopAnalysis>();
}
