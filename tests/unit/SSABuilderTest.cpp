//===- SSABuilderTest.cpp - SSA construction for the frontend's shapes ----===//
//
// Each case builds a function the way the Python frontend will: blocks are
// created and sealed in the order the AST walker reaches them (reference
// §1.5), variables are written and read through the SSABuilder, and reads are
// stored through %p so that they show in the printed IR.
//
//===----------------------------------------------------------------------===//

#include "ir/Builder.h"
#include "ir/Context.h"
#include "ir/Diagnostics.h"
#include "ir/Function.h"
#include "ir/Module.h"
#include "ir/SSABuilder.h"
#include "ir/Verifier.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace tritium;

namespace {

/// kernel @k(%n: i32, %c: i1, %p: ptr<i32>) with a sealed entry block.
struct SSAFixture {
  Context Ctx;
  Module M{Ctx};
  Function *F;
  IRBuilder B{Ctx};
  SSABuilder SSA{Ctx};
  Type *I32 = Type::getI32(Ctx);
  BasicBlock *Entry;

  SSAFixture() {
    Type *Params[] = {I32, Type::getI1(Ctx), PointerType::get(I32)};
    F = M.createFunction("k", FunctionType::get(Ctx, Params, {}));
    F->setKernel(true);
    const char *Names[] = {"n", "c", "p"};
    for (unsigned I = 0; I < 3; ++I)
      F->getArg(I)->setName(Names[I]);
    Entry = F->createBlock("entry");
    SSA.sealBlock(Entry);
    B.setInsertPoint(Entry);
    write("n", F->getArg(0));
  }

  BasicBlock *block(llvm::StringRef Name) { return F->createBlock(Name); }
  void at(BasicBlock *BB) { B.setInsertPoint(BB); }
  BasicBlock *cur() { return B.getInsertBlock(); }
  void write(llvm::StringRef Var, Value *V) {
    SSA.writeVariable(Var, cur(), V);
  }
  Value *read(llvm::StringRef Var) { return SSA.readVariable(Var, cur()); }
  Value *c(int64_t V) { return B.getInt32(V); }
  Value *cond() { return F->getArg(1); }
  /// Reads \p Var and stores it, so the read shows in the IR.
  void use(llvm::StringRef Var) {
    Value *V = read(Var);
    REQUIRE(V);
    B.createStore(F->getArg(2), V);
  }
  Value *add(Value *L, Value *R) { return B.createBinary(Opcode::Add, L, R); }
  std::string ir() { return F->str(); }
  /// The verifier's complaints about the function (none expected).
  std::vector<std::string> verify() { return verifyFunction(*F); }
};

} // namespace

TEST_CASE_FIXTURE(SSAFixture, "straight-line code needs no phis") {
  use("n");
  write("x", add(read("n"), c(1)));
  write("x", add(read("x"), c(2)));
  use("x");
  B.createRet();
  CHECK(verify().empty());
  CHECK(ir() == R"(kernel @k(%n: i32, %c: i1, %p: ptr<i32>) {
entry:
  store %p, %n
  %3 = constant 1 : i32
  %4 = add %n, %3 : i32
  %5 = constant 2 : i32
  %6 = add %4, %5 : i32
  store %p, %6
  ret
}
)");
}

TEST_CASE_FIXTURE(SSAFixture, "if/else diamond joins in a phi") {
  // x = 1
  // if c: x = 2
  // else: x = 3
  // store x; store n
  write("x", c(1));
  BasicBlock *Then = block("then"), *Else = block("else"),
             *Merge = block("merge");
  B.createCondBr(cond(), Then, Else);
  SSA.sealBlock(Then);
  SSA.sealBlock(Else);
  at(Then);
  write("x", c(2));
  B.createBr(Merge);
  at(Else);
  write("x", c(3));
  B.createBr(Merge);
  SSA.sealBlock(Merge);
  at(Merge);
  use("x");
  use("n");
  B.createRet();
  CHECK(verify().empty());
  CHECK(ir() == R"(kernel @k(%n: i32, %c: i1, %p: ptr<i32>) {
entry:
  %3 = constant 1 : i32
  cond_br %c, then, else
then:
  %4 = constant 2 : i32
  br merge
else:
  %5 = constant 3 : i32
  br merge
merge:
  %x = phi [%4, then], [%5, else] : i32
  store %p, %x
  store %p, %n
  ret
}
)");
}

TEST_CASE_FIXTURE(SSAFixture, "if without else joins the old and new value") {
  // x = 1
  // if c: x = x + 1
  // store x
  write("x", c(1));
  BasicBlock *Then = block("then"), *Merge = block("merge");
  B.createCondBr(cond(), Then, Merge);
  SSA.sealBlock(Then);
  at(Then);
  write("x", add(read("x"), c(1)));
  B.createBr(Merge);
  SSA.sealBlock(Merge);
  at(Merge);
  use("x");
  B.createRet();
  CHECK(verify().empty());
  CHECK(ir() == R"(kernel @k(%n: i32, %c: i1, %p: ptr<i32>) {
entry:
  %3 = constant 1 : i32
  cond_br %c, then, merge
then:
  %4 = constant 1 : i32
  %5 = add %3, %4 : i32
  br merge
merge:
  %x = phi [%3, entry], [%5, then] : i32
  store %p, %x
  ret
}
)");
}

TEST_CASE_FIXTURE(SSAFixture, "nested ifs place a phi at each join") {
  // x = 0; y = 0
  // if c:
  //   if c: x = 1
  //   else: y = 2       (y: unchanged on the other inner path)
  // store x; store y
  write("x", c(0));
  write("y", c(0));
  BasicBlock *Outer = block("outer"), *In1 = block("in1"), *In2 = block("in2"),
             *InMerge = block("inmerge"), *Merge = block("merge");
  B.createCondBr(cond(), Outer, Merge);
  SSA.sealBlock(Outer);
  at(Outer);
  B.createCondBr(cond(), In1, In2);
  SSA.sealBlock(In1);
  SSA.sealBlock(In2);
  at(In1);
  write("x", c(1));
  B.createBr(InMerge);
  at(In2);
  write("y", c(2));
  B.createBr(InMerge);
  SSA.sealBlock(InMerge);
  at(InMerge);
  B.createBr(Merge);
  SSA.sealBlock(Merge);
  at(Merge);
  use("x");
  use("y");
  B.createRet();
  CHECK(verify().empty());
  // Each join gets one phi per variable; in2 and in1 find the outer values
  // through their single predecessors.
  CHECK(ir() == R"(kernel @k(%n: i32, %c: i1, %p: ptr<i32>) {
entry:
  %3 = constant 0 : i32
  %4 = constant 0 : i32
  cond_br %c, outer, merge
outer:
  cond_br %c, in1, in2
in1:
  %5 = constant 1 : i32
  br inmerge
in2:
  %6 = constant 2 : i32
  br inmerge
inmerge:
  %y = phi [%4, in1], [%6, in2] : i32
  %x = phi [%5, in1], [%3, in2] : i32
  br merge
merge:
  %9 = phi [%4, entry], [%y, inmerge] : i32
  %10 = phi [%3, entry], [%x, inmerge] : i32
  store %p, %10
  store %p, %9
  ret
}
)");
}

TEST_CASE_FIXTURE(SSAFixture, "while loop carries its variables in header phis") {
  // i = 0; s = 0
  // while i < n:
  //   s = s + i
  //   i = i + 1
  // store s
  write("i", c(0));
  write("s", c(0));
  BasicBlock *Header = block("header"), *Body = block("body"),
             *Exit = block("exit");
  B.createBr(Header);
  at(Header); // not sealed: the back edge is still to come
  Value *Cmp = B.createICmp(ICmpPredicate::SLT, read("i"), read("n"));
  B.createCondBr(Cmp, Body, Exit);
  SSA.sealBlock(Body);
  at(Body);
  write("s", add(read("s"), read("i")));
  write("i", add(read("i"), c(1)));
  B.createBr(Header);
  SSA.sealBlock(Header);
  SSA.sealBlock(Exit);
  at(Exit);
  use("s");
  B.createRet();
  CHECK(verify().empty());
  // n is only read in the loop: its header phi [%n, %n-self] was trivial.
  CHECK(ir() == R"(kernel @k(%n: i32, %c: i1, %p: ptr<i32>) {
entry:
  %3 = constant 0 : i32
  %4 = constant 0 : i32
  br header
header:
  %s = phi [%4, entry], [%8, body] : i32
  %i = phi [%3, entry], [%10, body] : i32
  %7 = icmp slt %i, %n : i1
  cond_br %7, body, exit
body:
  %8 = add %s, %i : i32
  %9 = constant 1 : i32
  %10 = add %i, %9 : i32
  br header
exit:
  store %p, %s
  ret
}
)");
}

TEST_CASE_FIXTURE(SSAFixture, "nested loops keep only the phis that merge") {
  // i = 0; t = 0
  // while i < n:
  //   j = 0
  //   while j < i:
  //     t = t + j
  //     j = j + 1
  //   i = i + 1
  // store t
  write("i", c(0));
  write("t", c(0));
  BasicBlock *H1 = block("h1"), *B1 = block("b1"), *H2 = block("h2"),
             *B2 = block("b2"), *X2 = block("x2"), *X1 = block("x1");
  B.createBr(H1);
  at(H1);
  B.createCondBr(B.createICmp(ICmpPredicate::SLT, read("i"), read("n")), B1,
                 X1);
  SSA.sealBlock(B1);
  at(B1);
  write("j", c(0));
  B.createBr(H2);
  at(H2);
  B.createCondBr(B.createICmp(ICmpPredicate::SLT, read("j"), read("i")), B2,
                 X2);
  SSA.sealBlock(B2);
  at(B2);
  write("t", add(read("t"), read("j")));
  write("j", add(read("j"), c(1)));
  B.createBr(H2);
  SSA.sealBlock(H2);
  SSA.sealBlock(X2);
  at(X2);
  write("i", add(read("i"), c(1)));
  B.createBr(H1);
  SSA.sealBlock(H1);
  SSA.sealBlock(X1);
  at(X1);
  use("t");
  B.createRet();
  CHECK(verify().empty());
  // h2's phi of i (only read in the inner loop) and both phis of n were
  // trivial; t is carried by both loops (%9 is h2's), j by the inner one.
  CHECK(ir() == R"(kernel @k(%n: i32, %c: i1, %p: ptr<i32>) {
entry:
  %3 = constant 0 : i32
  %4 = constant 0 : i32
  br h1
h1:
  %t = phi [%4, entry], [%9, x2] : i32
  %i = phi [%3, entry], [%16, x2] : i32
  %7 = icmp slt %i, %n : i1
  cond_br %7, b1, x1
b1:
  %8 = constant 0 : i32
  br h2
h2:
  %9 = phi [%t, b1], [%12, b2] : i32
  %j = phi [%8, b1], [%14, b2] : i32
  %11 = icmp slt %j, %i : i1
  cond_br %11, b2, x2
b2:
  %12 = add %9, %j : i32
  %13 = constant 1 : i32
  %14 = add %j, %13 : i32
  br h2
x2:
  %15 = constant 1 : i32
  %16 = add %i, %15 : i32
  br h1
x1:
  store %p, %t
  ret
}
)");
}

TEST_CASE_FIXTURE(SSAFixture, "a variable only read in a loop gets no phi") {
  // x = n
  // while c:
  //   store x
  BasicBlock *H = block("header"), *Body = block("body"), *Exit = block("exit");
  write("x", read("n"));
  B.createBr(H);
  at(H);
  B.createCondBr(cond(), Body, Exit);
  SSA.sealBlock(Body);
  at(Body);
  use("x");
  Value *Incomplete = read("x");
  CHECK(Incomplete->getName() == "x"); // the header's incomplete phi
  CHECK(H->phis().size() == 1);
  B.createBr(H);
  SSA.sealBlock(H);
  SSA.sealBlock(Exit);
  at(Exit);
  CHECK(read("x") == F->getArg(0));
  // The recorded definitions in header and body now name %n too.
  CHECK(SSA.readVariable("x", Body) == F->getArg(0));
  CHECK(SSA.readVariable("x", H) == F->getArg(0));
  B.createRet();
  CHECK(verify().empty());
  CHECK(H->phis().empty());
  CHECK(ir() == R"(kernel @k(%n: i32, %c: i1, %p: ptr<i32>) {
entry:
  br header
header:
  cond_br %c, body, exit
body:
  store %p, %n
  br header
exit:
  ret
}
)");
}

TEST_CASE_FIXTURE(SSAFixture, "removing a phi re-checks the phis that use it") {
  // x = n; while c: { if c: x = n } ; y = x ; store x ; x = n }
  // At the join inside the loop x is phi(n, header phi); once the header
  // is sealed its phi is phi(n, n) = n, which makes the join's phi trivial.
  BasicBlock *H = block("header"), *Body = block("body"), *Then = block("then"),
             *Join = block("join"), *Exit = block("exit");
  write("x", F->getArg(0));
  B.createBr(H);
  at(H);
  B.createCondBr(cond(), Body, Exit);
  SSA.sealBlock(Body);
  at(Body);
  B.createCondBr(cond(), Then, Join);
  SSA.sealBlock(Then);
  at(Then);
  write("x", F->getArg(0));
  B.createBr(Join);
  SSA.sealBlock(Join);
  at(Join);
  use("x");
  write("y", read("x")); // y records the join's phi, a phi of x
  CHECK(Join->phis().size() == 1);
  CHECK(H->phis().size() == 1);
  write("x", F->getArg(0));
  B.createBr(H);
  SSA.sealBlock(H);
  CHECK(Join->phis().empty());
  CHECK(H->phis().empty());
  // The removed phis are unlinked and kept, operandless, until taken: a
  // handle to one still points at valid memory.
  std::vector<std::unique_ptr<Instruction>> Removed = SSA.takeRemovedPhis();
  CHECK(Removed.size() == 2);
  for (const std::unique_ptr<Instruction> &Phi : Removed) {
    CHECK(Phi->getParent() == nullptr);
    for (unsigned K = 0; K < Phi->getNumOperands(); ++K)
      CHECK(Phi->getOperand(K) == nullptr);
    CHECK(Phi->getResult(0)->use_empty());
  }
  CHECK(SSA.takeRemovedPhis().empty());
  CHECK(SSA.readVariable("y", Join) == F->getArg(0));
  CHECK(SSA.readVariable("x", Body) == F->getArg(0));
  SSA.sealBlock(Exit);
  at(Exit);
  use("y"); // y is defined only inside the loop: phi(undef, n) in exit's
            // single predecessor, the header
  B.createRet();
  CHECK(verify().empty());
  CHECK(ir() == R"(kernel @k(%n: i32, %c: i1, %p: ptr<i32>) {
entry:
  %3 = undef : i32
  br header
header:
  %y = phi [%3, entry], [%n, join] : i32
  cond_br %c, body, exit
body:
  cond_br %c, then, join
then:
  br join
join:
  store %p, %n
  br header
exit:
  store %p, %y
  ret
}
)");
}

TEST_CASE_FIXTURE(SSAFixture, "a variable defined only in a branch") {
  // if c: y = 1
  // else: (y is not defined here)
  // store y   (undef on the else path)
  BasicBlock *Then = block("then"), *Else = block("else"), *Merge = block("merge");
  B.createCondBr(cond(), Then, Else);
  SSA.sealBlock(Then);
  SSA.sealBlock(Else);
  at(Then);
  CHECK_FALSE(SSA.isDefined("y", Then));
  write("y", c(1));
  CHECK(SSA.isDefined("y", Then));
  B.createBr(Merge);
  at(Else);
  CHECK_FALSE(SSA.isDefined("y", Else));
  CHECK(read("y") == nullptr);
  B.createBr(Merge);
  SSA.sealBlock(Merge);
  at(Merge);
  CHECK(SSA.isDefined("y", Merge));
  use("y");
  // Reading made else's definition an undef: still "not defined" there.
  CHECK(SSA.readVariable("y", Else) == nullptr);
  CHECK_FALSE(SSA.isDefined("y", Else));
  CHECK(SSA.readVariable("never", Merge) == nullptr);
  CHECK_FALSE(SSA.isDefined("never", Merge));
  B.createRet();
  CHECK(verify().empty());
  CHECK(ir() == R"(kernel @k(%n: i32, %c: i1, %p: ptr<i32>) {
entry:
  %3 = undef : i32
  cond_br %c, then, else
then:
  %4 = constant 1 : i32
  br merge
else:
  br merge
merge:
  %y = phi [%4, then], [%3, else] : i32
  store %p, %y
  ret
}
)");
}

TEST_CASE_FIXTURE(SSAFixture, "many variables in one loop") {
  // v0..v39 = 0..39; while c: every even v += 1; store all
  const int N = 40;
  auto Name = [](int I) { return "v" + std::to_string(I); };
  for (int I = 0; I < N; ++I)
    write(Name(I), c(I));
  BasicBlock *H = block("header"), *Body = block("body"), *Exit = block("exit");
  B.createBr(H);
  at(H);
  B.createCondBr(cond(), Body, Exit);
  SSA.sealBlock(Body);
  at(Body);
  for (int I = 0; I < N; ++I)
    if (I % 2 == 0)
      write(Name(I), add(read(Name(I)), c(1)));
    else
      use(Name(I));
  B.createBr(H);
  SSA.sealBlock(H);
  SSA.sealBlock(Exit);
  at(Exit);
  for (int I = 0; I < N; ++I)
    use(Name(I));
  B.createRet();
  CHECK(verify().empty());
  REQUIRE(H->phis().size() == N / 2);
  for (int I = 0; I < N; ++I) {
    Value *V = SSA.readVariable(Name(I), Exit);
    if (I % 2 == 0) {
      CHECK(V->getName() == Name(I));
      CHECK(llvm::isa<PhiInst>(V->getDefiningInstruction()));
    } else {
      CHECK(getConstantIntValue(V) == I);
    }
  }
  // The first header phi is the last one created: v38's.
  PhiInst *P = H->phis().front();
  CHECK(P->str() == "%v38 = phi [%41, entry], [%102, body] : i32");
}

TEST_CASE_FIXTURE(SSAFixture, "a join of two paths from one block") {
  // cond_br %c, m, m: m has the predecessor entry twice.
  write("x", c(7));
  BasicBlock *M = block("m");
  B.createCondBr(cond(), M, M);
  SSA.sealBlock(M);
  at(M);
  CHECK(M->predecessors().size() == 2);
  use("x");
  B.createRet();
  CHECK(verify().empty());
  CHECK(M->phis().empty());
  CHECK(ir() == R"(kernel @k(%n: i32, %c: i1, %p: ptr<i32>) {
entry:
  %3 = constant 7 : i32
  cond_br %c, m, m
m:
  store %p, %3
  ret
}
)");
}

TEST_CASE_FIXTURE(SSAFixture, "an unreachable cycle of blocks ends the search") {
  // u: br u (nothing enters u); m joins entry and u.
  write("x", c(7));
  BasicBlock *U = block("u"), *M = block("m");
  B.createBr(M);
  at(U);
  B.createCondBr(cond(), U, M);
  SSA.sealBlock(U);
  SSA.sealBlock(M);
  at(M);
  use("x");
  B.createRet();
  CHECK(verify().empty());
  CHECK(ir() == R"(kernel @k(%n: i32, %c: i1, %p: ptr<i32>) {
entry:
  %3 = constant 7 : i32
  br m
u:
  %4 = undef : i32
  cond_br %c, u, m
m:
  %x = phi [%3, entry], [%4, u] : i32
  store %p, %x
  ret
}
)");
}

TEST_CASE_FIXTURE(SSAFixture, "types that differ between paths are an error") {
  SUBCASE("at a join") {
    BasicBlock *Then = block("then"), *Else = block("else"),
               *Merge = block("merge");
    B.createCondBr(cond(), Then, Else);
    SSA.sealBlock(Then);
    SSA.sealBlock(Else);
    at(Then);
    write("x", c(1));
    B.createBr(Merge);
    at(Else);
    write("x", B.getFloatConstant(B.getF32Ty(), 1.0));
    B.createBr(Merge);
    SSA.sealBlock(Merge);
    at(Merge);
    SSA.setLoc({"k.py", 7, 5});
    try {
      read("x");
      FAIL("no error");
    } catch (const CompileError &E) {
      CHECK(E.describe() ==
            "k.py:7:5: variable 'x' has type i32 on one path and f32 on another");
    }
  }
  SUBCASE("around a loop") {
    // x = 0; while c: x = x.to(f32)...  the back edge brings an f32.
    write("x", c(0));
    BasicBlock *H = block("header"), *Body = block("body");
    B.createBr(H);
    at(H);
    read("x");
    B.createCondBr(cond(), Body, Body);
    SSA.sealBlock(Body);
    at(Body);
    write("x", B.createCast(Opcode::SIToFP, read("x"), B.getF32Ty()));
    B.createBr(H);
    CHECK_THROWS_WITH_AS(
        SSA.sealBlock(H),
        "variable 'x' has type i32 on one path and f32 on another",
        CompileError);
  }
  SUBCASE("not when the other type does not reach the read") {
    // x = 0; if c: x = 1.0 else: while c: x = x + 1
    write("x", c(0));
    BasicBlock *Then = block("then"), *Else = block("else"),
               *H = block("header"), *Body = block("body");
    B.createCondBr(cond(), Then, Else);
    SSA.sealBlock(Then);
    SSA.sealBlock(Else);
    at(Then);
    write("x", B.getFloatConstant(B.getF32Ty(), 1.0));
    at(Else);
    B.createBr(H);
    at(H);
    B.createCondBr(cond(), Body, Body);
    SSA.sealBlock(Body);
    at(Body);
    Value *X = read("x");
    CHECK(X->getType() == I32);
    write("x", add(X, c(1)));
    B.createBr(H);
    CHECK_NOTHROW(SSA.sealBlock(H));
  }
}
