//===- RematerializeAfterLoops.cpp - Short live ranges across loops -------===//
//
// Attention's kernel computes its output pointers' row indices, and its
// second loop's shared-memory offsets, from the thread index before the
// first loop (the first loop's pointers share them); LLVM's value
// numbering keeps one copy, live across the first loop, and ptxas, at 255
// registers there, spilled them. Recomputing such a value where it is used
// after the loop (or in the preheader of the later loop that uses it)
// costs a few integer instructions once and frees its register through the
// loops it does not use it in. Only pure arithmetic, comparisons, selects
// and GEPs on constants, arguments and special registers are recomputed,
// at most 64 instructions a value.
//
//===----------------------------------------------------------------------===//

#include "codegen/nvptx/RematerializeAfterLoops.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace tritium;

namespace {

/// Whether \p V can be recomputed anywhere: constants, arguments, and
/// pure arithmetic on them and on the thread's special registers, of at
/// most \p Budget instructions (\p Seen: those counted already).
bool isRecomputable(llvm::Value *V, unsigned &Budget,
                    llvm::SmallPtrSetImpl<llvm::Instruction *> &Seen) {
  auto *I = llvm::dyn_cast<llvm::Instruction>(V);
  if (!I || !Seen.insert(I).second)
    return true; // constants, arguments, globals, or counted already
  if (Budget == 0)
    return false;
  --Budget;
  if (auto *Call = llvm::dyn_cast<llvm::CallInst>(I))
    if (!Call->getCalledFunction() || !Call->getCalledFunction()->isIntrinsic() ||
        !Call->doesNotAccessMemory() || Call->mayHaveSideEffects())
      return false;
  if (!llvm::isa<llvm::BinaryOperator, llvm::CastInst, llvm::GetElementPtrInst, llvm::CmpInst,
                 llvm::SelectInst, llvm::CallInst>(I))
    return false;
  if (I->mayReadOrWriteMemory() || I->mayHaveSideEffects())
    return false;
  for (llvm::Value *Op : I->operands())
    if (!isRecomputable(Op, Budget, Seen))
      return false;
  return true;
}

/// A copy of \p V's recomputable chain before \p At (\p Copies maps what is
/// copied there already). A special register is read again by inline
/// assembly, which LLVM's value numbering does not merge with the first
/// read (ptxas's may: docs/performance.md, 2026-12-03 evening).
llvm::Value *recompute(llvm::Value *V, llvm::Instruction *At,
                       llvm::DenseMap<llvm::Value *, llvm::Value *> &Copies) {
  auto *I = llvm::dyn_cast<llvm::Instruction>(V);
  if (!I)
    return V;
  if (llvm::Value *C = Copies.lookup(I))
    return C;
  if (auto *Call = llvm::dyn_cast<llvm::CallInst>(I)) {
    llvm::StringRef N = Call->getCalledFunction()->getName();
    if (N.consume_front("llvm.nvvm.read.ptx.sreg.")) {
      std::string Reg = N.str();
      auto *FT = llvm::FunctionType::get(Call->getType(), false);
      auto *Asm = llvm::InlineAsm::get(FT, "mov.u32 $0, %" + Reg + ";", "=r", true);
      llvm::IRBuilder<> B(At);
      llvm::Value *R = B.CreateCall(FT, Asm);
      Copies[I] = R;
      return R;
    }
  }
  llvm::Instruction *C = I->clone();
  for (llvm::Use &Op : C->operands())
    Op.set(recompute(Op.get(), At, Copies));
  C->insertBefore(At);
  Copies[I] = C;
  return C;
}

/// Where a use of a value from outside every loop is recomputed: the
/// user's block, or the preheader of the outermost loop holding the user.
llvm::BasicBlock *recomputeBlock(llvm::Instruction *User, const llvm::LoopInfo &LI) {
  llvm::Loop *L = LI.getLoopFor(User->getParent());
  if (!L)
    return llvm::isa<llvm::PHINode>(User) ? nullptr : User->getParent();
  while (L->getParentLoop())
    L = L->getParentLoop();
  return L->getLoopPreheader();
}

/// Recomputes, after a loop, the cheap values computed before it and used
/// after it but not in it (attention's row indices for the output
/// pointers and its second loop's shared-memory offsets, made for the
/// first loop's): otherwise ptxas keeps them live across the loop, and
/// spilled them there.
void rematerializeFunction(llvm::Function &F) {
  llvm::DominatorTree DT(F);
  llvm::LoopInfo LI(DT);
  if (LI.empty())
    return;
  llvm::SmallVector<std::pair<llvm::Use *, llvm::BasicBlock *>, 32> Work;
  for (llvm::BasicBlock &BB : F) {
    if (LI.getLoopFor(&BB))
      continue;
    for (llvm::Instruction &I : BB) {
      unsigned Budget = 64;
      llvm::SmallPtrSet<llvm::Instruction *, 32> Seen;
      if (!isRecomputable(&I, Budget, Seen))
        continue;
      auto UsedIn = [&](const llvm::Loop *L) {
        return llvm::any_of(I.users(), [&](llvm::User *X) {
          return L->contains(llvm::cast<llvm::Instruction>(X));
        });
      };
      for (llvm::Use &U : I.uses()) {
        llvm::BasicBlock *At = recomputeBlock(llvm::cast<llvm::Instruction>(U.getUser()), LI);
        if (!At || At == &BB)
          continue;
        for (const llvm::Loop *L : LI)
          if (DT.dominates(&BB, L->getHeader()) && !L->contains(At) &&
              DT.dominates(L->getHeader(), At) && !UsedIn(L)) {
            Work.push_back({&U, At});
            break;
          }
      }
    }
  }
  // Each block's copies go, in the order made, before what was its first
  // instruction: a copy's operands come before it.
  llvm::DenseMap<llvm::BasicBlock *, llvm::Instruction *> Anchor;
  llvm::DenseMap<llvm::BasicBlock *, llvm::DenseMap<llvm::Value *, llvm::Value *>> Copies;
  // The copies are all made before any use changes: a copy's chain is the
  // original's, not another copy's.
  llvm::SmallVector<llvm::Value *, 32> New;
  for (auto [U, At] : Work) {
    llvm::Instruction *&A = Anchor[At];
    if (!A)
      A = &*At->getFirstInsertionPt();
    New.push_back(recompute(U->get(), A, Copies[At]));
  }
  for (auto [K, Item] : llvm::enumerate(Work))
    Item.first->set(New[K]);
}
} // namespace

void tritium::rematerializeAfterLoops(llvm::Module &M) {
  for (llvm::Function &F : M)
    if (!F.isDeclaration())
      rematerializeFunction(F);
}
