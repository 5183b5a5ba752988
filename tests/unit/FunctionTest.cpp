//===- FunctionTest.cpp - Arguments, blocks and dense ids -----------------===//

#include "ir/Builder.h"
#include "ir/Context.h"
#include "ir/Function.h"
#include "ir/Module.h"

#include <doctest/doctest.h>

using namespace tritium;

TEST_CASE("arguments follow the function type") {
  Context Ctx;
  Module M(Ctx);
  Type *I32 = Type::getI32(Ctx), *P = PointerType::get(Type::getF16(Ctx));
  Function *F = M.createFunction("f", FunctionType::get(Ctx, {P, I32}, {I32}));
  CHECK(F->getParent() == &M);
  CHECK(&F->getContext() == &Ctx);
  CHECK(F->getName() == "f");
  CHECK(F->getFunctionType()->str() == "(ptr<f16>, i32) -> i32");
  CHECK(F->getResultTypes().size() == 1u);
  CHECK(F->getNumArgs() == 2u);
  CHECK(F->getArg(0)->getType() == P);
  CHECK(F->getArg(1)->getType() == I32);
  CHECK(F->getArg(1)->getArgNo() == 1u);
  CHECK(F->getArg(0)->getParent() == F);
  llvm::SmallVector<Argument *, 8> Args = F->args();
  REQUIRE(Args.size() == 2u);
  CHECK(Args[0] == F->getArg(0));
  CHECK(F->getArg(0)->getAttrs().empty());
  F->getArg(0)->getAttrs().Divisibility = 16;
  F->getArg(0)->getAttrs().NoAlias = true;
  F->getArg(1)->getAttrs().EqualTo1 = true;
  F->getArg(1)->getAttrs().ConstantValue = 1;
  F->getArg(0)->setName("ptr");
  CHECK_FALSE(F->isKernel());
  CHECK_FALSE(F->isNoInline());
  F->setNoInline(true);
  BasicBlock *E = F->createBlock("entry");
  IRBuilder B(Ctx);
  B.setInsertPoint(E);
  B.createRet({F->getArg(1)});
  CHECK(F->str() == "func noinline @f(%ptr: ptr<f16> {divisibility=16, "
                    "noalias}, %1: i32 {equal_to_1, constant=1}) -> i32 {\n"
                    "entry:\n"
                    "  ret %1\n"
                    "}\n");
  F->setKernel(true);
  F->setNoInline(false);
  F->setResultTypes({});
  CHECK(F->getResultTypes().empty());
  CHECK(F->getFunctionType() == FunctionType::get(Ctx, {P, I32}, {}));
  CHECK(llvm::StringRef(F->str()).startswith("kernel @f(%ptr"));
  F->setResultTypes({I32, I32});
  CHECK(llvm::StringRef(F->str()).contains(") -> (i32, i32) {"));
}

TEST_CASE("blocks: create, insert, remove, erase") {
  Context Ctx;
  Module M(Ctx);
  Function *F = M.createFunction("g", FunctionType::get(Ctx, {}, {}));
  CHECK(F->empty());
  CHECK(F->getEntryBlock() == nullptr);
  BasicBlock *A = F->createBlock("a");
  BasicBlock *C = F->createBlock("c");
  CHECK(F->size() == 2u);
  CHECK(F->getEntryBlock() == A);
  CHECK(&F->front() == A);
  auto *Bb = new BasicBlock("b");
  auto It = F->insert(C->getIterator(), Bb);
  CHECK(&*It == Bb);
  CHECK(Bb->getParent() == F);
  auto *Z = new BasicBlock("z");
  F->push_back(Z);
  std::string Order;
  for (BasicBlock &BB : *F)
    Order += BB.getName().str();
  CHECK(Order == "abcz");

  CHECK(F->remove(A) == A);
  CHECK(A->getParent() == nullptr);
  CHECK(F->getEntryBlock() == Bb);
  F->insert(F->begin(), A); // back as the entry
  CHECK(F->getEntryBlock() == A);

  // Erasing a block removes the edges of its terminator.
  IRBuilder B(Ctx);
  B.setInsertPoint(Bb);
  B.createBr(C);
  CHECK(C->predecessors().size() == 1u);
  F->erase(Bb);
  CHECK(C->hasNoPredecessors());
  CHECK(F->size() == 3u);
}

TEST_CASE("renumber gives dense ids in block order") {
  Context Ctx;
  Module M(Ctx);
  Type *I32 = Type::getI32(Ctx);
  Function *F = M.createFunction("h", FunctionType::get(Ctx, {I32, I32}, {}));
  BasicBlock *E = F->createBlock("e"), *X = F->createBlock("x");
  IRBuilder B(Ctx);
  B.setInsertPoint(E);
  Value *Sum = B.createBinary(Opcode::Add, F->getArg(0), F->getArg(1));
  Instruction *Br = B.createBr(X);
  B.setInsertPoint(X);
  Value *Pair = B.createJoin(Sum, Sum);
  auto [Lo, Hi] = B.createSplit(Pair);
  Instruction *Ret = B.createRet();

  F->renumber();
  CHECK(F->getNumValueIds() == 6u); // 2 args, add, join, 2 split results
  CHECK(F->getNumInstIds() == 5u);
  CHECK(F->getNumBlockIds() == 2u);
  CHECK(F->getArg(0)->getId() == 0u);
  CHECK(F->getArg(1)->getId() == 1u);
  CHECK(Sum->getId() == 2u);
  CHECK(Pair->getId() == 3u);
  CHECK(Lo->getId() == 4u);
  CHECK(Hi->getId() == 5u);
  CHECK(Sum->getDefiningInstruction()->getId() == 0u);
  CHECK(Br->getId() == 1u);
  CHECK(Ret->getId() == 4u);
  CHECK(E->getId() == 0u);
  CHECK(X->getId() == 1u);

  // Moving a block changes the numbering on the next renumber.
  X->moveBefore(E);
  F->renumber();
  CHECK(X->getId() == 0u);
  CHECK(Pair->getId() == 2u);
  CHECK(Sum->getId() == 5u);
  CHECK(Br->getId() == 4u);
}

TEST_CASE("a function deletes blocks that use each other") {
  Context Ctx;
  Module M(Ctx);
  Type *I32 = Type::getI32(Ctx);
  auto *F = new Function(&M, "loop", FunctionType::get(Ctx, {I32}, {}));
  BasicBlock *E = F->createBlock("e"), *L = F->createBlock("l");
  IRBuilder B(Ctx);
  B.setInsertPoint(E);
  B.createBr(L);
  B.setInsertPoint(L);
  PhiInst *P = B.createPhi(I32);
  Value *Next = B.createBinary(Opcode::Add, P->getResult(), F->getArg(0));
  P->addIncoming(F->getArg(0), E);
  P->addIncoming(Next, L);
  B.createBr(L);
  // A value defined in a later block and used in an earlier one.
  B.setInsertPoint(E, E->begin());
  B.createBinary(Opcode::Mul, Next, Next);
  CHECK(F->getArg(0)->getNumUses() == 2u);
  delete F; // must not assert on any use
}
