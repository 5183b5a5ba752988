//===- LICMTest.cpp - Loop-invariant code motion --------------------------===//

#include "TransformTestUtils.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;

TEST_CASE("licm: invariant arithmetic moves to the existing preheader") {
  std::string Out = runPipeline(R"(kernel @k(%p: ptr<f32>, %n: i32, %s: f32) {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  br loop
loop:
  %i = phi [%z, entry], [%i.next, loop] : i32
  %k = mul %n, %n : i32
  %k2 = add %k, %one : i32
  %sc = fmul %s, %s : f32
  %off = add %i, %k2 : i32
  %q = getelementptr %p, %off : ptr<f32>
  %v = load %q : f32
  %w = fmul %v, %sc : f32
  store %q, %w
  %i.next = add %i, %one : i32
  %c = icmp slt %i.next, %n : i1
  cond_br %c, loop, exit
exit:
  ret
}
)",
                                "licm");
  CHECK(Out == R"(kernel @k(%p: ptr<f32>, %n: i32, %s: f32) {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  %k = mul %n, %n : i32
  %k2 = add %k, %one : i32
  %sc = fmul %s, %s : f32
  br loop
loop:
  %i = phi [%z, entry], [%i.next, loop] : i32
  %off = add %i, %k2 : i32
  %q = getelementptr %p, %off : ptr<f32>
  %v = load %q : f32
  %w = fmul %v, %sc : f32
  store %q, %w
  %i.next = add %i, %one : i32
  %c = icmp slt %i.next, %n : i1
  cond_br %c, loop, exit
exit:
  ret
}
)");
}

TEST_CASE("licm: loads, atomics, side effects and risky divisions stay") {
  std::string IR = R"(kernel @k(%p: ptr<i32>, %n: i32, %d: i32) {
entry:
  %z = constant 0 : i32
  %m1 = constant -1 : i32
  br loop
loop:
  %i = phi [%z, entry], [%i.next, loop] : i32
  %v = load %p : i32
  %a = atomic_rmw add %p, %n : i32
  %q = sdiv %n, %d : i32
  %q2 = sdiv %n, %m1 : i32
  %r = urem %n, %z : i32
  print %n {prefix="n"}
  %s1 = add %v, %a : i32
  %s2 = add %q, %q2 : i32
  %s3 = add %s1, %s2 : i32
  %s4 = add %s3, %r : i32
  %i.next = add %i, %s4 : i32
  %c = icmp slt %i.next, %n : i1
  cond_br %c, loop, exit
exit:
  ret
}
)";
  CHECK(runPipeline(IR, "licm") == IR);
}

TEST_CASE("licm: a division by a safe constant is hoisted") {
  std::string Out = runPipeline(R"(kernel @k(%p: ptr<i32>, %n: i32) {
entry:
  %z = constant 0 : i32
  %four = constant 4 : i32
  br loop
loop:
  %i = phi [%z, entry], [%i.next, loop] : i32
  %q = sdiv %n, %four : i32
  %i.next = add %i, %q : i32
  %c = icmp slt %i.next, %n : i1
  cond_br %c, loop, exit
exit:
  store %p, %i
  ret
}
)",
                                "licm");
  CHECK(Out.find("%q = sdiv %n, %four : i32\n  br loop") != std::string::npos);
}

TEST_CASE("licm: a preheader is created for a header with two outside "
          "predecessors") {
  std::string Out = runPipeline(R"(kernel @k(%p: ptr<i32>, %c: i1, %n: i32) {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  cond_br %c, loop, side
side:
  br loop
loop:
  %i = phi [%z, entry], [%one, side], [%i.next, loop] : i32
  %j = phi [%n, entry], [%n, side], [%j, loop] : i32
  %k = mul %n, %n : i32
  %i.next = add %i, %k : i32
  %t = icmp slt %i.next, %n : i1
  cond_br %t, loop, exit
exit:
  store %p, %j
  ret
}
)",
                                "licm");
  CHECK(Out == R"(kernel @k(%p: ptr<i32>, %c: i1, %n: i32) {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  cond_br %c, loop.preheader, side
side:
  br loop.preheader
loop.preheader:
  %5 = phi [%z, entry], [%one, side] : i32
  %k = mul %n, %n : i32
  br loop
loop:
  %i = phi [%5, loop.preheader], [%i.next, loop] : i32
  %j = phi [%n, loop.preheader], [%j, loop] : i32
  %i.next = add %i, %k : i32
  %t = icmp slt %i.next, %n : i1
  cond_br %t, loop, exit
exit:
  store %p, %j
  ret
}
)");
}

TEST_CASE("licm: invariants of an inner loop leave the outer one too") {
  std::string Out = runPipeline(R"(kernel @k(%p: ptr<i32>, %n: i32, %m: i32) {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  br outer
outer:
  %i = phi [%z, entry], [%i.next, outer.latch] : i32
  %im = mul %i, %m : i32
  br inner
inner:
  %j = phi [%z, outer], [%j.next, inner] : i32
  %nm = mul %n, %m : i32
  %row = add %im, %one : i32
  %x = add %j, %nm : i32
  %y = add %x, %row : i32
  store %p, %y
  %j.next = add %j, %one : i32
  %cj = icmp slt %j.next, %m : i1
  cond_br %cj, inner, outer.latch
outer.latch:
  %i.next = add %i, %one : i32
  %ci = icmp slt %i.next, %n : i1
  cond_br %ci, outer, exit
exit:
  ret
}
)",
                                "licm");
  // %nm depends on nothing in either loop: it reaches the entry block.
  // %row depends on %i: it stops in the outer loop, before the inner one.
  CHECK(Out.find("%nm = mul %n, %m : i32\n  br outer") != std::string::npos);
  CHECK(Out.find("%im = mul %i, %m : i32\n  %row = add %im, %one : i32\n"
                 "  br inner") != std::string::npos);
}

TEST_CASE("licm: a function without loops is unchanged") {
  std::string IR = R"(func @f(%a: i32) -> i32 {
bb0:
  %x = mul %a, %a : i32
  ret %x
}
)";
  CHECK(runPipeline(IR, "licm") == IR);
}
