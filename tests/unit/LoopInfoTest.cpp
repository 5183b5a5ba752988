// The loop analysis on hand-written IR: nesting, latches, preheaders, exits,
// counted loops and their trip counts, and a preheader added afterwards.
#include "analysis/LoopInfo.h"
#include "ir/Context.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/Module.h"
#include "ir/Parser.h"

#include <doctest/doctest.h>

using namespace tritium;

namespace {
struct Parsed {
  Context Ctx;
  std::unique_ptr<Module> M;
  Function *F = nullptr;
  explicit Parsed(llvm::StringRef IR) : M(parseModule(IR, Ctx)) { F = M->functions().front(); }
  BasicBlock *block(llvm::StringRef Name) {
    for (BasicBlock &B : *F)
      if (B.getName() == Name)
        return &B;
    FAIL("no block " << Name.str());
    return nullptr;
  }
};
} // namespace

TEST_CASE("loops: a counted for-loop nested in a loop with two exits") {
  Parsed P(R"(kernel @k(%p: ptr<i32>, %n: i32, %stop: i1) {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  %eight = constant 8 : i32
  br outer
outer:
  %i = phi [%z, entry], [%i.next, outer.latch] : i32
  br inner
inner:
  %j = phi [%z, outer], [%j.next, inner.body] : i32
  %c = icmp slt %j, %eight : i1
  cond_br %c, inner.body, outer.latch
inner.body:
  store %p, %j
  %j.next = add %one, %j : i32
  br inner
outer.latch:
  %i.next = add %i, %one : i32
  %ci = icmp slt %i.next, %n : i1
  cond_br %stop, exit, outer.test
outer.test:
  cond_br %ci, outer, exit
exit:
  ret
})");
  DominatorTree DT(*P.F);
  LoopInfo LI(*P.F, DT);
  REQUIRE(LI.getLoopsInnermostFirst().size() == 2);
  Loop *Inner = LI.getLoopsInnermostFirst()[0], *Outer = LI.getLoopsInnermostFirst()[1];
  CHECK(Inner->getHeader() == P.block("inner"));
  CHECK(Outer->getHeader() == P.block("outer"));
  CHECK(Inner->getParent() == Outer);
  CHECK(Outer->getSubLoops().size() == 1);
  CHECK(LI.getTopLevelLoops().size() == 1);
  CHECK(Inner->getDepth() == 2);
  CHECK(Outer->contains(Inner));
  CHECK_FALSE(Inner->contains(Outer));
  CHECK(LI.getLoopFor(P.block("inner.body")) == Inner);
  CHECK(LI.getLoopFor(P.block("outer.latch")) == Outer);
  CHECK(LI.getLoopFor(P.block("exit")) == nullptr);
  CHECK(Inner->getPreheader() == P.block("outer"));
  CHECK(Outer->getPreheader() == P.block("entry"));
  CHECK(Outer->getLatches().size() == 1);
  CHECK(Outer->getLatches()[0] == P.block("outer.test"));
  CHECK(Outer->getExitingBlocks().size() == 2);

  // The inner loop counts 8 trips (the step on either side of the add).
  const std::optional<CountedLoop> &C = Inner->getCounted();
  REQUIRE(C);
  CHECK(C->IV->getResult()->getName() == "j");
  CHECK(C->TripCount == 8);
  CHECK(C->Pred == ICmpPredicate::SLT);
  // The outer one tests in its latch and leaves twice: not counted.
  CHECK_FALSE(Outer->getCounted());

  // A block added as the inner loop's new preheader belongs to the outer.
  auto *Pre = new BasicBlock("inner.pre");
  P.F->insert(P.block("inner")->getIterator(), Pre);
  LI.addBlockToLoop(Pre, Outer, P.block("inner"));
  CHECK(Outer->contains(Pre));
  CHECK_FALSE(Inner->contains(Pre));
  CHECK(LI.getLoopFor(Pre) == Outer);
  CHECK(Outer->getBlocks()[1] == Pre);
  Pre->eraseFromParent();
}

TEST_CASE("loops: a bound computed in the loop is no count; no loops at all") {
  Parsed P(R"(kernel @k(%p: ptr<i32>, %n: i32) {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  br head
head:
  %i = phi [%z, entry], [%i.next, head] : i32
  %b = add %n, %i : i32
  %i.next = add %i, %one : i32
  %c = icmp slt %i.next, %b : i1
  cond_br %c, head, exit
exit:
  ret
})");
  DominatorTree DT(*P.F);
  LoopInfo LI(*P.F, DT);
  REQUIRE(LI.getLoopsInnermostFirst().size() == 1);
  CHECK_FALSE(LI.getLoopsInnermostFirst()[0]->getCounted());

  Parsed Q(R"(kernel @k(%p: ptr<i32>) {
entry:
  ret
})");
  DominatorTree DT2(*Q.F);
  CHECK(LoopInfo(*Q.F, DT2).empty());
}
