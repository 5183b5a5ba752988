//===- SemanticControlFlowTest.cpp - Functions, variables, phis, calls ----===//
//
// The walker's protocol (docs/frontend.md): blocks are created, branched to
// and sealed; Python variables are written and read through the semantic,
// which places phis and types them from what flows in.
//
//===----------------------------------------------------------------------===//

#include "SemanticTestUtil.h"

#include "ir/Instructions.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;
using Op = Semantic::BinOp;

TEST_CASE("parameters are variables and arguments") {
  SemFixture T({{"p", ptr("fp16")}, {"n", dt("uint32")}});
  CHECK(T.S.getArg(1).Ty->getName() == "uint32");
  CHECK(T.S.getArg(0).V == T.F->getArg(0));
  CHECK(T.v("n").Ty->getName() == "uint32");
  CHECK(T.S.getDType(T.F->getArg(1))->getName() == "uint32");
  CHECK(T.F->isKernel());
  CHECK_FALSE(T.S.isTerminated());
  T.S.ret({});
  CHECK(T.S.isTerminated());
  CHECK_FALSE(T.S.readVar("m"));
  T.S.endFunction();
  CHECK(T.M.str() == "kernel @k(%p: ptr<f16>, %n: i32) {\n"
                     "entry:\n"
                     "  ret\n"
                     "}\n");
}

TEST_CASE("if/else: the phi has the type of what flows in") {
  SemFixture T({{"x", dt("uint32")}, {"c", dt("int1")}});
  Semantic &S = T.S;
  BasicBlock *Then = S.createBlock("then"), *Else = S.createBlock("else");
  BasicBlock *Merge = S.createBlock("merge");
  S.condBr(T.v("c"), Then, Else);
  S.seal(Then);
  S.seal(Else);
  S.setInsertBlock(Then);
  S.writeVar("y", S.binary(Op::Add, T.v("x"), lit(1)));
  S.br(Merge);
  S.setInsertBlock(Else);
  S.writeVar("y", S.binary(Op::Mul, T.v("x"), lit(2)));
  S.br(Merge);
  S.seal(Merge);
  S.setInsertBlock(Merge);
  TValue Y = *S.readVar("y");
  CHECK(Y.Ty->getName() == "uint32");
  CHECK(S.getDType(Y.V)->getName() == "uint32");
  // A comparison on the phi is unsigned.
  S.compare(Semantic::CmpOp::LT, Y, lit(10));
  S.ret({});
  S.endFunction();
  CHECK(T.body() == "cond_br %c, then, else\n"
                    "then:\n"
                    "%2 = constant 1 : i32\n"
                    "%3 = add %x, %2 : i32\n"
                    "br merge\n"
                    "else:\n"
                    "%4 = constant 2 : i32\n"
                    "%5 = mul %x, %4 : i32\n"
                    "br merge\n"
                    "merge:\n"
                    "%y = phi [%3, then], [%5, else] : i32\n"
                    "%7 = constant 10 : i32\n"
                    "%8 = icmp ult %y, %7 : i1\n"
                    "ret\n");
}

namespace {
/// if c: y = A  else: y = B; then reads y after the join.
std::string joinError(DType *A, DType *B) {
  SemFixture T({{"a", A}, {"b", B}, {"c", dt("int1")}});
  Semantic &S = T.S;
  BasicBlock *Then = S.createBlock("then"), *Else = S.createBlock("else");
  BasicBlock *Merge = S.createBlock("merge");
  S.condBr(T.v("c"), Then, Else);
  S.seal(Then);
  S.seal(Else);
  S.setInsertBlock(Then);
  S.writeVar("y", T.v("a"));
  S.br(Merge);
  S.setInsertBlock(Else);
  S.writeVar("y", T.v("b"));
  S.br(Merge);
  S.seal(Merge);
  S.setInsertBlock(Merge);
  return T.errorOf([&] { S.readVar("y"); });
}
} // namespace

TEST_CASE("a variable of two types at a join is an error in dtypes") {
  CHECK(joinError(dt("int32"), dt("uint32")) ==
        "variable 'y' has type int32 on one path and uint32 on another; give "
        "it one type on every path (cast with .to())");
  CHECK(joinError(dt("int32"), dt("fp32")) ==
        "variable 'y' has type int32 on one path and fp32 on another; give it "
        "one type on every path (cast with .to())");
  CHECK(joinError(ptr("fp32"), ptr("fp32", true)) ==
        "variable 'y' has type pointer<fp32> on one path and "
        "const_pointer<fp32> on another; give it one type on every path "
        "(cast with .to())");
}

TEST_CASE("a variable written on one path only") {
  SemFixture T({{"c", dt("int1")}});
  Semantic &S = T.S;
  BasicBlock *Then = S.createBlock("then"), *Merge = S.createBlock("merge");
  S.condBr(T.v("c"), Then, Merge);
  S.seal(Then);
  S.setInsertBlock(Then);
  S.writeVar("y", S.constant(lit(7), dt("uint8")));
  S.br(Merge);
  S.seal(Merge);
  S.setInsertBlock(Merge);
  // The path without a write brings an undef, which does not type the phi.
  std::optional<TValue> Y = S.readVar("y");
  REQUIRE(Y);
  CHECK(Y->Ty->getName() == "uint8");
}

TEST_CASE("a loop: phis read before the back edge, checked at sealing") {
  SemFixture T({{"n", dt("int32")}, {"u", dt("uint32")}});
  Semantic &S = T.S;
  BasicBlock *Header = S.createBlock("header"), *Body = S.createBlock("body");
  BasicBlock *Exit = S.createBlock("exit");
  S.writeVar("i", S.constant(lit(0)));
  S.writeVar("acc", T.v("u"));
  S.br(Header);
  S.setInsertBlock(Header);
  TValue I = *S.readVar("i");
  CHECK(I.Ty->getName() == "int32");
  S.condBr(S.compare(Semantic::CmpOp::LT, I, T.v("n")), Body, Exit);
  S.seal(Body);
  S.setInsertBlock(Body);
  // Nothing flows into the header's phi yet: it is assumed to keep the
  // type written before the loop (uint32, not the IR's signless i32).
  TValue Acc = *S.readVar("acc");
  CHECK(Acc.Ty->getName() == "uint32");
  S.writeVar("acc", S.binary(Op::Shr, Acc, lit(1)));
  S.writeVar("i", S.binary(Op::Add, *S.readVar("i"), lit(1)));
  S.br(Header);
  S.seal(Header);
  S.seal(Exit);
  S.setInsertBlock(Exit);
  TValue Out = *S.readVar("acc");
  CHECK(Out.Ty->getName() == "uint32");
  CHECK(S.getDType(Out.V)->getName() == "uint32");
  S.ret({});
  S.endFunction();
  CHECK(T.body() == "%2 = constant 0 : i32\n"
                    "br header\n"
                    "header:\n"
                    "%acc = phi [%u, entry], [%7, body] : i32\n"
                    "%i = phi [%2, entry], [%9, body] : i32\n"
                    "%5 = icmp slt %i, %n : i1\n"
                    "cond_br %5, body, exit\n"
                    "body:\n"
                    "%6 = constant 1 : i32\n"
                    "%7 = lshr %acc, %6 : i32\n"
                    "%8 = constant 1 : i32\n"
                    "%9 = add %i, %8 : i32\n"
                    "br header\n"
                    "exit:\n"
                    "ret\n");
}

TEST_CASE("a loop-carried variable may not change its type") {
  SemFixture T({{"n", dt("int32")}});
  Semantic &S = T.S;
  BasicBlock *Header = S.createBlock("header"), *Body = S.createBlock("body");
  S.writeVar("acc", S.constant(lit(0)));
  S.br(Header);
  S.setInsertBlock(Header);
  S.condBr(S.compare(Semantic::CmpOp::LT, *S.readVar("acc"), T.v("n")), Body,
           Header);
  S.seal(Body);
  S.setInsertBlock(Body);
  S.writeVar("acc", S.binary(Op::Add, *S.readVar("acc"), litf(0.5)));
  S.br(Header);
  CHECK(T.errorOf([&] { S.seal(Header); }) ==
        "loop-carried variable 'acc' has type int32 on entry but fp32 after "
        "an iteration; give it one type (cast with .to())");
}

TEST_CASE("a loop-carried variable may not change its signedness") {
  SemFixture T({{"u", dt("uint32")}});
  Semantic &S = T.S;
  BasicBlock *Header = S.createBlock("header");
  S.writeVar("v", S.constant(lit(0)));
  S.br(Header);
  S.setInsertBlock(Header);
  TValue V = *S.readVar("v");
  S.writeVar("v", S.binary(Op::Add, V, T.v("u")));
  S.br(Header);
  CHECK(T.errorOf([&] { S.seal(Header); }) ==
        "loop-carried variable 'v' has type int32 on entry but uint32 after "
        "an iteration; give it one type (cast with .to())");
}

TEST_CASE("getDType of a phi built by hand") {
  SemFixture T({{"a", dt("uint16")}, {"b", dt("uint16")}, {"x", dt("int16")},
                {"c", dt("int1")}});
  Semantic &S = T.S;
  BasicBlock *L = S.createBlock("l"), *R = S.createBlock("r");
  BasicBlock *J = S.createBlock("j");
  S.condBr(T.v("c"), L, R);
  S.setInsertBlock(L);
  S.br(J);
  S.setInsertBlock(R);
  S.br(J);
  S.setInsertBlock(J);
  PhiInst *P = S.getBuilder().createPhi(T.v("a").V->getType());
  P->addIncoming(T.v("a").V, L);
  P->addIncoming(T.v("b").V, R);
  CHECK(S.getDType(P->getResult())->getName() == "uint16");
  PhiInst *Q = S.getBuilder().createPhi(T.v("a").V->getType());
  Q->addIncoming(P->getResult(), L);
  Q->addIncoming(T.v("x").V, R);
  CHECK(T.errorOf([&] { S.getDType(Q->getResult()); }) ==
        "a variable has type int16 on one path and uint16 on another; give "
        "it one type on every path (cast with .to())");
}

TEST_CASE("branch conditions are scalars converted to int1") {
  SemFixture T({{"x", dt("int32")}, {"v", blk("int1", {4})}});
  Semantic &S = T.S;
  BasicBlock *A = S.createBlock("a"), *B = S.createBlock("b");
  CHECK(T.errorOf([&] { S.condBr(T.v("v"), A, B); }) ==
        "Boolean value of Tensor with more than one value is ambiguous: the "
        "condition is a block <4xint1>, not a scalar");
  S.condBr(T.v("x"), A, B);
  CHECK(T.body() == "%2 = constant 0 : i32\n"
                    "%3 = icmp ne %x, %2 : i1\n"
                    "cond_br %3, a, b\n"
                    "a:\n"
                    "b:\n");
}

TEST_CASE("calls are typed by the callee's signature") {
  SemFixture T({{"x", dt("int32")}, {"u", dt("uint32")}});
  Semantic &S = T.S;
  TValue Before = S.binary(Op::Add, T.v("x"), T.v("x"));
  Function *G = S.beginFunction("g", {dt("int32")}, {"a"}, false);
  CHECK(S.getFunction() == G);
  CHECK_FALSE(S.readVar("x"));
  S.setResultTypes({dt("uint32")});
  S.ret({S.cast(T.v("a"), dt("uint32"))});
  S.endFunction();
  CHECK(S.getFunction() == T.F);
  std::vector<TValue> R = S.call(G, {Before});
  REQUIRE(R.size() == 1);
  CHECK(R[0].Ty->getName() == "uint32");
  CHECK(S.getDType(R[0].V)->getName() == "uint32");
  CHECK(T.errorOf([&] { S.call(G, {T.v("u")}); }) ==
        "call to 'g': argument 0 has type uint32, expected int32");
  CHECK(T.errorOf([&] { S.beginFunction("g", {}, {}, false); }) ==
        "function 'g' is already defined in this module");
  S.ret({});
  S.endFunction();
  CHECK(T.M.str() == "kernel @k(%x: i32, %u: i32) {\n"
                     "entry:\n"
                     "  %2 = add %x, %x : i32\n"
                     "  %3 = call @g(%2) : i32\n"
                     "  ret\n"
                     "}\n"
                     "\n"
                     "func @g(%a: i32) -> i32 {\n"
                     "entry:\n"
                     "  %1 = bitcast %a : i32\n"
                     "  ret %1\n"
                     "}\n");
}

TEST_CASE("endFunction seals every block and errors carry the location") {
  SemFixture T({{"x", dt("int32")}});
  Semantic &S = T.S;
  BasicBlock *Header = S.createBlock("header");
  S.br(Header);
  S.setInsertBlock(Header);
  S.writeVar("z", *S.readVar("x"));
  S.br(Header);
  S.setLoc(Loc{T.Ctx.intern("k.py"), 7, 9});
  S.endFunction();
  // The header's x was never read: sealing it placed no phi.
  CHECK(T.M.str() == "kernel @k(%x: i32) {\n"
                     "entry:\n"
                     "  br header\n"
                     "header:\n"
                     "  br header\n"
                     "}\n");
  try {
    S.beginFunction("k", {}, {}, false);
    FAIL("no error");
  } catch (const CompileError &E) {
    CHECK(E.describe() ==
          "k.py:7:9: function 'k' is already defined in this module");
  }
}
