//===- SemanticMemoryTest.cpp - Loads, stores and atomics -----------------===//

#include "SemanticTestUtil.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;

TEST_CASE("load: scalar, masked with other, hints") {
  SemFixture T({{"p", ptr("fp32")}, {"q", blk(ptr("fp16"), {8})},
                {"m", blk("int1", {8})}});
  CHECK(T.S.load(T.v("p"), std::nullopt, std::nullopt).Ty->getName() ==
        "fp32");
  TValue R = T.S.load(T.v("q"), Operand(T.v("m")), litf(0.0), ".cg",
                      "evict_last", true);
  CHECK(R.Ty->getName() == "<8xfp16>");
  T.S.load(T.v("p"), litb(true), std::nullopt, ".ca", "evict_first");
  CHECK(T.body() == "%3 = load %p : f32\n"
                    "%4 = constant 0.0 : <8 x f16>\n"
                    "%5 = load %q, %m, %4 {cache=cg, evict=evict_last, "
                    "volatile} : <8 x f16>\n"
                    "%6 = constant 1 : i1\n"
                    "%7 = load %p, %6 {cache=ca, evict=evict_first} : f32\n");
}

TEST_CASE("load broadcasts pointer, mask and other together") {
  SemFixture T({{"p", blk(ptr("int32"), {1, 8})}, {"m", blk("int1", {4, 1})},
                {"o", blk("int32", {8})}});
  TValue R = T.S.load(T.v("p"), Operand(T.v("m")), Operand(T.v("o")));
  CHECK(R.Ty->getName() == "<4x8xint32>");
  CHECK(T.body() == "%3 = broadcast %p : <4 x 8 x ptr<i32>>\n"
                    "%4 = broadcast %m : <4 x 8 x i1>\n"
                    "%5 = expand_dims %o {axis=0} : <1 x 8 x i32>\n"
                    "%6 = broadcast %5 : <4 x 8 x i32>\n"
                    "%7 = load %3, %4, %6 : <4 x 8 x i32>\n");
}

TEST_CASE("a scalar pointer loads with scalar masks only") {
  SemFixture T({{"p", ptr("int32")}, {"c", dt("int1")}});
  T.S.load(T.v("p"), Operand(T.v("c")), lit(-1));
  CHECK(T.body() == "%2 = constant -1 : i32\n"
                    "%3 = load %p, %c, %2 : i32\n");
}

TEST_CASE("bool pointers are loaded as int8") {
  SemFixture T({{"p", blk(ptr("int1"), {4})}, {"m", blk("int1", {4})}});
  TValue R = T.S.load(T.v("p"), Operand(T.v("m")), litb(true));
  CHECK(R.Ty->getName() == "<4xint1>");
  CHECK(T.body() == "%2 = bitcast %p : <4 x ptr<i8>>\n"
                    "%3 = constant 1 : <4 x i8>\n"
                    "%4 = load %2, %m, %3 : <4 x i8>\n"
                    "%5 = constant 0 : <4 x i8>\n"
                    "%6 = icmp ne %4, %5 : <4 x i1>\n");
}

TEST_CASE("load misuse") {
  SemFixture T({{"p", ptr("fp32")}, {"x", dt("int32")},
                {"m", blk("int1", {8})}, {"q", blk(ptr("fp32"), {8})},
                {"i", blk("int32", {8})}});
  CHECK(T.errorOf([&] { T.S.load(T.v("x"), std::nullopt, std::nullopt); }) ==
        "Unsupported ptr type int32 in `tl.load`");
  CHECK(T.errorOf([&] { T.S.load(T.v("p"), std::nullopt, litf(0.0)); }) ==
        "`other` cannot be provided without `mask`");
  CHECK(T.errorOf([&] {
    T.S.load(T.v("p"), Operand(T.v("m")), std::nullopt);
  }) == "Mask argument cannot be block type if pointer argument is not a "
        "block");
  CHECK(T.errorOf([&] {
    T.S.load(T.v("q"), Operand(T.v("i")), std::nullopt);
  }) == "Mask must have boolean scalar type, got <8xint32>");
  CHECK(T.errorOf([&] {
    T.S.load(T.v("p"), std::nullopt, std::nullopt, ".wb");
  }) == "cache modifier '.wb' is not supported by load; use '.ca', '.cg' or "
        "'.cv'");
  CHECK(T.errorOf([&] {
    T.S.load(T.v("p"), std::nullopt, std::nullopt, "", "evict_normal");
  }) == "eviction policy 'evict_normal' is not supported; use 'evict_first' "
        "or 'evict_last'");
}

TEST_CASE("store casts the value to the pointee type") {
  SemFixture T({{"p", ptr("fp16")}, {"q", blk(ptr("fp32"), {8})},
                {"x", dt("int32")}, {"m", blk("int1", {8})},
                {"b", blk(ptr("int1"), {8})}});
  T.S.store(T.v("p"), litf(1.0), std::nullopt);
  T.S.store(T.v("q"), T.v("x"), Operand(T.v("m")), ".cs", "evict_first");
  T.S.store(T.v("b"), T.v("m"), std::nullopt);
  CHECK(T.body() == "%5 = constant 1.0 : f16\n"
                    "store %p, %5\n"
                    "%6 = sitofp %x : f32\n"
                    "%7 = splat %6 : <8 x f32>\n"
                    "store %q, %7, %m {cache=cs, evict=evict_first}\n"
                    "%8 = bitcast %b : <8 x ptr<i8>>\n"
                    "%9 = zext %m : <8 x i8>\n"
                    "store %8, %9\n");
}

TEST_CASE("store misuse") {
  SemFixture T({{"p", ptr("fp32")}, {"k", ptr("fp32", /*Const=*/true)},
                {"q", blk(ptr("fp32"), {8})}, {"v", blk("fp32", {8})},
                {"w", blk("fp32", {4, 8})}, {"x", dt("int32")}});
  CHECK(T.errorOf([&] { T.S.store(T.v("k"), litf(1.0), std::nullopt); }) ==
        "Cannot store to a constant pointer");
  CHECK(T.errorOf([&] { T.S.store(T.v("x"), litf(1.0), std::nullopt); }) ==
        "Unsupported ptr type int32 in `tl.store`");
  CHECK(T.errorOf([&] { T.S.store(T.v("p"), T.v("v"), std::nullopt); }) ==
        "Value argument cannot be block type if pointer argument is not a "
        "block");
  CHECK(T.errorOf([&] { T.S.store(T.v("q"), T.v("w"), std::nullopt); }) ==
        "cannot store a value (and mask) of shape [4, 8] through pointers of "
        "shape [8]");
  CHECK(T.errorOf([&] { T.S.store(T.v("q"), T.v("v"), Operand(T.v("v"))); }) ==
        "Mask must have boolean scalar type, got <8xfp32>");
  CHECK(T.errorOf([&] {
    T.S.store(T.v("p"), litf(1.0), std::nullopt, ".ca");
  }) == "cache modifier '.ca' is not supported by store; use '.wb', '.cg', "
        "'.cs' or '.wt'");
}

TEST_CASE("atomics: kinds by type and signedness, orderings") {
  SemFixture T({{"p", ptr("int32")}, {"u", blk(ptr("uint32"), {4})},
                {"h", ptr("fp16")}, {"m", blk("int1", {4})},
                {"x", dt("int32")}});
  CHECK(T.S.atomicRMW("add", T.v("p"), lit(1), std::nullopt).Ty->getName() ==
        "int32");
  T.S.atomicRMW("max", T.v("u"), lit(7), Operand(T.v("m")), "relaxed", "cta");
  T.S.atomicRMW("min", T.v("p"), T.v("x"), std::nullopt, "acquire", "sys");
  T.S.atomicRMW("add", T.v("h"), litf(0.5), std::nullopt, "release");
  T.S.atomicRMW("xchg", T.v("p"), lit(0), std::nullopt);
  T.S.atomicRMW("and", T.v("p"), lit(3), std::nullopt);
  T.S.atomicRMW("or", T.v("p"), lit(3), std::nullopt);
  T.S.atomicRMW("xor", T.v("p"), lit(3), std::nullopt);
  CHECK(T.body() ==
        "%5 = constant 1 : i32\n"
        "%6 = atomic_rmw add %p, %5 {sem=acq_rel, scope=gpu} : i32\n"
        "%7 = constant 7 : <4 x i32>\n"
        "%8 = atomic_rmw umax %u, %7, %m {sem=relaxed, scope=cta} : <4 x i32>\n"
        "%9 = atomic_rmw min %p, %x {sem=acquire, scope=sys} : i32\n"
        "%10 = constant 0.5 : f16\n"
        "%11 = atomic_rmw fadd %h, %10 {sem=release, scope=gpu} : f16\n"
        "%12 = constant 0 : i32\n"
        "%13 = atomic_rmw xchg %p, %12 {sem=acq_rel, scope=gpu} : i32\n"
        "%14 = constant 3 : i32\n"
        "%15 = atomic_rmw and %p, %14 {sem=acq_rel, scope=gpu} : i32\n"
        "%16 = constant 3 : i32\n"
        "%17 = atomic_rmw or %p, %16 {sem=acq_rel, scope=gpu} : i32\n"
        "%18 = constant 3 : i32\n"
        "%19 = atomic_rmw xor %p, %18 {sem=acq_rel, scope=gpu} : i32\n");
}

TEST_CASE("float atomic max is built from integer atomics") {
  SemFixture T({{"p", blk(ptr("fp32"), {4})}, {"v", blk("fp32", {4})},
                {"m", blk("int1", {4})}});
  TValue R = T.S.atomicRMW("max", T.v("p"), T.v("v"), Operand(T.v("m")));
  CHECK(R.Ty->getName() == "<4xfp32>");
  CHECK(T.body() ==
        "%3 = bitcast %p : <4 x ptr<i32>>\n"
        "%4 = bitcast %v : <4 x i32>\n"
        "%5 = constant 0 : <4 x i32>\n"
        "%6 = icmp slt %4, %5 : <4 x i1>\n"
        "%7 = constant 1 : <4 x i1>\n"
        "%8 = xor %6, %7 : <4 x i1>\n"
        "%9 = and %m, %8 : <4 x i1>\n"
        "%10 = and %m, %6 : <4 x i1>\n"
        "%11 = atomic_rmw max %3, %4, %9 {sem=acq_rel, scope=gpu} : <4 x i32>\n"
        "%12 = atomic_rmw umin %3, %4, %10 {sem=acq_rel, scope=gpu} : <4 x "
        "i32>\n"
        "%13 = select %8, %11, %12 : <4 x i32>\n"
        "%14 = bitcast %13 : <4 x f32>\n");
}

TEST_CASE("float atomic min on a scalar fp64 without a mask") {
  SemFixture T({{"p", ptr("fp64")}});
  T.S.atomicRMW("min", T.v("p"), litf(-1.0), std::nullopt);
  CHECK(T.body() ==
        "%1 = constant -1.0 : f64\n"
        "%2 = bitcast %p : ptr<i64>\n"
        "%3 = bitcast %1 : i64\n"
        "%4 = constant 0 : i64\n"
        "%5 = icmp slt %3, %4 : i1\n"
        "%6 = constant 1 : i1\n"
        "%7 = xor %5, %6 : i1\n"
        "%8 = atomic_rmw min %2, %3, %7 {sem=acq_rel, scope=gpu} : i64\n"
        "%9 = atomic_rmw umax %2, %3, %5 {sem=acq_rel, scope=gpu} : i64\n"
        "%10 = select %7, %8, %9 : i64\n"
        "%11 = bitcast %10 : f64\n");
}

TEST_CASE("atomic misuse") {
  SemFixture T({{"p", ptr("int32")}, {"h", ptr("fp16")}, {"b", ptr("int8")},
                {"s", ptr("uint16")}, {"f", ptr("fp32")},
                {"k", ptr("int32", true)}, {"q", blk(ptr("int32"), {8})},
                {"m", blk("int1", {2, 4})}, {"x", dt("int32")},
                {"v", blk("int32", {8})}});
  CHECK(T.errorOf([&] { T.S.atomicRMW("nand", T.v("p"), lit(1), {}); }) ==
        "unknown atomic operation 'nand'; use add, max, min, and, or, xor or "
        "xchg");
  CHECK(T.errorOf([&] { T.S.atomicRMW("max", T.v("h"), litf(1), {}); }) ==
        "atomic_max does not support fp16");
  CHECK(T.errorOf([&] { T.S.atomicRMW("add", T.v("b"), lit(1), {}); }) ==
        "atomic_add does not support int8");
  CHECK(T.errorOf([&] { T.S.atomicRMW("add", T.v("s"), lit(1), {}); }) ==
        "atomic_add does not support uint16");
  CHECK(T.errorOf([&] { T.S.atomicRMW("and", T.v("f"), lit(1), {}); }) ==
        "atomic_and does not support fp32");
  CHECK(T.errorOf([&] { T.S.atomicRMW("add", T.v("k"), lit(1), {}); }) ==
        "Cannot store to a constant pointer");
  CHECK(T.errorOf([&] { T.S.atomicRMW("add", T.v("x"), lit(1), {}); }) ==
        "atomic_add expects a pointer, got int32");
  CHECK(T.errorOf([&] { T.S.atomicRMW("add", T.v("p"), T.v("v"), {}); }) ==
        "Value argument cannot be block type if pointer argument is not a "
        "block");
  CHECK(T.errorOf([&] {
    T.S.atomicRMW("add", T.v("q"), lit(1), Operand(T.v("m")));
  }) == "cannot broadcast [2, 4] to [8]: the ranks differ");
  CHECK(T.errorOf([&] {
    T.S.atomicRMW("add", T.v("p"), lit(1), std::nullopt, "seq_cst");
  }) == "memory semantic 'seq_cst' is not supported; use 'acquire', "
        "'release', 'acq_rel' or 'relaxed'");
  CHECK(T.errorOf([&] {
    T.S.atomicRMW("add", T.v("p"), lit(1), std::nullopt, "", "block");
  }) == "memory scope 'block' is not supported; use 'gpu', 'cta' or 'sys'");
}

TEST_CASE("atomic compare-and-swap") {
  SemFixture T({{"p", ptr("int32")}, {"q", blk(ptr("fp32"), {4})},
                {"b", ptr("int8")}});
  CHECK(T.S.atomicCAS(T.v("p"), lit(0), lit(1)).Ty->getName() == "int32");
  T.S.atomicCAS(T.v("q"), litf(0.0), litf(1.0), "relaxed", "cta");
  CHECK(T.body() ==
        "%3 = constant 0 : i32\n"
        "%4 = constant 1 : i32\n"
        "%5 = atomic_cas %p, %3, %4 {sem=acq_rel, scope=gpu} : i32\n"
        "%6 = constant 0.0 : <4 x f32>\n"
        "%7 = constant 1.0 : <4 x f32>\n"
        "%8 = atomic_cas %q, %6, %7 {sem=relaxed, scope=cta} : <4 x f32>\n");
  CHECK(T.errorOf([&] { T.S.atomicCAS(T.v("b"), lit(0), lit(1)); }) ==
        "atomic_cas only supports elements with width {16, 32, 64}, got int8");
}
