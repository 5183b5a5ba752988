//===- Dominance.cpp - Dominator tree of a function -----------------------===//
//
// Cooper-Harvey-Kennedy: number the reachable blocks in reverse post-order,
// then, until nothing changes, set each block's immediate dominator to the
// nearest common dominator of its already-processed predecessors. Walking
// up two candidates by RPO number finds that common dominator, because a
// dominator always comes earlier in RPO. Reducible CFGs converge in two
// passes, and on CFGs of the size kernels have it is simpler and no slower
// than Lengauer-Tarjan.
//
// Queries then use the entry and exit times of one depth-first walk of the
// tree, so block dominance is two comparisons.
//
// Successors come from the terminators, not the cached predecessor lists,
// so the tree reflects the CFG even if those lists were wrong; branches to
// null or to blocks of another function are ignored (the verifier reports
// them).
//
//===----------------------------------------------------------------------===//

#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace tritium;

char DominatorTreeAnalysis::ID;

DominatorTree DominatorTreeAnalysis::run(Function &F, AnalysisManager &) {
  return DominatorTree(F);
}

namespace {
constexpr unsigned Undefined = ~0u;

/// The successors of \p B that are blocks of \p F.
llvm::SmallVector<BasicBlock *, 2> successorsIn(const BasicBlock *B,
                                                const Function &F) {
  llvm::SmallVector<BasicBlock *, 2> Succs = B->successors();
  llvm::erase_if(Succs, [&F](BasicBlock *S) { return !S || S->getParent() != &F; });
  return Succs;
}
} // namespace

DominatorTree::DominatorTree(const Function &Fn) : F(&Fn) {
  if (Fn.empty())
    return;

  // Post-order by an explicit stack, so deep CFGs cannot overflow the
  // native one; each entry is a block and the next successor to visit.
  llvm::SmallVector<BasicBlock *, 16> PostOrder;
  llvm::SmallPtrSet<const BasicBlock *, 16> Visited;
  llvm::SmallVector<std::pair<BasicBlock *, unsigned>, 16> Stack;
  auto *Entry = const_cast<BasicBlock *>(&Fn.front());
  Visited.insert(Entry);
  Stack.push_back({Entry, 0});
  while (!Stack.empty()) {
    auto &[B, Next] = Stack.back();
    llvm::SmallVector<BasicBlock *, 2> Succs = successorsIn(B, Fn);
    if (Next < Succs.size()) {
      BasicBlock *S = Succs[Next++];
      if (Visited.insert(S).second)
        Stack.push_back({S, 0});
      continue;
    }
    PostOrder.push_back(B);
    Stack.pop_back();
  }
  RPO.assign(PostOrder.rbegin(), PostOrder.rend());
  for (unsigned I = 0; I < RPO.size(); ++I)
    Index[RPO[I]] = I;

  // Predecessors by RPO position, reachable ones only.
  std::vector<llvm::SmallVector<unsigned, 2>> Preds(RPO.size());
  for (unsigned I = 0; I < RPO.size(); ++I)
    for (BasicBlock *S : successorsIn(RPO[I], Fn))
      Preds[Index.lookup(S)].push_back(I);

  IDom.assign(RPO.size(), Undefined);
  IDom[0] = 0;
  auto Intersect = [this](unsigned A, unsigned B) {
    while (A != B) {
      while (A > B)
        A = IDom[A];
      while (B > A)
        B = IDom[B];
    }
    return A;
  };
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (unsigned I = 1; I < RPO.size(); ++I) {
      unsigned New = Undefined;
      for (unsigned P : Preds[I])
        if (IDom[P] != Undefined)
          New = New == Undefined ? P : Intersect(P, New);
      if (New != IDom[I]) {
        IDom[I] = New;
        Changed = true;
      }
    }
  }

  // Number the tree depth-first.
  std::vector<llvm::SmallVector<unsigned, 2>> Children(RPO.size());
  for (unsigned I = 1; I < RPO.size(); ++I)
    Children[IDom[I]].push_back(I);
  DFSIn.assign(RPO.size(), 0);
  DFSOut.assign(RPO.size(), 0);
  unsigned Clock = 0;
  llvm::SmallVector<std::pair<unsigned, unsigned>, 16> Walk = {{0, 0}};
  DFSIn[0] = Clock++;
  while (!Walk.empty()) {
    auto &[N, Next] = Walk.back();
    if (Next < Children[N].size()) {
      unsigned C = Children[N][Next++];
      DFSIn[C] = Clock++;
      Walk.push_back({C, 0});
      continue;
    }
    DFSOut[N] = Clock++;
    Walk.pop_back();
  }
}

BasicBlock *DominatorTree::getIDom(const BasicBlock *B) const {
  auto It = Index.find(B);
  if (It == Index.end() || It->second == 0)
    return nullptr;
  return RPO[IDom[It->second]];
}

bool DominatorTree::dominates(const BasicBlock *A, const BasicBlock *B) const {
  auto BI = Index.find(B);
  if (BI == Index.end())
    return true;
  auto AI = Index.find(A);
  if (AI == Index.end())
    return false;
  unsigned X = AI->second, Y = BI->second;
  return DFSIn[X] <= DFSIn[Y] && DFSOut[Y] <= DFSOut[X];
}

namespace {
/// The block of the instruction defining \p Def, or null for an argument;
/// sets \p Detached when that instruction is in no block.
const BasicBlock *defBlock(const Value *Def, bool &Detached) {
  Instruction *I = Def->getDefiningInstruction();
  Detached = I && !I->getParent();
  return I ? I->getParent() : nullptr;
}
} // namespace

bool DominatorTree::dominates(const Value *Def, const Instruction *User) const {
  bool Detached;
  const BasicBlock *DB = defBlock(Def, Detached);
  if (Detached)
    return false;
  if (!DB)
    return true; // an argument
  const BasicBlock *UB = User->getParent();
  if (!isReachable(UB))
    return true;
  if (DB != UB)
    return dominates(DB, UB);
  // Same block: the definition must come first. An instruction does not
  // dominate itself.
  const Instruction *DefI = Def->getDefiningInstruction();
  for (const Instruction *I = User->getPrevNode(); I; I = I->getPrevNode())
    if (I == DefI)
      return true;
  return false;
}

bool DominatorTree::dominatesEdgeUse(const Value *Def,
                                     const BasicBlock *Pred) const {
  bool Detached;
  const BasicBlock *DB = defBlock(Def, Detached);
  if (Detached)
    return false;
  // Anything in Pred, its terminator included, precedes the edge.
  return !DB || dominates(DB, Pred);
}

bool DominatorTree::dominates(const Value *Def, const Use &U) const {
  Instruction *User = U.getUser();
  auto *Phi = llvm::dyn_cast<PhiInst>(User);
  if (!Phi)
    return dominates(Def, User);
  unsigned N = U.getOperandNo();
  if (N >= Phi->getNumBlockOperands() || !Phi->getIncomingBlock(N))
    return false;
  return dominatesEdgeUse(Def, Phi->getIncomingBlock(N));
}

void DominatorTree::print(llvm::raw_ostream &OS) const {
  const_cast<Function *>(F)->renumber();
  for (unsigned I = 0; I < RPO.size(); ++I) {
    RPO[I]->printAsOperand(OS);
    if (I) {
      OS << " <- ";
      RPO[IDom[I]]->printAsOperand(OS);
    }
    OS << '\n';
  }
  for (const BasicBlock &B : *F)
    if (!isReachable(&B)) {
      B.printAsOperand(OS);
      OS << " unreachable\n";
    }
}
