//===- ValueTest.cpp - Use lists, RAUW, names and ids ---------------------===//

#include "ir/Builder.h"
#include "ir/Context.h"
#include "ir/Function.h"
#include "ir/Module.h"

#include <doctest/doctest.h>

using namespace tritium;

namespace {

/// func @f(%a: i32, %b: i32) with an entry block as insertion point.
struct ValueFixture {
  Context Ctx;
  Module M{Ctx};
  Type *I32 = Type::getI32(Ctx);
  Function *F;
  IRBuilder B{Ctx};
  Argument *A, *Bv;

  ValueFixture() {
    F = M.createFunction("f", FunctionType::get(Ctx, {I32, I32}, {}));
    A = F->getArg(0);
    Bv = F->getArg(1);
    A->setName("a");
    Bv->setName("b");
    B.setInsertPoint(F->createBlock("entry"));
  }
  Instruction *add(Value *L, Value *R) {
    return B.createBinary(Opcode::Add, L, R)->getDefiningInstruction();
  }
};

std::string operandStr(const Value &V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  V.printAsOperand(OS);
  return S;
}

} // namespace

TEST_CASE_FIXTURE(ValueFixture, "use lists track every operand slot") {
  CHECK(A->use_empty());
  CHECK(A->getNumUses() == 0u);
  CHECK_FALSE(A->hasOneUse());

  Instruction *X = add(A, Bv);
  CHECK(A->hasOneUse());
  CHECK(A->getNumUses() == 1u);
  Use &U = *A->uses().begin();
  CHECK(U.get() == A);
  CHECK(U.getUser() == X);
  CHECK(U.getOperandNo() == 0u);
  CHECK(Bv->uses().begin()->getOperandNo() == 1u);

  // An instruction using a value twice is two uses.
  Instruction *Y = add(A, A);
  CHECK(A->getNumUses() == 3u);
  CHECK_FALSE(A->hasOneUse());
  // Newest use first.
  llvm::SmallVector<Instruction *, 4> Users = A->getUsers();
  REQUIRE(Users.size() == 3u);
  CHECK(Users[0] == Y);
  CHECK(Users[1] == Y);
  CHECK(Users[2] == X);
  llvm::SmallVector<unsigned, 4> Nos;
  for (Use &U : A->uses())
    Nos.push_back(U.getOperandNo());
  CHECK(Nos == llvm::SmallVector<unsigned, 4>{1, 0, 0});

  // Use::set moves a slot from one list to another; null empties it.
  Y->getOperandUse(1).set(Bv);
  CHECK(A->getNumUses() == 2u);
  CHECK(Bv->getNumUses() == 2u);
  CHECK(Y->getOperand(1) == Bv);
  Y->getOperandUse(0).set(nullptr);
  CHECK(A->getNumUses() == 1u);
  CHECK(Y->getOperand(0) == nullptr);
  Y->getOperandUse(0).set(A);
  CHECK(A->getNumUses() == 2u);
}

TEST_CASE_FIXTURE(ValueFixture, "removing uses from the middle of a list") {
  Instruction *X = add(A, Bv), *Y = add(A, Bv), *Z = add(A, Bv);
  CHECK(A->getNumUses() == 3u);
  Y->setOperand(0, Bv); // the middle entry of A's list
  CHECK(A->getUsers() == llvm::SmallVector<Instruction *, 4>{Z, X});
  Z->setOperand(0, Bv); // the head
  CHECK(A->getUsers() == llvm::SmallVector<Instruction *, 4>{X});
  X->setOperand(0, Bv); // the last one
  CHECK(A->use_empty());
  CHECK(Bv->getNumUses() == 6u);
}

TEST_CASE_FIXTURE(ValueFixture, "replaceAllUsesWith moves every use") {
  Instruction *X = add(A, A);
  Instruction *Y = add(X->getResult(), A);
  Instruction *Z = add(Bv, Bv);
  A->replaceAllUsesWith(Bv);
  CHECK(A->use_empty());
  CHECK(Bv->getNumUses() == 5u);
  CHECK(X->getOperand(0) == Bv);
  CHECK(X->getOperand(1) == Bv);
  CHECK(Y->getOperand(0) == X->getResult());
  CHECK(Y->getOperand(1) == Bv);
  X->getResult()->replaceAllUsesWith(Z->getResult());
  CHECK(X->use_empty());
  CHECK(Y->getOperand(0) == Z->getResult());
  CHECK(Z->getResult()->getNumUses() == 1u);
  // Nothing to move: a no-op.
  A->replaceAllUsesWith(Bv);
  CHECK(Bv->getNumUses() == 5u);
  B.createRet();
  CHECK(F->str() == "func @f(%a: i32, %b: i32) {\n"
                    "entry:\n"
                    "  %2 = add %b, %b : i32\n"
                    "  %3 = add %4, %b : i32\n"
                    "  %4 = add %b, %b : i32\n"
                    "  ret\n"
                    "}\n");
}

TEST_CASE_FIXTURE(ValueFixture, "names, ids and printing") {
  Instruction *X = add(A, Bv);
  Value *R = X->getResult();
  CHECK_FALSE(R->hasName());
  CHECK(R->getName() == "");
  CHECK(A->hasName());
  CHECK(A->getName() == "a");
  R->setId(42);
  CHECK(R->getId() == 42u);
  CHECK(operandStr(*R) == "%42");
  R->setName("sum");
  CHECK(operandStr(*R) == "%sum");
  R->setName("");
  CHECK_FALSE(R->hasName());

  F->renumber();
  CHECK(A->getId() == 0u);
  CHECK(Bv->getId() == 1u);
  CHECK(R->getId() == 2u);
  CHECK(operandStr(*R) == "%2");

  std::string S;
  llvm::raw_string_ostream OS(S);
  A->print(OS);
  OS << '|';
  R->print(OS);
  CHECK(S == "%a: i32|%2 = add %a, %b : i32");
}

TEST_CASE_FIXTURE(ValueFixture, "kinds, owners and types") {
  Instruction *X = add(A, Bv);
  Result *R = X->getResult();
  CHECK(A->getValueKind() == Value::Kind::Argument);
  CHECK(R->getValueKind() == Value::Kind::Result);
  CHECK(llvm::isa<Argument>(A));
  CHECK_FALSE(llvm::isa<Result>(A));
  CHECK(llvm::isa<Result>(R));
  CHECK(A->getArgNo() == 0u);
  CHECK(Bv->getArgNo() == 1u);
  CHECK(A->getParent() == F);
  CHECK(A->getFunction() == F);
  CHECK(A->getDefiningInstruction() == nullptr);
  CHECK(R->getOwner() == X);
  CHECK(R->getIndex() == 0u);
  CHECK(R->getDefiningInstruction() == X);
  CHECK(R->getFunction() == F);
  CHECK(R->getType() == I32);

  // An unattached instruction belongs to no function.
  Instruction *Free = Instruction::create(Ctx, Opcode::Add, {I32}, {A, A});
  CHECK(Free->getResult()->getFunction() == nullptr);
  delete Free;
  CHECK(A->getNumUses() == 1u);

  // Multiple results: one Result per index.
  Value *Pair = B.createJoin(A, Bv);
  auto [Lo, Hi] = B.createSplit(Pair);
  CHECK(llvm::cast<Result>(Lo)->getIndex() == 0u);
  CHECK(llvm::cast<Result>(Hi)->getIndex() == 1u);
  CHECK(Lo->getDefiningInstruction() == Hi->getDefiningInstruction());

  R->mutateType(Type::getI64(Ctx));
  CHECK(R->getType() == Type::getI64(Ctx));
}

TEST_CASE("argument attributes") {
  ArgAttrs A;
  CHECK(A.empty());
  ArgAttrs B = A;
  CHECK(A == B);
  B.Divisibility = 16;
  CHECK_FALSE(B.empty());
  CHECK_FALSE(A == B);
  ArgAttrs C;
  C.ConstantValue = 0; // a known zero is still a fact
  CHECK_FALSE(C.empty());
  CHECK_FALSE(C == A);
  ArgAttrs D;
  D.EqualTo1 = true;
  CHECK_FALSE(D.empty());
  ArgAttrs E;
  E.NoAlias = true;
  CHECK_FALSE(E.empty());
  CHECK_FALSE(D == E);
}
