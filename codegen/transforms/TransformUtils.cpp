//===- TransformUtils.cpp - Helpers shared by the transforms --------------===//

#include "codegen/transforms/TransformUtils.h"
#include "ir/Function.h"
#include "ir/Instructions.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace tritium;

void InstructionWorklist::pushDefOf(Value *V) {
  if (V)
    push(V->getDefiningInstruction());
}

void InstructionWorklist::pushFunction(Function &F) {
  llvm::SmallVector<Instruction *, 64> All;
  for (BasicBlock &B : F)
    for (Instruction &I : B)
      All.push_back(&I);
  for (Instruction *I : llvm::reverse(All))
    push(I);
}

bool tritium::isCommutative(Opcode Op) {
  switch (Op) {
  case Opcode::Add:
  case Opcode::Mul:
  case Opcode::And:
  case Opcode::Or:
  case Opcode::Xor:
  case Opcode::SMin:
  case Opcode::SMax:
  case Opcode::UMin:
  case Opcode::UMax:
  case Opcode::UMulHi:
  case Opcode::FAdd:
  case Opcode::FMul:
  case Opcode::FMin:
  case Opcode::FMax:
  case Opcode::FMinimum:
  case Opcode::FMaximum:
    return true;
  default:
    return false;
  }
}

bool tritium::isTriviallyDead(const Instruction &I) {
  return I.use_empty() && !I.hasSideEffects();
}

void tritium::removePhiEntriesForEdge(BasicBlock *Succ, BasicBlock *Pred) {
  unsigned Keep = llvm::count(Succ->predecessors(), Pred);
  for (PhiInst *P : Succ->phis()) {
    unsigned Seen = 0;
    // Walk by index: removeIncoming shifts the later entries down.
    for (unsigned K = 0; K < P->getNumIncoming();) {
      if (P->getIncomingBlock(K) == Pred && ++Seen > Keep) {
        P->removeIncoming(K);
        continue;
      }
      ++K;
    }
  }
}

bool tritium::mergeBlockIntoPredecessor(BasicBlock *B) {
  BasicBlock *P = B->getSinglePredecessor();
  Instruction *Br = P ? P->getTerminator() : nullptr;
  if (!Br || P == B || Br->getOpcode() != Opcode::Br)
    return false;
  llvm::SmallVector<PhiInst *, 4> Phis = B->phis();
  if (llvm::any_of(Phis, [](PhiInst *Phi) {
        return Phi->getNumIncoming() != 1 ||
               Phi->getIncomingValue(0) == Phi->getResult();
      }))
    return false;
  for (PhiInst *Phi : Phis) {
    Phi->getResult()->replaceAllUsesWith(Phi->getIncomingValue(0));
    Phi->eraseFromParent();
  }

  llvm::SmallVector<BasicBlock *, 2> Succs = B->successors();
  Br->eraseFromParent();
  while (!B->empty()) {
    Instruction *I = B->remove(&B->front());
    P->push_back(I);
  }
  llvm::SmallPtrSet<BasicBlock *, 4> Done;
  for (BasicBlock *S : Succs)
    if (S && Done.insert(S).second)
      for (PhiInst *Phi : S->phis())
        for (unsigned K = 0; K < Phi->getNumIncoming(); ++K)
          if (Phi->getIncomingBlock(K) == B)
            Phi->setBlockOperand(K, P);
  B->eraseFromParent();
  return true;
}

WorklistRewriter::WorklistRewriter(Function &F) : F(F), Builder(F.getContext()) {}

bool WorklistRewriter::rewrite() {
  Worklist.pushFunction(F);
  while (Instruction *I = Worklist.pop()) {
    if (isTriviallyDead(*I)) {
      erase(I);
      continue;
    }
    Builder.setInsertPoint(I);
    Builder.setLoc(I->getLoc());
    if (Value *V = simplify(I))
      replace(I, V);
  }
  return Changed;
}

void WorklistRewriter::replace(Instruction *I, Value *V) {
  Value *Old = I->getResult();
  // Unreachable blocks may hold an instruction that uses itself (I4 does not
  // look there); `%x = add %x, 0` simplifying to itself is no change.
  if (V == Old)
    return;
  for (Instruction *User : Old->getUsers())
    Worklist.push(User);
  Old->replaceAllUsesWith(V);
  erase(I);
}

void WorklistRewriter::erase(Instruction *I) {
  for (Value *Op : I->getOperands())
    Worklist.pushDefOf(Op);
  Worklist.remove(I);
  I->dropAllReferences();
  I->eraseFromParent();
  Changed = true;
}
