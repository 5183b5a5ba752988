// Tests of ir/Verifier: each invariant listed at the top of Verifier.cpp
// triggers with its exact message, valid IR passes, and every violation is
// collected. Invalid instructions are made with Instruction::create and
// pushed into blocks directly, since IRBuilder refuses them.
#include "ir/Builder.h"
#include "ir/Context.h"
#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/Verifier.h"

#include <doctest/doctest.h>

using namespace tritium;

namespace doctest {
/// Failures show the messages one per line.
template <> struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string> &V) {
    std::string S = "{";
    for (const std::string &E : V)
      S += "\n  \"" + E + "\"";
    return (S + "\n}").c_str();
  }
};
} // namespace doctest

namespace {

using Strings = std::vector<std::string>;

struct IR {
  Context Ctx;
  Module M{Ctx};
  IRBuilder B{Ctx};

  Type *i1() { return Type::getI1(Ctx); }
  Type *i32() { return Type::getI32(Ctx); }
  Type *f32() { return Type::getF32(Ctx); }
  Type *ptr() { return PointerType::get(f32()); }

  /// A function whose arguments are named a, b, c, ... in order.
  Function *func(llvm::StringRef Name, llvm::ArrayRef<Type *> Params,
                 llvm::ArrayRef<Type *> Results = {}, bool Kernel = false) {
    Function *F = M.createFunction(Name, FunctionType::get(Ctx, Params, Results));
    F->setKernel(Kernel);
    for (unsigned I = 0; I < F->getNumArgs(); ++I)
      F->getArg(I)->setName(std::string(1, char('a' + I)));
    return F;
  }
  /// A kernel @k(%a: i32, %b: i1) with one block ending in ret, and the
  /// builder placed before that ret.
  Function *kernel() {
    Function *F = func("k", {i32(), i1()}, {}, /*Kernel=*/true);
    BasicBlock *BB = F->createBlock();
    B.setInsertPoint(BB);
    B.createRet();
    B.setInsertPoint(BB->getTerminator());
    return F;
  }
  /// Creates an instruction without checking it and inserts it at the
  /// builder's insertion point.
  Instruction *raw(Opcode Op, llvm::ArrayRef<Type *> Results,
                   llvm::ArrayRef<Value *> Ops, AttrList Attrs = {},
                   llvm::ArrayRef<BasicBlock *> Blocks = {}) {
    Instruction *I = Instruction::create(Ctx, Op, Results, Ops,
                                         std::move(Attrs), Blocks);
    B.getInsertBlock()->insert(B.getInsertPoint(), I);
    return I;
  }
  Strings verify() { return verifyModule(M); }
};

} // namespace

//===----------------------------------------------------------------------===//
// Valid IR
//===----------------------------------------------------------------------===//

TEST_CASE("a loop with phis, a call and a reduce verifies") {
  IR T;
  // func @add(%a: f32, %b: f32) -> f32 { %2 = fadd %a, %b; ret %2 }
  Function *Add = T.func("add", {T.f32(), T.f32()}, {T.f32()});
  T.B.setInsertPoint(Add->createBlock());
  T.B.createRet({T.B.createBinary(Opcode::FAdd, Add->getArg(0), Add->getArg(1))});

  Function *K = T.func("k", {T.ptr(), T.i32()}, {}, /*Kernel=*/true);
  BasicBlock *Entry = K->createBlock(), *Loop = K->createBlock(),
             *Exit = K->createBlock();
  T.B.setInsertPoint(Entry);
  Value *Zero = T.B.getInt32(0);
  T.B.createBr(Loop);
  T.B.setInsertPoint(Loop);
  PhiInst *I = T.B.createPhi(T.i32());
  Value *Next = T.B.createBinary(Opcode::Add, I->getResult(), T.B.getInt32(1));
  I->addIncoming(Zero, Entry);
  I->addIncoming(Next, Loop);
  Value *Done = T.B.createICmp(ICmpPredicate::SGE, Next, K->getArg(1));
  T.B.createCondBr(Done, Exit, Loop);
  T.B.setInsertPoint(Exit);
  Value *X = T.B.createLoad(T.B.createSplat(K->getArg(0), {16}));
  Value *S = T.B.createReduce({X}, 0, "add")[0];
  T.B.createCall(Add, {S, S});
  T.B.createRet();

  CHECK(T.verify() == Strings{});
  CHECK(verifyFunction(*K) == Strings{});
  CHECK_NOTHROW(verifyModuleOrThrow(T.M));
}

TEST_CASE("a cond_br to one block twice needs two phi entries") {
  IR T;
  Function *F = T.func("f", {T.i1()});
  BasicBlock *B0 = F->createBlock(), *B1 = F->createBlock();
  T.B.setInsertPoint(B0);
  Value *C = T.B.getInt32(7);
  T.B.createCondBr(F->getArg(0), B1, B1);
  T.B.setInsertPoint(B1);
  PhiInst *P = T.B.createPhi(T.i32());
  P->addIncoming(C, B0);
  T.B.createRet();
  CHECK(T.verify() ==
        Strings{"in @f, bb1, '%2 = phi [%1, bb0] : i32': phi has 1 incoming "
                "value for bb0, which branches here 2 times"});
  P->addIncoming(C, B0);
  CHECK(T.verify() == Strings{});
}

//===----------------------------------------------------------------------===//
// Function: F1 to F4
//===----------------------------------------------------------------------===//

TEST_CASE("F1: a function needs an entry block") {
  IR T;
  T.func("f", {});
  CHECK(T.verify() == Strings{"in @f: function has no blocks"});
}

TEST_CASE("F2: the entry block has no predecessors and no phis") {
  IR T;
  Function *F = T.func("f", {T.i1()});
  BasicBlock *B0 = F->createBlock(), *B1 = F->createBlock();
  T.B.setInsertPoint(B0);
  T.B.createPhi(T.i32());
  T.B.createBr(B1);
  T.B.setInsertPoint(B1);
  T.B.createCondBr(F->getArg(0), B0, B0);
  CHECK(T.verify() ==
        Strings{"in @f, bb0: the entry block has a predecessor, bb1",
                "in @f, bb0, '%1 = phi : i32': the entry block cannot have phis"});
}

TEST_CASE("F3: a kernel returns nothing") {
  IR T;
  Function *K = T.func("k", {T.i32()}, {T.i32(), T.f32()}, /*Kernel=*/true);
  T.B.setInsertPoint(K->createBlock());
  T.B.createRet();
  CHECK(T.verify() == Strings{"in @k: a kernel returns nothing, but its "
                              "type returns (i32, f32)"});
}

TEST_CASE("F4: argument attributes fit the argument's type") {
  IR T;
  Function *K = T.func("k", {T.i32(), T.f32(), T.ptr(), Type::getI8(T.Ctx)},
                       {}, /*Kernel=*/true);
  T.B.setInsertPoint(K->createBlock());
  T.B.createRet();
  ArgAttrs &I32 = K->getArg(0)->getAttrs(), &F32 = K->getArg(1)->getAttrs(),
           &Ptr = K->getArg(2)->getAttrs(), &I8 = K->getArg(3)->getAttrs();

  SUBCASE("valid attributes") {
    I32 = {16, true, 1, false};
    Ptr.Divisibility = 16;
    Ptr.NoAlias = true;
    I8.ConstantValue = 255; // signless: the unsigned range fits too
    CHECK(T.verify() == Strings{});
  }
  SUBCASE("divisibility") {
    I32.Divisibility = 12;
    Ptr.Divisibility = -16;
    F32.Divisibility = 16;
    CHECK(T.verify() ==
          Strings{"in @k, argument %a: divisibility 12 is not a positive "
                  "power of two",
                  "in @k, argument %b: divisibility applies to integers and "
                  "pointers, not f32",
                  "in @k, argument %c: divisibility -16 is not a positive "
                  "power of two"});
  }
  SUBCASE("equal_to_1, constant, noalias") {
    F32.EqualTo1 = true;
    Ptr.ConstantValue = 0;
    I32.NoAlias = true;
    I8.ConstantValue = 256;
    CHECK(T.verify() ==
          Strings{"in @k, argument %a: noalias applies to pointers, not i32",
                  "in @k, argument %b: equal_to_1 applies to integers, not f32",
                  "in @k, argument %c: constant applies to integers, not "
                  "ptr<f32>",
                  "in @k, argument %d: constant 256 does not fit in i8"});
  }
  SUBCASE("negative constants fit the signed range") {
    I8.ConstantValue = -128;
    CHECK(T.verify() == Strings{});
    I8.ConstantValue = -129;
    CHECK(T.verify() ==
          Strings{"in @k, argument %d: constant -129 does not fit in i8"});
  }
}

//===----------------------------------------------------------------------===//
// Block: B1 to B3
//===----------------------------------------------------------------------===//

TEST_CASE("B1: one terminator, at the end") {
  IR T;
  Function *F = T.func("f", {T.i32()});
  BasicBlock *B0 = F->createBlock(), *B1 = F->createBlock(),
             *B2 = F->createBlock();
  T.B.setInsertPoint(B0);
  T.B.createBr(B1);
  T.B.setInsertPoint(B1);
  T.B.createBinary(Opcode::Add, F->getArg(0), F->getArg(0));
  T.B.setInsertPoint(B1, B1->begin());
  T.B.createBr(B2); // before the add: bb1 now has no terminator at its end
  CHECK(T.verify() ==
        Strings{"in @f, bb1: block does not end with a terminator",
                "in @f, bb1, 'br bb2': terminator in the middle of a block",
                "in @f, bb2: block does not end with a terminator"});
}

TEST_CASE("B1: two terminators") {
  IR T;
  Function *F = T.kernel();
  T.B.setInsertPoint(&F->front());
  T.B.createRet();
  CHECK(T.verify() ==
        Strings{"in @k, bb0, 'ret': terminator in the middle of a block"});
}

TEST_CASE("B2: phis come first") {
  IR T;
  Function *F = T.func("f", {T.i32()});
  BasicBlock *B0 = F->createBlock(), *B1 = F->createBlock();
  T.B.setInsertPoint(B0);
  T.B.createBr(B1);
  T.B.setInsertPoint(B1);
  T.B.createBinary(Opcode::Add, F->getArg(0), F->getArg(0));
  PhiInst *P = T.B.createPhi(T.i32());
  P->addIncoming(F->getArg(0), B0);
  T.B.createRet();
  CHECK(T.verify() ==
        Strings{"in @f, bb1, '%2 = phi [%a, bb0] : i32': phi after a non-phi "
                "instruction; phis come first"});
}

namespace {
/// @f(%a: i32, %b: i1): bb0 branches to bb1 or bb2, both go to bb3, which
/// holds a phi of i32 with the incoming values set by each test.
struct Diamond : IR {
  Function *F;
  BasicBlock *BB[4];
  PhiInst *Phi;
  Diamond() {
    F = func("f", {i32(), i1()});
    for (BasicBlock *&B : BB)
      B = F->createBlock();
    this->B.setInsertPoint(BB[0]);
    this->B.createCondBr(F->getArg(1), BB[1], BB[2]);
    this->B.setInsertPoint(BB[1]);
    this->B.createBr(BB[3]);
    this->B.setInsertPoint(BB[2]);
    this->B.createBr(BB[3]);
    this->B.setInsertPoint(BB[3]);
    Phi = this->B.createPhi(i32());
    this->B.createRet();
  }
};
} // namespace

TEST_CASE("B3: phi incoming blocks are the predecessors") {
  Diamond T;
  Value *A = T.F->getArg(0);
  SUBCASE("exact") {
    T.Phi->addIncoming(A, T.BB[2]);
    T.Phi->addIncoming(A, T.BB[1]); // order does not matter
    CHECK(T.verify() == Strings{});
  }
  SUBCASE("missing") {
    T.Phi->addIncoming(A, T.BB[1]);
    CHECK(T.verify() == Strings{"in @f, bb3, '%2 = phi [%a, bb1] : i32': phi "
                                "has no incoming value for predecessor bb2"});
  }
  SUBCASE("extra") {
    T.Phi->addIncoming(A, T.BB[1]);
    T.Phi->addIncoming(A, T.BB[2]);
    T.Phi->addIncoming(A, T.BB[0]);
    CHECK(T.verify() ==
          Strings{"in @f, bb3, '%2 = phi [%a, bb1], [%a, bb2], [%a, bb0] : "
                  "i32': phi has an incoming value for bb0, which is not a "
                  "predecessor"});
  }
  SUBCASE("twice") {
    T.Phi->addIncoming(A, T.BB[1]);
    T.Phi->addIncoming(A, T.BB[2]);
    T.Phi->addIncoming(A, T.BB[2]);
    CHECK(T.verify() ==
          Strings{"in @f, bb3, '%2 = phi [%a, bb1], [%a, bb2], [%a, bb2] : "
                  "i32': phi has 2 incoming values for bb2, which branches "
                  "here 1 time"});
  }
}

TEST_CASE("B3: the edges from one block carry one value") {
  IR T;
  Function *F = T.func("f", {T.i32(), T.i1()});
  BasicBlock *B0 = F->createBlock(), *B1 = F->createBlock();
  T.B.setInsertPoint(B0);
  Value *C = T.B.getInt32(1);
  T.B.createCondBr(F->getArg(1), B1, B1);
  T.B.setInsertPoint(B1);
  PhiInst *P = T.B.createPhi(T.i32());
  P->addIncoming(F->getArg(0), B0);
  P->addIncoming(C, B0);
  T.B.createRet();
  CHECK(T.verify() == Strings{"in @f, bb1, '%3 = phi [%a, bb0], [%2, bb0] : "
                              "i32': phi has different incoming values for bb0"});
}

//===----------------------------------------------------------------------===//
// Instruction: I1 to I7
//===----------------------------------------------------------------------===//

TEST_CASE("I1: type rules of the instruction's family") {
  IR T;
  Function *F = T.kernel();
  Value *A = F->getArg(0), *C = F->getArg(1);
  T.raw(Opcode::Add, {T.i32()}, {A, C});
  T.raw(Opcode::Br, {}, {}, {}, {});
  CHECK(T.verify() ==
        Strings{"in @k, bb0, '%2 = add %a, %b : i32': 'add' operands must "
                "have the same type, got i32 and i1",
                "in @k, bb0, 'br': terminator in the middle of a block",
                "in @k, bb0, 'br': 'br' expects 1 block operand, got 0"});
}

TEST_CASE("I2: operands are defined in this function") {
  IR T;
  Function *G = T.func("g", {T.i32()});
  T.B.setInsertPoint(G->createBlock());
  Value *GX = T.B.createBinary(Opcode::Add, G->getArg(0), G->getArg(0));
  T.B.createRet();
  Function *F = T.kernel();
  Value *A = F->getArg(0);
  T.B.createBinary(Opcode::Add, G->getArg(0), A);
  T.B.createBinary(Opcode::Add, A, GX);
  // A result of an instruction that was taken out of its block.
  Value *Loose = T.B.createBinary(Opcode::Mul, A, A);
  Instruction *LooseI = Loose->getDefiningInstruction();
  LooseI->removeFromParent();
  T.B.createBinary(Opcode::Sub, Loose, A);
  CHECK(T.verify() ==
        // The printer shows foreign values by their id in their function.
        Strings{"in @k, bb0, '%2 = add %0, %a : i32': operand 0 is defined in "
                "another function, @g",
                "in @k, bb0, '%3 = add %a, %1 : i32': operand 1 is defined in "
                "another function, @g",
                "in @k, bb0, '%4 = sub %0, %a : i32': operand 0 is defined by "
                "an instruction that is in no function"});
  // Values die with their function; none may be used from outside it then.
  LooseI->getResult()->replaceAllUsesWith(A);
  delete LooseI;
  GX->replaceAllUsesWith(A);
  G->getArg(0)->replaceAllUsesWith(A);
}

TEST_CASE("I3: block operands are blocks of this function") {
  IR T;
  Function *G = T.func("g", {});
  BasicBlock *GB = G->createBlock();
  T.B.setInsertPoint(GB);
  T.B.createRet();
  Function *F = T.func("f", {T.i1()});
  BasicBlock *B0 = F->createBlock(), *B1 = F->createBlock();
  T.B.setInsertPoint(B0);
  T.B.createCondBr(F->getArg(0), B1, GB);
  T.B.setInsertPoint(B1);
  PhiInst *P = T.B.createPhi(T.i1());
  P->addIncoming(F->getArg(0), B0);
  P->addIncoming(F->getArg(0), GB);
  T.B.createRet();
  CHECK(T.verify() ==
        // The foreign block prints with its own function's id, bb0.
        Strings{"in @f, bb0, 'cond_br %a, bb1, bb0': block operand 1 is not a "
                "block of this function",
                "in @f, bb1, '%1 = phi [%a, bb0], [%a, bb0] : i1': block "
                "operand 1 is not a block of this function"});
  // @g and its block go first when the module dies; drop the edge into it.
  B0->getTerminator()->setBlockOperand(1, B1);
}

TEST_CASE("I4: definitions dominate their uses") {
  Diamond T;
  Value *A = T.F->getArg(0);
  T.B.setInsertPoint(T.BB[1]->getTerminator());
  Value *X = T.B.createBinary(Opcode::Add, A, A); // %2 in bb1
  T.B.setInsertPoint(T.BB[3]->getTerminator());

  SUBCASE("across blocks") {
    T.Phi->addIncoming(A, T.BB[1]);
    T.Phi->addIncoming(A, T.BB[2]);
    T.B.createBinary(Opcode::Mul, X, A);
    CHECK(T.verify() == Strings{"in @f, bb3, '%4 = mul %2, %a : i32': "
                                "operand %2 does not dominate this use"});
  }
  SUBCASE("on a phi edge") {
    T.Phi->addIncoming(X, T.BB[1]); // fine: bb1 ends after %2
    T.Phi->addIncoming(X, T.BB[2]);
    CHECK(T.verify() ==
          Strings{"in @f, bb3, '%3 = phi [%2, bb1], [%2, bb2] : i32': incoming "
                  "value %2 does not dominate the end of bb2"});
  }
  SUBCASE("in one block") {
    T.Phi->addIncoming(A, T.BB[1]);
    T.Phi->addIncoming(A, T.BB[2]);
    Value *Y = T.B.createBinary(Opcode::Mul, A, A);
    Value *Z = T.B.createBinary(Opcode::Mul, Y, A);
    Y->getDefiningInstruction()->setOperand(0, Z);
    Value *W = T.B.createBinary(Opcode::Sub, A, A);
    W->getDefiningInstruction()->setOperand(1, W);
    CHECK(T.verify() ==
          Strings{"in @f, bb3, '%4 = mul %5, %a : i32': operand %5 does not "
                  "dominate this use",
                  "in @f, bb3, '%6 = sub %a, %6 : i32': operand %6 does not "
                  "dominate this use"});
  }
}

TEST_CASE("I4: uses in unreachable blocks are not checked") {
  IR T;
  Function *F = T.kernel();
  BasicBlock *Dead = F->createBlock();
  T.B.setInsertPoint(Dead);
  Value *A = F->getArg(0);
  Value *X = T.B.createBinary(Opcode::Add, A, A);
  X->getDefiningInstruction()->setOperand(0, X);
  T.B.createRet();
  CHECK(T.verify() == Strings{});
  // But a reachable use of a value defined there is.
  T.B.setInsertPoint(F->front().getTerminator());
  T.B.createBinary(Opcode::Add, X, A);
  CHECK(T.verify() == Strings{"in @k, bb0, '%2 = add %3, %a : i32': operand %3 "
                              "does not dominate this use"});
}

TEST_CASE("I4: a phi in an unreachable block is not checked either") {
  Diamond T;
  Value *A = T.F->getArg(0);
  T.Phi->addIncoming(A, T.BB[1]);
  T.Phi->addIncoming(A, T.BB[2]);
  T.B.setInsertPoint(T.BB[2]->getTerminator());
  Value *X = T.B.createBinary(Opcode::Add, A, A); // bb2 does not dominate bb1
  BasicBlock *Dead = T.F->createBlock();
  T.B.setInsertPoint(Dead);
  T.B.createPhi(T.i32())->addIncoming(X, T.BB[1]);
  T.B.createRet();
  CHECK(T.verify() == Strings{"in @f, bb4, '%4 = phi [%2, bb1] : i32': phi has "
                              "an incoming value for bb1, which is not a "
                              "predecessor"});
}

TEST_CASE("I5: ret returns the function's result types") {
  IR T;
  Function *F = T.func("f", {T.i32(), T.f32()}, {T.f32(), T.i32()});
  T.B.setInsertPoint(F->createBlock());
  Value *A = F->getArg(0), *Bv = F->getArg(1);
  SUBCASE("count") {
    T.B.createRet({Bv});
    CHECK(T.verify() ==
          Strings{"in @f, bb0, 'ret %b': 'ret' returns 1 value, but @f returns 2"});
  }
  SUBCASE("types") {
    T.B.createRet({A, Bv});
    CHECK(T.verify() ==
          Strings{"in @f, bb0, 'ret %a, %b': 'ret' value 0 has type i32, but @f "
                  "returns f32",
                  "in @f, bb0, 'ret %a, %b': 'ret' value 1 has type f32, but @f "
                  "returns i32"});
  }
}

TEST_CASE("I5: kernels return nothing") {
  IR T;
  Function *K = T.func("k", {T.i32()}, {}, /*Kernel=*/true);
  T.B.setInsertPoint(K->createBlock());
  T.B.createRet({K->getArg(0)});
  CHECK(T.verify() ==
        Strings{"in @k, bb0, 'ret %a': 'ret' returns 1 value, but @k returns 0"});
}

namespace {
/// @g(%a: i32, %b: f32) -> f32, and the kernel @k(%a: i32, %b: i1) whose
/// block the builder is in.
struct Calls : IR {
  Function *G, *K;
  Calls() {
    G = func("g", {i32(), f32()}, {f32()});
    B.setInsertPoint(G->createBlock());
    B.createRet({G->getArg(1)});
    K = kernel();
  }
  AttrList callee(llvm::StringRef Name) {
    return {{AttrKey::Callee, AttrValue::symbol(Name)}};
  }
};
} // namespace

TEST_CASE("I6: call matches the callee's signature") {
  Calls T;
  Value *A = T.K->getArg(0), *Cond = T.K->getArg(1);
  SUBCASE("valid") {
    T.raw(Opcode::Call, {T.f32()}, {A, T.B.getFloatConstant(T.f32(), 1.0)},
          T.callee("g"));
    CHECK(T.verify() == Strings{});
  }
  SUBCASE("unknown callee") {
    T.raw(Opcode::Call, {}, {}, T.callee("nope"));
    CHECK(T.verify() == Strings{"in @k, bb0, 'call @nope()': 'call' callee "
                                "@nope is not a function of the module"});
  }
  SUBCASE("kernel callee") {
    T.raw(Opcode::Call, {}, {A, Cond}, T.callee("k"));
    CHECK(T.verify() ==
          Strings{"in @k, bb0, 'call @k(%a, %b)': 'call' callee @k is a "
                  "kernel, which only the host can launch"});
  }
  SUBCASE("argument count and result types") {
    T.raw(Opcode::Call, {T.i32()}, {A}, T.callee("g"));
    CHECK(T.verify() ==
          Strings{"in @k, bb0, '%2 = call @g(%a) : i32': 'call' passes 1 "
                  "argument, but @g takes 2",
                  "in @k, bb0, '%2 = call @g(%a) : i32': 'call' result 0 has "
                  "type i32, but @g returns f32"});
  }
  SUBCASE("argument types and result count") {
    T.raw(Opcode::Call, {}, {A, A}, T.callee("g"));
    CHECK(T.verify() ==
          Strings{"in @k, bb0, 'call @g(%a, %a)': 'call' argument 1 has type "
                  "i32, but @g takes f32",
                  "in @k, bb0, 'call @g(%a, %a)': 'call' defines 0 results, "
                  "but @g returns 1"});
  }
}

TEST_CASE("I7: reduce and scan combine functions") {
  IR T;
  Type *F32 = T.f32(), *I32 = T.i32();
  // The right signature for two operands of f32 and i32 elements.
  Function *Good = T.func("good", {F32, I32, F32, I32}, {F32, I32});
  T.B.setInsertPoint(Good->createBlock());
  T.B.createRet({Good->getArg(0), Good->getArg(1)});
  Function *Bad = T.func("bad", {F32, F32}, {F32});
  T.B.setInsertPoint(Bad->createBlock());
  T.B.createRet({Bad->getArg(0)});
  Function *K = T.func("k", {PointerType::get(F32), PointerType::get(I32)}, {},
                       /*Kernel=*/true);
  BasicBlock *BB = K->createBlock();
  T.B.setInsertPoint(BB);
  T.B.createRet();
  T.B.setInsertPoint(BB->getTerminator());
  Value *X = T.B.createLoad(T.B.createSplat(K->getArg(0), {8}));
  Value *Y = T.B.createLoad(T.B.createSplat(K->getArg(1), {8}));
  T.B.createReduce({X, Y}, 0, "good");
  T.B.createScan({X, Y}, 0, "good");
  T.B.createReduce(X, 0, CombineKind::FAdd);
  CHECK(T.verify() == Strings{});

  T.B.createReduce({X, Y}, 0, "bad");
  T.B.createScan({X}, 0, "missing");
  T.B.createScan({X}, 0, "k");
  CHECK(T.verify() ==
        Strings{"in @k, bb0, '%11, %12 = reduce %3, %5 {axis=0, combine=@bad} : "
                "f32, i32': 'reduce' combine function @bad must have type (f32, "
                "i32, f32, i32) -> (f32, i32), got (f32, f32) -> f32",
                "in @k, bb0, '%13 = scan %3 {axis=0, combine=@missing} : <8 x "
                "f32>': 'scan' combine function @missing is not a function of "
                "the module",
                "in @k, bb0, '%14 = scan %3 {axis=0, combine=@k} : <8 x f32>': "
                "'scan' combine function @k is a kernel"});
}

//===----------------------------------------------------------------------===//
// Collecting and reporting
//===----------------------------------------------------------------------===//

TEST_CASE("every violation of every function is reported, in order") {
  IR T;
  Function *F = T.func("f", {T.i32()}, {T.i32()});
  BasicBlock *B0 = F->createBlock();
  T.func("g", {}); // no blocks
  T.B.setInsertPoint(B0);
  Value *A = F->getArg(0);
  T.raw(Opcode::Add, {T.f32()}, {A, A});
  T.raw(Opcode::FAdd, {T.i32()}, {A, A});
  CHECK(T.verify() ==
        Strings{"in @f, bb0: block does not end with a terminator",
                "in @f, bb0, '%1 = add %a, %a : f32': 'add' result must be "
                "i32, got f32",
                "in @f, bb0, '%2 = fadd %a, %a : i32': 'fadd' expects float "
                "operands, got i32",
                "in @g: function has no blocks"});
  CHECK(verifyFunction(*F).size() == 3);
  try {
    verifyModuleOrThrow(T.M);
    FAIL("verifyModuleOrThrow did not throw");
  } catch (const CompileError &E) {
    CHECK(std::string(E.what()) ==
          "in @f, bb0: block does not end with a terminator\n"
          "in @f, bb0, '%1 = add %a, %a : f32': 'add' result must be i32, got "
          "f32\n"
          "in @f, bb0, '%2 = fadd %a, %a : i32': 'fadd' expects float "
          "operands, got i32\n"
          "in @g: function has no blocks");
  }
}

TEST_CASE("messages use fresh ids") {
  IR T;
  Function *F = T.kernel();
  Value *A = F->getArg(0);
  Value *X = T.B.createBinary(Opcode::Add, A, A);
  F->renumber(); // %2 = add
  // Insert before it; the old ids are now stale.
  T.B.setInsertPoint(X->getDefiningInstruction());
  T.B.createBinary(Opcode::Mul, A, A);
  X->getDefiningInstruction()->setOperand(1, X);
  CHECK(T.verify() == Strings{"in @k, bb0, '%3 = add %a, %3 : i32': operand "
                              "%3 does not dominate this use"});
}

TEST_CASE("same-block order is judged by position, not by stale ids") {
  IR T;
  Function *F = T.kernel();
  Value *A = F->getArg(0);
  Instruction *User = T.B.createBinary(Opcode::Add, A, A)->getDefiningInstruction();
  Instruction *Def = T.B.createBinary(Opcode::Mul, A, A)->getDefiningInstruction();
  F->renumber(); // User %2, Def %3
  Def->moveBefore(User);
  User->setOperand(0, Def->getResult());
  CHECK(T.verify() == Strings{});
}
