//===- InstructionTest.cpp - Generic instruction mechanics ----------------===//

#include "ir/Builder.h"
#include "ir/Context.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/Module.h"

#include <doctest/doctest.h>

#include <set>

using namespace tritium;

namespace {

/// func @f(%a: i32, %b: i32, %p: ptr<i32>) with blocks entry, x and y.
struct InstFixture {
  Context Ctx;
  Module M{Ctx};
  Type *I32 = Type::getI32(Ctx);
  Function *F;
  BasicBlock *Entry, *X, *Y;
  Value *A, *Bv, *P;

  InstFixture() {
    F = M.createFunction(
        "f", FunctionType::get(Ctx, {I32, I32, PointerType::get(I32)}, {}));
    A = F->getArg(0);
    Bv = F->getArg(1);
    P = F->getArg(2);
    A->setName("a");
    Bv->setName("b");
    P->setName("p");
    Entry = F->createBlock("entry");
    X = F->createBlock("x");
    Y = F->createBlock("y");
  }
  Instruction *make(Opcode Op, llvm::ArrayRef<Type *> Results,
                    llvm::ArrayRef<Value *> Ops, AttrList Attrs = {},
                    llvm::ArrayRef<BasicBlock *> Blocks = {}) {
    return Instruction::create(Ctx, Op, Results, Ops, std::move(Attrs), Blocks);
  }
  /// Names of the blocks in a list, for compact checks.
  static std::string names(llvm::ArrayRef<BasicBlock *> Bs) {
    std::string S;
    for (BasicBlock *B : Bs)
      S += (S.empty() ? "" : ",") + (B ? B->getName().str() : "null");
    return S;
  }
};

struct OpRow {
  Opcode Op;
  const char *Name;
  OpFamily Family;
};

const OpRow AllOps[] = {
    {Opcode::Constant, "constant", OpFamily::Constant},
    {Opcode::Undef, "undef", OpFamily::Undef},
    {Opcode::Add, "add", OpFamily::Binary},
    {Opcode::Sub, "sub", OpFamily::Binary},
    {Opcode::Mul, "mul", OpFamily::Binary},
    {Opcode::SDiv, "sdiv", OpFamily::Binary},
    {Opcode::UDiv, "udiv", OpFamily::Binary},
    {Opcode::SRem, "srem", OpFamily::Binary},
    {Opcode::URem, "urem", OpFamily::Binary},
    {Opcode::Shl, "shl", OpFamily::Binary},
    {Opcode::LShr, "lshr", OpFamily::Binary},
    {Opcode::AShr, "ashr", OpFamily::Binary},
    {Opcode::And, "and", OpFamily::Binary},
    {Opcode::Or, "or", OpFamily::Binary},
    {Opcode::Xor, "xor", OpFamily::Binary},
    {Opcode::SMin, "smin", OpFamily::Binary},
    {Opcode::SMax, "smax", OpFamily::Binary},
    {Opcode::UMin, "umin", OpFamily::Binary},
    {Opcode::UMax, "umax", OpFamily::Binary},
    {Opcode::UMulHi, "umulhi", OpFamily::Binary},
    {Opcode::FAdd, "fadd", OpFamily::Binary},
    {Opcode::FSub, "fsub", OpFamily::Binary},
    {Opcode::FMul, "fmul", OpFamily::Binary},
    {Opcode::FDiv, "fdiv", OpFamily::Binary},
    {Opcode::FRem, "frem", OpFamily::Binary},
    {Opcode::FMin, "fmin", OpFamily::Binary},
    {Opcode::FMax, "fmax", OpFamily::Binary},
    {Opcode::FMinimum, "fminimum", OpFamily::Binary},
    {Opcode::FMaximum, "fmaximum", OpFamily::Binary},
    {Opcode::Neg, "neg", OpFamily::Unary},
    {Opcode::Abs, "abs", OpFamily::Unary},
    {Opcode::Exp, "exp", OpFamily::Unary},
    {Opcode::Exp2, "exp2", OpFamily::Unary},
    {Opcode::Log, "log", OpFamily::Unary},
    {Opcode::Log2, "log2", OpFamily::Unary},
    {Opcode::Sqrt, "sqrt", OpFamily::Unary},
    {Opcode::SqrtRn, "sqrt_rn", OpFamily::Unary},
    {Opcode::Rsqrt, "rsqrt", OpFamily::Unary},
    {Opcode::Sin, "sin", OpFamily::Unary},
    {Opcode::Cos, "cos", OpFamily::Unary},
    {Opcode::Floor, "floor", OpFamily::Unary},
    {Opcode::Ceil, "ceil", OpFamily::Unary},
    {Opcode::Erf, "erf", OpFamily::Unary},
    {Opcode::Fma, "fma", OpFamily::Fma},
    {Opcode::ICmp, "icmp", OpFamily::Cmp},
    {Opcode::FCmp, "fcmp", OpFamily::Cmp},
    {Opcode::Select, "select", OpFamily::Select},
    {Opcode::Trunc, "trunc", OpFamily::Cast},
    {Opcode::ZExt, "zext", OpFamily::Cast},
    {Opcode::SExt, "sext", OpFamily::Cast},
    {Opcode::FPTrunc, "fptrunc", OpFamily::Cast},
    {Opcode::FPExt, "fpext", OpFamily::Cast},
    {Opcode::FPToUI, "fptoui", OpFamily::Cast},
    {Opcode::FPToSI, "fptosi", OpFamily::Cast},
    {Opcode::UIToFP, "uitofp", OpFamily::Cast},
    {Opcode::SIToFP, "sitofp", OpFamily::Cast},
    {Opcode::Bitcast, "bitcast", OpFamily::Cast},
    {Opcode::PtrToInt, "ptrtoint", OpFamily::Cast},
    {Opcode::IntToPtr, "inttoptr", OpFamily::Cast},
    {Opcode::GetElementPtr, "getelementptr", OpFamily::GetElementPtr},
    {Opcode::Load, "load", OpFamily::Load},
    {Opcode::Store, "store", OpFamily::Store},
    {Opcode::AtomicRMW, "atomic_rmw", OpFamily::AtomicRMW},
    {Opcode::AtomicCAS, "atomic_cas", OpFamily::AtomicCAS},
    {Opcode::LocalAlloc, "local_alloc", OpFamily::LocalAlloc},
    {Opcode::LocalLoad, "local_load", OpFamily::LocalLoad},
    {Opcode::LocalStore, "local_store", OpFamily::LocalStore},
    {Opcode::MemDescIndex, "memdesc_index", OpFamily::MemDescIndex},
    {Opcode::MemDescTrans, "memdesc_trans", OpFamily::MemDescTrans},
    {Opcode::LocalDealloc, "local_dealloc", OpFamily::LocalDealloc},
    {Opcode::AsyncCopy, "async_copy", OpFamily::AsyncCopy},
    {Opcode::AsyncCommitGroup, "async_commit_group", OpFamily::AsyncCommitGroup},
    {Opcode::AsyncWait, "async_wait", OpFamily::AsyncWait},
    {Opcode::MakeTensorDesc, "make_tensor_descriptor", OpFamily::MakeTensorDesc},
    {Opcode::DescriptorLoad, "descriptor_load", OpFamily::DescriptorLoad},
    {Opcode::DescriptorStore, "descriptor_store", OpFamily::DescriptorStore},
    {Opcode::InitBarrier, "init_barrier", OpFamily::MBarrier},
    {Opcode::BarrierExpect, "barrier_expect", OpFamily::MBarrier},
    {Opcode::WaitBarrier, "wait_barrier", OpFamily::MBarrier},
    {Opcode::InvalBarrier, "inval_barrier", OpFamily::MBarrier},
    {Opcode::AsyncTMACopy, "async_tma_copy", OpFamily::AsyncTMACopy},
    {Opcode::AsyncTMAStore, "async_tma_store", OpFamily::AsyncTMAStore},
    {Opcode::MakeRange, "make_range", OpFamily::MakeRange},
    {Opcode::Splat, "splat", OpFamily::Splat},
    {Opcode::Broadcast, "broadcast", OpFamily::Broadcast},
    {Opcode::Reshape, "reshape", OpFamily::Reshape},
    {Opcode::ExpandDims, "expand_dims", OpFamily::ExpandDims},
    {Opcode::Trans, "trans", OpFamily::Trans},
    {Opcode::Join, "join", OpFamily::Join},
    {Opcode::Split, "split", OpFamily::Split},
    {Opcode::Cat, "cat", OpFamily::Cat},
    {Opcode::Dot, "dot", OpFamily::Dot},
    {Opcode::Reduce, "reduce", OpFamily::Reduce},
    {Opcode::Scan, "scan", OpFamily::Scan},
    {Opcode::ArgMin, "argmin", OpFamily::ArgMinMax},
    {Opcode::ArgMax, "argmax", OpFamily::ArgMinMax},
    {Opcode::Gather, "gather", OpFamily::Gather},
    {Opcode::GetProgramId, "get_program_id", OpFamily::ProgramInfo},
    {Opcode::GetNumPrograms, "get_num_programs", OpFamily::ProgramInfo},
    {Opcode::Call, "call", OpFamily::Call},
    {Opcode::Ret, "ret", OpFamily::Ret},
    {Opcode::Br, "br", OpFamily::Br},
    {Opcode::CondBr, "cond_br", OpFamily::CondBr},
    {Opcode::Phi, "phi", OpFamily::Phi},
    {Opcode::Barrier, "barrier", OpFamily::Barrier},
    {Opcode::GdcWait, "gdc_wait", OpFamily::Barrier},
    {Opcode::GdcLaunchDependents, "gdc_launch_dependents", OpFamily::Barrier},
    {Opcode::Print, "print", OpFamily::Print},
    {Opcode::Assert, "assert", OpFamily::Assert},
    {Opcode::ExternElementwise, "extern_elementwise", OpFamily::ExternElementwise},
    {Opcode::InlineAsm, "inline_asm", OpFamily::InlineAsm},
    {Opcode::MapElementwise, "map_elementwise", OpFamily::MapElementwise},
    {Opcode::MultipleOf, "multiple_of", OpFamily::Hint},
    {Opcode::MaxContiguous, "max_contiguous", OpFamily::Hint},
    {Opcode::MaxConstancy, "max_constancy", OpFamily::Hint},
    {Opcode::ConvertLayout, "convert_layout", OpFamily::ConvertLayout},
};

} // namespace

TEST_CASE("opcode tables name every opcode once") {
  CHECK(getNumOpcodes() == 116u);
  CHECK(std::size(AllOps) == getNumOpcodes());
  std::set<std::string> Seen;
  for (unsigned I = 0; I < std::size(AllOps); ++I) {
    const OpRow &R = AllOps[I];
    CAPTURE(R.Name);
    CHECK(unsigned(R.Op) == I);
    CHECK(getOpcodeName(R.Op) == R.Name);
    CHECK(getOpFamily(R.Op) == R.Family);
    CHECK(lookupOpcode(R.Name) == R.Op);
    CHECK(Seen.insert(R.Name).second);
  }
  CHECK_FALSE(lookupOpcode("Add"));
  CHECK_FALSE(lookupOpcode(""));
  CHECK_FALSE(lookupOpcode("nop"));
  CHECK(getOperandClass(Opcode::Add) == OperandClass::IntOperands);
  CHECK(getOperandClass(Opcode::UMulHi) == OperandClass::IntOperands);
  CHECK(getOperandClass(Opcode::FMaximum) == OperandClass::FloatOperands);
  CHECK(getOperandClass(Opcode::Neg) == OperandClass::AnyOperands);
  CHECK(getOperandClass(Opcode::Abs) == OperandClass::AnyOperands);
  CHECK(getOperandClass(Opcode::Erf) == OperandClass::FloatOperands);
  CHECK(getOperandClass(Opcode::Fma) == OperandClass::None);
  CHECK(getOperandClass(Opcode::Load) == OperandClass::None);
}

TEST_CASE_FIXTURE(InstFixture, "create makes the subclass of the family") {
  for (const OpRow &R : AllOps) {
    CAPTURE(R.Name);
    Instruction *I = make(R.Op, {}, {});
    CHECK(I->getOpcode() == R.Op);
    CHECK(I->getFamily() == R.Family);
    CHECK(I->getOpcodeName() == R.Name);
    CHECK(&I->getContext() == &Ctx);
    CHECK(I->getParent() == nullptr);
    CHECK(I->getFunction() == nullptr);
    CHECK(I->getModule() == nullptr);
    delete I;
  }
  Instruction *L = make(Opcode::Load, {I32}, {P});
  CHECK(llvm::isa<LoadInst>(L));
  CHECK_FALSE(llvm::isa<StoreInst>(L));
  delete L;
  Instruction *Red = make(Opcode::Reduce, {}, {});
  CHECK(llvm::isa<ReduceInst>(Red));
  CHECK(llvm::isa<CombineInstBase>(Red));
  CHECK_FALSE(llvm::isa<ScanInst>(Red));
  delete Red;
  Instruction *Max = make(Opcode::ArgMax, {}, {});
  CHECK(llvm::isa<ArgMinMaxInst>(Max));
  CHECK(llvm::cast<ArgMinMaxInst>(Max)->isMax());
  delete Max;
}

TEST_CASE_FIXTURE(InstFixture, "operands: add, set, remove") {
  Instruction *I = make(Opcode::Print, {}, {});
  CHECK(I->getNumOperands() == 0u);
  // Growing past the initial capacity keeps every use list right.
  for (int K = 0; K < 9; ++K)
    I->addOperand(K % 2 ? Bv : A);
  CHECK(I->getNumOperands() == 9u);
  CHECK(A->getNumUses() == 5u);
  CHECK(Bv->getNumUses() == 4u);
  for (Use &U : A->uses()) {
    CHECK(U.getUser() == I);
    CHECK(U.getOperandNo() % 2 == 0u);
    CHECK(&I->getOperandUse(U.getOperandNo()) == &U);
  }
  I->setOperand(0, P);
  CHECK(I->getOperand(0) == P);
  CHECK(A->getNumUses() == 4u);
  // Removing from the middle shifts the rest down.
  I->removeOperand(1); // a Bv
  CHECK(I->getNumOperands() == 8u);
  CHECK(I->getOperands() ==
        llvm::SmallVector<Value *, 4>{P, A, Bv, A, Bv, A, Bv, A});
  CHECK(Bv->getNumUses() == 3u);
  for (Use &U : Bv->uses())
    CHECK(I->getOperand(U.getOperandNo()) == Bv);
  I->removeOperand(7); // the last
  I->removeOperand(0); // the first
  CHECK(I->getOperands() == llvm::SmallVector<Value *, 4>{A, Bv, A, Bv, A, Bv});
  CHECK(P->use_empty());
  CHECK(I->operandUses().size() == 6u);
  CHECK(I->operandUses()[1].get() == Bv);
  delete I;
  CHECK(A->use_empty());
  CHECK(Bv->use_empty());
}

TEST_CASE_FIXTURE(InstFixture, "results") {
  Type *Pair = BlockType::get(I32, {2});
  Instruction *J = make(Opcode::Join, {Pair}, {A, Bv});
  Instruction *S = make(Opcode::Split, {I32, I32}, {J->getResult()});
  CHECK(S->getNumResults() == 2u);
  CHECK(S->getResultTypes() == llvm::SmallVector<Type *, 2>{I32, I32});
  CHECK(S->getResults() ==
        llvm::SmallVector<Value *, 2>{S->getResult(0), S->getResult(1)});
  CHECK(S->getResult(1)->getOwner() == S);
  CHECK(S->use_empty());
  Instruction *U = make(Opcode::Add, {I32}, {S->getResult(1), A});
  CHECK_FALSE(S->use_empty());
  CHECK(S->getResult(0)->use_empty());
  CHECK(J->getResult() == J->getResult(0));
  Instruction *St = make(Opcode::Store, {}, {P, A});
  CHECK(St->getNumResults() == 0u);
  CHECK(St->use_empty());
  CHECK(St->getResultTypes().empty());
  delete St;
  delete U;
  delete S;
  delete J;
}

TEST_CASE_FIXTURE(InstFixture, "block operands keep predecessor lists") {
  Instruction *Br = make(Opcode::Br, {}, {}, {}, {X});
  CHECK(X->predecessors().empty()); // not in a block yet: no edge
  Entry->push_back(Br);
  CHECK(names(X->predecessors()) == "entry");
  Br->setBlockOperand(0, Y);
  CHECK(X->predecessors().empty());
  CHECK(names(Y->predecessors()) == "entry");
  CHECK(names(Entry->successors()) == "y");

  // A second edge to the same block is a second predecessor entry.
  Br->addBlockOperand(Y);
  CHECK(names(Y->predecessors()) == "entry,entry");
  Br->removeBlockOperand(0);
  CHECK(names(Y->predecessors()) == "entry");
  CHECK(Br->getNumBlockOperands() == 1u);
  Br->setBlockOperand(0, nullptr);
  CHECK(Y->predecessors().empty());
  CHECK(names(Br->getBlockOperands()) == "null");
  Br->setBlockOperand(0, X);
  CHECK(names(X->predecessors()) == "entry");

  // Phis name blocks without making edges.
  Instruction *Phi = make(Opcode::Phi, {I32}, {A}, {}, {Entry});
  Y->push_back(Phi);
  CHECK(Entry->predecessors().empty());
  llvm::cast<PhiInst>(Phi)->addIncoming(Bv, X);
  CHECK(X->predecessors().size() == 1u);
  CHECK(llvm::cast<PhiInst>(Phi)->getIncomingValueForBlock(X) == Bv);
  CHECK(llvm::cast<PhiInst>(Phi)->getIncomingValueForBlock(Y) == nullptr);
  llvm::cast<PhiInst>(Phi)->removeIncoming(0);
  CHECK(Phi->getNumOperands() == 1u);
  CHECK(names(Phi->getBlockOperands()) == "x");
  CHECK(A->use_empty());

  // Removing the terminator removes its edges; erasing too.
  Br->removeFromParent();
  CHECK(X->predecessors().empty());
  Entry->push_back(Br);
  CHECK(names(X->predecessors()) == "entry");
  Br->eraseFromParent();
  CHECK(X->predecessors().empty());
  CHECK(Entry->empty());
}

TEST_CASE_FIXTURE(InstFixture, "attributes are kept sorted by key") {
  Instruction *I = make(Opcode::AtomicRMW, {I32}, {P, A},
                        {{AttrKey::Scope, AttrValue::enumerator(0)},
                         {AttrKey::RMWKind, AttrValue::enumerator(2)},
                         {AttrKey::Sem, AttrValue::enumerator(1)}});
  REQUIRE(I->getAttrs().size() == 3u);
  CHECK(I->getAttrs()[0].Key == AttrKey::RMWKind);
  CHECK(I->getAttrs()[1].Key == AttrKey::Sem);
  CHECK(I->getAttrs()[2].Key == AttrKey::Scope);
  Entry->push_back(I); // printed with the function's names
  CHECK(I->str() == "%3 = atomic_rmw max %p, %a {sem=acquire, scope=cta} : i32");

  I->setAttr(AttrKey::Sem, AttrValue::enumerator(3)); // replaces
  CHECK(I->getAttrs().size() == 3u);
  CHECK(I->getEnumAttr(AttrKey::Sem) == 3u);
  I->setAttr(AttrKey::Value, AttrValue::integer(5)); // first key: goes first
  I->setAttr(AttrKey::Callee, AttrValue::symbol("g")); // last key: last
  I->setAttr(AttrKey::Axis, AttrValue::integer(1)); // in between
  llvm::SmallVector<AttrKey, 6> Keys;
  for (const Attribute &At : I->getAttrs())
    Keys.push_back(At.Key);
  CHECK(Keys == llvm::SmallVector<AttrKey, 6>{AttrKey::Value, AttrKey::RMWKind,
                                              AttrKey::Sem, AttrKey::Scope,
                                              AttrKey::Axis, AttrKey::Callee});
  CHECK(I->hasAttr(AttrKey::Axis));
  I->removeAttr(AttrKey::Axis);
  CHECK_FALSE(I->hasAttr(AttrKey::Axis));
  CHECK(I->getAttr(AttrKey::Axis) == nullptr);
  I->removeAttr(AttrKey::Axis); // absent: no-op
  CHECK(I->getAttrs().size() == 5u);

  // Typed getters fall back to the default on a missing key or wrong kind.
  CHECK(I->getIntAttr(AttrKey::Value) == 5);
  CHECK(I->getIntAttr(AttrKey::Axis, -1) == -1);
  CHECK(I->getIntAttr(AttrKey::Sem, -1) == -1); // an enum, not an int
  CHECK(I->getEnumAttr(AttrKey::Value, 9) == 9u);
  CHECK(I->getStringAttr(AttrKey::Callee) == "g");
  CHECK(I->getStringAttr(AttrKey::Message) == "");
  I->setAttr(AttrKey::Message, AttrValue::string("m"));
  CHECK(I->getStringAttr(AttrKey::Message) == "m");
  CHECK(I->getIntListAttr(AttrKey::Order).empty());
  I->setAttr(AttrKey::Order, AttrValue::intList({1, 0}));
  CHECK(I->getIntListAttr(AttrKey::Order) == llvm::ArrayRef<int64_t>({1, 0}));
  CHECK(I->getAttr(AttrKey::Order)->K == AttrValue::Kind::IntList);
  I->eraseFromParent();
}

TEST_CASE_FIXTURE(InstFixture, "checkTypes reports generic problems first") {
  Instruction *Dup = make(Opcode::GetProgramId, {I32}, {},
                          {{AttrKey::Axis, AttrValue::integer(0)},
                           {AttrKey::Axis, AttrValue::integer(1)}});
  CHECK(Dup->checkTypes() == "attribute 'axis' appears twice");
  delete Dup;
  Instruction *Kind = make(Opcode::GetProgramId, {I32}, {},
                           {{AttrKey::Axis, AttrValue::floating(0)}});
  CHECK(Kind->checkTypes() == "attribute 'axis' has a value of the wrong kind");
  delete Kind;
  Instruction *Enum = make(Opcode::ICmp, {Type::getI1(Ctx)}, {A, Bv},
                           {{AttrKey::IPredicate, AttrValue::enumerator(10)}});
  CHECK(Enum->checkTypes() ==
        "attribute 'ipredicate' has a value of the wrong kind");
  delete Enum;
  Instruction *Null = make(Opcode::Add, {I32}, {A, nullptr});
  CHECK(Null->checkTypes() == "operand 1 is missing");
  delete Null;
  Instruction *NoBlock = make(Opcode::Br, {}, {}, {}, {nullptr});
  CHECK(NoBlock->checkTypes() == "a block operand is missing");
  delete NoBlock;
  Instruction *Good = make(Opcode::Add, {I32}, {A, Bv});
  CHECK(Good->checkTypes() == "");
  delete Good;
  // Number keys take ints and floats.
  Instruction *C = make(Opcode::Constant, {Type::getF32(Ctx)}, {},
                        {{AttrKey::Value, AttrValue::floating(0.5)}});
  CHECK(C->checkTypes() == "");
  delete C;
}

TEST_CASE_FIXTURE(InstFixture, "clone copies everything but the placement") {
  Instruction *I = Instruction::create(
      Ctx, Opcode::Load, {I32}, {P}, {{AttrKey::Volatile, AttrValue::unit()}},
      {}, Loc{"k.py", 3, 4});
  I->getResult()->setName("v");
  Entry->push_back(I);
  Instruction *C = I->clone();
  CHECK(C->getParent() == nullptr);
  CHECK(C->getOpcode() == Opcode::Load);
  CHECK(C->getOperand(0) == P);
  CHECK(P->getNumUses() == 2u);
  CHECK(C->getAttrs() == I->getAttrs());
  CHECK(C->getLoc() == I->getLoc());
  CHECK(C->getResult()->getName() == "v");
  CHECK(C->getResult() != I->getResult());
  CHECK(C->getResult()->getType() == I32);
  CHECK(llvm::isa<LoadInst>(C));
  delete C;

  // A cloned branch makes edges only once inserted.
  Entry->push_back(make(Opcode::CondBr, {}, {A}, {}, {X, Y}));
  Instruction *Br = Entry->getTerminator();
  Instruction *BrC = Br->clone();
  CHECK(names(BrC->getBlockOperands()) == "x,y");
  CHECK(names(X->predecessors()) == "entry");
  X->push_back(BrC);
  CHECK(names(X->predecessors()) == "entry,x");
  CHECK(names(Y->predecessors()) == "entry,x");
}

TEST_CASE_FIXTURE(InstFixture, "insert, move, remove and erase") {
  Instruction *I1 = make(Opcode::Add, {I32}, {A, Bv});
  Instruction *I2 = make(Opcode::Sub, {I32}, {A, Bv});
  Instruction *I3 = make(Opcode::Mul, {I32}, {A, Bv});
  Entry->push_back(I1);
  I3->insertAfter(I1);
  I2->insertBefore(I3);
  auto order = [](BasicBlock *B) {
    std::string S;
    for (Instruction &I : *B)
      S += I.getOpcodeName().str() + " ";
    return S;
  };
  CHECK(order(Entry) == "add sub mul ");
  CHECK(I2->getParent() == Entry);
  CHECK(I2->getFunction() == F);
  CHECK(I2->getModule() == &M);
  I1->moveBefore(I3);
  CHECK(order(Entry) == "sub add mul ");
  Instruction *I4 = make(Opcode::Ret, {}, {});
  X->push_back(I4);
  I3->moveBefore(I4); // across blocks
  CHECK(order(Entry) == "sub add ");
  CHECK(order(X) == "mul ret ");
  CHECK(I3->getParent() == X);
  CHECK(I2->removeFromParent() == I2);
  CHECK(I2->getParent() == nullptr);
  CHECK(order(Entry) == "add ");
  delete I2;
  I1->eraseFromParent();
  CHECK(Entry->empty());
  CHECK(A->getNumUses() == 1u); // only mul's
}

TEST_CASE_FIXTURE(InstFixture, "dropAllReferences clears operands and edges") {
  Instruction *Br = make(Opcode::CondBr, {}, {A}, {},
                         {X, Y});
  Entry->push_back(Br);
  CHECK(A->getNumUses() == 1u);
  Br->dropAllReferences();
  CHECK(A->use_empty());
  CHECK(Br->getNumOperands() == 1u);
  CHECK(Br->getOperand(0) == nullptr);
  CHECK(names(Br->getBlockOperands()) == "null,null");
  CHECK(X->predecessors().empty());
  CHECK(Y->predecessors().empty());
  CHECK(Entry->successors() == llvm::SmallVector<BasicBlock *, 2>{nullptr, nullptr});
}

TEST_CASE_FIXTURE(InstFixture, "side effects and memory") {
  std::set<Opcode> Effects = {Opcode::Store,  Opcode::AtomicRMW, Opcode::AtomicCAS,
                              Opcode::Barrier, Opcode::Print,   Opcode::Assert,
                              Opcode::Call,   Opcode::Ret,       Opcode::Br,
                              Opcode::CondBr, Opcode::ExternElementwise, Opcode::InlineAsm,
                              Opcode::LocalStore, Opcode::LocalDealloc,
                              Opcode::AsyncCopy, Opcode::AsyncCommitGroup, Opcode::AsyncWait,
                              Opcode::DescriptorStore, Opcode::InitBarrier,
                              Opcode::BarrierExpect, Opcode::WaitBarrier, Opcode::InvalBarrier,
                              Opcode::AsyncTMACopy, Opcode::AsyncTMAStore,
                              Opcode::GdcWait, Opcode::GdcLaunchDependents};
  // A wait reads and writes: the copies it waits for land, and nothing that
  // reads shared memory may move above it.
  std::set<Opcode> Reads = {Opcode::Load, Opcode::AtomicRMW, Opcode::AtomicCAS,
                            Opcode::Call, Opcode::Barrier,   Opcode::ExternElementwise,
                            Opcode::InlineAsm, Opcode::LocalLoad, Opcode::AsyncCopy, Opcode::AsyncWait,
                            Opcode::DescriptorLoad, Opcode::BarrierExpect, Opcode::WaitBarrier,
                            Opcode::AsyncTMACopy, Opcode::AsyncTMAStore, Opcode::GdcWait};
  // An allocation writes its initial value (and two are never merged).
  std::set<Opcode> Writes = {Opcode::Store, Opcode::AtomicRMW, Opcode::AtomicCAS,
                             Opcode::Call,  Opcode::Barrier,   Opcode::ExternElementwise,
                             Opcode::InlineAsm, Opcode::LocalAlloc, Opcode::LocalStore, Opcode::LocalDealloc,
                             Opcode::AsyncCopy, Opcode::AsyncWait, Opcode::DescriptorStore,
                             Opcode::InitBarrier, Opcode::BarrierExpect, Opcode::WaitBarrier,
                             Opcode::InvalBarrier, Opcode::AsyncTMACopy, Opcode::AsyncTMAStore,
                             Opcode::GdcWait};
  std::set<Opcode> Terminators = {Opcode::Ret, Opcode::Br, Opcode::CondBr};
  for (const OpRow &R : AllOps) {
    CAPTURE(R.Name);
    Instruction *I = make(R.Op, {}, {});
    CHECK(I->hasSideEffects() == (Effects.count(R.Op) != 0));
    CHECK(I->mayReadMemory() == (Reads.count(R.Op) != 0));
    CHECK(I->mayWriteMemory() == (Writes.count(R.Op) != 0));
    CHECK(I->isTerminator() == (Terminators.count(R.Op) != 0));
    delete I;
  }
  // Attributes that change the answer: a pure snippet or call has none.
  for (Opcode Op : {Opcode::ExternElementwise, Opcode::InlineAsm}) {
    Instruction *P = make(Op, {}, {});
    P->setAttr(AttrKey::Pure, AttrValue::unit());
    CHECK_FALSE(P->hasSideEffects());
    CHECK_FALSE(P->mayReadMemory());
    CHECK_FALSE(P->mayWriteMemory());
    delete P;
  }
  Instruction *L = make(Opcode::Load, {I32}, {P}, {{AttrKey::Volatile, AttrValue::unit()}});
  CHECK(L->hasSideEffects());
  CHECK_FALSE(L->mayWriteMemory());
  delete L;
  Instruction *E = make(Opcode::ExternElementwise, {I32}, {A},
                        {{AttrKey::Symbol, AttrValue::string("__nv_abs")},
                         {AttrKey::Pure, AttrValue::unit()}});
  CHECK_FALSE(E->hasSideEffects());
  CHECK_FALSE(E->mayReadMemory());
  CHECK_FALSE(E->mayWriteMemory());
  delete E;
}

TEST_CASE_FIXTURE(InstFixture, "locations and ids") {
  Instruction *I = make(Opcode::Add, {I32}, {A, Bv});
  CHECK_FALSE(I->getLoc().isKnown());
  I->setLoc({"k.py", 10, 2});
  CHECK(I->getLoc().isKnown());
  CHECK(I->getLoc() == Loc{"k.py", 10, 2});
  CHECK_FALSE(I->getLoc() == Loc{"k.py", 10, 3});
  I->setId(7);
  CHECK(I->getId() == 7u);
  Entry->push_back(I);
  F->renumber();
  CHECK(I->getId() == 0u);
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << *I;
  CHECK(S == "%3 = add %a, %b : i32");
  CHECK(I->str() == S);
}
