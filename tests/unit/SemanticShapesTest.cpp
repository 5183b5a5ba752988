//===- SemanticShapesTest.cpp - Creation and shape manipulation -----------===//

#include "SemanticTestUtil.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;

TEST_CASE("constants of their own type or of a given one") {
  SemFixture T;
  CHECK(T.S.constant(lit(5)).Ty->getName() == "int32");
  CHECK(T.S.constant(lit(int64_t(1) << 31)).Ty->getName() == "uint32");
  CHECK(T.S.constant(lit(-1), dt("int8")).Ty->getName() == "int8");
  CHECK(T.S.constant(Operand::integer(-1, true)).Ty->getName() == "uint64");
  CHECK(T.S.constant(litb(true)).Ty->getName() == "int1");
  CHECK(T.S.constant(lit(2), dt("fp16")).Ty->getName() == "fp16");
  CHECK(T.S.constant(litf(0.25)).Ty->getName() == "fp32");
  CHECK(T.body() == "%0 = constant 5 : i32\n"
                    "%1 = constant 2147483648 : i32\n"
                    "%2 = constant -1 : i8\n"
                    "%3 = constant -1 : i64\n"
                    "%4 = constant 1 : i1\n"
                    "%5 = constant 2.0 : f16\n"
                    "%6 = constant 0.25 : f32\n");
  CHECK(T.errorOf([&] { T.S.constant(lit(300), dt("int8")); }) ==
        "value 300 is out of range for int8");
  CHECK(T.errorOf([&] { T.S.constant(lit(-1), dt("uint32")); }) ==
        "value -1 is out of range for uint32");
  CHECK(T.errorOf([&] { T.S.constant(litf(1.5), dt("int32")); }) ==
        "cannot make an int32 constant from the float 1.5");
}

TEST_CASE("full, arange and the program geometry") {
  SemFixture T({{"x", dt("int32")}});
  CHECK(T.S.full({4, 8}, lit(0), dt("fp16")).Ty->getName() == "<4x8xfp16>");
  CHECK(T.S.full({4}, T.v("x"), dt("fp32")).Ty->getName() == "<4xfp32>");
  CHECK(T.S.full({}, litf(1.0), dt("fp32")).Ty->getName() == "fp32");
  CHECK(T.S.arange(0, 128).Ty->getName() == "<128xint32>");
  T.S.arange(64, 128);
  CHECK(T.S.programId(0).Ty->getName() == "int32");
  T.S.numPrograms(2);
  CHECK(T.body() == "%1 = constant 0.0 : <4 x 8 x f16>\n"
                    "%2 = sitofp %x : f32\n"
                    "%3 = splat %2 : <4 x f32>\n"
                    "%4 = constant 1.0 : f32\n"
                    "%5 = make_range {start=0, end=128} : <128 x i32>\n"
                    "%6 = make_range {start=64, end=128} : <64 x i32>\n"
                    "%7 = get_program_id {axis=0} : i32\n"
                    "%8 = get_num_programs {axis=2} : i32\n");
  CHECK(T.errorOf([&] { T.S.full({3}, lit(0), dt("fp32")); }) ==
        "Shape element 0 must be a power of 2");
  CHECK(T.errorOf([&] { T.S.full({4}, lit(256), dt("uint8")); }) ==
        "value 256 is out of range for uint8");
  CHECK(T.errorOf([&] { T.S.arange(0, 100); }) ==
        "arange's range must be a power of 2, got 100");
  CHECK(T.errorOf([&] { T.S.arange(8, 8); }) ==
        "arange's end argument must be greater than the start argument, got "
        "[8, 8)");
  CHECK(T.errorOf([&] { T.S.arange(-1, 1); }) ==
        "arange must fit in int32, got [-1, 1)");
  CHECK(T.errorOf([&] { T.S.arange(0, int64_t(1) << 21); }) ==
        "numel (2097152) exceeds triton maximum tensor numel (1048576)");
  CHECK(T.errorOf([&] { T.S.programId(3); }) ==
        "program_id axis must be 0, 1, or 2 but got 3");
  CHECK(T.errorOf([&] { T.S.numPrograms(-1); }) ==
        "num_programs axis must be 0, 1, or 2 but got -1");
}

TEST_CASE("broadcast_to does not pad the rank") {
  SemFixture T({{"x", dt("fp32")}, {"r", blk("fp32", {1, 8})},
                {"v", blk("fp32", {8})}, {"w", blk("fp32", {4, 2})}});
  CHECK(T.S.broadcastTo(T.v("x"), {4, 8}).Ty->getName() == "<4x8xfp32>");
  T.S.broadcastTo(T.v("r"), {4, 8});
  TValue R = T.v("r");
  CHECK(T.S.broadcastTo(R, {1, 8}).V == R.V);
  T.S.broadcastTo(lit(1), {2});
  CHECK(T.body() == "%4 = splat %x : <4 x 8 x f32>\n"
                    "%5 = broadcast %r : <4 x 8 x f32>\n"
                    "%6 = constant 1 : i32\n"
                    "%7 = splat %6 : <2 x i32>\n");
  CHECK(T.errorOf([&] { T.S.broadcastTo(T.v("v"), {4, 8}); }) ==
        "cannot broadcast [8] to [4, 8]: the ranks differ");
  CHECK(T.errorOf([&] { T.S.broadcastTo(T.v("w"), {4, 8}); }) ==
        "cannot broadcast [4, 2] to [4, 8]: dimension 1 has size 2, not 1 or "
        "8");
  CHECK(T.errorOf([&] { T.S.broadcastTo(T.v("x"), {6}); }) ==
        "Shape element 0 must be a power of 2");
}

TEST_CASE("broadcast: both operands to their common shape") {
  SemFixture T({{"a", blk("int32", {4, 1})}, {"b", blk("fp16", {8})}});
  auto [X, Y] = T.S.broadcast(T.v("a"), T.v("b"));
  CHECK(X.Ty->getName() == "<4x8xint32>");
  CHECK(Y.Ty->getName() == "<4x8xfp16>");
  CHECK(T.body() == "%2 = broadcast %a : <4 x 8 x i32>\n"
                    "%3 = expand_dims %b {axis=0} : <1 x 8 x f16>\n"
                    "%4 = broadcast %3 : <4 x 8 x f16>\n");
  CHECK(T.errorOf([&] {
    T.S.broadcast(T.v("b"), T.S.full({4}, lit(0), dt("fp16")));
  }) == "incompatible shapes [8] and [4] for broadcast");
}

TEST_CASE("reshape and expand_dims") {
  SemFixture T({{"a", blk("fp32", {4, 8})}, {"v", blk("int32", {8})},
                {"x", dt("int32")}});
  CHECK(T.S.reshape(T.v("a"), {32}).Ty->getName() == "<32xfp32>");
  T.S.reshape(T.v("a"), {2, 16}, /*CanReorder=*/true);
  CHECK(T.S.reshape(T.v("x"), {1, 1}).Ty->getName() == "<1x1xint32>");
  CHECK(T.S.expandDims(T.v("v"), 0).Ty->getName() == "<1x8xint32>");
  CHECK(T.S.expandDims(T.v("v"), -1).Ty->getName() == "<8x1xint32>");
  CHECK(T.S.expandDims(T.v("x"), 0).Ty->getName() == "<1xint32>");
  CHECK(T.body() == "%3 = reshape %a : <32 x f32>\n"
                    "%4 = reshape %a {allow_reorder} : <2 x 16 x f32>\n"
                    "%5 = splat %x : <1 x 1 x i32>\n"
                    "%6 = expand_dims %v {axis=0} : <1 x 8 x i32>\n"
                    "%7 = expand_dims %v {axis=1} : <8 x 1 x i32>\n"
                    "%8 = splat %x : <1 x i32>\n");
  CHECK(T.errorOf([&] { T.S.reshape(T.v("a"), {16}); }) ==
        "cannot reshape [4, 8] (32 elements) to [16] (16 elements): reshape "
        "cannot change the number of elements");
  CHECK(T.errorOf([&] { T.S.expandDims(T.v("v"), 2); }) ==
        "invalid axis 2. Expected -2 <= axis < 2");
  CHECK(T.errorOf([&] { T.S.expandDims(T.v("v"), -3); }) ==
        "invalid axis -3. Expected -2 <= axis < 2");
}

TEST_CASE("permute and trans") {
  SemFixture T({{"a", blk("fp32", {2, 4, 8})}, {"m", blk("fp16", {4, 8})},
                {"v", blk("fp16", {8})}, {"x", dt("fp16")}});
  CHECK(T.S.permute(T.v("a"), {2, 0, 1}).Ty->getName() == "<8x2x4xfp32>");
  CHECK(T.S.permute(T.v("m"), {1, 0}).Ty->getName() == "<8x4xfp16>");
  CHECK(T.body() == "%4 = trans %a {order=[2, 0, 1]} : <8 x 2 x 4 x f32>\n"
                    "%5 = trans %m {order=[1, 0]} : <8 x 4 x f16>\n");
  CHECK(T.errorOf([&] { T.S.permute(T.v("a"), {0, 1}); }) ==
        "permute dims [0, 1] must have the same length as the input shape "
        "[2, 4, 8]");
  CHECK(T.errorOf([&] { T.S.permute(T.v("a"), {0, 1, 1}); }) ==
        "permute dims must be a permutation of 0, 1, ..., n-1, but were "
        "[0, 1, 1]");
  CHECK(T.errorOf([&] { T.S.permute(T.v("v"), {1, 0}); }) ==
        "permute dims [1, 0] must have the same length as the input shape [8]");
  CHECK(T.errorOf([&] { T.S.permute(T.v("x"), {1, 0}); }) ==
        "permute expects a block, got a scalar fp16");
}

TEST_CASE("join, split and cat") {
  SemFixture T({{"x", dt("int32")}, {"a", blk("fp32", {4, 1})},
                {"b", blk("fp32", {8})}, {"p", blk("fp32", {4, 2})},
                {"v", blk("fp32", {4})}, {"f", dt("fp32")}});
  CHECK(T.S.join(T.v("x"), lit(1)).Ty->getName() == "<2xint32>");
  CHECK(T.S.join(T.v("a"), T.v("b")).Ty->getName() == "<4x8x2xfp32>");
  auto [L, R] = T.S.split(T.v("p"));
  CHECK(L.Ty->getName() == "<4xfp32>");
  CHECK(R.Ty == L.Ty);
  CHECK(T.S.cat(T.v("v"), T.v("v"), true).Ty->getName() == "<8xfp32>");
  CHECK(T.body() == "%6 = constant 1 : i32\n"
                    "%7 = join %x, %6 : <2 x i32>\n"
                    "%8 = broadcast %a : <4 x 8 x f32>\n"
                    "%9 = expand_dims %b {axis=0} : <1 x 8 x f32>\n"
                    "%10 = broadcast %9 : <4 x 8 x f32>\n"
                    "%11 = join %8, %10 : <4 x 8 x 2 x f32>\n"
                    "%12, %13 = split %p : <4 x f32>, <4 x f32>\n"
                    "%14 = cat %v, %v : <8 x f32>\n");
  CHECK(T.errorOf([&] { T.S.join(T.v("x"), T.v("f")); }) ==
        "join expects operands of one type, got int32 and fp32");
  CHECK(T.errorOf([&] { T.S.split(T.v("b")); }) ==
        "split expects a block whose last dimension is 2, got [8]");
  CHECK(T.errorOf([&] { T.S.split(T.v("x")); }) ==
        "split expects a block whose last dimension is 2, got a scalar int32");
  CHECK(T.errorOf([&] { T.S.cat(T.v("v"), T.v("b"), true); }) ==
        "cat expects two blocks of one type and shape, got <4xfp32> and "
        "<8xfp32>");
}
