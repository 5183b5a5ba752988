//===- SemanticArithmeticTest.cpp - Operators, comparisons, math ----------===//
//
// What each elementwise operation emits, as printed IR, and each misuse's
// message. Arguments print as %name; the values built here are numbered
// after the arguments.
//
//===----------------------------------------------------------------------===//

#include "SemanticTestUtil.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;
using B = Semantic::BinOp;
using C = Semantic::CmpOp;
using U = Semantic::UnaryOp;

TEST_CASE("a weak literal takes the value's type") {
  SemFixture T({{"x", dt("int8")}, {"y", blk("fp16", {4, 8})}});
  TValue R = T.S.binary(B::Add, T.v("x"), lit(1));
  CHECK(R.Ty->getName() == "int8");
  R = T.S.binary(B::Mul, litf(2.0), T.v("y"));
  CHECK(R.Ty->getName() == "<4x8xfp16>");
  CHECK(T.body() == "%2 = constant 1 : i8\n"
                    "%3 = add %x, %2 : i8\n"
                    "%4 = constant 2.0 : <4 x 8 x f16>\n"
                    "%5 = fmul %4, %y : <4 x 8 x f16>\n");
  CHECK(T.S.getDType(R.V) == R.Ty);
}

TEST_CASE("literals that do not fit the computation type") {
  SemFixture T({{"x", dt("int8")}, {"u", dt("uint32")}});
  CHECK(T.errorOf([&] { T.S.binary(B::Add, T.v("x"), lit(300)); }) ==
        "Scalar 300 is out of range for type int8");
  CHECK(T.errorOf([&] { T.S.binary(B::Sub, lit(-1), T.v("u")); }) ==
        "Cannot perform a binary operation between an unsigned tensor and a "
        "negative scalar (-1); perform an explicit cast on one of them");
  // A float literal is of a higher kind: not weak, so no range check.
  TValue R = T.S.binary(B::Add, T.v("u"), litf(-1.0));
  CHECK(R.Ty->getName() == "fp32");
  CHECK(T.body() == "%2 = uitofp %u : f32\n"
                    "%3 = constant -1.0 : f32\n"
                    "%4 = fadd %2, %3 : f32\n");
}

TEST_CASE("integers promote like C") {
  SemFixture T({{"a", dt("int8")}, {"b", dt("int32")}, {"u", dt("uint32")},
                {"l", dt("int64")}});
  CHECK(T.S.binary(B::Add, T.v("a"), T.v("b")).Ty->getName() == "int32");
  CHECK(T.S.binary(B::Mul, T.v("b"), T.v("u")).Ty->getName() == "uint32");
  CHECK(T.S.binary(B::Sub, T.v("u"), T.v("l")).Ty->getName() == "int64");
  CHECK(T.body() == "%4 = sext %a : i32\n"
                    "%5 = add %4, %b : i32\n"
                    "%6 = bitcast %b : i32\n"
                    "%7 = mul %6, %u : i32\n"
                    "%8 = zext %u : i64\n"
                    "%9 = sub %8, %l : i64\n");
}

TEST_CASE("true division is always float") {
  // In fp32 it may be 2 ulp off ({approx}: Triton's `/` is div.full.f32).
  SemFixture T({{"i", dt("int16")}, {"h", dt("fp16")}, {"u", dt("uint8")}});
  CHECK(T.S.binary(B::TrueDiv, T.v("i"), T.v("i")).Ty->getName() == "fp32");
  CHECK(T.S.binary(B::TrueDiv, T.v("h"), T.v("h")).Ty->getName() == "fp32");
  CHECK(T.S.binary(B::TrueDiv, T.v("u"), lit(2)).Ty->getName() == "fp32");
  CHECK(T.body() == "%3 = sitofp %i : f32\n"
                    "%4 = sitofp %i : f32\n"
                    "%5 = fdiv %3, %4 {approx} : f32\n"
                    "%6 = fpext %h : f32\n"
                    "%7 = fpext %h : f32\n"
                    "%8 = fdiv %6, %7 {approx} : f32\n"
                    "%9 = uitofp %u : f32\n"
                    "%10 = constant 2.0 : f32\n"
                    "%11 = fdiv %9, %10 {approx} : f32\n");
}

TEST_CASE("div_rn and fp64 division are exact") {
  SemFixture T({{"f", dt("fp32")}, {"d", dt("fp64")}});
  T.S.binary(B::DivRn, T.v("f"), T.v("f"));
  T.S.binary(B::TrueDiv, T.v("d"), T.v("d"));
  T.S.binary(B::FDiv, T.v("f"), T.v("f"));
  CHECK(T.body() == "%2 = fdiv %f, %f : f32\n"
                    "%3 = fdiv %d, %d : f64\n"
                    "%4 = fdiv %f, %f {approx} : f32\n");
}

TEST_CASE("floor division and remainder truncate like C") {
  SemFixture T({{"x", dt("int32")}, {"u", dt("uint32")}, {"f", dt("fp32")},
                {"h", dt("fp16")}});
  T.S.binary(B::FloorDiv, T.v("x"), lit(2));
  T.S.binary(B::FloorDiv, T.v("u"), lit(2));
  T.S.binary(B::Mod, T.v("x"), lit(3));
  T.S.binary(B::Mod, T.v("u"), T.v("u"));
  TValue R = T.S.binary(B::Mod, T.v("h"), litf(1.5));
  CHECK(R.Ty->getName() == "fp32");
  CHECK(T.body() == "%4 = constant 2 : i32\n"
                    "%5 = sdiv %x, %4 : i32\n"
                    "%6 = constant 2 : i32\n"
                    "%7 = udiv %u, %6 : i32\n"
                    "%8 = constant 3 : i32\n"
                    "%9 = srem %x, %8 : i32\n"
                    "%10 = urem %u, %u : i32\n"
                    "%11 = fpext %h : f32\n"
                    "%12 = constant 1.5 : f32\n"
                    "%13 = frem %11, %12 : f32\n");
  CHECK(T.errorOf([&] { T.S.binary(B::FloorDiv, T.v("u"), T.v("x")); }) ==
        "Cannot use /, //, or % with uint32 and int32 because they have "
        "different signedness; cast them to the same signedness");
  CHECK(T.errorOf([&] { T.S.binary(B::FloorDiv, T.v("f"), litf(2.0)); }) ==
        "unexpected type fp32 for //");
}

TEST_CASE("operands broadcast, padding the lower rank") {
  SemFixture T({{"a", blk("fp32", {4, 1})}, {"b", blk("fp32", {8})},
                {"s", dt("int32")}, {"v", blk("int32", {8})}});
  TValue R = T.S.binary(B::Add, T.v("a"), T.v("b"));
  CHECK(R.Ty->getName() == "<4x8xfp32>");
  R = T.S.binary(B::Sub, T.v("s"), T.v("v"));
  CHECK(R.Ty->getName() == "<8xint32>");
  CHECK(T.body() == "%4 = broadcast %a : <4 x 8 x f32>\n"
                    "%5 = expand_dims %b {axis=0} : <1 x 8 x f32>\n"
                    "%6 = broadcast %5 : <4 x 8 x f32>\n"
                    "%7 = fadd %4, %6 : <4 x 8 x f32>\n"
                    "%8 = splat %s : <8 x i32>\n"
                    "%9 = sub %8, %v : <8 x i32>\n");
}

TEST_CASE("incompatible shapes name the operator") {
  SemFixture T({{"a", blk("fp32", {128})}, {"b", blk("fp32", {64})}});
  CHECK(T.errorOf([&] { T.S.binary(B::Add, T.v("a"), T.v("b")); }) ==
        "incompatible shapes [128] and [64] for +");
  CHECK(T.errorOf([&] { T.S.binary(B::FloorDiv, T.v("a"), T.v("b")); }) ==
        "unexpected type fp32 for //");
  CHECK(T.errorOf([&] { T.S.compare(C::LE, T.v("a"), T.v("b")); }) ==
        "incompatible shapes [128] and [64] for <=");
  CHECK(T.errorOf([&] { T.S.minMax(true, T.v("a"), T.v("b"), false); }) ==
        "incompatible shapes [128] and [64] for maximum");
}

TEST_CASE("bitwise operators and shifts") {
  SemFixture T({{"x", dt("int32")}, {"u", dt("uint16")}, {"f", dt("fp32")},
                {"c", dt("int1")}});
  T.S.binary(B::BitAnd, T.v("x"), lit(255));
  T.S.binary(B::BitOr, T.v("c"), litb(true));
  T.S.binary(B::BitXor, T.v("u"), T.v("u"));
  T.S.binary(B::Shl, T.v("x"), lit(3));
  T.S.binary(B::Shr, T.v("x"), lit(3));
  T.S.binary(B::Shr, T.v("u"), lit(3));
  // The tensor operand's signedness picks the shift, not the promoted type.
  TValue R = T.S.binary(B::Shr, T.v("u"), T.v("x"));
  CHECK(R.Ty->getName() == "int32");
  CHECK(T.body() == "%4 = constant 255 : i32\n"
                    "%5 = and %x, %4 : i32\n"
                    "%6 = constant 1 : i1\n"
                    "%7 = or %c, %6 : i1\n"
                    "%8 = xor %u, %u : i16\n"
                    "%9 = constant 3 : i32\n"
                    "%10 = shl %x, %9 : i32\n"
                    "%11 = constant 3 : i32\n"
                    "%12 = ashr %x, %11 : i32\n"
                    "%13 = constant 3 : i16\n"
                    "%14 = lshr %u, %13 : i16\n"
                    "%15 = zext %u : i32\n"
                    "%16 = lshr %15, %x : i32\n");
  CHECK(T.errorOf([&] { T.S.binary(B::Shr, lit(-8), T.v("u")); }) ==
        "Cannot perform a binary operation between an unsigned tensor and a "
        "negative scalar (-8); perform an explicit cast on one of them");
  CHECK(T.errorOf([&] { T.S.binary(B::BitAnd, T.v("f"), lit(1)); }) ==
        "invalid operands of type fp32 and int32 for bitwise &");
  CHECK(T.errorOf([&] { T.S.binary(B::Shl, T.v("x"), T.v("f")); }) ==
        "invalid operands of type int32 and fp32 for bitwise <<");
}

TEST_CASE("logical and/or take truth values") {
  SemFixture T({{"c", dt("int1")}, {"x", dt("int32")}, {"f", dt("fp32")}});
  TValue R = T.S.binary(B::LogicalAnd, T.v("c"), T.v("x"));
  CHECK(R.Ty->getName() == "int1");
  T.S.binary(B::LogicalOr, T.v("f"), litb(false));
  CHECK(T.body() == "%3 = constant 0 : i32\n"
                    "%4 = icmp ne %x, %3 : i1\n"
                    "%5 = and %c, %4 : i1\n"
                    "%6 = constant 0.0 : f32\n"
                    "%7 = fcmp une %f, %6 : i1\n"
                    "%8 = constant 0 : i1\n"
                    "%9 = or %7, %8 : i1\n");
}

TEST_CASE("pointer arithmetic") {
  SemFixture T({{"p", ptr("fp32")}, {"x", dt("int32")}, {"u", dt("uint32")},
                {"v", blk("int64", {8})}});
  CHECK(T.S.binary(B::Add, T.v("p"), T.v("x")).Ty->getName() ==
        "pointer<fp32>");
  T.S.binary(B::Add, T.v("u"), T.v("p"));
  T.S.binary(B::Sub, T.v("p"), T.v("x"));
  T.S.binary(B::Sub, T.v("p"), T.v("u"));
  CHECK(T.S.binary(B::Add, T.v("v"), T.v("p")).Ty->getName() ==
        "<8xpointer<fp32>>");
  T.S.binary(B::Add, T.v("p"), lit(1));
  CHECK(T.body() == "%4 = getelementptr %p, %x : ptr<f32>\n"
                    "%5 = zext %u : i64\n"
                    "%6 = getelementptr %p, %5 : ptr<f32>\n"
                    "%7 = neg %x : i32\n"
                    "%8 = getelementptr %p, %7 : ptr<f32>\n"
                    "%9 = zext %u : i64\n"
                    "%10 = neg %9 : i64\n"
                    "%11 = getelementptr %p, %10 : ptr<f32>\n"
                    "%12 = splat %p : <8 x ptr<f32>>\n"
                    "%13 = getelementptr %12, %v : <8 x ptr<f32>>\n"
                    "%14 = constant 1 : i32\n"
                    "%15 = getelementptr %p, %14 : ptr<f32>\n");
  CHECK(T.errorOf([&] { T.S.binary(B::Add, T.v("p"), T.v("p")); }) ==
        "cannot add pointers together");
  CHECK(T.errorOf([&] { T.S.binary(B::Add, T.v("p"), litf(1.0)); }) ==
        "invalid operands of type pointer<fp32> and fp32 for +");
  CHECK(T.errorOf([&] { T.S.binary(B::Mul, T.v("p"), lit(2)); }) ==
        "invalid operands of type pointer<fp32> and int32 for *");
  CHECK(T.errorOf([&] { T.S.binary(B::Sub, lit(2), T.v("p")); }) ==
        "invalid operands of type int32 and pointer<fp32> for -");
}

TEST_CASE("fdiv, div_rn and umulhi") {
  SemFixture T({{"h", dt("fp16")}, {"f", dt("fp32")}, {"x", dt("int32")},
                {"s", dt("int16")}});
  CHECK(T.S.binary(B::FDiv, T.v("h"), T.v("h")).Ty->getName() == "fp16");
  T.S.binary(B::DivRn, T.v("f"), litf(3.0));
  T.S.binary(B::UMulHi, T.v("x"), T.v("x"));
  CHECK(T.body() == "%4 = fdiv %h, %h : f16\n"
                    "%5 = constant 3.0 : f32\n"
                    "%6 = fdiv %f, %5 : f32\n"
                    "%7 = umulhi %x, %x : i32\n");
  CHECK(T.errorOf([&] { T.S.binary(B::FDiv, T.v("x"), T.v("f")); }) ==
        "both operands of fdiv must have floating scalar type, got int32 and "
        "fp32");
  CHECK(T.errorOf([&] { T.S.binary(B::DivRn, T.v("h"), T.v("h")); }) ==
        "div_rn expects fp32, got fp16");
  CHECK(T.errorOf([&] { T.S.binary(B::UMulHi, T.v("s"), T.v("s")); }) ==
        "umulhi expects int32, int64, uint32, uint64, got int16");
}

TEST_CASE("minimum and maximum") {
  SemFixture T({{"x", dt("int32")}, {"u", dt("uint8")}, {"f", dt("fp32")},
                {"h", blk("fp16", {4})}, {"p", ptr("fp32")}});
  T.S.minMax(true, T.v("x"), lit(0), false);
  T.S.minMax(false, T.v("u"), T.v("u"), false);
  T.S.minMax(false, T.v("f"), T.v("f"), false);
  T.S.minMax(true, T.v("f"), T.v("f"), true);
  TValue R = T.S.minMax(false, T.v("h"), litf(0.5), true);
  CHECK(R.Ty->getName() == "<4xfp16>");
  CHECK(T.body() == "%5 = constant 0 : i32\n"
                    "%6 = smax %x, %5 : i32\n"
                    "%7 = umin %u, %u : i8\n"
                    "%8 = fmin %f, %f : f32\n"
                    "%9 = fmaximum %f, %f : f32\n"
                    "%10 = constant 0.5 : <4 x f16>\n"
                    "%11 = fminimum %h, %10 : <4 x f16>\n");
  CHECK(T.errorOf([&] { T.S.minMax(true, T.v("p"), T.v("p"), false); }) ==
        "invalid operands of type pointer<fp32> and pointer<fp32> for "
        "maximum");
}

TEST_CASE("comparisons: literals are not weak, != is unordered") {
  SemFixture T({{"f", dt("fp32")}, {"h", dt("fp16")}, {"b", dt("int8")},
                {"u", dt("uint32")}, {"x", dt("int32")}, {"c", dt("int1")},
                {"p", ptr("fp32")}});
  CHECK(T.S.compare(C::LT, T.v("h"), litf(0.5)).Ty->getName() == "int1");
  T.S.compare(C::GE, T.v("b"), lit(5));
  T.S.compare(C::LT, T.v("u"), T.v("x"));
  T.S.compare(C::NE, T.v("f"), T.v("f"));
  T.S.compare(C::EQ, T.v("f"), lit(1));
  T.S.compare(C::GT, T.v("x"), lit(0));
  T.S.compare(C::LE, T.v("c"), T.v("c"));
  CHECK(T.body() == "%7 = fpext %h : f32\n"
                    "%8 = constant 0.5 : f32\n"
                    "%9 = fcmp olt %7, %8 : i1\n"
                    "%10 = sext %b : i32\n"
                    "%11 = constant 5 : i32\n"
                    "%12 = icmp sge %10, %11 : i1\n"
                    "%13 = bitcast %x : i32\n"
                    "%14 = icmp ult %u, %13 : i1\n"
                    "%15 = fcmp une %f, %f : i1\n"
                    "%16 = constant 1.0 : f32\n"
                    "%17 = fcmp oeq %f, %16 : i1\n"
                    "%18 = constant 0 : i32\n"
                    "%19 = icmp sgt %x, %18 : i1\n"
                    "%20 = icmp ule %c, %c : i1\n");
  CHECK(T.errorOf([&] { T.S.compare(C::EQ, T.v("p"), T.v("p")); }) ==
        "invalid operands of type pointer<fp32> and pointer<fp32> for ==");
}

TEST_CASE("comparing blocks gives a block of int1") {
  SemFixture T({{"a", blk("int32", {2, 4})}, {"n", dt("int32")}});
  TValue R = T.S.compare(C::LT, T.v("a"), T.v("n"));
  CHECK(R.Ty->getName() == "<2x4xint1>");
  CHECK(T.body() == "%2 = splat %n : <2 x 4 x i32>\n"
                    "%3 = icmp slt %a, %2 : <2 x 4 x i1>\n");
}

TEST_CASE("unary operators") {
  SemFixture T({{"x", dt("int32")}, {"u", dt("uint8")}, {"f", dt("fp32")},
                {"c", dt("int1")}, {"p", ptr("fp32")}});
  TValue X = T.v("x");
  CHECK(T.S.unary(U::Plus, X).V == X.V);
  T.S.unary(U::Neg, X);
  T.S.unary(U::Neg, T.v("f"));
  T.S.unary(U::Invert, X);
  T.S.unary(U::Invert, T.v("u"));
  T.S.unary(U::Invert, T.v("c"));
  T.S.unary(U::Not, T.v("c"));
  T.S.unary(U::Not, X);
  T.S.unary(U::Not, T.v("f"));
  CHECK(T.body() == "%5 = neg %x : i32\n"
                    "%6 = neg %f : f32\n"
                    "%7 = constant -1 : i32\n"
                    "%8 = xor %x, %7 : i32\n"
                    "%9 = constant 255 : i8\n"
                    "%10 = xor %u, %9 : i8\n"
                    "%11 = constant 1 : i1\n"
                    "%12 = xor %c, %11 : i1\n"
                    "%13 = constant 1 : i1\n"
                    "%14 = xor %c, %13 : i1\n"
                    "%15 = constant 0 : i32\n"
                    "%16 = icmp eq %x, %15 : i1\n"
                    "%17 = constant 0.0 : f32\n"
                    "%18 = fcmp oeq %f, %17 : i1\n");
  CHECK(T.errorOf([&] { T.S.unary(U::Neg, T.v("p")); }) ==
        "wrong type argument to unary minus (pointer<fp32>)");
  CHECK(T.errorOf([&] { T.S.unary(U::Invert, T.v("f")); }) ==
        "wrong type argument to unary invert (fp32)");
}

TEST_CASE("abs and the math functions") {
  SemFixture T({{"x", dt("int32")}, {"u", dt("uint32")}, {"f", dt("fp32")},
                {"d", dt("fp64")}, {"h", dt("fp16")}, {"p", ptr("fp32")}});
  T.S.unary(U::Abs, T.v("x"));
  TValue U32 = T.v("u");
  CHECK(T.S.unary(U::Abs, U32).V == U32.V);
  T.S.unary(U::Abs, T.v("f"));
  for (U Op : {U::Exp, U::Exp2, U::Log, U::Log2, U::Sqrt, U::SqrtRn,
               U::Rsqrt, U::Sin, U::Cos, U::Floor, U::Ceil, U::Erf})
    T.S.unary(Op, T.v("f"));
  T.S.unary(U::Exp, T.v("d"));
  T.S.unary(U::Log, litf(2.0));
  CHECK(T.body() == "%6 = abs %x : i32\n"
                    "%7 = abs %f : f32\n"
                    "%8 = exp %f : f32\n"
                    "%9 = exp2 %f : f32\n"
                    "%10 = log %f : f32\n"
                    "%11 = log2 %f : f32\n"
                    "%12 = sqrt %f : f32\n"
                    "%13 = sqrt_rn %f : f32\n"
                    "%14 = rsqrt %f : f32\n"
                    "%15 = sin %f : f32\n"
                    "%16 = cos %f : f32\n"
                    "%17 = floor %f : f32\n"
                    "%18 = ceil %f : f32\n"
                    "%19 = erf %f : f32\n"
                    "%20 = exp %d : f64\n"
                    "%21 = constant 2.0 : f32\n"
                    "%22 = log %21 : f32\n");
  CHECK(T.errorOf([&] { T.S.unary(U::Exp, T.v("h")); }) ==
        "exp expects fp32, fp64, got fp16; cast the operand first "
        "(x.to(tl.float32))");
  CHECK(T.errorOf([&] { T.S.unary(U::SqrtRn, T.v("d")); }) ==
        "sqrt_rn expects fp32, got fp64; cast the operand first "
        "(x.to(tl.float32))");
  CHECK(T.errorOf([&] { T.S.unary(U::Cos, T.v("x")); }) ==
        "cos expects fp32, fp64, got int32; cast the operand first "
        "(x.to(tl.float32))");
  CHECK(T.errorOf([&] { T.S.unary(U::Abs, T.v("p")); }) ==
        "unexpected type pointer<fp32> for abs");
}

TEST_CASE("fma promotes its three operands together") {
  SemFixture T({{"h", blk("fp16", {4})}, {"f", dt("fp32")}, {"x", dt("int32")}});
  TValue R = T.S.fma(T.v("h"), T.v("h"), T.v("f"));
  CHECK(R.Ty->getName() == "<4xfp32>");
  CHECK(T.body() == "%3 = fpext %h : <4 x f32>\n"
                    "%4 = fpext %h : <4 x f32>\n"
                    "%5 = splat %f : <4 x f32>\n"
                    "%6 = fma %3, %4, %5 : <4 x f32>\n");
  CHECK(T.errorOf([&] { T.S.fma(T.v("x"), T.v("x"), lit(1)); }) ==
        "fma expects float operands, got int32");
}

TEST_CASE("where converts the condition and promotes the values") {
  SemFixture T({{"c", dt("int1")}, {"m", blk("int1", {4})}, {"x", dt("int32")},
                {"f", dt("fp32")}, {"p", ptr("fp16")}, {"n", dt("int64")}});
  CHECK(T.S.where(T.v("c"), T.v("x"), litf(1.0)).Ty->getName() == "fp32");
  CHECK(T.S.where(T.v("m"), T.v("x"), T.v("f")).Ty->getName() == "<4xfp32>");
  CHECK(T.S.where(T.v("n"), T.v("p"), T.v("p")).Ty->getName() ==
        "pointer<fp16>");
  CHECK(T.S.where(T.v("c"), T.v("x"), lit(7)).Ty->getName() == "int32");
  CHECK(T.body() == "%6 = sitofp %x : f32\n"
                    "%7 = constant 1.0 : f32\n"
                    "%8 = select %c, %6, %7 : f32\n"
                    "%9 = sitofp %x : f32\n"
                    "%10 = splat %9 : <4 x f32>\n"
                    "%11 = splat %f : <4 x f32>\n"
                    "%12 = select %m, %10, %11 : <4 x f32>\n"
                    "%13 = constant 0 : i64\n"
                    "%14 = icmp ne %n, %13 : i1\n"
                    "%15 = select %14, %p, %p : ptr<f16>\n"
                    "%16 = constant 7 : i32\n"
                    "%17 = select %c, %x, %16 : i32\n");
  CHECK(T.errorOf([&] { T.S.where(T.v("c"), T.v("p"), lit(0)); }) ==
        "invalid operands of type pointer<fp16> and int32 for where");
}

TEST_CASE("clamp") {
  SemFixture T({{"f", blk("fp32", {4})}, {"h", dt("fp16")}, {"x", dt("int32")}});
  T.S.clamp(T.v("f"), litf(0.0), litf(1.0), false);
  // Triton promotes the two bounds first; as literals they are both fp32.
  CHECK(T.S.clamp(T.v("h"), litf(0.0), litf(1.0), true).Ty->getName() ==
        "fp32");
  CHECK(T.body() == "%3 = constant 0.0 : <4 x f32>\n"
                    "%4 = constant 1.0 : <4 x f32>\n"
                    "%5 = fmax %f, %3 : <4 x f32>\n"
                    "%6 = fmin %5, %4 : <4 x f32>\n"
                    "%7 = fpext %h : f32\n"
                    "%8 = constant 0.0 : f32\n"
                    "%9 = constant 1.0 : f32\n"
                    "%10 = fmaximum %7, %8 : f32\n"
                    "%11 = fminimum %10, %9 : f32\n");
  CHECK(T.errorOf([&] { T.S.clamp(T.v("x"), lit(0), lit(1), false); }) ==
        "clamp only supports floating point types, got int32");
}
