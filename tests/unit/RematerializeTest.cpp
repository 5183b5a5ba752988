// The LLVM IR steps after LLVM's pipeline: constant-offset GEPs next to
// their users (optimizeModule) and values recomputed after loops (NVPTX).
#include "codegen/lowering/LLVMOptimize.h"
#include "codegen/nvptx/PTXEmitter.h"
#include "codegen/nvptx/RematerializeAfterLoops.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Target/TargetMachine.h"

#include <doctest/doctest.h>

using namespace tritium;

namespace {
// %row is made from the thread index before the loop and used only after
// it; %inv only inside it. %col feeds both.
const char *LoopIR = R"(
define void @k(ptr addrspace(1) %out, i32 %n, i32 %h) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %q = sdiv i32 %ctaid, %h
  %col = and i32 %tid, 31
  %row0 = shl i32 %tid, 4
  %row1 = add i32 %row0, %q
  %row = or i32 %row1, %col
  %inv = mul i32 %col, %n
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %body ]
  %c = icmp slt i32 %i, %n
  br i1 %c, label %body, label %exit
body:
  %acc.next = add i32 %acc, %inv
  %i.next = add i32 %i, 1
  br label %header
exit:
  %sum = add i32 %acc, %row
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %row
  store i32 %sum, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
)";

std::unique_ptr<llvm::Module> parse(const char *IR, llvm::LLVMContext &Ctx) {
  llvm::SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(IR, Diag, Ctx);
  REQUIRE(M);
  return M;
}

llvm::BasicBlock *block(llvm::Function &F, llvm::StringRef Name) {
  for (llvm::BasicBlock &BB : F)
    if (BB.getName() == Name)
      return &BB;
  FAIL("no block " << Name.str());
  return nullptr;
}

llvm::Instruction *named(llvm::Function &F, llvm::StringRef Name) {
  for (llvm::BasicBlock &BB : F)
    for (llvm::Instruction &I : BB)
      if (I.getName() == Name)
        return &I;
  FAIL("no value " << Name.str());
  return nullptr;
}

unsigned countAsmReads(llvm::BasicBlock &BB) {
  unsigned N = 0;
  for (llvm::Instruction &I : BB)
    if (auto *Call = llvm::dyn_cast<llvm::CallInst>(&I))
      N += Call->isInlineAsm();
  return N;
}
} // namespace

TEST_CASE("a value used only after a loop is recomputed there") {
  llvm::LLVMContext Ctx;
  auto M = parse(LoopIR, Ctx);
  rematerializeAfterLoops(*M);
  REQUIRE_FALSE(llvm::verifyModule(*M, &llvm::errs()));
  llvm::Function &F = *M->getFunction("k");
  llvm::BasicBlock *Exit = block(F, "exit");
  // The sum uses a copy made in the exit block, which reads the thread
  // index again (inline assembly) and divides again.
  auto *Row = llvm::cast<llvm::Instruction>(named(F, "sum")->getOperand(1));
  CHECK(Row->getParent() == Exit);
  CHECK(Row->getOpcode() == llvm::Instruction::Or);
  CHECK(countAsmReads(*Exit) == 2); // tid and ctaid
  bool Divides = false;
  for (llvm::Instruction &I : *Exit)
    Divides |= I.getOpcode() == llvm::Instruction::SDiv;
  CHECK(Divides);
  // The loop's own invariant stays where it was: it is live in the loop.
  auto *Inv = llvm::cast<llvm::Instruction>(named(F, "acc.next")->getOperand(1));
  CHECK(Inv->getParent() == block(F, "entry"));
  CHECK(named(F, "row")->use_empty());
}

TEST_CASE("a loop that uses the value keeps it") {
  const char *IR = R"(
define void @k(ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %v = shl i32 %tid, 2
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %header ]
  %x = add i32 %i, %v
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %x, %n
  br i1 %c, label %header, label %exit
exit:
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %v
  store i32 %v, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
)";
  llvm::LLVMContext Ctx;
  auto M = parse(IR, Ctx);
  rematerializeAfterLoops(*M);
  REQUIRE_FALSE(llvm::verifyModule(*M, &llvm::errs()));
  CHECK(countAsmReads(*block(*M->getFunction("k"), "exit")) == 0);
}

TEST_CASE("a second loop's preheader gets its own copy") {
  const char *IR = R"(
define void @k(ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %a = mul i32 %tid, 3
  %b = mul i32 %tid, 5
  br label %h1
h1:
  %i = phi i32 [ 0, %entry ], [ %i.next, %h1 ]
  %x = add i32 %i, %a
  %i.next = add i32 %i, 1
  %c1 = icmp slt i32 %x, %n
  br i1 %c1, label %h1, label %pre2
pre2:
  br label %h2
h2:
  %j = phi i32 [ 0, %pre2 ], [ %j.next, %h2 ]
  %y = add i32 %j, %b
  %j.next = add i32 %j, 1
  %c2 = icmp slt i32 %y, %n
  br i1 %c2, label %h2, label %exit
exit:
  store i32 %y, ptr addrspace(1) %out
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
)";
  llvm::LLVMContext Ctx;
  auto M = parse(IR, Ctx);
  rematerializeAfterLoops(*M);
  REQUIRE_FALSE(llvm::verifyModule(*M, &llvm::errs()));
  llvm::Function &F = *M->getFunction("k");
  // %b (used in the second loop only) is made again in its preheader; %a,
  // used in the first, is not.
  CHECK(countAsmReads(*block(F, "pre2")) == 1);
  unsigned Muls = 0;
  for (llvm::Instruction &I : *block(F, "pre2"))
    Muls += I.getOpcode() == llvm::Instruction::Mul;
  CHECK(Muls == 1);
}

TEST_CASE("a constant-offset address sits next to its user after optimization") {
  const char *IR = R"(
define void @k(ptr addrspace(3) %s, ptr addrspace(1) %out, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = getelementptr i8, ptr addrspace(3) %s, i32 %tid
  br label %header
header:
  %i = phi i32 [ 0, %entry ], [ %i.next, %header ]
  %acc = phi i32 [ 0, %entry ], [ %acc.next, %header ]
  %far = getelementptr inbounds i8, ptr addrspace(3) %base, i32 8192
  %v = call i32 @use(ptr addrspace(3) %far)
  %acc.next = add i32 %acc, %v
  %i.next = add i32 %i, 1
  %c = icmp slt i32 %i.next, %n
  br i1 %c, label %header, label %exit
exit:
  store i32 %acc.next, ptr addrspace(1) %out
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @use(ptr addrspace(3))
)";
  llvm::LLVMContext Ctx;
  auto M = parse(IR, Ctx);
  auto TM = createNVPTXTargetMachine(Target());
  REQUIRE(TM);
  prepareNVPTXModule(*M, *TM);
  optimizeModule(*M, *TM);
  REQUIRE_FALSE(llvm::verifyModule(*M, &llvm::errs()));
  // LICM hoisted %far (its base is invariant); it is back in the loop.
  bool InLoop = false;
  for (llvm::BasicBlock &BB : *M->getFunction("k"))
    for (llvm::Instruction &I : BB)
      if (auto *G = llvm::dyn_cast<llvm::GetElementPtrInst>(&I))
        if (G->hasAllConstantIndices())
          InLoop |= BB.getName() == "header";
  CHECK(InLoop);
}
