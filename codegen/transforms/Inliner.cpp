//===- Inliner.cpp - Inlining device functions --------------------------===//
//
// `inline` replaces every call to a device function by a copy of its body,
// since the frontend emits a call for each nested @jit function and the
// backends want one straight kernel:
//
//   1. Build the call graph and its strongly connected components (Tarjan).
//      A callee is inlinable when it has a body, is not marked noinline and
//      is not recursive (alone in its component, without a self call);
//      recursive calls stay calls, as the backend may still reject them,
//      but inlining cannot loop.
//   2. Visit the functions callees first (Tarjan's order), so each callee
//      is already free of inlinable calls when it is copied; calls that the
//      copies bring along are queued as well, so that inlining goes on until
//      no inlinable call remains.
//   3. Inline one call: split its block after the call, clone the callee's
//      blocks between the two halves with its arguments mapped to the call's
//      operands, turn each `ret` into a branch to the second half and, when
//      several rets return values, merge them there with phis; the call's
//      results take the returned values. The callee's entry block then
//      joins the call's block, and with a single ret the second half joins
//      the ret's block, so straight-line callees leave no extra blocks.
//   4. Erase the device functions whose calls this pass inlined and that
//      nothing references any more (no call, and no reduce or scan uses them
//      as its combine function). Kernels, functions never called and
//      functions still referenced stay.
//
// Requires: verified IR (so call operands match the callee's arguments).
// Preserves: nothing in the functions it changed.
//
//===----------------------------------------------------------------------===//

#include "codegen/transforms/TransformUtils.h"
#include "codegen/transforms/Transforms.h"
#include "ir/Builder.h"
#include "ir/Module.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

using namespace tritium;

namespace {

/// The calls in \p F, in program order.
llvm::SmallVector<CallInst *, 8> collectCalls(Function &F) {
  llvm::SmallVector<CallInst *, 8> Calls;
  for (BasicBlock &B : F)
    for (Instruction &I : B)
      if (auto *C = llvm::dyn_cast<CallInst>(&I))
        Calls.push_back(C);
  return Calls;
}

class Inliner {
public:
  explicit Inliner(Module &M) : M(M) {}
  bool run();

private:
  /// Tarjan's algorithm over the call graph: fills Order (callees before
  /// callers) and Recursive.
  void computeSCCs();
  void visit(Function *F);
  bool isInlinable(const CallInst &C) const;
  /// Inlines \p C and returns the calls among the copied instructions.
  llvm::SmallVector<CallInst *, 4> inlineCall(CallInst *C, Function &Callee);
  bool eraseDeadFunctions();

  Module &M;
  llvm::DenseMap<Function *, llvm::SmallVector<Function *, 4>> Callees;
  llvm::SmallPtrSet<Function *, 8> Recursive;
  llvm::SmallVector<Function *, 8> Order;
  /// Functions whose calls were inlined at least once.
  llvm::SmallPtrSet<Function *, 8> Inlined;

  // Tarjan's state.
  llvm::DenseMap<Function *, unsigned> Index, LowLink;
  llvm::SmallPtrSet<Function *, 8> OnStack;
  llvm::SmallVector<Function *, 8> Stack;
  unsigned NextIndex = 0;
};

bool Inliner::run() {
  computeSCCs();
  for (Function *F : Order) {
    llvm::SmallVector<CallInst *, 8> Worklist = collectCalls(*F);
    std::reverse(Worklist.begin(), Worklist.end());
    while (!Worklist.empty()) {
      CallInst *C = Worklist.pop_back_val();
      if (!isInlinable(*C))
        continue;
      Function *Callee = C->getCalledFunction();
      Inlined.insert(Callee);
      for (CallInst *New : inlineCall(C, *Callee))
        Worklist.push_back(New);
    }
  }
  return eraseDeadFunctions() || !Inlined.empty();
}

void Inliner::computeSCCs() {
  for (Function *F : M.functions())
    for (CallInst *C : collectCalls(*F))
      if (Function *Callee = C->getCalledFunction())
        Callees[F].push_back(Callee);
  for (Function *F : M.functions())
    if (!Index.count(F))
      visit(F);
}

void Inliner::visit(Function *F) {
  // Recursion depth is the depth of the call graph, a handful of nested
  // @jit functions.
  Index[F] = LowLink[F] = NextIndex++;
  Stack.push_back(F);
  OnStack.insert(F);
  for (Function *G : Callees[F]) {
    if (!Index.count(G)) {
      visit(G);
      LowLink[F] = std::min(LowLink[F], LowLink[G]);
    } else if (OnStack.count(G)) {
      LowLink[F] = std::min(LowLink[F], Index[G]);
    }
  }
  if (LowLink[F] != Index[F])
    return;
  llvm::SmallVector<Function *, 4> SCC;
  Function *G;
  do {
    G = Stack.pop_back_val();
    OnStack.erase(G);
    SCC.push_back(G);
  } while (G != F);
  bool SelfCall = llvm::is_contained(Callees[F], F);
  if (SCC.size() > 1 || SelfCall)
    Recursive.insert(SCC.begin(), SCC.end());
  Order.append(SCC.begin(), SCC.end());
}

bool Inliner::isInlinable(const CallInst &C) const {
  Function *Callee = C.getCalledFunction();
  return Callee && !Callee->empty() && !Callee->isNoInline() &&
         !Recursive.count(Callee) &&
         Callee->getNumArgs() == C.getNumOperands() &&
         Callee->getResultTypes().size() == C.getNumResults();
}

llvm::SmallVector<CallInst *, 4> Inliner::inlineCall(CallInst *C,
                                                    Function &Callee) {
  BasicBlock *Head = C->getParent();
  Function &Caller = *Head->getParent();
  std::string TailName =
      Head->hasName() ? Head->getName().str() + ".cont" : std::string();
  BasicBlock *Tail = Head->splitAt(std::next(C->getIterator()), TailName);

  // Blocks first, so branches can be retargeted as instructions are copied.
  llvm::DenseMap<BasicBlock *, BasicBlock *> BlockMap;
  llvm::DenseMap<Value *, Value *> ValueMap;
  for (BasicBlock &B : Callee) {
    auto *NB = new BasicBlock(B.hasName() ? Callee.getName().str() + "." +
                                                B.getName().str()
                                          : "");
    Caller.insert(Tail->getIterator(), NB);
    BlockMap[&B] = NB;
  }
  for (unsigned I = 0; I < Callee.getNumArgs(); ++I)
    ValueMap[Callee.getArg(I)] = C->getOperand(I);

  llvm::SmallVector<Instruction *, 32> Clones;
  llvm::SmallVector<Instruction *, 4> Rets;
  llvm::SmallVector<CallInst *, 4> Calls;
  for (BasicBlock &B : Callee) {
    BasicBlock *NB = BlockMap[&B];
    for (Instruction &I : B) {
      Instruction *NI = I.clone();
      // Retarget block operands before inserting, so that the callee's
      // blocks never see the copies as predecessors.
      for (unsigned K = 0; K < NI->getNumBlockOperands(); ++K)
        NI->setBlockOperand(K, BlockMap.lookup(NI->getBlockOperand(K)));
      NB->push_back(NI);
      for (unsigned R = 0; R < I.getNumResults(); ++R)
        ValueMap[I.getResult(R)] = NI->getResult(R);
      Clones.push_back(NI);
      if (NI->getOpcode() == Opcode::Ret)
        Rets.push_back(NI);
      else if (auto *Call = llvm::dyn_cast<CallInst>(NI))
        Calls.push_back(Call);
    }
  }
  for (Instruction *NI : Clones)
    for (unsigned K = 0; K < NI->getNumOperands(); ++K)
      if (Value *V = ValueMap.lookup(NI->getOperand(K)))
        NI->setOperand(K, V);

  // Returns become branches to the tail; their values reach the call's
  // users directly (one ret) or through phis (several).
  IRBuilder Builder(Caller.getContext());
  Builder.setLoc(C->getLoc());
  llvm::SmallVector<Value *, 2> Returned;
  if (Rets.size() == 1) {
    Returned = Rets[0]->getOperands();
  } else {
    for (unsigned R = 0; R < C->getNumResults(); ++R) {
      Type *T = C->getResult(R)->getType();
      if (Rets.empty()) {
        // The callee never returns: the tail is unreachable.
        Builder.setInsertPoint(Tail, Tail->getFirstNonPhi());
        Returned.push_back(Builder.createUndef(T));
        continue;
      }
      Builder.setInsertPoint(Tail, Tail->getFirstNonPhi());
      PhiInst *Phi = Builder.createPhi(T);
      for (Instruction *Ret : Rets)
        Phi->addIncoming(Ret->getOperand(R), Ret->getParent());
      Returned.push_back(Phi->getResult());
    }
  }
  for (unsigned R = 0; R < C->getNumResults(); ++R)
    C->getResult(R)->replaceAllUsesWith(Returned[R]);
  for (Instruction *Ret : Rets) {
    Builder.setInsertPoint(Ret);
    Builder.setLoc(Ret->getLoc());
    Builder.createBr(Tail);
    Ret->dropAllReferences();
    Ret->eraseFromParent();
  }

  Builder.setInsertPoint(Head);
  Builder.setLoc(C->getLoc());
  Builder.createBr(BlockMap[&Callee.front()]);
  C->eraseFromParent();

  // Straight-line code stays one block: the callee's entry joins the head,
  // and a single return's block the tail.
  mergeBlockIntoPredecessor(BlockMap[&Callee.front()]);
  if (Rets.size() == 1)
    mergeBlockIntoPredecessor(Tail);
  return Calls;
}

bool Inliner::eraseDeadFunctions() {
  // Everything a call or a combine attribute still names stays.
  llvm::StringSet<> Referenced;
  for (Function *F : M.functions())
    for (BasicBlock &B : *F)
      for (Instruction &I : B) {
        if (auto *C = llvm::dyn_cast<CallInst>(&I))
          Referenced.insert(C->getCallee());
        else if (auto *Map = llvm::dyn_cast<MapElementwiseInst>(&I))
          Referenced.insert(Map->getCallee());
        else if (auto *R = llvm::dyn_cast<CombineInstBase>(&I))
          if (!R->getCombine().empty())
            Referenced.insert(R->getCombine());
      }
  bool Changed = false;
  for (Function *F : M.functions())
    if (Inlined.count(F) && !F->isKernel() && !Referenced.count(F->getName())) {
      M.eraseFunction(F);
      Changed = true;
    }
  return Changed;
}

} // namespace

PreservedAnalyses InlinerPass::run(Module &M, AnalysisManager &) {
  Inliner I(M);
  return I.run() ? PreservedAnalyses::none() : PreservedAnalyses::all();
}
