//===- SemanticCastTest.cpp - x.to(dtype) and bitcasts --------------------===//

#include "SemanticTestUtil.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;

TEST_CASE("integer casts by signedness and width") {
  SemFixture T({{"b", dt("int8")}, {"u", dt("uint8")}, {"c", dt("int1")},
                {"x", dt("int32")}});
  CHECK(T.S.cast(T.v("b"), dt("int32")).Ty->getName() == "int32");
  T.S.cast(T.v("u"), dt("int32"));
  T.S.cast(T.v("c"), dt("int64"));
  T.S.cast(T.v("x"), dt("int8"));
  T.S.cast(T.v("x"), dt("uint32"));
  CHECK(T.S.cast(T.v("x"), dt("int1")).Ty->getName() == "int1");
  TValue X = T.v("x");
  CHECK(T.S.cast(X, dt("int32")).V == X.V);
  CHECK(T.body() == "%4 = sext %b : i32\n"
                    "%5 = zext %u : i32\n"
                    "%6 = zext %c : i64\n"
                    "%7 = trunc %x : i8\n"
                    "%8 = bitcast %x : i32\n"
                    "%9 = constant 0 : i32\n"
                    "%10 = icmp ne %x, %9 : i1\n");
}

TEST_CASE("float casts, with and without rounding") {
  SemFixture T({{"f", blk("fp32", {4})}, {"h", dt("fp16")}, {"g", dt("bf16")},
                {"e", dt("fp8e4nv")}, {"d", dt("fp64")}});
  CHECK(T.S.cast(T.v("f"), dt("fp16")).Ty->getName() == "<4xfp16>");
  T.S.cast(T.v("f"), dt("bf16"), false, RoundingMode::RTZ);
  T.S.cast(T.v("h"), dt("fp32"));
  T.S.cast(T.v("h"), dt("bf16"));
  T.S.cast(T.v("e"), dt("fp8e5"));
  T.S.cast(T.v("e"), dt("fp32"));
  T.S.cast(T.v("d"), dt("fp8e4nv"), false, RoundingMode::RTNE);
  T.S.cast(T.v("g"), dt("fp64"));
  CHECK(T.body() == "%5 = fptrunc %f : <4 x f16>\n"
                    "%6 = fptrunc %f {rounding=rtz} : <4 x bf16>\n"
                    "%7 = fpext %h : f32\n"
                    "%8 = fpext %h : f32\n"
                    "%9 = fptrunc %8 : bf16\n"
                    "%10 = fpext %e : f16\n"
                    "%11 = fptrunc %10 : f8e5m2\n"
                    "%12 = fpext %e : f32\n"
                    "%13 = fptrunc %d {rounding=rtne} : f8e4m3\n"
                    "%14 = fpext %g : f64\n");
  CHECK(T.errorOf([&] {
    T.S.cast(T.v("h"), dt("fp32"), false, RoundingMode::RTZ);
  }) == "fp_downcast_rounding should be set only for truncating fp "
        "conversions. Source scalar type is fp16 and destination type is "
        "fp32");
  CHECK(T.errorOf([&] {
    T.S.cast(T.v("g"), dt("fp16"), false, RoundingMode::RTZ);
  }) == "fp_downcast_rounding should be set only for truncating fp "
        "conversions. Source scalar type is bf16 and destination type is "
        "fp16");
}

TEST_CASE("fp8e4b15 casts as fp8e4nv does") {
  SemFixture T({{"b", dt("fp8e4b15")}, {"f", dt("fp32")}, {"e", dt("fp8e4nv")},
                {"x", dt("int32")}});
  T.S.cast(T.v("b"), dt("fp32"));
  T.S.cast(T.v("f"), dt("fp8e4b15"));
  T.S.cast(T.v("e"), dt("fp8e4b15"));
  CHECK(T.body() == "%4 = fpext %b : f32\n"
                    "%5 = fptrunc %f : f8e4b15\n"
                    "%6 = fpext %e : f16\n"
                    "%7 = fptrunc %6 : f8e4b15\n");
  CHECK(T.errorOf([&] { T.S.cast(T.v("x"), dt("fp8e4b15")); }) ==
        "cannot cast int32 to fp8e4b15");
  CHECK(T.errorOf([&] { T.S.cast(T.v("b"), dt("int32")); }) ==
        "cannot cast fp8e4b15 to int32");
}

TEST_CASE("float <-> int casts and truth values") {
  SemFixture T({{"f", dt("fp32")}, {"x", dt("int32")}, {"u", dt("uint16")},
                {"c", dt("int1")}, {"e", dt("fp8e5")}});
  T.S.cast(T.v("f"), dt("int32"));
  T.S.cast(T.v("f"), dt("uint8"));
  T.S.cast(T.v("f"), dt("int1"));
  T.S.cast(T.v("x"), dt("fp32"));
  T.S.cast(T.v("u"), dt("fp16"));
  T.S.cast(T.v("c"), dt("fp32"));
  CHECK(T.body() == "%5 = fptosi %f : i32\n"
                    "%6 = fptoui %f : i8\n"
                    "%7 = constant 0.0 : f32\n"
                    "%8 = fcmp une %f, %7 : i1\n"
                    "%9 = sitofp %x : f32\n"
                    "%10 = uitofp %u : f16\n"
                    "%11 = uitofp %c : f32\n");
  CHECK(T.errorOf([&] { T.S.cast(T.v("e"), dt("int32")); }) ==
        "cannot cast fp8e5 to int32");
  CHECK(T.errorOf([&] { T.S.cast(T.v("x"), dt("fp8e4nv")); }) ==
        "cannot cast int32 to fp8e4nv");
}

TEST_CASE("pointer casts") {
  SemFixture T({{"p", ptr("fp32")}, {"n", dt("int64")}, {"i", dt("int32")}});
  T.S.cast(T.v("p"), dt("int64"));
  T.S.cast(T.v("p"), dt("int1"));
  CHECK(T.S.cast(T.v("n"), ptr("fp16")).Ty->getName() == "pointer<fp16>");
  T.S.cast(T.v("i"), ptr("int8"));
  T.S.cast(T.v("p"), ptr("uint8"));
  CHECK(T.body() == "%3 = ptrtoint %p : i64\n"
                    "%4 = ptrtoint %p : i64\n"
                    "%5 = constant 0 : i64\n"
                    "%6 = icmp ne %4, %5 : i1\n"
                    "%7 = inttoptr %n : ptr<f16>\n"
                    "%8 = inttoptr %i : ptr<i8>\n"
                    "%9 = bitcast %p : ptr<i8>\n");
  CHECK(T.errorOf([&] { T.S.cast(T.v("p"), dt("int32")); }) ==
        "cannot cast pointer<fp32> to int32: pointers convert to int64 or "
        "int1 only");
  CHECK(T.errorOf([&] { T.S.cast(T.v("p"), dt("fp32")); }) ==
        "cannot cast pointer<fp32> to fp32");
}

TEST_CASE("bitcasts need equal widths") {
  SemFixture T({{"f", blk("fp32", {8})}, {"p", ptr("fp32")}, {"h", dt("fp16")}});
  CHECK(T.S.cast(T.v("f"), dt("int32"), true).Ty->getName() == "<8xint32>");
  T.S.cast(T.v("h"), dt("uint16"), true);
  T.S.cast(T.v("p"), dt("int64"), true);
  CHECK(T.body() == "%3 = bitcast %f : <8 x i32>\n"
                    "%4 = bitcast %h : i16\n"
                    "%5 = ptrtoint %p : i64\n");
  CHECK(T.errorOf([&] { T.S.cast(T.v("f"), dt("int16"), true); }) ==
        "cannot bitcast fp32 (32 bits) to int16 (16 bits): the sizes differ");
}

TEST_CASE("casting a literal makes a constant of its type first") {
  SemFixture T;
  CHECK(T.S.cast(lit(3), dt("fp32")).Ty->getName() == "fp32");
  CHECK(T.S.cast(litf(2.5), dt("fp16")).Ty->getName() == "fp16");
  CHECK(T.body() == "%0 = constant 3 : i32\n"
                    "%1 = sitofp %0 : f32\n"
                    "%2 = constant 2.5 : f32\n"
                    "%3 = fptrunc %2 : f16\n");
}
