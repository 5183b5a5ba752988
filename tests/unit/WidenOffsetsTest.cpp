//===- WidenOffsetsTest.cpp - 64-bit offset arithmetic --------------------===//

#include "TransformTestUtils.h"

#include <doctest/doctest.h>

using namespace tritium::test;

TEST_CASE("widen-offsets: a row offset that wraps in i32 is rebuilt in i64") {
  // row * stride + col over a 2^31-element matrix; the division (sdiv) is
  // rebuilt, the xor is a leaf.
  std::string Out = runPipeline(R"(kernel @k(%p: ptr<f16>, %row: i32, %stride: i32, %col: i32) {
entry:
  %r = mul %row, %stride : i32
  %c = xor %col, %stride : i32
  %half = constant 2 : i32
  %h = sdiv %c, %half : i32
  %o = add %r, %h : i32
  %q = getelementptr %p, %o : ptr<f16>
  %v = load %q : f16
  store %p, %v
  ret
}
)",
                                "widen-offsets,dce");
  CHECK(Out == R"(kernel @k(%p: ptr<f16>, %row: i32, %stride: i32, %col: i32) {
entry:
  %row.i64 = sext %row : i64
  %stride.i64 = sext %stride : i64
  %r.i64 = mul %row.i64, %stride.i64 : i64
  %c = xor %col, %stride : i32
  %c.i64 = sext %c : i64
  %half.i64 = constant 2 : i64
  %h.i64 = sdiv %c.i64, %half.i64 : i64
  %o.i64 = add %r.i64, %h.i64 : i64
  %q = getelementptr %p, %o.i64 : ptr<f16>
  %v = load %q : f16
  store %p, %v
  ret
}
)");
}

TEST_CASE("widen-offsets: i64 offsets and other i32 uses are left alone") {
  const char *In = R"(kernel @k(%p: ptr<f32>, %o: i64, %n: i32) {
entry:
  %q = getelementptr %p, %o : ptr<f32>
  %m = add %n, %n : i32
  %f = sitofp %m : f32
  store %q, %f
  ret
}
)";
  CHECK(runPipeline(In, "widen-offsets") == In);
}

TEST_CASE("widen-offsets: an i32 value made i64 for something else keeps its wrap") {
  // A hash stored as i64 is not an address: its multiply still wraps in i32.
  const char *In = R"(kernel @k(%p: ptr<i64>, %a: i32) {
entry:
  %k = constant -1640531535 : i32
  %h = mul %a, %k : i32
  %w = sext %h : i64
  store %p, %w
  ret
}
)";
  CHECK(runPipeline(In, "widen-offsets") == In);
}
