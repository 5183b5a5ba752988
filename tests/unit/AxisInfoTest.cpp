// AxisInfo on hand-built kernels: the vector-add address and mask pattern,
// 2-d tiles, hints, remainders and loops.
#include "analysis/AxisInfo.h"
#include "ir/Builder.h"
#include "ir/Context.h"
#include "ir/Module.h"
#include "ir/PassManager.h"

#include <doctest/doctest.h>

using namespace tritium;

namespace {
struct Kernel {
  Context Ctx;
  Module M{Ctx};
  Function *F;
  IRBuilder B{Ctx};
  /// kernel(ptr<f32> x {div 16}, i32 n {div 16})
  Kernel() {
    Type *P = PointerType::get(Type::getF32(Ctx));
    F = M.createFunction("k", FunctionType::get(Ctx, {P, Type::getI32(Ctx)}, {}));
    F->setKernel(true);
    F->getArg(0)->getAttrs().Divisibility = 16;
    F->getArg(1)->getAttrs().Divisibility = 16;
    B.setInsertPoint(F->createBlock());
  }
  std::string info(Value *V) {
    AxisInfoAnalysis AI(*F);
    std::string S;
    llvm::raw_string_ostream OS(S);
    AI.get(V).print(OS);
    return S;
  }
};
} // namespace

TEST_CASE("vector add: offsets, pointers and the bounds mask") {
  Kernel K;
  IRBuilder &B = K.B;
  Value *Pid = B.createProgramId(0);
  Value *Start = B.createBinary(Opcode::Mul, Pid, B.getInt32(1024));
  Value *Offs = B.createBinary(Opcode::Add, B.createSplat(Start, {1024}),
                               B.createMakeRange(0, 1024));
  Value *Ptrs = B.createGEP(B.createSplat(K.F->getArg(0), {1024}), Offs);
  Value *Mask = B.createICmp(ICmpPredicate::SLT, Offs,
                             B.createSplat(K.F->getArg(1), {1024}));
  Value *X = B.createLoad(Ptrs, Mask);
  B.createRet();

  CHECK(K.info(Start) == "contiguity=[1] divisibility=[1024] constancy=[1]");
  CHECK(K.info(Offs) == "contiguity=[1024] divisibility=[1024] constancy=[1]");
  // 16-byte aligned base, 4-byte elements advancing by one.
  CHECK(K.info(Ptrs) == "contiguity=[1024] divisibility=[16] constancy=[1]");
  // The bound is a multiple of 16, so the mask is uniform in aligned runs of
  // 16; and the whole block is true on a prefix (offsets below n first).
  CHECK(K.info(Mask) == "contiguity=[1] divisibility=[1] constancy=[16] prefix=[1024]");
  AxisInfoAnalysis AI(*K.F);
  CHECK(AI.getPtrVectorWidth(Ptrs, 0) == 4);
  CHECK(AI.getMaskConstancy(Mask, 0) == 16);
  CHECK(AI.get(X).Constancy[0] == 1);
}

TEST_CASE("2-d tile: row offsets broadcast against column offsets") {
  Kernel K;
  IRBuilder &B = K.B;
  // rows[:, None] * 64 + cols[None, :]
  Value *Rows = B.createExpandDims(B.createMakeRange(0, 32), 1);
  Value *RowOff = B.createBinary(Opcode::Mul, Rows,
                                 B.getIntConstant(BlockType::get(B.getI32Ty(), {32, 1}), 64));
  Value *Cols = B.createExpandDims(B.createMakeRange(0, 64), 0);
  Value *Off = B.createBinary(Opcode::Add, B.createBroadcast(RowOff, {32, 64}),
                              B.createBroadcast(Cols, {32, 64}));
  B.createRet();
  // One run along dim0 starting at 0; each element is its own run along dim1.
  CHECK(K.info(Rows) ==
        "contiguity=[32, 1] divisibility=[1073741824, 1] constancy=[1, 1] "
        "range=[0, 31]");
  CHECK(K.info(RowOff) == "contiguity=[1, 1] divisibility=[64, 64] constancy=[1, 1] "
        "range=[0, 1984]");
  CHECK(K.info(Off) == "contiguity=[1, 64] divisibility=[1, 64] constancy=[1, 1] "
        "range=[0, 2047]");
}

TEST_CASE("runs cut short lose divisibility; remainders and hints") {
  Kernel K;
  IRBuilder &B = K.B;
  Value *R = B.createMakeRange(0, 128);
  // A uniform operand that is constant only in runs of 4.
  Value *Q = B.createBinary(Opcode::SDiv, R, B.getIntConstant(R->getType(), 4));
  CHECK(K.info(Q) == "contiguity=[1] divisibility=[1] constancy=[4] range=[0, 31]");
  Value *Mod = B.createBinary(Opcode::SRem, R, B.getIntConstant(R->getType(), 32));
  CHECK(K.info(Mod) == "contiguity=[32] divisibility=[1073741824] constancy=[1] "
        "range=[0, 31]");
  Value *N = B.createHint(Opcode::MultipleOf, K.F->getArg(1), {8});
  CHECK(K.info(N) == "contiguity=[1] divisibility=[8] constancy=[1]");
  Value *Sum = B.createBinary(Opcode::Add, R, B.createSplat(N, {128}));
  CHECK(K.info(Sum) == "contiguity=[128] divisibility=[8] constancy=[1]");
  Value *H = B.createHint(Opcode::MaxContiguous, B.createHint(Opcode::MultipleOf, Sum, {128}), {128});
  CHECK(K.info(H) == "contiguity=[128] divisibility=[128] constancy=[1]");
  // Any positive hint is taken as its largest power-of-two divisor (runs of
  // 12 from multiples of 12 are runs of 4 from multiples of 4), and runs
  // stay within the dimension: the layouts need powers of two.
  CHECK(K.info(B.createHint(Opcode::MultipleOf, K.F->getArg(1), {12})) ==
        "contiguity=[1] divisibility=[4] constancy=[1]");
  CHECK(K.info(B.createHint(Opcode::MaxContiguous, R, {3})) ==
        "contiguity=[1] divisibility=[1073741824] constancy=[1] range=[0, 127]");
  CHECK(K.info(B.createHint(Opcode::MaxContiguous, R, {48})) ==
        "contiguity=[16] divisibility=[1073741824] constancy=[1] range=[0, 127]");
  CHECK(K.info(B.createHint(Opcode::MaxConstancy, R, {4096})) ==
        "contiguity=[128] divisibility=[1073741824] constancy=[128] range=[0, 127]");
  B.createRet();
}

TEST_CASE("a remainder by a uniform divisor keeps runs its divisibility allows") {
  Kernel K;
  IRBuilder &B = K.B;
  // (pid * 128 + arange(0, 128)) % n with n divisible by 16: runs of 16
  // (the tutorial matmul's offs_bn), as Triton finds.
  Value *Pid = B.createBinary(Opcode::Mul, B.createProgramId(0), B.getInt32(128));
  Value *X = B.createBinary(Opcode::Add, B.createSplat(Pid, {128}), B.createMakeRange(0, 128));
  Value *Rem = B.createBinary(Opcode::SRem, X, B.createSplat(K.F->getArg(1), {128}));
  CHECK(K.info(Rem) == "contiguity=[16] divisibility=[16] constancy=[1]");
  // A dividend whose runs start unaligned keeps none: 3,4,5,6 % 4 is no run.
  Value *Off = B.createBinary(Opcode::Add, X, B.createSplat(B.getInt32(3), {128}));
  Value *Bad = B.createBinary(Opcode::SRem, Off, B.createSplat(K.F->getArg(1), {128}));
  CHECK(K.info(Bad) == "contiguity=[1] divisibility=[1] constancy=[1]");
  B.createRet();
}

TEST_CASE("sext makes an i1's true -1; zext keeps it 1") {
  Kernel K;
  IRBuilder &B = K.B;
  Value *T = B.getIntConstant(Type::getI1(K.Ctx), 1);
  Value *S = B.createCast(Opcode::SExt, T, Type::getI32(K.Ctx));
  Value *Z = B.createCast(Opcode::ZExt, T, Type::getI32(K.Ctx));
  B.createRet();
  AxisInfoAnalysis AI(*K.F);
  CHECK(AI.get(S).Range == std::make_pair(int64_t(-1), int64_t(-1)));
  CHECK(AI.get(Z).Range == std::make_pair(int64_t(1), int64_t(1)));
}

TEST_CASE("a loop-carried offset keeps the facts of its increments") {
  Kernel K;
  IRBuilder &B = K.B;
  BasicBlock *Entry = B.getInsertBlock();
  BasicBlock *Loop = K.F->createBlock("loop");
  BasicBlock *Exit = K.F->createBlock("exit");
  Value *Init = B.createMakeRange(0, 64);
  Value *Step = B.getIntConstant(Init->getType(), 64);
  B.createBr(Loop);
  B.setInsertPoint(Loop);
  PhiInst *Phi = B.createPhi(Init->getType());
  Value *Next = B.createBinary(Opcode::Add, Phi->getResult(), Step);
  Value *Done = B.createICmp(ICmpPredicate::SGE, K.F->getArg(1), B.getInt32(0));
  B.createCondBr(Done, Exit, Loop);
  Phi->addIncoming(Init, Entry);
  Phi->addIncoming(Next, Loop);
  B.setInsertPoint(Exit);
  B.createRet();
  CHECK(K.info(Phi->getResult()) ==
        "contiguity=[64] divisibility=[64] constancy=[1]");
  CHECK(K.info(Next) == "contiguity=[64] divisibility=[64] constancy=[1]");
}

TEST_CASE("arguments: divisibility, equal_to_1 and the analysis cache") {
  Kernel K;
  K.F->getArg(1)->getAttrs().EqualTo1 = true;
  K.F->getArg(1)->getAttrs().Divisibility = 0;
  K.B.createRet();
  CHECK(K.info(K.F->getArg(0)) == "contiguity=[1] divisibility=[16] constancy=[1]");
  CHECK(K.info(K.F->getArg(1)) ==
        "contiguity=[1] divisibility=[1] constancy=[1] constant=1");
  AnalysisManager AM;
  AxisInfoAnalysis &A1 = AM.get<AxisInfoAnalysis>(*K.F);
  AxisInfoAnalysis &A2 = AM.get<AxisInfoAnalysis>(*K.F);
  CHECK(&A1 == &A2);
}

TEST_CASE("ranges prove masks: arange(0, 64) < 64 is all true") {
  Kernel K;
  IRBuilder &B = K.B;
  Value *R = B.createMakeRange(0, 64);
  Value *In = B.createICmp(ICmpPredicate::SLT, R, B.getIntConstant(R->getType(), 64));
  Value *Out = B.createICmp(ICmpPredicate::SGE, R, B.getIntConstant(R->getType(), 64));
  Value *Maybe = B.createICmp(ICmpPredicate::SLT, R, B.getIntConstant(R->getType(), 32));
  Value *Both = B.createBinary(Opcode::And, In, In);
  // Unsigned comparisons of nonnegative ranges; a counter's range widens.
  Value *U = B.createICmp(ICmpPredicate::ULE, R, B.getIntConstant(R->getType(), 63));
  B.createRet();
  CHECK(K.info(In) == "contiguity=[1] divisibility=[1] constancy=[64] constant=1");
  CHECK(K.info(Out) ==
        "contiguity=[1] divisibility=[1073741824] constancy=[64] constant=0");
  // True on the first half: runs of 32, and a prefix of the 64.
  CHECK(K.info(Maybe) == "contiguity=[1] divisibility=[1] constancy=[32] prefix=[64]");
  CHECK(K.info(Both) == "contiguity=[1] divisibility=[1] constancy=[64] constant=1");
  CHECK(K.info(U) == "contiguity=[1] divisibility=[1] constancy=[64] constant=1");
}

TEST_CASE("a growing loop counter's range is widened, not iterated") {
  Kernel K;
  IRBuilder &B = K.B;
  BasicBlock *Entry = B.getInsertBlock();
  BasicBlock *Loop = K.F->createBlock("loop");
  BasicBlock *Exit = K.F->createBlock("exit");
  Value *Zero = B.getInt32(0);
  B.createBr(Loop);
  B.setInsertPoint(Loop);
  PhiInst *I = B.createPhi(B.getI32Ty());
  Value *Next = B.createBinary(Opcode::Add, I->getResult(), B.getInt32(1));
  Value *Done = B.createICmp(ICmpPredicate::SGE, Next, K.F->getArg(1));
  B.createCondBr(Done, Exit, Loop);
  I->addIncoming(Zero, Entry);
  I->addIncoming(Next, Loop);
  B.setInsertPoint(Exit);
  B.createRet();
  CHECK(K.info(I->getResult()) == "contiguity=[1] divisibility=[1] constancy=[1]");
}

TEST_CASE("block arguments of device functions start with nothing known") {
  Context Ctx;
  Module M(Ctx);
  Type *B2 = BlockType::get(Type::getI32(Ctx), {4, 8});
  Function *F = M.createFunction("f", FunctionType::get(Ctx, {B2}, {}));
  IRBuilder B(Ctx);
  B.setInsertPoint(F->createBlock());
  Value *T = B.createTrans(F->getArg(0), {1, 0});
  B.createRet();
  AxisInfoAnalysis AI(*F);
  CHECK(AI.get(T).getRank() == 2);
  CHECK(AI.get(T).Contiguity == llvm::SmallVector<int64_t, 4>{1, 1});
}

TEST_CASE("min and max divide by what both operands divide by") {
  // A descriptor's bound: smax(n, 0) keeps n's 16, so offs <u bound is
  // still uniform in aligned runs of 16 (lower-tensor-descriptors).
  Kernel K;
  IRBuilder &B = K.B;
  Value *N = K.F->getArg(1);
  Value *Clamped = B.createBinary(Opcode::SMax, N, B.getInt32(0));
  Value *Offs = B.createMakeRange(0, 64);
  Value *Mask = B.createICmp(ICmpPredicate::ULT, Offs, B.createSplat(Clamped, {64}));
  Value *Odd = B.createBinary(Opcode::UMin, N, B.getInt32(24));
  B.createRet();
  CHECK(K.info(Clamped) == "contiguity=[1] divisibility=[16] constancy=[1]");
  CHECK(K.info(Odd) == "contiguity=[1] divisibility=[8] constancy=[1]");
  AxisInfoAnalysis AI(*K.F);
  CHECK(AI.getMaskConstancy(Mask, 0) == 16);
}

TEST_CASE("a bound nothing is known of cuts aligned runs into prefixes") {
  // A [16 x 64] tile at rows r < m, columns k + c < n: n is not known to
  // divide anything, so the column mask is not uniform over any run, but
  // each aligned run of 64 columns is true on a prefix (what a copy that
  // can read a prefix of a vector needs).
  Kernel K;
  IRBuilder &B = K.B;
  Value *N = B.createBinary(Opcode::Add, K.F->getArg(1), B.getInt32(1)); // divisibility 1
  Value *Kk = B.createBinary(Opcode::Mul, B.createProgramId(0), B.getInt32(64));
  Value *Cols = B.createBinary(Opcode::Add, B.createSplat(Kk, {64}), B.createMakeRange(0, 64));
  Value *Bound = B.createSplat(N, {64});
  Value *In = B.createICmp(ICmpPredicate::SLT, Cols, Bound);
  Value *Rev = B.createICmp(ICmpPredicate::UGT, Bound, Cols);
  Value *Out = B.createICmp(ICmpPredicate::SGE, Cols, Bound); // a suffix, not a prefix
  Value *Rows = B.createICmp(ICmpPredicate::SLT, B.createMakeRange(0, 16), B.createSplat(N, {16}));
  Value *Tile = B.createBinary(Opcode::And,
                               B.createBroadcast(B.createExpandDims(In, 0), {16, 64}),
                               B.createBroadcast(B.createExpandDims(Rows, 1), {16, 64}));
  Value *Not = B.createBinary(Opcode::Xor, In, B.createSplat(B.getBool(true), {64}));
  B.createRet();

  CHECK(K.info(In) == "contiguity=[1] divisibility=[1] constancy=[1] prefix=[64]");
  CHECK(K.info(Rev) == "contiguity=[1] divisibility=[1] constancy=[1] prefix=[64]");
  CHECK(K.info(Out) == "contiguity=[1] divisibility=[1] constancy=[1]");
  CHECK(K.info(Not) == "contiguity=[1] divisibility=[1] constancy=[1]");
  CHECK(K.info(Tile) ==
        "contiguity=[1, 1] divisibility=[1, 1] constancy=[1, 1] prefix=[16, 64]");
  AxisInfoAnalysis AI(*K.F);
  CHECK(AI.getMaskConstancy(Tile, 1) == 1);
  CHECK(AI.getMaskPrefix(Tile, 1) == 64);
  CHECK(AI.getMaskPrefix(Out, 0) == 1);
}
