//===- LowerTensorDescriptorsTest.cpp - Descriptor blocks as pointers -----===//

#include "TransformTestUtils.h"
#include "codegen/transforms/Transforms.h"
#include "ir/Diagnostics.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;

namespace {
const char *OneDim = R"(kernel @k(%p: ptr<i32>, %q: ptr<i32>, %n: i32, %o: i32) {
bb0:
  %one = constant 1 : i64
  %d = make_tensor_descriptor %p, %n, %one : tensordesc<8 x i32>
  %e = make_tensor_descriptor %q, %n, %one : tensordesc<8 x i32>
  %v = descriptor_load %d, %o : <8 x i32>
  descriptor_store %e, %o, %v
  ret
}
)";
} // namespace

TEST_CASE("lower-tensor-descriptors: a 1-d block is a masked load and store at base + offset") {
  std::string Out = runPipeline(OneDim, "lower-tensor-descriptors,dce");
  CHECK(Out.find("descriptor") == std::string::npos);
  // No expand_dims or broadcast for one dimension; zeros where out of bounds.
  CHECK(Out.find("expand_dims") == std::string::npos);
  CHECK(Out.find("broadcast") == std::string::npos);
  // Bounds: one unsigned compare against the shape clamped at 0.
  CHECK(Out.find("icmp ult") != std::string::npos);
  CHECK(Out.find("smax %n") != std::string::npos);
  CHECK(Out.find("sext") != std::string::npos);
  CHECK(Out.find("= constant 0 : <8 x i32>") != std::string::npos);
  CHECK(Out.find("= load ") != std::string::npos);
  CHECK(Out.find("store ") != std::string::npos);
}

TEST_CASE("lower-tensor-descriptors: no descriptor access leaves the IR unchanged") {
  const char *IR = R"(kernel @k(%p: ptr<f32>) {
bb0:
  %v = load %p : f32
  store %p, %v
  ret
}
)";
  CHECK(runPipeline(IR, "lower-tensor-descriptors") == IR);
}

TEST_CASE("lower-tensor-descriptors: an access through an argument is an error, not a crash") {
  const char *IR = R"(func @f(%d: tensordesc<8 x i32>, %o: i32) {
bb0:
  %v = descriptor_load %d, %o : <8 x i32>
  ret
}
)";
  CHECK_THROWS_AS(runPipeline(IR, "lower-tensor-descriptors"), CompileError);
}
