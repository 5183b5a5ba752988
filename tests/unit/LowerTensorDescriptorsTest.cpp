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

TEST_CASE("lower-tensor-descriptors: a phi of two descriptors becomes one phi per field") {
  const char *IR = R"(kernel @k(%p: ptr<i32>, %q: ptr<i32>, %n: i32, %m: i32, %c: i1) {
entry:
  %one = constant 1 : i64
  %zero = constant 0 : i32
  %dp = make_tensor_descriptor %p, %n, %one : tensordesc<8 x i32>
  %dq = make_tensor_descriptor %q, %m, %one : tensordesc<8 x i32>
  cond_br %c, a, b
a:
  br b
b:
  %d = phi [%dp, a], [%dq, entry] : tensordesc<8 x i32>
  %v = descriptor_load %d, %zero : <8 x i32>
  descriptor_store %d, %zero, %v {boundary=[]}
  ret
}
)";
  std::string Out = runPipeline(IR, "lower-tensor-descriptors,canonicalize,dce");
  CHECK(Out.find("tensordesc") == std::string::npos);
  // The base and the shape differ on the two paths; the stride is one value.
  CHECK(Out.find("phi [%p, a], [%q, entry] : ptr<i32>") != std::string::npos);
  CHECK(Out.find("phi [%n, a], [%m, entry] : i32") != std::string::npos);
  CHECK(Out.find("] : i64") == std::string::npos);
  // The load is checked (one compare); the store, which checks nothing, is
  // not masked.
  CHECK(Out.find("icmp ult") != std::string::npos);
  CHECK(Out.find("icmp ult") == Out.rfind("icmp ult"));
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

namespace {
/// A kernel with a host-side descriptor's tensormap: an aligned 64x64 f16
/// block (TMA's), a [64 x 16] one (rows of 32 bytes) of the same tensor,
/// and a store.
const char *WithTensorMap = R"(kernel @k(%p: ptr<f16> {divisibility=16}, %m: i32, %n: i32, %s: i64 {divisibility=16}, %t: ptr<i8> {tensormap}, %q: ptr<f16>, %o: i32) {
bb0:
  %one = constant 1 : i64
  %d = make_tensor_descriptor %p, %m, %n, %s, %one, %t : tensordesc<64 x 64 x f16>
  %narrow = make_tensor_descriptor %p, %m, %n, %s, %one, %t : tensordesc<64 x 16 x f16>
  %unaligned = make_tensor_descriptor %q, %m, %n, %s, %one, %t : tensordesc<64 x 64 x f16>
  %v = descriptor_load %d, %o, %o : <64 x 64 x f16>
  %w = descriptor_load %narrow, %o, %o : <64 x 16 x f16>
  %x = descriptor_load %unaligned, %o, %o : <64 x 64 x f16>
  descriptor_store %d, %o, %o, %v
  descriptor_store %narrow, %o, %o, %w
  descriptor_store %unaligned, %o, %o, %x
  ret
}
)";

size_t count(const std::string &S, llvm::StringRef What) {
  size_t N = 0;
  for (size_t At = S.find(What.str()); At != std::string::npos; At = S.find(What.str(), At + 1))
    ++N;
  return N;
}
} // namespace

TEST_CASE("lower-tensor-descriptors: keep= leaves the loads a target may copy with TMA") {
  // keep=tensormaps: every access through a tensormap, for the GPU
  // pipeline to decide.
  std::string Deferred = runPipeline(WithTensorMap, "lower-tensor-descriptors{keep=tensormaps}");
  CHECK(count(Deferred, "= descriptor_load") == 3);
  CHECK(count(Deferred, "descriptor_store") == 3);
  // keep=tma: only the aligned accesses of whole 128-byte rows.
  std::string TMA = runPipeline(WithTensorMap, "lower-tensor-descriptors{keep=tma}");
  CHECK(count(TMA, "= descriptor_load") == 1);
  CHECK(TMA.find("%v = descriptor_load %d") != std::string::npos);
  CHECK(count(TMA, "descriptor_store") == 1);
  CHECK(TMA.find("descriptor_store %d, %o, %o, %v") != std::string::npos);
  // No option: all of them.
  CHECK(count(runPipeline(WithTensorMap, "lower-tensor-descriptors"), "descriptor_") == 0);
  CHECK_THROWS_AS(runPipeline(WithTensorMap, "lower-tensor-descriptors{keep=all}"), CompileError);
}

TEST_CASE("make_tensor_descriptor: a tensormap operand must be a tensormap argument") {
  const char *IR = R"(kernel @k(%p: ptr<f16>, %m: i32, %s: i64, %t: ptr<i8>) {
bb0:
  %one = constant 1 : i64
  %d = make_tensor_descriptor %p, %m, %m, %s, %one, %t : tensordesc<64 x 64 x f16>
  ret
}
)";
  CHECK_THROWS_AS(runPipeline(IR, "dce"), CompileError);
}

TEST_CASE("lower-tma-copies: one TMA copy, waited for, then read in the load's layout; "
          "a store from a buffer") {
  std::string Out = runPipeline(
      WithTensorMap, "lower-tensor-descriptors{keep=tma},dce,assign-layouts{num-warps=4,wgmma=1},"
                     "lower-tma-copies,insert-barriers");
  CHECK(Out.find("descriptor_load") == std::string::npos);
  size_t Init = Out.find("init_barrier"), Expect = Out.find("barrier_expect"),
         Copy = Out.find("async_tma_copy"), Wait = Out.find("wait_barrier"),
         Inval = Out.find("inval_barrier"), Read = Out.find("local_load");
  REQUIRE(Read != std::string::npos);
  CHECK(Init < Expect);
  CHECK(Expect < Copy);
  CHECK(Copy < Wait);
  CHECK(Wait < Inval);
  CHECK(Inval < Read);
  // Thread 0's init before the others' use, their waits before its inval.
  CHECK(count(Out.substr(Init, Expect - Init), "\n  barrier\n") == 1);
  CHECK(count(Out.substr(Wait, Inval - Wait), "\n  barrier\n") == 1);
  CHECK(Out.find("{num=8192}") != std::string::npos);
  // The store: its block into an NVMMA buffer, a barrier, thread 0's TMA.
  size_t Store = Out.find("async_tma_store %d, %o, %o, ");
  REQUIRE(Store != std::string::npos);
  size_t Alloc = Out.rfind("local_alloc", Store);
  CHECK(Alloc > Read);
  CHECK(count(Out.substr(Alloc, Store - Alloc), "\n  barrier\n") == 1);
  CHECK(Out.find("descriptor_store") == std::string::npos);
}
