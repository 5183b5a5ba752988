// Tests of insert-barriers (codegen/layouts/InsertBarriers.cpp): on
// layout-level IR through the pass (straight line, two conversions in a
// row, a loop's back edge, a diamond, a user's barrier), on the GPU pipeline
// (softmax), and with made-up accesses through insertBarriers, where buffers
// at different offsets show that only real overlaps count.
#include "TransformTestUtils.h"
#include "codegen/layouts/LayoutPasses.h"
#include "codegen/lowering/Lowering.h"
#include "codegen/nvptx/NVPTXBackend.h"
#include "codegen/nvptx/NVPTXTargetInfo.h"
#include "ir/Dominance.h"
#include "ir/Function.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/IntrinsicsNVPTX.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;

namespace {

const char *LayoutA = "<register=[[1]], lane=[[2], [4], [8], [16], [32]], "
                      "warp=[[64], [128]], shape=[256]>";
const char *LayoutB = "<register=[[128]], lane=[[1], [2], [4], [8], [16]], "
                      "warp=[[32], [64]], shape=[256]>";

/// \p IR with $A and $B replaced by two layouts of <256 x i32> between which
/// a conversion goes through shared memory.
std::string withLayouts(std::string IR) {
  for (auto [Key, L] : {std::pair<const char *, const char *>{"$A", LayoutA},
                        {"$B", LayoutB}})
    for (size_t At = IR.find(Key); At != std::string::npos; At = IR.find(Key))
      IR.replace(At, 2, L);
  return IR;
}

/// The last function of \p M in short: each block as "name: " and its
/// instructions as "%result" or the opcode, so "bb0: %r %c barrier %d ret".
std::string summary(Module &M) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  Function &F = *M.functions().back();
  for (BasicBlock &B : F) {
    if (&B != &F.front())
      OS << " | ";
    B.printAsOperand(OS);
    OS << ":";
    for (Instruction &I : B) {
      OS << ' ';
      if (I.getNumResults())
        I.getResult(0)->printAsOperand(OS);
      else
        OS << I.getOpcodeName();
    }
  }
  return OS.str();
}

/// Runs insert-barriers on \p IR and summarizes the result.
std::string afterPass(const std::string &IR) {
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(withLayouts(IR), Ctx);
  verifyModuleOrThrow(*M);
  runPipeline(*M, "insert-barriers");
  return summary(*M);
}

} // namespace

TEST_CASE("insert-barriers: straight line") {
  SUBCASE("the first use of a kernel needs none") {
    CHECK(afterPass(R"(kernel @k() {
bb0:
  %r = make_range {start=0, end=256, layout=$A} : <256 x i32>
  %c = convert_layout %r {layout=$B} : <256 x i32>
  ret
}
)") == "bb0: %r %c ret");
  }
  SUBCASE("two conversions in a row: one barrier, before the second") {
    CHECK(afterPass(R"(kernel @k() {
bb0:
  %r = make_range {start=0, end=256, layout=$A} : <256 x i32>
  %c = convert_layout %r {layout=$B} : <256 x i32>
  %e = add %c, %c {layout=$B} : <256 x i32>
  %d = convert_layout %e {layout=$A} : <256 x i32>
  %s = reduce %d {axis=0, kind=add} : i32
  ret
}
)") == "bb0: %r %c %e barrier %d barrier %s ret");
  }
  SUBCASE("a user's barrier makes one unnecessary") {
    CHECK(afterPass(R"(kernel @k() {
bb0:
  %r = make_range {start=0, end=256, layout=$A} : <256 x i32>
  %c = convert_layout %r {layout=$B} : <256 x i32>
  barrier
  %d = convert_layout %c {layout=$A} : <256 x i32>
  ret
}
)") == "bb0: %r %c barrier %d ret");
  }
  SUBCASE("register-only conversions need none") {
    CHECK(afterPass(R"(kernel @k() {
bb0:
  %r = make_range {start=0, end=256, layout=$A} : <256 x i32>
  %c = convert_layout %r {layout=$B} : <256 x i32>
  %d = convert_layout %c {layout=$B} : <256 x i32>
  %e = convert_layout %d {layout=$B} : <256 x i32>
  ret
}
)") == "bb0: %r %c %d %e ret");
  }
}

TEST_CASE("insert-barriers: a conversion in a loop sees its previous iteration") {
  CHECK(afterPass(R"(kernel @k(%n: i32) {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  %r = make_range {start=0, end=256, layout=$A} : <256 x i32>
  br header
header:
  %i = phi [%z, entry], [%i.next, body] : i32
  %c = icmp slt %i, %n : i1
  cond_br %c, body, exit
body:
  %x = convert_layout %r {layout=$B} : <256 x i32>
  %i.next = add %i, %one : i32
  br header
exit:
  ret
}
)") == "entry: %z %one %r br | header: %i %c cond_br | "
       "body: barrier %x %i.next br | exit: ret");
  // A barrier ending the body leaves nothing pending at the back edge.
  CHECK(afterPass(R"(kernel @k(%n: i32) {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  %r = make_range {start=0, end=256, layout=$A} : <256 x i32>
  br header
header:
  %i = phi [%z, entry], [%i.next, body] : i32
  %c = icmp slt %i, %n : i1
  cond_br %c, body, exit
body:
  %x = convert_layout %r {layout=$B} : <256 x i32>
  %i.next = add %i, %one : i32
  barrier
  br header
exit:
  %y = convert_layout %r {layout=$B} : <256 x i32>
  ret
}
)") == "entry: %z %one %r br | header: %i %c cond_br | "
       "body: %x %i.next barrier br | exit: %y ret");
}

TEST_CASE("insert-barriers: a diamond joins what both arms left pending") {
  const char *Diamond = R"(kernel @k(%cond: i1) {
entry:
  %r = make_range {start=0, end=256, layout=$A} : <256 x i32>
  %c = convert_layout %r {layout=$B} : <256 x i32>
  cond_br %cond, then, else
then:
  THEN
  br join
else:
  ELSE
  br join
join:
  %j = convert_layout %r {layout=$B} : <256 x i32>
  ret
}
)";
  auto Run = [&](const char *Then, const char *Else) {
    std::string IR = Diamond;
    IR.replace(IR.find("THEN"), 4, Then);
    IR.replace(IR.find("ELSE"), 4, Else);
    return afterPass(IR);
  };
  const char *Convert = "%t = convert_layout %c {layout=$A} : <256 x i32>";
  CHECK(Run(Convert, "") == "entry: %r %c cond_br | then: barrier %t br | "
                            "else: br | join: barrier %j ret");
  CHECK(Run("barrier", "") == "entry: %r %c cond_br | then: barrier br | "
                              "else: br | join: barrier %j ret");
  CHECK(Run("barrier", "barrier") == "entry: %r %c cond_br | then: barrier br | "
                                     "else: barrier br | join: %j ret");
}

TEST_CASE("insert-barriers: a device function starts with everything pending") {
  CHECK(afterPass(R"(func noinline @f() {
bb0:
  %r = make_range {start=0, end=256, layout=$A} : <256 x i32>
  %c = convert_layout %r {layout=$B} : <256 x i32>
  ret
}
)") == "bb0: %r barrier %c ret");
}

TEST_CASE("insert-barriers: softmax through the GPU pipeline") {
  // Two cross-warp reductions: the first needs no barrier before it, the
  // second one (both use offset 0).
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(R"(kernel @softmax(%out: ptr<f32>, %in: ptr<f32>, %n: i32) {
entry:
  %cols = make_range {start=0, end=1024} : <1024 x i32>
  %n_b = splat %n : <1024 x i32>
  %mask = icmp slt %cols, %n_b : <1024 x i1>
  %in_b = splat %in : <1024 x ptr<f32>>
  %in_ptrs = getelementptr %in_b, %cols : <1024 x ptr<f32>>
  %x = load %in_ptrs, %mask : <1024 x f32>
  %max = reduce %x {axis=0, kind=fmax} : f32
  %max_b = splat %max : <1024 x f32>
  %z = fsub %x, %max_b : <1024 x f32>
  %sum = reduce %z {axis=0, kind=fadd} : f32
  %sum_b = splat %sum : <1024 x f32>
  %y = fdiv %z, %sum_b : <1024 x f32>
  %out_b = splat %out : <1024 x ptr<f32>>
  %out_ptrs = getelementptr %out_b, %cols : <1024 x ptr<f32>>
  store %out_ptrs, %y, %mask
  ret
}
)",
                                          Ctx);
  CompileOptions Opts;
  runPipeline(*M, getNVPTXPipeline(Opts));
  std::string S = summary(*M);
  CHECK(S.find("%x %max") != std::string::npos);
  CHECK(S.find("barrier %sum") != std::string::npos);
  size_t Count = 0;
  for (size_t At = S.find("barrier"); At != std::string::npos;
       At = S.find("barrier", At + 1))
    ++Count;
  CHECK(Count == 1);

  // The lowering adds only the barrier between each reduction's writes and
  // reads: three in all (it used to add one before the writes too: five).
  llvm::LLVMContext LLCtx;
  LoweringOptions LO;
  NVPTXTargetInfo Target{tritium::Target()};
  unsigned SharedBytes = 0;
  std::unique_ptr<llvm::Module> LLM = lowerToLLVM(*M, LLCtx, LO, Target, SharedBytes);
  unsigned Barriers = 0;
  for (llvm::Function &F : *LLM)
    for (llvm::Instruction &I : llvm::instructions(F))
      if (auto *Call = llvm::dyn_cast<llvm::IntrinsicInst>(&I))
        Barriers += Call->getIntrinsicID() == llvm::Intrinsic::nvvm_barrier0;
  CHECK(Barriers == 3);
  CHECK(SharedBytes == 16); // one f32 partial per warp, both at offset 0
}

namespace {

/// insertBarriers with made-up accesses: instructions named in \p Model
/// access shared memory as listed there.
std::string withModel(const std::string &IR,
                      const llvm::StringMap<SharedAccesses> &Model) {
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(IR, Ctx);
  verifyModuleOrThrow(*M);
  Function &F = *M->functions().back();
  DominatorTree DT(F);
  insertBarriers(F, DT, [&](const Instruction &I) -> SharedAccesses {
    if (!I.getNumResults())
      return {};
    auto It = Model.find(I.getResult(0)->getName());
    return It == Model.end() ? SharedAccesses() : It->second;
  });
  return summary(*M);
}

SharedAccess write(unsigned From, unsigned To) {
  return {SharedAccess::Kind::Write, {From, To}};
}
SharedAccess read(unsigned From, unsigned To) {
  return {SharedAccess::Kind::Read, {From, To}};
}
SharedAccess sync() { return {SharedAccess::Kind::Barrier, {}}; }

/// Scratch-like: write, barrier, read.
SharedAccesses scratch(unsigned From, unsigned To) {
  return {write(From, To), sync(), read(From, To)};
}

const char *ThreeInARow = R"(kernel @k(%x: i32) {
bb0:
  %a = add %x, %x : i32
  %b = add %a, %x : i32
  %c = add %b, %x : i32
  ret
}
)";

} // namespace

TEST_CASE("insert-barriers: only real overlaps conflict") {
  SUBCASE("disjoint buffers need no barrier (Triton v1 put one anyway)") {
    CHECK(withModel(ThreeInARow, {{"a", scratch(0, 1024)},
                                  {"b", scratch(1024, 2048)},
                                  {"c", scratch(2048, 2064)}}) ==
          "bb0: %a %b %c ret");
  }
  SUBCASE("an instruction's own barrier also retires earlier accesses") {
    CHECK(withModel(ThreeInARow, {{"a", scratch(0, 1024)},
                                  {"b", scratch(1024, 2048)},
                                  {"c", scratch(0, 512)}}) ==
          "bb0: %a %b %c ret");
  }
  SUBCASE("a write into bytes still being read waits") {
    CHECK(withModel(ThreeInARow, {{"a", scratch(0, 1024)},
                                  {"b", scratch(1024, 2048)},
                                  {"c", scratch(512, 1536)}}) ==
          "bb0: %a %b barrier %c ret");
  }
  SUBCASE("a barrier clears what came before it") {
    CHECK(withModel(ThreeInARow, {{"a", scratch(0, 64)},
                                  {"b", scratch(0, 64)},
                                  {"c", scratch(32, 96)}}) ==
          "bb0: %a barrier %b barrier %c ret");
  }
  SUBCASE("read after write and write after write wait; read after read does not") {
    CHECK(withModel(ThreeInARow, {{"a", {write(0, 16)}},
                                  {"b", {read(8, 24)}},
                                  {"c", {read(0, 16)}}}) ==
          "bb0: %a barrier %b %c ret");
    CHECK(withModel(ThreeInARow, {{"a", {write(0, 16)}},
                                  {"b", {write(16, 32)}},
                                  {"c", {write(15, 17)}}}) ==
          "bb0: %a %b barrier %c ret");
    CHECK(withModel(ThreeInARow, {{"a", {read(0, 16)}},
                                  {"b", {read(0, 16)}},
                                  {"c", {write(16, 32)}}}) ==
          "bb0: %a %b %c ret");
  }
  SUBCASE("an opaque call leaves everything pending, and synchronizes itself") {
    CHECK(withModel(ThreeInARow,
                    {{"a", scratch(0, 16)},
                     {"b", {{SharedAccess::Kind::Opaque, Interval::all()}}},
                     {"c", scratch(4096, 4112)}}) == "bb0: %a %b barrier %c ret");
  }
}

TEST_CASE("insert-barriers: asynchronous writes land at the wait that retires their group") {
  const char *Five = R"(kernel @k(%x: i32) {
bb0:
  %a = add %x, %x : i32
  %b = add %a, %x : i32
  %c = add %b, %x : i32
  %d = add %c, %x : i32
  %e = add %d, %x : i32
  ret
}
)";
  auto Async = [](unsigned From, unsigned To) {
    return SharedAccess{SharedAccess::Kind::AsyncWrite, {From, To}};
  };
  SharedAccess Commit{SharedAccess::Kind::CommitGroup, {}};
  auto Wait = [](unsigned Num) { return SharedAccess{SharedAccess::Kind::Wait, {}, Num}; };
  SUBCASE("in flight, no read waits for it; retired, the read after the wait does") {
    CHECK(withModel(Five, {{"a", {Async(0, 64), Commit}},
                           {"b", {read(0, 64)}},
                           {"c", {Wait(0)}},
                           {"d", {read(0, 64)}}}) == "bb0: %a %b %c barrier %d %e ret");
  }
  SUBCASE("a wait leaves its num most recent groups in flight") {
    CHECK(withModel(Five, {{"a", {Async(0, 64), Commit}},
                           {"b", {Async(64, 128), Commit}},
                           {"c", {Wait(1)}},
                           {"d", {read(64, 128)}},
                           {"e", {read(0, 64)}}}) == "bb0: %a %b %c %d barrier %e ret");
  }
  SUBCASE("uncommitted copies belong to no group a wait retires") {
    CHECK(withModel(Five, {{"a", {Async(0, 64)}},
                           {"b", {Wait(0)}},
                           {"c", {read(0, 64)}},
                           {"d", {Commit, Wait(0)}},
                           {"e", {read(0, 64)}}}) == "bb0: %a %b %c %d barrier %e ret");
  }
  SUBCASE("a copy waits for other threads' reads of its bytes, like a write") {
    CHECK(withModel(Five, {{"a", {read(0, 64)}},
                           {"b", {Async(64, 128)}},
                           {"c", {Async(32, 96)}}}) == "bb0: %a %b barrier %c %d %e ret");
  }
  SUBCASE("a TMA copy waits for other threads' reads, and leaves nothing pending") {
    SharedAccess TMA{SharedAccess::Kind::TMAWrite, {0, 64}};
    CHECK(withModel(Five, {{"a", {read(0, 64)}},
                           {"b", {TMA}},
                           {"c", {read(0, 64)}},
                           {"d", {TMA}}}) == "bb0: %a barrier %b %c barrier %d %e ret");
  }
  SUBCASE("a barrier does not complete a copy") {
    CHECK(withModel(Five, {{"a", {Async(0, 64), Commit}},
                           {"b", {sync()}},
                           {"c", {Wait(0)}},
                           {"d", {read(0, 64)}}}) == "bb0: %a %b %c barrier %d %e ret");
  }
}

TEST_CASE("insert-barriers: the back edge carries only what reaches it") {
  // Two scratch users in a loop body. When %b's bytes are apart from %a's,
  // what is pending at the back edge (%b's reads; its own barrier retired
  // %a's) does not meet %a's writes: no barrier anywhere. When they overlap,
  // %b waits for %a's readers and %a for the previous iteration's %b.
  const char *Loop = R"(kernel @k(%n: i32) {
entry:
  %z = constant 0 : i32
  br header
header:
  %i = phi [%z, entry], [%b, body] : i32
  %c = icmp slt %i, %n : i1
  cond_br %c, body, exit
body:
  %a = add %i, %n : i32
  %b = add %a, %n : i32
  br header
exit:
  ret
}
)";
  CHECK(withModel(Loop, {{"a", scratch(0, 16)}, {"b", scratch(16, 32)}}) ==
        "entry: %z br | header: %i %c cond_br | body: %a %b br | exit: ret");
  CHECK(withModel(Loop, {{"a", scratch(0, 16)}, {"b", scratch(8, 24)}}) ==
        "entry: %z br | header: %i %c cond_br | body: barrier %a barrier %b br "
        "| exit: ret");
  // A write with no barrier after it: the next iteration's write of the
  // same bytes by other threads must not overtake it (WAW).
  CHECK(withModel(Loop, {{"a", {write(0, 16)}}}) ==
        "entry: %z br | header: %i %c cond_br | body: barrier %a %b br | exit: ret");
}
