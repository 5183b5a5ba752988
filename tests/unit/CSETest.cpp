//===- CSETest.cpp - Common subexpression elimination ---------------------===//

#include "TransformTestUtils.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;

TEST_CASE("cse: identical pure instructions in one block merge") {
  std::string Out = runPipeline(R"(kernel @k(%p: ptr<i32>, %a: i32, %b: i32) {
bb0:
  %c1 = constant 4 : i32
  %c2 = constant 4 : i32
  %x = add %a, %c1 : i32
  %y = add %a, %c2 : i32
  %s = mul %x, %y : i32
  %r1 = make_range {start=0, end=16} : <16 x i32>
  %r2 = make_range {start=0, end=16} : <16 x i32>
  %r3 = make_range {start=16, end=32} : <16 x i32>
  %q = add %r1, %r2 : <16 x i32>
  %t = add %q, %r3 : <16 x i32>
  %u = reduce %t {axis=0, kind=add} : i32
  %v = add %s, %u : i32
  store %p, %v
  ret
}
)",
                                "cse");
  CHECK(Out == R"(kernel @k(%p: ptr<i32>, %a: i32, %b: i32) {
bb0:
  %c1 = constant 4 : i32
  %x = add %a, %c1 : i32
  %s = mul %x, %x : i32
  %r1 = make_range {start=0, end=16} : <16 x i32>
  %r3 = make_range {start=16, end=32} : <16 x i32>
  %q = add %r1, %r1 : <16 x i32>
  %t = add %q, %r3 : <16 x i32>
  %u = reduce %t {axis=0, kind=add} : i32
  %v = add %s, %u : i32
  store %p, %v
  ret
}
)");
}

TEST_CASE("cse: commutative operands match in either order") {
  std::string Out = runPipeline(R"(func @f(%a: i32, %b: i32) -> (i32, i32, i32) {
bb0:
  %x = add %a, %b : i32
  %y = add %b, %a : i32
  %s = sub %a, %b : i32
  %t = sub %b, %a : i32
  %u = umin %b, %a : i32
  %w = umin %a, %b : i32
  %r1 = add %x, %y : i32
  %r2 = add %s, %t : i32
  %r3 = add %u, %w : i32
  ret %r1, %r2, %r3
}
)",
                                "cse");
  CHECK(Out.find("%y = ") == std::string::npos);
  CHECK(Out.find("%w = ") == std::string::npos);
  CHECK(Out.find("%t = sub %b, %a") != std::string::npos);
  CHECK(Out.find("%r1 = add %x, %x") != std::string::npos);
  CHECK(Out.find("%r3 = add %u, %u") != std::string::npos);
}

TEST_CASE("cse: attributes and result types must match") {
  std::string IR = R"(func @f(%a: i32, %b: i32, %v: <4 x 8 x f32>) -> (i1, i1, i64, i32, <8 x 4 x f32>, <4 x 8 x f32>) {
bb0:
  %x = icmp slt %a, %b : i1
  %y = icmp sle %a, %b : i1
  %z = sext %a : i64
  %w = get_program_id {axis=0} : i32
  %w1 = get_program_id {axis=1} : i32
  %t = trans %v {order=[1, 0]} : <8 x 4 x f32>
  %e = reshape %v : <4 x 8 x f32>
  %s = add %w, %w1 : i32
  ret %x, %y, %z, %s, %t, %e
}
)";
  CHECK(runPipeline(IR, "cse") == IR);
}

TEST_CASE("cse: only a dominating instruction replaces another") {
  std::string Out = runPipeline(R"(func @f(%c: i1, %a: i32, %b: i32) -> i32 {
entry:
  %x = add %a, %b : i32
  cond_br %c, left, right
left:
  %y = add %a, %b : i32
  %l = mul %a, %b : i32
  br join
right:
  %r = mul %a, %b : i32
  br join
join:
  %p = phi [%l, left], [%r, right] : i32
  %m = mul %a, %b : i32
  %z = add %p, %x : i32
  %s = add %z, %m : i32
  ret %s
}
)",
                                "cse");
  // %y is dominated by %x; the muls in the two arms do not dominate each
  // other or the one in join.
  CHECK(Out.find("%y = ") == std::string::npos);
  CHECK(Out.find("%l = mul %a, %b") != std::string::npos);
  CHECK(Out.find("%r = mul %a, %b") != std::string::npos);
  CHECK(Out.find("%m = mul %a, %b") != std::string::npos);
}

TEST_CASE("cse: loads, atomics, calls and side effects never merge") {
  std::string IR = R"(func @g(%a: i32) -> i32 {
bb0:
  ret %a
}

kernel @k(%p: ptr<i32>, %a: i32) {
bb0:
  %l1 = load %p : i32
  %l2 = load %p : i32
  %x1 = atomic_rmw add %p, %a : i32
  %x2 = atomic_rmw add %p, %a : i32
  %c1 = call @g(%a) : i32
  %c2 = call @g(%a) : i32
  %u1 = undef : i32
  %u2 = undef : i32
  %e1 = extern_elementwise %a {symbol="__nv_foo"} : i32
  %e2 = extern_elementwise %a {symbol="__nv_foo"} : i32
  %s1 = add %l1, %l2 : i32
  %s2 = add %x1, %x2 : i32
  %s3 = add %c1, %c2 : i32
  %s4 = add %u1, %u2 : i32
  %s5 = add %e1, %e2 : i32
  %t1 = add %s1, %s2 : i32
  %t2 = add %s3, %s4 : i32
  %t3 = add %t1, %t2 : i32
  %t4 = add %t3, %s5 : i32
  store %p, %t4
  ret
}
)";
  CHECK(runPipeline(IR, "cse") == IR);
}

TEST_CASE("cse: pure extern calls, hints and multi-result instructions "
          "merge") {
  std::string Out = runPipeline(R"(func @f(%a: f32, %v: <8 x 2 x f32>) -> (f32, <8 x f32>) {
bb0:
  %e1 = extern_elementwise %a {symbol="__nv_sinf", pure} : f32
  %e2 = extern_elementwise %a {symbol="__nv_sinf", pure} : f32
  %s = fadd %e1, %e2 : f32
  %l1, %h1 = split %v : <8 x f32>, <8 x f32>
  %l2, %h2 = split %v : <8 x f32>, <8 x f32>
  %t = fadd %h1, %h2 : <8 x f32>
  ret %s, %t
}
)",
                                "cse");
  CHECK(Out.find("%e2 = ") == std::string::npos);
  CHECK(Out.find("%s = fadd %e1, %e1") != std::string::npos);
  CHECK(Out.find("%l2") == std::string::npos);
  CHECK(Out.find("%t = fadd %h1, %h1") != std::string::npos);
}

TEST_CASE("cse: float constants compare bitwise") {
  std::string IR = R"(func @f() -> (f32, f32) {
bb0:
  %a = constant 0.0 : f32
  %b = constant -0.0 : f32
  ret %a, %b
}
)";
  CHECK(runPipeline(IR, "cse") == IR);
}
