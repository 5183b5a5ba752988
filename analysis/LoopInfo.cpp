//===- LoopInfo.cpp - Natural loops and counted loops ---------------------===//

#include "analysis/LoopInfo.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/PassManager.h"

#include "llvm/ADT/STLExtras.h"

using namespace tritium;

char LoopAnalysis::ID;

LoopInfo LoopAnalysis::run(Function &F, AnalysisManager &AM) {
  return LoopInfo(F, AM.get<DominatorTreeAnalysis>(F));
}

bool Loop::contains(const Loop *L) const {
  for (; L; L = L->Parent)
    if (L == this)
      return true;
  return false;
}

bool Loop::isInvariant(const Value *V) const {
  const Instruction *I = V->getDefiningInstruction();
  return !I || !contains(I->getParent());
}

unsigned Loop::getDepth() const {
  unsigned D = 1;
  for (const Loop *P = Parent; P; P = P->Parent)
    ++D;
  return D;
}

BasicBlock *Loop::getPreheader() const {
  BasicBlock *Pre = nullptr;
  for (BasicBlock *P : getHeader()->predecessors()) {
    if (contains(P))
      continue;
    if (Pre && Pre != P)
      return nullptr;
    Pre = P;
  }
  return Pre && Pre->successors().size() == 1 ? Pre : nullptr;
}

std::optional<int64_t> Loop::getNumStages() const {
  if (auto *Br = llvm::dyn_cast_or_null<CondBrInst>(getHeader()->getTerminator()))
    return Br->getNumStages();
  return std::nullopt;
}

llvm::SmallVector<BasicBlock *, 4> Loop::getExitingBlocks() const {
  llvm::SmallVector<BasicBlock *, 4> Out;
  for (BasicBlock *B : Blocks)
    if (llvm::any_of(B->successors(), [&](BasicBlock *S) { return S && !contains(S); }))
      Out.push_back(B);
  return Out;
}

namespace {

/// How often `for (i = Start; i Pred Bound; i += Step)` runs, where that is
/// a plain count (the step moves toward the bound); nullopt otherwise.
std::optional<int64_t> tripCount(int64_t Start, int64_t Step, int64_t Bound, ICmpPredicate P) {
  __int128 S = Start, B = Bound, D = Step;
  switch (P) {
  case ICmpPredicate::SLE: case ICmpPredicate::ULE: ++B; [[fallthrough]];
  case ICmpPredicate::SLT: case ICmpPredicate::ULT:
    if (D <= 0)
      return std::nullopt;
    return int64_t(B <= S ? 0 : (B - S + D - 1) / D);
  case ICmpPredicate::SGE: case ICmpPredicate::UGE: --B; [[fallthrough]];
  case ICmpPredicate::SGT: case ICmpPredicate::UGT:
    if (D >= 0)
      return std::nullopt;
    return int64_t(B >= S ? 0 : (S - B - D - 1) / -D);
  default:
    return std::nullopt;
  }
}

/// The counted-loop facts of \p L, if it is one (see the header).
std::optional<CountedLoop> recognize(const Loop &L) {
  BasicBlock *H = L.getHeader();
  BasicBlock *Pre = nullptr;
  for (BasicBlock *P : H->predecessors())
    if (!L.contains(P)) {
      if (Pre)
        return std::nullopt;
      Pre = P;
    }
  if (!Pre || L.getLatches().size() != 1 || L.getExitingBlocks().size() != 1 ||
      L.getExitingBlocks()[0] != H)
    return std::nullopt;
  auto *Br = llvm::dyn_cast<CondBrInst>(H->getTerminator());
  auto *Cmp = Br ? llvm::dyn_cast_or_null<CmpInst>(Br->getCondition()->getDefiningInstruction())
                 : nullptr;
  if (!Cmp || Cmp->isFloat() || Cmp->getParent() != H || !L.contains(Br->getTrueDest()))
    return std::nullopt;
  ICmpPredicate Pred = Cmp->getIPredicate();
  Value *IVVal = Cmp->getLHS(), *Bound = Cmp->getRHS();
  if (!L.isInvariant(Bound)) {
    std::swap(IVVal, Bound);
    Pred = getSwappedPredicate(Pred);
  }
  auto *IV = llvm::dyn_cast_or_null<PhiInst>(IVVal->getDefiningInstruction());
  if (!IV || IV->getParent() != H || !L.isInvariant(Bound) || IV->getNumIncoming() != 2)
    return std::nullopt;
  Value *Start = IV->getIncomingValueForBlock(Pre);
  Value *NextV = IV->getIncomingValueForBlock(L.getLatches()[0]);
  Instruction *Next = NextV ? NextV->getDefiningInstruction() : nullptr;
  if (!Start || !Next || Next->getOpcode() != Opcode::Add)
    return std::nullopt;
  Value *Step = Next->getOperand(0) == IV->getResult() ? Next->getOperand(1)
                : Next->getOperand(1) == IV->getResult() ? Next->getOperand(0)
                                                         : nullptr;
  if (!Step || !L.isInvariant(Step))
    return std::nullopt;
  CountedLoop C{IV, Start, Next, Step, Bound, Pred, std::nullopt};
  std::optional<int64_t> S = getConstantIntValue(Start), D = getConstantIntValue(Step),
                         B = getConstantIntValue(Bound);
  if (S && D && B)
    C.TripCount = tripCount(*S, *D, *B, Pred);
  return C;
}

} // namespace

LoopInfo::LoopInfo(const Function &F, const DominatorTree &DT) {
  llvm::DenseMap<const BasicBlock *, Loop *> OfHeader;
  for (BasicBlock *B : DT.getReversePostOrder())
    for (BasicBlock *H : B->successors()) {
      if (!H || !DT.dominates(H, B))
        continue;
      Loop *&L = OfHeader[H];
      if (!L) {
        Loops.push_back(std::make_unique<Loop>());
        L = Loops.back().get();
        L->Members.insert(H);
      }
      L->Latches.push_back(B);
      // Walk backwards from the back edge's source up to the header.
      llvm::SmallVector<BasicBlock *, 16> Stack;
      if (L->Members.insert(B).second)
        Stack.push_back(B);
      while (!Stack.empty())
        for (BasicBlock *P : Stack.pop_back_val()->predecessors())
          if (DT.isReachable(P) && L->Members.insert(P).second)
            Stack.push_back(P);
    }
  for (auto &L : Loops)
    for (BasicBlock *B : DT.getReversePostOrder())
      if (L->Members.count(B))
        L->Blocks.push_back(B);
  // Innermost first: a loop nested in another has strictly fewer blocks;
  // among equals, in program order of their headers.
  llvm::DenseMap<const BasicBlock *, unsigned> Position;
  for (BasicBlock *B : DT.getReversePostOrder())
    Position[B] = Position.size();
  for (auto &L : Loops)
    Order.push_back(L.get());
  llvm::stable_sort(Order, [&](Loop *A, Loop *B) {
    return std::make_pair(A->Blocks.size(), Position[A->getHeader()]) <
           std::make_pair(B->Blocks.size(), Position[B->getHeader()]);
  });
  // The parent of a loop is the smallest other loop holding its header.
  for (unsigned I = 0; I < Order.size(); ++I) {
    for (unsigned J = I + 1; J < Order.size() && !Order[I]->Parent; ++J)
      if (Order[J]->contains(Order[I]->getHeader()))
        Order[I]->Parent = Order[J];
    if (Loop *P = Order[I]->Parent)
      P->SubLoops.push_back(Order[I]);
    else
      TopLevel.push_back(Order[I]);
  }
  auto ByHeader = [&](Loop *A, Loop *B) {
    return Position[A->getHeader()] < Position[B->getHeader()];
  };
  llvm::stable_sort(TopLevel, ByHeader);
  for (Loop *L : Order)
    llvm::stable_sort(L->SubLoops, ByHeader);
  for (Loop *L : llvm::reverse(Order)) // outer first, inner overwrite
    for (BasicBlock *B : L->Blocks)
      Innermost[B] = L;
  for (Loop *L : Order)
    L->Counted = recognize(*L);
}

void LoopInfo::addBlockToLoop(BasicBlock *B, Loop *L, BasicBlock *Before) {
  if (L)
    Innermost[B] = L;
  for (; L; L = L->Parent)
    if (L->Members.insert(B).second)
      L->Blocks.insert(llvm::find(L->Blocks, Before), B);
}

void Loop::print(llvm::raw_ostream &OS) const {
  OS << std::string(2 * getDepth(), ' ') << "loop " << getHeader()->getName() << " (depth "
     << getDepth() << "):";
  for (BasicBlock *B : Blocks)
    OS << ' ' << B->getName();
  OS << "; latches:";
  for (BasicBlock *B : Latches)
    OS << ' ' << B->getName();
  if (std::optional<int64_t> S = getNumStages())
    OS << "; num_stages " << *S;
  if (!Counted) {
    OS << "; not counted\n";
    return;
  }
  OS << "; counted: ";
  Counted->IV->getResult()->printAsOperand(OS);
  OS << " from ";
  Counted->Start->printAsOperand(OS);
  OS << " by ";
  Counted->Step->printAsOperand(OS);
  OS << " while " << stringify(Counted->Pred) << ' ';
  Counted->Bound->printAsOperand(OS);
  if (Counted->TripCount)
    OS << ", " << *Counted->TripCount << " trips";
  OS << '\n';
}

void LoopInfo::print(llvm::raw_ostream &OS) const {
  llvm::SmallVector<const Loop *, 8> Stack(TopLevel.rbegin(), TopLevel.rend());
  while (!Stack.empty()) {
    const Loop *L = Stack.pop_back_val();
    L->print(OS);
    for (const Loop *S : llvm::reverse(L->getSubLoops()))
      Stack.push_back(S);
  }
}
