//===- SemanticReductionTest.cpp - Reductions, scans, dot, debugging ------===//

#include "SemanticTestUtil.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;

TEST_CASE("sum widens small integers and bools") {
  SemFixture T({{"b", blk("int8", {8})}, {"c", blk("int1", {8})},
                {"u", blk("uint16", {8})}, {"l", blk("int64", {8})}});
  CHECK(T.S.reduce(T.v("b"), "sum", 0, false).Ty->getName() == "int32");
  // int1 is unsigned in Triton: bools sum as uint32.
  CHECK(T.S.reduce(T.v("c"), "sum", 0, false).Ty->getName() == "uint32");
  CHECK(T.S.reduce(T.v("u"), "sum", 0, false).Ty->getName() == "uint32");
  CHECK(T.S.reduce(T.v("l"), "sum", 0, false).Ty->getName() == "int64");
  CHECK(T.S.reduce(T.v("b"), "sum", 0, false, dt("int16")).Ty->getName() ==
        "int16");
  CHECK(T.body() == "%4 = sext %b : <8 x i32>\n"
                    "%5 = reduce %4 {axis=0, kind=add} : i32\n"
                    "%6 = zext %c : <8 x i32>\n"
                    "%7 = reduce %6 {axis=0, kind=add} : i32\n"
                    "%8 = zext %u : <8 x i32>\n"
                    "%9 = reduce %8 {axis=0, kind=add} : i32\n"
                    "%10 = reduce %l {axis=0, kind=add} : i64\n"
                    "%11 = sext %b : <8 x i16>\n"
                    "%12 = reduce %11 {axis=0, kind=add} : i16\n");
}

TEST_CASE("axis=None flattens, negative axes count from the end") {
  SemFixture T({{"a", blk("fp32", {4, 8})}});
  CHECK(T.S.reduce(T.v("a"), "sum", std::nullopt, false).Ty->getName() ==
        "fp32");
  CHECK(T.S.reduce(T.v("a"), "sum", std::nullopt, true).Ty->getName() ==
        "<1x1xfp32>");
  CHECK(T.S.reduce(T.v("a"), "max", -1, true).Ty->getName() == "<4x1xfp32>");
  CHECK(T.S.reduce(T.v("a"), "min", 0, false).Ty->getName() == "<8xfp32>");
  CHECK(T.body() ==
        "%1 = reshape %a {allow_reorder} : <32 x f32>\n"
        "%2 = reduce %1 {axis=0, kind=fadd} : f32\n"
        "%3 = reshape %a {allow_reorder} : <32 x f32>\n"
        "%4 = reduce %3 {axis=0, kind=fadd} : f32\n"
        "%5 = splat %4 : <1 x f32>\n"
        "%6 = expand_dims %5 {axis=0} : <1 x 1 x f32>\n"
        "%7 = reduce %a {axis=1, kind=fmax} : <4 x f32>\n"
        "%8 = expand_dims %7 {axis=1} : <4 x 1 x f32>\n"
        "%9 = reduce %a {axis=0, kind=fmin} : <8 x f32>\n");
  CHECK(T.errorOf([&] { T.S.reduce(T.v("a"), "sum", 2, false); }) ==
        "invalid axis 2. Expected -2 <= axis < 2");
}

TEST_CASE("max and min compute narrow types in 32 bits") {
  SemFixture T({{"g", blk("bf16", {8})}, {"h", blk("fp16", {8})},
                {"u", blk("uint8", {8})}, {"w", blk("uint32", {8})},
                {"l", blk("int64", {8})}});
  CHECK(T.S.reduce(T.v("g"), "max", 0, false).Ty->getName() == "fp32");
  CHECK(T.S.reduce(T.v("h"), "min", 0, false).Ty->getName() == "fp32");
  CHECK(T.S.reduce(T.v("u"), "max", 0, false).Ty->getName() == "int32");
  CHECK(T.S.reduce(T.v("w"), "max", 0, false).Ty->getName() == "uint32");
  CHECK(T.S.reduce(T.v("l"), "min", 0, false).Ty->getName() == "int64");
  CHECK(T.body() == "%5 = fpext %g : <8 x f32>\n"
                    "%6 = reduce %5 {axis=0, kind=fmax} : f32\n"
                    "%7 = fpext %h : <8 x f32>\n"
                    "%8 = reduce %7 {axis=0, kind=fmin} : f32\n"
                    "%9 = zext %u : <8 x i32>\n"
                    "%10 = reduce %9 {axis=0, kind=smax} : i32\n"
                    "%11 = reduce %w {axis=0, kind=umax} : i32\n"
                    "%12 = reduce %l {axis=0, kind=smin} : i64\n");
}

TEST_CASE("bitwise reductions and prod") {
  SemFixture T({{"x", blk("int32", {8})}, {"f", blk("fp32", {8})}});
  T.S.reduce(T.v("x"), "xor_sum", 0, false);
  T.S.reduce(T.v("x"), "or", 0, false);
  T.S.reduce(T.v("x"), "and", 0, false);
  T.S.reduce(T.v("f"), "prod", 0, false);
  CHECK(T.body() == "%2 = reduce %x {axis=0, kind=xor} : i32\n"
                    "%3 = reduce %x {axis=0, kind=or} : i32\n"
                    "%4 = reduce %x {axis=0, kind=and} : i32\n"
                    "%5 = reduce %f {axis=0, kind=fmul} : f32\n");
  CHECK(T.errorOf([&] { T.S.reduce(T.v("f"), "xor_sum", 0, false); }) ==
        "xor_sum only supported for integers, got fp32");
  CHECK(T.errorOf([&] { T.S.reduce(T.v("f"), "mean", 0, false); }) ==
        "unknown reduction 'mean'; use sum, max, min, xor_sum, and, or or "
        "prod");
  CHECK(T.errorOf([&] {
    T.S.reduce(T.S.constant(lit(1)), "sum", std::nullopt, false);
  }) == "sum expects a block, got a scalar int32");
}

namespace {
/// A combine function (a, b) -> a + b of \p Ty, built while the kernel is
/// half-built.
Function *addCombine(SemFixture &T, DType *Ty) {
  Function *F = T.S.beginFunction("combine", {Ty, Ty}, {"a", "b"}, false);
  TValue R = T.S.binary(Semantic::BinOp::Add, T.v("a"), T.v("b"));
  T.S.setResultTypes({Ty});
  T.S.ret({R});
  T.S.endFunction();
  return F;
}
} // namespace

TEST_CASE("tl.reduce and tl.associative_scan with a combine function") {
  SemFixture T({{"a", blk("fp32", {4, 8})}, {"i", blk("int32", {4, 8})}});
  Function *Comb = addCombine(T, dt("fp32"));
  CHECK(Comb->str() == "func @combine(%a: f32, %b: f32) -> f32 {\n"
                       "entry:\n"
                       "  %2 = fadd %a, %b : f32\n"
                       "  ret %2\n"
                       "}\n");
  // The kernel is current again, with its insertion point.
  CHECK(T.S.getFunction() == T.F);
  std::vector<TValue> R = T.S.reduce({T.v("a")}, -1, Comb, true);
  CHECK(R.size() == 1);
  CHECK(R[0].Ty->getName() == "<4x1xfp32>");
  R = T.S.scan({T.v("a")}, 0, Comb, true);
  CHECK(R[0].Ty->getName() == "<4x8xfp32>");
  R = T.S.reduce({T.v("a")}, std::nullopt, Comb, false);
  CHECK(R[0].Ty->getName() == "fp32");
  CHECK(T.body() ==
        "%2 = reduce %a {axis=1, combine=@combine} : <4 x f32>\n"
        "%3 = expand_dims %2 {axis=1} : <4 x 1 x f32>\n"
        "%4 = scan %a {axis=0, combine=@combine, reverse} : <4 x 8 x f32>\n"
        "%5 = reshape %a {allow_reorder} : <32 x f32>\n"
        "%6 = reduce %5 {axis=0, combine=@combine} : f32\n");
  CHECK(T.errorOf([&] { T.S.reduce({T.v("i")}, 0, Comb, false); }) ==
        "the combine function 'combine' of reduce has type (f32, f32) -> f32, "
        "expected (i32, i32) -> i32");
  CHECK(T.errorOf([&] { T.S.scan({T.v("a"), T.v("i")}, 0, Comb, false); }) ==
        "the combine function 'combine' of associative_scan has type (f32, "
        "f32) -> f32, expected (f32, i32, f32, i32) -> (f32, i32)");
  CHECK(T.errorOf([&] {
    T.S.reduce({T.v("a"), T.S.arange(0, 8)}, 0, Comb, false);
  }) == "all reduce inputs must have the same shape, got [4, 8] and [8]");
}

TEST_CASE("argmin and argmax") {
  SemFixture T({{"a", blk("fp32", {4, 8})}, {"p", blk(ptr("fp32"), {8})}});
  CHECK(T.S.argMinMax(T.v("a"), true, 1, true, false).Ty->getName() ==
        "<4xint32>");
  CHECK(T.S.argMinMax(T.v("a"), false, -2, false, true).Ty->getName() ==
        "<1x8xint32>");
  CHECK(T.body() ==
        "%2 = argmax %a {axis=1, tie_break_left} : <4 x i32>\n"
        "%3 = argmin %a {axis=0} : <8 x i32>\n"
        "%4 = expand_dims %3 {axis=0} : <1 x 8 x i32>\n");
  CHECK(T.errorOf([&] { T.S.argMinMax(T.v("p"), true, 0, true, false); }) ==
        "argmax does not support pointer<fp32>");
}

TEST_CASE("cumsum and cumprod") {
  SemFixture T({{"s", blk("int16", {8})}, {"g", blk("bf16", {2, 8})}});
  CHECK(T.S.scan(T.v("s"), "sum", 0, false).Ty->getName() == "<8xint32>");
  CHECK(T.S.scan(T.v("g"), "prod", -1, true).Ty->getName() == "<2x8xfp32>");
  CHECK(T.body() ==
        "%2 = sext %s : <8 x i32>\n"
        "%3 = scan %2 {axis=0, kind=add} : <8 x i32>\n"
        "%4 = fpext %g : <2 x 8 x f32>\n"
        "%5 = scan %4 {axis=1, kind=fmul, reverse} : <2 x 8 x f32>\n");
  CHECK(T.errorOf([&] { T.S.scan(T.v("s"), "max", 0, false); }) ==
        "unknown scan 'max'; use sum or prod");
  CHECK(T.errorOf([&] { T.S.scan(T.v("s"), "sum", 1, false); }) ==
        "invalid axis 1. Expected -1 <= axis < 1");
}

TEST_CASE("dot: result types and the accumulator") {
  SemFixture T({{"a", blk("fp16", {16, 32})}, {"b", blk("fp16", {32, 16})},
                {"f", blk("fp32", {16, 16})}, {"i", blk("int8", {32, 32})},
                {"e", blk("fp8e4nv", {32, 32})}, {"g", blk("fp8e5", {32, 32})},
                {"acc", blk("fp32", {16, 16})}});
  CHECK(T.S.dot(T.v("a"), T.v("b"), std::nullopt, "", 0, nullptr)
            .Ty->getName() == "<16x16xfp32>");
  CHECK(T.S.dot(T.v("a"), T.v("b"), std::nullopt, "", 0, dt("fp16"))
            .Ty->getName() == "<16x16xfp16>");
  T.S.dot(T.v("f"), T.v("f"), T.v("acc"), "", 0, nullptr);
  T.S.dot(T.v("f"), T.v("f"), std::nullopt, "IEEE", 0, nullptr);
  CHECK(T.S.dot(T.v("i"), T.v("i"), std::nullopt, "", 0, nullptr)
            .Ty->getName() == "<32x32xint32>");
  T.S.dot(T.v("e"), T.v("g"), std::nullopt, "", 16, nullptr);
  CHECK(T.body() ==
        "%7 = constant 0.0 : <16 x 16 x f32>\n"
        "%8 = dot %a, %b, %7 {precision=ieee} : <16 x 16 x f32>\n"
        "%9 = constant 0.0 : <16 x 16 x f16>\n"
        "%10 = dot %a, %b, %9 {precision=ieee} : <16 x 16 x f16>\n"
        "%11 = dot %f, %f, %acc {precision=tf32} : <16 x 16 x f32>\n"
        "%12 = constant 0.0 : <16 x 16 x f32>\n"
        "%13 = dot %f, %f, %12 {precision=ieee} : <16 x 16 x f32>\n"
        "%14 = constant 0 : <32 x 32 x i32>\n"
        "%15 = dot %i, %i, %14 {precision=ieee} : <32 x 32 x i32>\n"
        "%16 = constant 0.0 : <32 x 32 x f32>\n"
        "%17 = dot %e, %g, %16 {precision=ieee, max_num_imprecise_acc=16} : "
        "<32 x 32 x f32>\n");
}

TEST_CASE("dot misuse") {
  SemFixture T({{"a", blk("fp16", {16, 32})}, {"f", blk("fp32", {16, 16})},
                {"h", blk("fp16", {16, 16})}, {"x", blk("int32", {16, 16})},
                {"u", blk("uint8", {16, 16})}, {"e", blk("fp8e4nv", {32, 32})},
                {"v", blk("fp16", {16})}, {"g", blk("bf16", {16, 16})},
                {"m", blk("fp16", {8, 8})}, {"i", blk("int8", {16, 16})},
                {"n", blk("fp16", {1, 16})}, {"t", blk("fp16", {16, 1})}});
  CHECK(T.errorOf([&] { T.S.dot(T.v("h"), T.v("f"), {}, "", 0, nullptr); }) ==
        "dot operands must have the same dtype, got fp16 and fp32");
  CHECK(T.errorOf([&] { T.S.dot(T.v("x"), T.v("x"), {}, "", 0, nullptr); }) ==
        "dot does not support lhs dtype int32");
  CHECK(T.errorOf([&] { T.S.dot(T.v("u"), T.v("u"), {}, "", 0, nullptr); }) ==
        "dot supports int8 integer operands only, got uint8");
  CHECK(T.errorOf([&] { T.S.dot(T.v("a"), T.v("a"), {}, "", 0, nullptr); }) ==
        "First input shape ([16, 32]) and second input shape [16, 32] are not "
        "compatible for matmul (second index of first shape (32) must be "
        "equal to first index of second shape (16))");
  CHECK(T.errorOf([&] { T.S.dot(T.v("v"), T.v("h"), {}, "", 0, nullptr); }) ==
        "Both inputs must be either 2D or 3D; (lhs: [16] vs rhs: [16, 16])");
  CHECK(T.errorOf([&] {
    T.S.dot(T.v("g"), T.v("g"), {}, "", 0, dt("bf16"));
  }) == "out_dtype=bfloat16 is unsupported. Please use "
        "out_dtype=float32/float16 and cast with `.to(tl.bfloat16)`");
  CHECK(T.errorOf([&] { T.S.dot(T.v("f"), T.v("f"), {}, "fp8x2", 0, nullptr); }) ==
        "input_precision must be one of tf32, tf32x3, bf16x3, bf16x6, ieee; got fp8x2");
  CHECK(T.errorOf([&] { T.S.dot(T.v("h"), T.v("h"), T.v("h"), "", 0, nullptr); }) ==
        "the accumulator of dot must be <16x16xfp32>, got <16x16xfp16>");
  CHECK(T.errorOf([&] { T.S.dot(T.v("e"), T.v("e"), {}, "", 64, nullptr); }) ==
        "max_num_imprecise_acc (64) must be <= K (32)");
  // Triton 3.6's bounds on NVIDIA: K >= 16, or 32 for 8-bit operands; any M, N.
  CHECK(T.errorOf([&] { T.S.dot(T.v("m"), T.v("m"), {}, "", 0, nullptr); }) ==
        "Input shapes should have M >= 1, N >= 1 and K >= 16");
  CHECK(T.errorOf([&] { T.S.dot(T.v("i"), T.v("i"), {}, "", 0, nullptr); }) ==
        "Input shapes should have M >= 1, N >= 1 and K >= 32");
  CHECK(T.errorOf([&] { T.S.dot(T.v("n"), T.v("t"), {}, "", 0, nullptr); }) == "<no error>");
}

TEST_CASE("hints, barrier, print, assert, extern_elementwise") {
  SemFixture T({{"x", dt("int32")}, {"v", blk("int32", {4, 8})},
                {"c", dt("int1")}, {"m", blk("int1", {4})},
                {"f", blk("fp32", {4})}});
  CHECK(T.S.hint(Opcode::MultipleOf, T.v("x"), {16}).Ty->getName() == "int32");
  T.S.hint(Opcode::MaxContiguous, T.v("v"), {1, 8});
  T.S.debugBarrier();
  T.S.devicePrint("x", {T.v("x")}, false);
  T.S.devicePrint("", {T.v("x"), T.v("c")}, true);
  T.S.devicePrint("hello", {}, false);
  T.S.deviceAssert(T.v("c"), "c must hold");
  T.S.deviceAssert(T.v("x"), "x != 0", Operand(T.v("m")));
  CHECK(T.S.externElementwise("__nv_powf", {T.v("f"), litf(2.0)}, dt("fp32"))
            .Ty->getName() == "<4xfp32>");
  CHECK(T.body() ==
        "%5 = multiple_of %x {values=[16]} : i32\n"
        "%6 = max_contiguous %v {values=[1, 8]} : <4 x 8 x i32>\n"
        "barrier\n"
        "print %x {prefix=\" x: \"}\n"
        "print %x, %c {prefix=\": \", hex}\n"
        "print {prefix=\" hello\"}\n"
        "assert %c {message=\"c must hold\"}\n"
        "%7 = constant 0 : i32\n"
        "%8 = icmp ne %x, %7 : i1\n"
        "%9 = constant 1 : <4 x i1>\n"
        "%10 = xor %m, %9 : <4 x i1>\n"
        "%11 = splat %8 : <4 x i1>\n"
        "%12 = or %11, %10 : <4 x i1>\n"
        "assert %12 {message=\"x != 0\"}\n"
        "%13 = constant 2.0 : f32\n"
        "%14 = splat %13 : <4 x f32>\n"
        "%15 = extern_elementwise %f, %14 {symbol=\"__nv_powf\", pure} : <4 x "
        "f32>\n");
  CHECK(T.errorOf([&] { T.S.hint(Opcode::MultipleOf, T.v("v"), {16}); }) ==
        "Shape of input to multiple_of does not match the length of values: "
        "<4x8xint32> needs 2 values, got [16]");
  CHECK(T.errorOf([&] { T.S.hint(Opcode::MaxConstancy, T.v("f"), {4}); }) ==
        "max_constancy expects integers or pointers, got <4xfp32>");
  CHECK(T.errorOf([&] { T.S.hint(Opcode::MultipleOf, T.v("x"), {0}); }) ==
        "multiple_of values must be positive, got [0]");
  CHECK(T.errorOf([&] {
    T.S.externElementwise("f", {T.v("f"), T.v("v")}, dt("fp32"));
  }) == "incompatible shapes [4] and [4, 8] for f");
}
