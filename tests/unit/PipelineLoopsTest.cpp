//===- PipelineLoopsTest.cpp - Software pipelining of dot loops -----------===//
//
// What the pipeline pass leaves in a matmul loop, counted by opcode and
// ordered in the body: asynchronous copies (cp.async targets), or loads
// staged through registers (register-copies=1: AMDGPU, no async copies).

#include "TransformTestUtils.h"

#include "ir/BasicBlock.h"
#include "ir/Function.h"
#include "ir/Instruction.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;

namespace {
const char *Matmul = R"(kernel @matmul(%a: ptr<f16> {divisibility=16}, %b: ptr<f16> {divisibility=16}, %c: ptr<f32> {divisibility=16}, %K: i32 {divisibility=16}) {
entry:
  %zero = constant 0 : i32
  %one = constant 1 : i32
  %s32 = constant 32 : i32
  %r = make_range {start=0, end=32} : <32 x i32>
  %row = expand_dims %r {axis=1} : <32 x 1 x i32>
  %col = expand_dims %r {axis=0} : <1 x 32 x i32>
  %ks = splat %K : <32 x 1 x i32>
  %arow = mul %row, %ks : <32 x 1 x i32>
  %ar = broadcast %arow : <32 x 32 x i32>
  %cc = broadcast %col : <32 x 32 x i32>
  %aoff = add %ar, %cc : <32 x 32 x i32>
  %as = splat %a : <32 x 32 x ptr<f16>>
  %a0 = getelementptr %as, %aoff : <32 x 32 x ptr<f16>>
  %bs = splat %b : <32 x 32 x ptr<f16>>
  %b0 = getelementptr %bs, %aoff : <32 x 32 x ptr<f16>>
  %z = constant 0.0 : <32 x 32 x f32>
  %fz = constant 0.0 : <32 x 32 x f16>
  %step = constant 32 : <32 x 32 x i32>
  %n = sdiv %K, %s32 : i32
  br header
header:
  %acc = phi [%z, entry], [%acc.next, body] : <32 x 32 x f32>
  %ap = phi [%a0, entry], [%ap.next, body] : <32 x 32 x ptr<f16>>
  %bp = phi [%b0, entry], [%bp.next, body] : <32 x 32 x ptr<f16>>
  %i = phi [%zero, entry], [%i.next, body] : i32
  %go = icmp slt %i, %n : i1
  cond_br %go, body, exit
body:
  %kk = mul %i, %s32 : i32
  %left = sub %K, %kk : i32
  %lefts = splat %left : <1 x 32 x i32>
  %km = icmp slt %col, %lefts : <1 x 32 x i1>
  %am = broadcast %km : <32 x 32 x i1>
  %av = load %ap, %am, %fz : <32 x 32 x f16>
  %bv = load %bp : <32 x 32 x f16>
  %acc.next = dot %av, %bv, %acc {precision=ieee} : <32 x 32 x f32>
  %ap.next = getelementptr %ap, %step : <32 x 32 x ptr<f16>>
  %bp.next = getelementptr %bp, %step : <32 x 32 x ptr<f16>>
  %i.next = add %i, %one : i32
  br header
exit:
  %cs = splat %c : <32 x 32 x ptr<f32>>
  %cp = getelementptr %cs, %aoff : <32 x 32 x ptr<f32>>
  store %cp, %acc
  ret
}
)";

/// The opcodes of \p BB in order.
std::vector<Opcode> opcodes(const BasicBlock &BB) {
  std::vector<Opcode> Ops;
  for (const Instruction &I : BB)
    Ops.push_back(I.getOpcode());
  return Ops;
}

size_t count(const std::vector<Opcode> &Ops, Opcode Op) {
  return std::count(Ops.begin(), Ops.end(), Op);
}

/// Position of the first (or, \p Last, the last) \p Op in \p Ops.
size_t find(const std::vector<Opcode> &Ops, Opcode Op, bool Last = false) {
  if (Last)
    return Ops.size() - 1 - (std::find(Ops.rbegin(), Ops.rend(), Op) - Ops.rbegin());
  return std::find(Ops.begin(), Ops.end(), Op) - Ops.begin();
}

const BasicBlock &block(const Module &M, llvm::StringRef Name) {
  for (const BasicBlock &BB : *M.getFunction("matmul"))
    if (BB.getName() == Name)
      return BB;
  FAIL("no block " << Name.str());
  throw;
}

const char *Layouts = "assign-layouts{num-warps=4,warp-size=64,mfma=1},remove-layout-conversions,"
                      "licm,stage-dot-operands{mfma=1},";
} // namespace

TEST_CASE("pipeline: register copies load ahead before the dot and store after it") {
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(Matmul, Ctx);
  runPipeline(*M, std::string(Layouts) +
                      "pipeline{num-stages=2,register-copies=1,mfma=1},cse,dce,insert-barriers");
  std::vector<Opcode> Entry = opcodes(block(*M, "entry")), Body = opcodes(block(*M, "body"));
  for (Opcode Async : {Opcode::AsyncCopy, Opcode::AsyncCommitGroup, Opcode::AsyncWait}) {
    CHECK(count(Entry, Async) == 0);
    CHECK(count(Body, Async) == 0);
  }
  // Iteration 0 in the preheader: a load and a store per operand.
  CHECK(count(Entry, Opcode::Load) == 2);
  CHECK(count(Entry, Opcode::LocalStore) == 2);
  // The body: iteration i + 1's loads, then a barrier and this iteration's
  // reads and dot, then the stores into the other slot.
  CHECK(count(Body, Opcode::Load) == 2);
  CHECK(count(Body, Opcode::LocalStore) == 2);
  CHECK(find(Body, Opcode::Load, true) < find(Body, Opcode::Barrier));
  CHECK(find(Body, Opcode::Barrier) < find(Body, Opcode::LocalLoad));
  CHECK(find(Body, Opcode::Dot) < find(Body, Opcode::LocalStore));
  CHECK(count(Body, Opcode::Barrier) == 1);
}

TEST_CASE("pipeline: with three stages the prologue stages two iterations") {
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(Matmul, Ctx);
  runPipeline(*M, std::string(Layouts) + "pipeline{num-stages=3,register-copies=1,mfma=1},dce");
  CHECK(count(opcodes(block(*M, "entry")), Opcode::LocalStore) == 4);
  CHECK(count(opcodes(block(*M, "body")), Opcode::LocalStore) == 2);
}

TEST_CASE("pipeline: asynchronous copies by default, waited for on exit") {
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(Matmul, Ctx);
  runPipeline(*M, "assign-layouts{num-warps=4,mma=1},remove-layout-conversions,licm,"
                  "stage-dot-operands,pipeline{num-stages=2},dce");
  std::vector<Opcode> Entry = opcodes(block(*M, "entry")), Body = opcodes(block(*M, "body"));
  CHECK(count(Entry, Opcode::AsyncCopy) == 2);
  CHECK(count(Entry, Opcode::AsyncCommitGroup) == 1);
  CHECK(count(Body, Opcode::AsyncCopy) == 2);
  CHECK(count(Body, Opcode::AsyncWait) == 1);
  CHECK(count(Body, Opcode::Load) == 0);
  CHECK(count(opcodes(block(*M, "exit")), Opcode::AsyncWait) == 1);
}

TEST_CASE("pipeline: a load whose other is not zero is a register copy, never an async one") {
  std::string Ones = Matmul;
  Ones.replace(Ones.find("%fz = constant 0.0"), 18, "%fz = constant 1.0");
  Context Ctx;
  std::unique_ptr<Module> Reg = parseModule(Ones, Ctx), Async = parseModule(Ones, Ctx);
  runPipeline(*Reg, std::string(Layouts) + "pipeline{num-stages=2,register-copies=1,mfma=1},dce");
  runPipeline(*Async, "assign-layouts{num-warps=4,mma=1},remove-layout-conversions,licm,"
                      "stage-dot-operands,pipeline{num-stages=2},dce");
  // Both loads staged in registers; with async copies only B, whose load
  // has no other.
  CHECK(count(opcodes(block(*Reg, "body")), Opcode::LocalStore) == 2);
  CHECK(count(opcodes(block(*Async, "body")), Opcode::AsyncCopy) == 1);
}

TEST_CASE("pipeline: a register copy keeps the load's hints and takes its other per iteration") {
  // A's other depends on the iteration (i as f16), its load carries a
  // cache hint: the copies load with the clone of other for their own
  // iteration (the prologue's from i = 0, the body's from i.ahead).
  std::string Varying = Matmul, Load = "%av = load %ap, %am, %fz : <32 x 32 x f16>";
  Varying.replace(Varying.find(Load), Load.size(),
                  "%if = sitofp %i : f16\n  %ov = splat %if : <32 x 32 x f16>\n"
                  "  %av = load %ap, %am, %ov {cache=cg} : <32 x 32 x f16>");
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(Varying, Ctx);
  runPipeline(*M, std::string(Layouts) + "pipeline{num-stages=2,register-copies=1,mfma=1},dce");
  std::string Text = M->str();
  CHECK(count(opcodes(block(*M, "body")), Opcode::LocalStore) == 2);
  CHECK(Text.find("sitofp %zero") != std::string::npos);    // iteration 0's other
  CHECK(Text.find("sitofp %i.ahead") != std::string::npos); // iteration i + 1's
  CHECK(Text.find("{cache=cg") != std::string::npos);
}

TEST_CASE("pipeline: register-copies takes 0 or 1") {
  PassRegistry &R = PassRegistry::global();
  registerAllPasses(R);
  PassManager PM;
  CHECK_THROWS_AS(R.parsePipeline("pipeline{register-copies=2}", PM), CompileError);
  CHECK_NOTHROW(R.parsePipeline("pipeline{num-stages=2,register-copies=1,mfma=1}", PM));
}
