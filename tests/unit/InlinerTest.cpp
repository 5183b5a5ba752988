//===- InlinerTest.cpp - Inlining device functions ------------------------===//

#include "TransformTestUtils.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;

TEST_CASE("inline: a straight-line callee joins the caller's block") {
  std::string Out = runPipeline(R"(func @scale(%x: f32, %s: f32) -> f32 {
bb0:
  %y = fmul %x, %s : f32
  ret %y
}

kernel @k(%p: ptr<f32>, %s: f32) {
bb0:
  %v = load %p : f32
  %w = call @scale(%v, %s) : f32
  store %p, %w
  ret
}
)",
                                "inline");
  CHECK(Out == R"(kernel @k(%p: ptr<f32>, %s: f32) {
bb0:
  %v = load %p : f32
  %y = fmul %v, %s : f32
  store %p, %y
  ret
}
)");
}

TEST_CASE("inline: several returns merge in a phi") {
  std::string Out = runPipeline(R"(func @max(%a: i32, %b: i32) -> i32 {
entry:
  %c = icmp sgt %a, %b : i1
  cond_br %c, first, second
first:
  ret %a
second:
  ret %b
}

kernel @k(%p: ptr<i32>, %x: i32, %y: i32) {
bb0:
  %m = call @max(%x, %y) : i32
  store %p, %m
  ret
}
)",
                                "inline");
  CHECK(Out == R"(kernel @k(%p: ptr<i32>, %x: i32, %y: i32) {
bb0:
  %c = icmp sgt %x, %y : i1
  cond_br %c, max.first, max.second
max.first:
  br bb3
max.second:
  br bb3
bb3:
  %4 = phi [%x, max.first], [%y, max.second] : i32
  store %p, %4
  ret
}
)");
}

TEST_CASE("inline: nested calls are inlined all the way, callees removed") {
  std::string Out = runPipeline(R"(func @inc(%x: i32) -> i32 {
bb0:
  %one = constant 1 : i32
  %y = add %x, %one : i32
  ret %y
}

func @inc2(%x: i32) -> i32 {
bb0:
  %a = call @inc(%x) : i32
  %b = call @inc(%a) : i32
  ret %b
}

kernel @k(%p: ptr<i32>, %x: i32) {
bb0:
  %r = call @inc2(%x) : i32
  store %p, %r
  ret
}
)",
                                "inline");
  CHECK(Out.find("call") == std::string::npos);
  CHECK(Out.find("@inc") == std::string::npos);
  CHECK(Out.find("kernel @k") == 0);
  CHECK(runPipeline(Out, "canonicalize,cse") == R"(kernel @k(%p: ptr<i32>, %x: i32) {
bb0:
  %one = constant 1 : i32
  %y = add %x, %one : i32
  %4 = add %y, %one : i32
  store %p, %4
  ret
}
)");
}

TEST_CASE("inline: noinline callees stay called and stay in the module") {
  std::string IR = R"(func noinline @slow(%x: i32) -> i32 {
bb0:
  ret %x
}

kernel @k(%p: ptr<i32>, %x: i32) {
bb0:
  %r = call @slow(%x) : i32
  store %p, %r
  ret
}
)";
  CHECK(runPipeline(IR, "inline") == IR);
}

TEST_CASE("inline: recursion is left as calls and does not loop") {
  std::string IR = R"(func @even(%n: i32) -> i1 {
entry:
  %z = constant 0 : i32
  %c = icmp eq %n, %z : i1
  cond_br %c, yes, no
yes:
  ret %c
no:
  %one = constant 1 : i32
  %m = sub %n, %one : i32
  %r = call @odd(%m) : i1
  ret %r
}

func @odd(%n: i32) -> i1 {
entry:
  %r = call @even(%n) : i1
  %t = constant 1 : i1
  %x = xor %r, %t : i1
  ret %x
}

func @self(%n: i32) -> i32 {
bb0:
  %r = call @self(%n) : i32
  ret %r
}

kernel @k(%p: ptr<i32>, %n: i32) {
bb0:
  %e = call @even(%n) : i1
  %s = call @self(%n) : i32
  %z = zext %e : i32
  %t = add %z, %s : i32
  store %p, %t
  ret
}
)";
  CHECK(runPipeline(IR, "inline") == IR);
}

TEST_CASE("inline: a non-recursive callee of a recursive one is inlined") {
  std::string Out = runPipeline(R"(func @leaf(%n: i32) -> i32 {
bb0:
  %r = add %n, %n : i32
  ret %r
}

func @rec(%n: i32) -> i32 {
bb0:
  %a = call @leaf(%n) : i32
  %b = call @rec(%a) : i32
  ret %b
}

kernel @k(%p: ptr<i32>, %n: i32) {
bb0:
  %r = call @rec(%n) : i32
  store %p, %r
  ret
}
)",
                                "inline");
  CHECK(Out.find("@leaf") == std::string::npos);
  CHECK(Out.find("call @rec(%n)") != std::string::npos);
  CHECK(Out.find("call @rec(%r)") != std::string::npos);
}

TEST_CASE("inline: combine functions and uncalled functions stay") {
  std::string Out = runPipeline(R"(func @add(%a: f32, %b: f32) -> f32 {
bb0:
  %c = fadd %a, %b : f32
  ret %c
}

func @unused(%a: i32) -> i32 {
bb0:
  ret %a
}

kernel @k(%p: ptr<f32>, %v: <16 x f32>) {
bb0:
  %s = reduce %v {axis=0, combine=@add} : f32
  %t = call @add(%s, %s) : f32
  store %p, %t
  ret
}
)",
                                "inline");
  CHECK(Out.find("func @add(") != std::string::npos);
  CHECK(Out.find("func @unused(") != std::string::npos);
  CHECK(Out.find("call") == std::string::npos);
}

TEST_CASE("inline: a loop in the callee and values returned through it") {
  // The second copy's blocks and values repeat the first's names, so they
  // print numbered; its head is the first copy's return block.
  std::string Out = runPipeline(R"(func @sum(%n: i32) -> i32 {
entry:
  %z = constant 0 : i32
  %one = constant 1 : i32
  br loop
loop:
  %i = phi [%z, entry], [%i.next, loop] : i32
  %s = phi [%z, entry], [%s.next, loop] : i32
  %s.next = add %s, %i : i32
  %i.next = add %i, %one : i32
  %c = icmp slt %i.next, %n : i1
  cond_br %c, loop, done
done:
  ret %s.next
}

kernel @k(%p: ptr<i32>, %n: i32) {
bb0:
  %a = call @sum(%n) : i32
  %b = call @sum(%a) : i32
  store %p, %b
  ret
}
)",
                                "inline");
  CHECK(Out == R"(kernel @k(%p: ptr<i32>, %n: i32) {
bb0:
  %z = constant 0 : i32
  %one = constant 1 : i32
  br sum.loop
sum.loop:
  %i = phi [%z, bb0], [%i.next, sum.loop] : i32
  %s = phi [%z, bb0], [%s.next, sum.loop] : i32
  %s.next = add %s, %i : i32
  %i.next = add %i, %one : i32
  %c = icmp slt %i.next, %n : i1
  cond_br %c, sum.loop, sum.done
sum.done:
  %9 = constant 0 : i32
  %10 = constant 1 : i32
  br bb3
bb3:
  %11 = phi [%9, sum.done], [%14, bb3] : i32
  %12 = phi [%9, sum.done], [%13, bb3] : i32
  %13 = add %12, %11 : i32
  %14 = add %11, %10 : i32
  %15 = icmp slt %14, %s.next : i1
  cond_br %15, bb3, bb4
bb4:
  store %p, %13
  ret
}
)");
}
