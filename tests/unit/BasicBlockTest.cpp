//===- BasicBlockTest.cpp - Blocks, their instructions and their edges ----===//

#include "ir/Builder.h"
#include "ir/Context.h"
#include "ir/Function.h"
#include "ir/Module.h"

#include <doctest/doctest.h>

using namespace tritium;

namespace {

/// func @f(%a: i32, %c: i1) with blocks created on demand.
struct BlockFixture {
  Context Ctx;
  Module M{Ctx};
  Type *I32 = Type::getI32(Ctx);
  Function *F;
  IRBuilder B{Ctx};
  Value *A, *C;

  BlockFixture() {
    F = M.createFunction("f",
                         FunctionType::get(Ctx, {I32, Type::getI1(Ctx)}, {}));
    A = F->getArg(0);
    C = F->getArg(1);
    A->setName("a");
    C->setName("c");
  }
  static std::string names(llvm::ArrayRef<BasicBlock *> Bs) {
    std::string S;
    for (BasicBlock *BB : Bs)
      S += (S.empty() ? "" : ",") + BB->getName().str();
    return S;
  }
  static std::string ops(BasicBlock *BB) {
    std::string S;
    for (Instruction &I : *BB)
      S += (S.empty() ? "" : " ") + I.getOpcodeName().str();
    return S;
  }
  std::string blockOrder() {
    std::string S;
    for (BasicBlock &BB : *F)
      S += (S.empty() ? "" : ",") + BB.getName().str();
    return S;
  }
};

} // namespace

TEST_CASE_FIXTURE(BlockFixture, "inserting and removing instructions") {
  BasicBlock *BB = F->createBlock("bb");
  CHECK(BB->empty());
  CHECK(BB->getParent() == F);
  CHECK(BB->getTerminator() == nullptr);
  B.setInsertPoint(BB);
  Value *X = B.createBinary(Opcode::Add, A, A);
  Value *Y = B.createBinary(Opcode::Mul, X, A);
  CHECK(BB->size() == 2u);
  CHECK(&BB->front() == X->getDefiningInstruction());
  CHECK(&BB->back() == Y->getDefiningInstruction());
  CHECK(BB->getTerminator() == nullptr); // mul is not a terminator

  Instruction *Sub = Instruction::create(Ctx, Opcode::Sub, {I32}, {A, A});
  BB->push_front(Sub);
  CHECK(ops(BB) == "sub add mul");
  CHECK(Sub->getParent() == BB);
  Instruction *Neg = Instruction::create(Ctx, Opcode::Neg, {I32}, {A});
  auto It = BB->insert(std::next(BB->begin()), Neg);
  CHECK(&*It == Neg);
  CHECK(ops(BB) == "sub neg add mul");

  CHECK(BB->remove(Neg) == Neg);
  CHECK(Neg->getParent() == nullptr);
  CHECK(ops(BB) == "sub add mul");
  delete Neg;
  BB->erase(Sub);
  CHECK(ops(BB) == "add mul");
  CHECK(A->getNumUses() == 3u);

  Instruction *Ret = B.createRet();
  CHECK(BB->getTerminator() == Ret);
  // Reverse iteration sees the terminator first.
  CHECK(&*BB->rbegin() == Ret);
}

TEST_CASE_FIXTURE(BlockFixture, "a standalone block deletes its instructions") {
  auto *BB = new BasicBlock("lone");
  CHECK(BB->getParent() == nullptr);
  B.setInsertPoint(BB);
  Value *X = B.createBinary(Opcode::Add, A, A);
  B.createBinary(Opcode::Add, X, X); // uses X: deleted in any order
  CHECK(A->getNumUses() == 2u);
  delete BB;
  CHECK(A->use_empty());
}

TEST_CASE_FIXTURE(BlockFixture, "predecessors and successors, duplicates too") {
  BasicBlock *E = F->createBlock("e"), *T = F->createBlock("t"),
             *U = F->createBlock("u");
  B.setInsertPoint(E);
  Instruction *Br = B.createCondBr(C, T, T);
  CHECK(names(E->successors()) == "t,t");
  CHECK(names(T->predecessors()) == "e,e");
  CHECK(T->getSinglePredecessor() == nullptr); // two edges
  CHECK(U->hasNoPredecessors());
  B.setInsertPoint(U);
  B.createBr(T);
  CHECK(names(T->predecessors()) == "e,e,u");
  CHECK(names(U->successors()) == "t");
  Br->setBlockOperand(1, U);
  CHECK(names(T->predecessors()) == "e,u");
  CHECK(names(U->predecessors()) == "e");
  CHECK(U->getSinglePredecessor() == E);
  CHECK(names(E->successors()) == "t,u");
  Br->eraseFromParent();
  CHECK(names(T->predecessors()) == "u");
  CHECK(U->hasNoPredecessors());
  CHECK(E->successors().empty());
  CHECK(E->getTerminator() == nullptr);
}

TEST_CASE_FIXTURE(BlockFixture, "phis sit at the top") {
  BasicBlock *E = F->createBlock("e"), *T = F->createBlock("t");
  B.setInsertPoint(E);
  B.createBr(T);
  B.setInsertPoint(T);
  CHECK(T->phis().empty());
  CHECK(T->getFirstNonPhi() == T->end());
  PhiInst *P1 = B.createPhi(I32);
  P1->addIncoming(A, E);
  PhiInst *P2 = B.createPhi(I32);
  P2->addIncoming(A, E);
  Value *X = B.createBinary(Opcode::Add, P1->getResult(), P2->getResult());
  // A phi after a non-phi is not one of the block's phis.
  PhiInst *Late = B.createPhi(I32);
  Late->addIncoming(X, E);
  B.createRet();
  llvm::SmallVector<PhiInst *, 4> Phis = T->phis();
  CHECK(Phis == llvm::SmallVector<PhiInst *, 4>{P1, P2});
  CHECK(&*T->getFirstNonPhi() == X->getDefiningInstruction());
  CHECK(ops(T) == "phi phi add phi ret");
}

TEST_CASE_FIXTURE(BlockFixture, "splitAt moves the tail and retargets phis") {
  // e: x = add; y = mul; cond_br c, loop, exit
  // loop: phi [x, e], [z, loop]; z = sub; cond_br c, loop, exit
  // exit: phi [y, e], [z, loop]; ret
  BasicBlock *E = F->createBlock("e"), *L = F->createBlock("loop"),
             *X = F->createBlock("exit");
  B.setInsertPoint(E);
  Value *Vx = B.createBinary(Opcode::Add, A, A);
  Value *Vy = B.createBinary(Opcode::Mul, A, A);
  B.createCondBr(C, L, X);
  B.setInsertPoint(L);
  PhiInst *LP = B.createPhi(I32);
  Value *Vz = B.createBinary(Opcode::Sub, LP->getResult(), A);
  LP->addIncoming(Vx, E);
  LP->addIncoming(Vz, L);
  B.createCondBr(C, L, X);
  B.setInsertPoint(X);
  PhiInst *XP = B.createPhi(I32);
  XP->addIncoming(Vy, E);
  XP->addIncoming(Vz, L);
  B.createRet();

  BasicBlock *E2 = E->splitAt(Vy->getDefiningInstruction()->getIterator(), "e2");
  CHECK(blockOrder() == "e,e2,loop,exit");
  CHECK(ops(E) == "add");
  CHECK(ops(E2) == "mul cond_br");
  CHECK(E->getTerminator() == nullptr);
  CHECK(E->successors().empty());
  CHECK(E2->hasNoPredecessors()); // the caller adds the branch
  CHECK(names(L->predecessors()) == "loop,e2");
  CHECK(names(X->predecessors()) == "loop,e2");
  CHECK(names(LP->getBlockOperands()) == "e2,loop");
  CHECK(names(XP->getBlockOperands()) == "e2,loop");

  // Splitting a block that branches to itself retargets its own phis.
  BasicBlock *L2 = L->splitAt(Vz->getDefiningInstruction()->getIterator(), "loop2");
  CHECK(ops(L) == "phi");
  CHECK(ops(L2) == "sub cond_br");
  CHECK(names(LP->getBlockOperands()) == "e2,loop2");
  CHECK(names(XP->getBlockOperands()) == "e2,loop2");
  CHECK(names(L->predecessors()) == "e2,loop2");
  B.setInsertPoint(E);
  B.createBr(E2);
  B.setInsertPoint(L);
  B.createBr(L2);
  CHECK(F->str() == R"(func @f(%a: i32, %c: i1) {
e:
  %2 = add %a, %a : i32
  br e2
e2:
  %3 = mul %a, %a : i32
  cond_br %c, loop, exit
loop:
  %4 = phi [%2, e2], [%5, loop2] : i32
  br loop2
loop2:
  %5 = sub %4, %a : i32
  cond_br %c, loop, exit
exit:
  %6 = phi [%3, e2], [%5, loop2] : i32
  ret
}
)");
}

TEST_CASE_FIXTURE(BlockFixture, "splitAt a cond_br to one block twice") {
  BasicBlock *E = F->createBlock("e"), *T = F->createBlock("t");
  B.setInsertPoint(E);
  B.createCondBr(C, T, T);
  B.setInsertPoint(T);
  PhiInst *P = B.createPhi(I32);
  P->addIncoming(A, E);
  P->addIncoming(A, E);
  B.createRet();
  BasicBlock *E2 = E->splitAt(E->begin(), "e2");
  CHECK(E->empty());
  CHECK(names(T->predecessors()) == "e2,e2");
  CHECK(names(P->getBlockOperands()) == "e2,e2");
  CHECK(ops(E2) == "cond_br");
}

TEST_CASE_FIXTURE(BlockFixture, "splitAt the end moves nothing") {
  BasicBlock *E = F->createBlock("e"), *T = F->createBlock("t");
  B.setInsertPoint(E);
  B.createBr(T);
  B.setInsertPoint(T);
  PhiInst *P = B.createPhi(I32);
  P->addIncoming(A, E);
  B.createRet();
  BasicBlock *E2 = E->splitAt(E->end(), "e2");
  CHECK(E2->empty());
  CHECK(ops(E) == "br");
  CHECK(names(T->predecessors()) == "e");
  // The edge still comes from e, and so does the phi's value.
  CHECK(names(P->getBlockOperands()) == "e");
}

TEST_CASE_FIXTURE(BlockFixture, "moving and erasing blocks") {
  BasicBlock *B1 = F->createBlock("b1"), *B2 = F->createBlock("b2"),
             *B3 = F->createBlock("b3");
  CHECK(blockOrder() == "b1,b2,b3");
  B1->moveAfter(B3);
  CHECK(blockOrder() == "b2,b3,b1");
  B1->moveBefore(B2);
  CHECK(blockOrder() == "b1,b2,b3");
  B3->moveBefore(B2);
  CHECK(blockOrder() == "b1,b3,b2");
  B2->moveAfter(B1);
  CHECK(blockOrder() == "b1,b2,b3");
  CHECK(B2->getParent() == F);

  B.setInsertPoint(B2);
  B.createBr(B3);
  CHECK(names(B3->predecessors()) == "b2");
  B2->eraseFromParent(); // its edge goes with it
  CHECK(blockOrder() == "b1,b3");
  CHECK(B3->hasNoPredecessors());
}

TEST_CASE_FIXTURE(BlockFixture, "block names and ids") {
  BasicBlock *N = F->createBlock("named");
  BasicBlock *U = F->createBlock();
  CHECK(N->hasName());
  CHECK_FALSE(U->hasName());
  F->renumber();
  CHECK(N->getId() == 0u);
  CHECK(U->getId() == 1u);
  std::string S;
  llvm::raw_string_ostream OS(S);
  N->printAsOperand(OS);
  OS << ' ';
  U->printAsOperand(OS);
  CHECK(S == "named bb1");
  U->setName("later");
  CHECK(U->getName() == "later");
  B.setInsertPoint(N);
  B.createBr(U);
  S.clear();
  N->print(OS);
  CHECK(S == "named:\n  br later\n");
}
