//===- DCETest.cpp - Dead code elimination --------------------------------===//

#include "TransformTestUtils.h"
#include "codegen/transforms/Transforms.h"
#include "ir/Builder.h"
#include "ir/Dominance.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;

TEST_CASE("dce: unused pure instructions go, side effects stay") {
  std::string Out = runPipeline(R"(kernel @k(%p: ptr<f32>, %n: i32) {
bb0:
  %a = add %n, %n : i32
  %b = mul %a, %a : i32
  %v = load %p : f32
  %w = load %p {volatile} : f32
  %x = atomic_rmw fadd %p, %v : f32
  %pid = get_program_id {axis=0} : i32
  store %p, %v
  ret
}
)",
                                "dce");
  CHECK(Out == R"(kernel @k(%p: ptr<f32>, %n: i32) {
bb0:
  %v = load %p : f32
  %w = load %p {volatile} : f32
  %x = atomic_rmw fadd %p, %v : f32
  store %p, %v
  ret
}
)");
}

TEST_CASE("dce: a phi cycle that feeds nothing is dead") {
  std::string Out = runPipeline(R"(kernel @k(%p: ptr<i32>, %n: i32) {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  br loop
loop:
  %i = phi [%z, entry], [%i.next, loop] : i32
  %acc = phi [%z, entry], [%acc.next, loop] : i32
  %acc.next = add %acc, %i : i32
  %i.next = add %i, %one : i32
  %c = icmp slt %i.next, %n : i1
  cond_br %c, loop, exit
exit:
  ret
}
)",
                                "dce");
  CHECK(Out.find("%acc") == std::string::npos);
  CHECK(Out.find("%i = phi") != std::string::npos);
  CHECK(Out.find("cond_br %c, loop, exit") != std::string::npos);
}

TEST_CASE("dce: a used phi cycle stays") {
  std::string IR = R"(kernel @k(%p: ptr<i32>, %n: i32) {
entry:
  %z = constant 0 : i32
  br loop
loop:
  %acc = phi [%z, entry], [%acc.next, loop] : i32
  %acc.next = add %acc, %n : i32
  %c = icmp slt %acc.next, %n : i1
  cond_br %c, loop, exit
exit:
  store %p, %acc
  ret
}
)";
  CHECK(runPipeline(IR, "dce") == IR);
}

TEST_CASE("dce: unreachable blocks go and their phi entries with them") {
  std::string Out = runPipeline(R"(func @f(%x: i32, %y: i32) -> i32 {
entry:
  br join
dead:
  %d = add %x, %y : i32
  br deader
deader:
  br join
join:
  %r = phi [%x, entry], [%d, deader] : i32
  ret %r
}
)",
                                "dce");
  CHECK(Out == R"(func @f(%x: i32, %y: i32) -> i32 {
entry:
  br join
join:
  %r = phi [%x, entry] : i32
  ret %r
}
)");
}

TEST_CASE("dce: an unreachable loop goes") {
  std::string Out = runPipeline(R"(kernel @k(%n: i32) {
entry:
  ret
loop:
  %i = phi [%i.next, loop] : i32
  %i.next = add %i, %n : i32
  br loop
}
)",
                                "dce");
  CHECK(Out == R"(kernel @k(%n: i32) {
entry:
  ret
}
)");
}

TEST_CASE("dce: keeps the dominator tree unless blocks went") {
  Context Ctx;
  Module M(Ctx);
  Function *F = M.createFunction(
      "f", FunctionType::get(Ctx, {Type::getI32(Ctx)}, {}));
  IRBuilder B(Ctx);
  BasicBlock *Entry = F->createBlock("entry");
  B.setInsertPoint(Entry);
  B.createBinary(Opcode::Add, F->getArg(0), F->getArg(0));
  B.createRet();

  AnalysisManager AM;
  AM.get<DominatorTreeAnalysis>(*F);
  DCEPass DCE;
  PreservedAnalyses PA = DCE.runOnFunction(*F, AM);
  CHECK(Entry->size() == 1);
  CHECK(PA.isPreserved(&DominatorTreeAnalysis::ID));
  CHECK(!PA.areAllPreserved());

  // A second run finds nothing.
  CHECK(DCE.runOnFunction(*F, AM).areAllPreserved());

  BasicBlock *Dead = F->createBlock("dead");
  B.setInsertPoint(Dead);
  B.createBr(Entry);
  PA = DCE.runOnFunction(*F, AM);
  CHECK(F->size() == 1);
  CHECK(!PA.isPreserved(&DominatorTreeAnalysis::ID));
}
