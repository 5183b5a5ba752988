//===- PeepholeTest.cpp - Block-shape folding and mask simplification -----===//

#include "TransformTestUtils.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;

namespace {

/// What the body \p Body (over %x: f32 and %v: <4 x 8 x f32>, returning %r
/// of type R) becomes after peephole.
std::string peephole(const std::string &R, const std::string &Body) {
  std::string IR = "func @f(%x: f32, %v: <4 x 8 x f32>) -> " + R +
                   " {\nbb0:\n" + Body + "  ret %r\n}\n";
  return returnedDef(runPipeline(IR, "peephole"));
}

} // namespace

TEST_CASE("peephole: reshaping a splat gives a splat") {
  CHECK(peephole("<16 x 32 x f32>",
                 "  %s = splat %x : <32 x f32>\n"
                 "  %e = expand_dims %s {axis=0} : <1 x 32 x f32>\n"
                 "  %r = broadcast %e : <16 x 32 x f32>\n") ==
        "splat %x : <16 x 32 x f32>");
  CHECK(peephole("<4 x 8 x f32>",
                 "  %s = splat %x : <32 x f32>\n"
                 "  %r = reshape %s : <4 x 8 x f32>\n") ==
        "splat %x : <4 x 8 x f32>");
  CHECK(peephole("<8 x 4 x f32>",
                 "  %s = splat %x : <4 x 8 x f32>\n"
                 "  %r = trans %s {order=[1, 0]} : <8 x 4 x f32>\n") ==
        "splat %x : <8 x 4 x f32>");
  CHECK(peephole("<1 x 4 x f32>",
                 "  %s = splat %x : <4 x f32>\n"
                 "  %r = expand_dims %s {axis=0} : <1 x 4 x f32>\n") ==
        "splat %x : <1 x 4 x f32>");
  // The element of a one-element splat is the splat's scalar.
  CHECK(peephole("f32",
                 "  %s = splat %x : <1 x 1 x f32>\n"
                 "  %r = reshape %s : f32\n") == "%x");
}

TEST_CASE("peephole: shape changes to the same type vanish") {
  CHECK(peephole("<4 x 8 x f32>",
                 "  %r = broadcast %v : <4 x 8 x f32>\n") == "%v");
  CHECK(peephole("<4 x 8 x f32>",
                 "  %r = reshape %v {allow_reorder} : <4 x 8 x f32>\n") ==
        "%v");
  CHECK(peephole("<4 x 8 x f32>",
                 "  %r = trans %v {order=[0, 1]} : <4 x 8 x f32>\n") ==
        "%v");
}

TEST_CASE("peephole: chains of the same shape change compose") {
  CHECK(peephole("<4 x 8 x f32>",
                 "  %t = trans %v {order=[1, 0]} : <8 x 4 x f32>\n"
                 "  %r = trans %t {order=[1, 0]} : <4 x 8 x f32>\n") ==
        "%v");
  CHECK(peephole("<32 x f32>",
                 "  %a = reshape %v : <8 x 4 x f32>\n"
                 "  %r = reshape %a : <32 x f32>\n") ==
        "reshape %v : <32 x f32>");
  CHECK(peephole("<32 x f32>",
                 "  %a = reshape %v {allow_reorder} : <8 x 4 x f32>\n"
                 "  %r = reshape %a : <32 x f32>\n") ==
        "reshape %v {allow_reorder} : <32 x f32>");
  CHECK(peephole("<4 x 8 x f32>",
                 "  %a = reshape %v : <32 x f32>\n"
                 "  %r = reshape %a : <4 x 8 x f32>\n") ==
        "%v");
  std::string Out = runPipeline(R"(func @f(%v: <2 x 4 x 8 x f32>) -> <8 x 2 x 4 x f32> {
bb0:
  %a = trans %v {order=[1, 2, 0]} : <4 x 8 x 2 x f32>
  %b = trans %a {order=[1, 2, 0]} : <8 x 2 x 4 x f32>
  ret %b
}
)",
                 "peephole");
  CHECK(returnedDef(Out) == "trans %v {order=[2, 0, 1]} : <8 x 2 x 4 x f32>");
  Out = runPipeline(R"(func @f(%v: <1 x 8 x f32>) -> <4 x 8 x f32> {
bb0:
  %a = broadcast %v : <1 x 8 x f32>
  %b = broadcast %a : <4 x 8 x f32>
  ret %b
}
)",
                    "peephole");
  CHECK(returnedDef(Out) == "broadcast %v : <4 x 8 x f32>");
}

TEST_CASE("peephole: an all-true mask is dropped") {
  std::string Out = runPipeline(R"(kernel @k(%p: ptr<f32>, %q: ptr<i32>, %i: i32) {
bb0:
  %r = make_range {start=0, end=128} : <128 x i32>
  %sp = splat %p : <128 x ptr<f32>>
  %ptrs = getelementptr %sp, %r : <128 x ptr<f32>>
  %t = constant 1 : i1
  %m = splat %t : <128 x i1>
  %other = constant 0.0 : <128 x f32>
  %v = load %ptrs, %m, %other : <128 x f32>
  %m2 = constant 1 : <128 x i1>
  store %ptrs, %v, %m2
  %old = atomic_rmw add %q, %i, %t : i32
  %old2 = atomic_cas %q, %i, %old, %t : i32
  ret
}
)",
                 "peephole");
  CHECK(Out == R"(kernel @k(%p: ptr<f32>, %q: ptr<i32>, %i: i32) {
bb0:
  %r = make_range {start=0, end=128} : <128 x i32>
  %sp = splat %p : <128 x ptr<f32>>
  %ptrs = getelementptr %sp, %r : <128 x ptr<f32>>
  %v = load %ptrs : <128 x f32>
  store %ptrs, %v
  %old = atomic_rmw add %q, %i : i32
  %old2 = atomic_cas %q, %i, %old : i32
  ret
}
)");
}

TEST_CASE("peephole: an all-false mask makes a load its other and erases "
          "a store") {
  std::string Out = runPipeline(R"(kernel @k(%p: ptr<f32>) {
bb0:
  %sp = splat %p : <128 x ptr<f32>>
  %f = constant 0 : i1
  %e = splat %f : <1 x i1>
  %m = broadcast %e : <128 x i1>
  %other = constant 2.0 : <128 x f32>
  %v = load %sp, %m, %other : <128 x f32>
  %w = load %sp, %m : <128 x f32>
  %s = fadd %v, %w : <128 x f32>
  store %sp, %s
  store %sp, %s, %m
  ret
}
)",
                 "peephole");
  CHECK(Out == R"(kernel @k(%p: ptr<f32>) {
bb0:
  %sp = splat %p : <128 x ptr<f32>>
  %other = constant 2.0 : <128 x f32>
  %3 = undef : <128 x f32>
  %s = fadd %other, %3 : <128 x f32>
  store %sp, %s
  ret
}
)");
}

TEST_CASE("peephole: unknown masks and volatile loads stay") {
  std::string IR = R"(kernel @k(%p: ptr<f32>, %n: i32) {
bb0:
  %r = make_range {start=0, end=128} : <128 x i32>
  %sn = splat %n : <128 x i32>
  %m = icmp slt %r, %sn : <128 x i1>
  %sp = splat %p : <128 x ptr<f32>>
  %ptrs = getelementptr %sp, %r : <128 x ptr<f32>>
  %v = load %ptrs, %m : <128 x f32>
  %f = constant 0 : <128 x i1>
  %w = load %ptrs, %f {volatile} : <128 x f32>
  %s = fadd %v, %w : <128 x f32>
  store %ptrs, %s, %m
  ret
}
)";
  CHECK(runPipeline(IR, "peephole") == IR);
}

TEST_CASE("peephole: a uniform offset of a splat-based pointer block moves into the base") {
  std::string Out = runPipeline("kernel @k(%x: ptr<f32>, %s: i32) {\n"
                                "bb0:\n"
                                "  %r = make_range {start=0, end=64} : <64 x i32>\n"
                                "  %xs = splat %x : <64 x ptr<f32>>\n"
                                "  %p = getelementptr %xs, %r : <64 x ptr<f32>>\n"
                                "  %v = load %p : <64 x f32>\n"
                                "  %ss = splat %s : <64 x i32>\n"
                                "  %q = getelementptr %p, %ss : <64 x ptr<f32>>\n"
                                "  store %q, %v\n"
                                "  ret\n"
                                "}\n",
                                "peephole,dce");
  // %q is rebuilt over `splat(%x + %s)`; %p stays for its load.
  CHECK(Out.find("getelementptr %x, %s : ptr<f32>") != std::string::npos);
  CHECK(Out.find("getelementptr %p,") == std::string::npos);
  CHECK(Out.find("%v = load %p") != std::string::npos);
}

TEST_CASE("peephole: acc + dot(a, b, 0) accumulates in the dot") {
  auto Fold = [](const std::string &Body) {
    std::string IR = "func @f(%a: <16 x 16 x f16>, %b: <16 x 16 x f16>, %c: <16 x 16 x f32>, "
                     "%i: <16 x 16 x i8>, %j: <16 x 16 x i32>) -> <16 x 16 x f32> {\nbb0:\n" +
                     Body + "  ret %r\n}\n";
    return returnedDef(runPipeline(IR, "peephole"));
  };
  std::string Zero = "  %z = constant 0.0 : <16 x 16 x f32>\n";
  CHECK(Fold(Zero + "  %d = dot %a, %b, %z {precision=tf32} : <16 x 16 x f32>\n"
                    "  %r = fadd %c, %d : <16 x 16 x f32>\n") ==
        "dot %a, %b, %c {precision=tf32} : <16 x 16 x f32>");
  CHECK(Fold(Zero + "  %d = dot %a, %b, %z : <16 x 16 x f32>\n"
                    "  %r = fadd %d, %c : <16 x 16 x f32>\n") ==
        "dot %a, %b, %c {precision=ieee} : <16 x 16 x f32>");
  // Not: an accumulator that is not zero, a dot used twice, fp8's limit
  // on imprecise accumulation.
  CHECK(Fold("  %d = dot %a, %b, %c : <16 x 16 x f32>\n"
             "  %r = fadd %c, %d : <16 x 16 x f32>\n") == "fadd %c, %d : <16 x 16 x f32>");
  CHECK(Fold(Zero + "  %d = dot %a, %b, %z : <16 x 16 x f32>\n"
                    "  %e = fadd %c, %d : <16 x 16 x f32>\n"
                    "  %r = fadd %e, %d : <16 x 16 x f32>\n") == "fadd %e, %d : <16 x 16 x f32>");
  CHECK(Fold(Zero + "  %d = dot %a, %b, %z {max_num_imprecise_acc=16} : <16 x 16 x f32>\n"
                    "  %r = fadd %c, %d : <16 x 16 x f32>\n") == "fadd %c, %d : <16 x 16 x f32>");
}
