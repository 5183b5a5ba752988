//===- CanonicalizeTest.cpp - Constant folding and simplification ---------===//

#include "TransformTestUtils.h"

#include <doctest/doctest.h>

using namespace tritium;
using namespace tritium::test;

namespace {

/// What `%r = OP %a, %b : T` with constants A and B canonicalizes to.
std::string foldBinary(const std::string &Op, const std::string &T,
                       const std::string &A, const std::string &B) {
  std::string IR = "func @f() -> " + T + " {\nbb0:\n" +
                   "  %a = constant " + A + " : " + T + "\n" +
                   "  %b = constant " + B + " : " + T + "\n" +
                   "  %r = " + Op + " %a, %b : " + T + "\n  ret %r\n}\n";
  return returnedDef(runPipeline(IR, "canonicalize"));
}

/// What `%r = CMP PRED %a, %b : i1` with constants of type T folds to.
std::string foldCmp(const std::string &Cmp, const std::string &T,
                    const std::string &A, const std::string &B) {
  std::string IR = std::string("func @f() -> i1 {\nbb0:\n") +
                   "  %a = constant " + A + " : " + T + "\n" +
                   "  %b = constant " + B + " : " + T + "\n" +
                   "  %r = " + Cmp + " %a, %b : i1\n  ret %r\n}\n";
  return returnedDef(runPipeline(IR, "canonicalize"));
}

/// What `%r = OP %a : To` with the constant V of type From folds to.
std::string foldCast(const std::string &Op, const std::string &From,
                     const std::string &To, const std::string &V,
                     const std::string &Attrs = "") {
  std::string IR = "func @f() -> " + To + " {\nbb0:\n" +
                   "  %a = constant " + V + " : " + From + "\n" +
                   "  %r = " + Op + " %a" + Attrs + " : " + To +
                   "\n  ret %r\n}\n";
  return returnedDef(runPipeline(IR, "canonicalize"));
}

/// What `%r = OP %a : T` with the constant V folds to.
std::string foldUnary(const std::string &Op, const std::string &T,
                      const std::string &V) {
  std::string IR = "func @f() -> " + T + " {\nbb0:\n" +
                   "  %a = constant " + V + " : " + T + "\n" +
                   "  %r = " + Op + " %a : " + T + "\n  ret %r\n}\n";
  return returnedDef(runPipeline(IR, "canonicalize"));
}

/// What the body \p Body (over arguments %x, %y of type T, returning %r of
/// type R) canonicalizes to.
std::string simplify(const std::string &T, const std::string &R,
                     const std::string &Body) {
  std::string IR = "func @f(%x: " + T + ", %y: " + T + ") -> " + R +
                   " {\nbb0:\n" + Body + "  ret %r\n}\n";
  return returnedDef(runPipeline(IR, "canonicalize"));
}

} // namespace

TEST_CASE("canonicalize: integer arithmetic wraps at the type's width") {
  CHECK(foldBinary("add", "i8", "127", "1") == "constant -128 : i8");
  CHECK(foldBinary("sub", "i16", "0", "1") == "constant -1 : i16");
  CHECK(foldBinary("mul", "i32", "65536", "65536") == "constant 0 : i32");
  CHECK(foldBinary("add", "i64", "9223372036854775807", "1") ==
        "constant -9223372036854775808 : i64");
  CHECK(foldBinary("add", "i1", "1", "1") == "constant 0 : i1");
  CHECK(foldBinary("umulhi", "i32", "-1", "-1") == "constant -2 : i32");
  CHECK(foldBinary("umulhi", "i8", "16", "16") == "constant 1 : i8");
}

TEST_CASE("canonicalize: division and remainder, signed and unsigned") {
  CHECK(foldBinary("sdiv", "i32", "-7", "2") == "constant -3 : i32");
  CHECK(foldBinary("srem", "i32", "-7", "2") == "constant -1 : i32");
  CHECK(foldBinary("udiv", "i8", "-1", "2") == "constant 127 : i8");
  CHECK(foldBinary("urem", "i8", "255", "10") == "constant 5 : i8");
  // Division by zero and INT_MIN / -1 have no value to fold to.
  CHECK(foldBinary("sdiv", "i32", "1", "0") == "sdiv %a, %b : i32");
  CHECK(foldBinary("udiv", "i32", "1", "0") == "udiv %a, %b : i32");
  CHECK(foldBinary("srem", "i32", "1", "0") == "srem %a, %b : i32");
  CHECK(foldBinary("urem", "i32", "1", "0") == "urem %a, %b : i32");
  CHECK(foldBinary("sdiv", "i8", "-128", "-1") == "sdiv %a, %b : i8");
  CHECK(foldBinary("srem", "i8", "-128", "-1") == "srem %a, %b : i8");
}

TEST_CASE("canonicalize: shifts, bitwise operations, min and max") {
  CHECK(foldBinary("shl", "i8", "1", "7") == "constant -128 : i8");
  CHECK(foldBinary("lshr", "i8", "-128", "7") == "constant 1 : i8");
  CHECK(foldBinary("ashr", "i8", "-128", "7") == "constant -1 : i8");
  // Shifting by the width or more is left alone.
  CHECK(foldBinary("shl", "i8", "1", "8") == "shl %a, %b : i8");
  CHECK(foldBinary("lshr", "i32", "1", "-1") == "lshr %a, %b : i32");
  CHECK(foldBinary("and", "i32", "12", "10") == "constant 8 : i32");
  CHECK(foldBinary("or", "i32", "12", "10") == "constant 14 : i32");
  CHECK(foldBinary("xor", "i32", "12", "10") == "constant 6 : i32");
  CHECK(foldBinary("smin", "i32", "-1", "1") == "constant -1 : i32");
  CHECK(foldBinary("umin", "i32", "-1", "1") == "constant 1 : i32");
  CHECK(foldBinary("smax", "i32", "-1", "1") == "constant 1 : i32");
  CHECK(foldBinary("umax", "i32", "-1", "1") == "constant -1 : i32");
}

TEST_CASE("canonicalize: integer comparisons") {
  CHECK(foldCmp("icmp slt", "i32", "-1", "0") == "constant 1 : i1");
  CHECK(foldCmp("icmp ult", "i32", "-1", "0") == "constant 0 : i1");
  CHECK(foldCmp("icmp uge", "i8", "200", "100") == "constant 1 : i1");
  CHECK(foldCmp("icmp sge", "i8", "200", "100") == "constant 0 : i1");
  CHECK(foldCmp("icmp eq", "i64", "5", "5") == "constant 1 : i1");
  CHECK(foldCmp("icmp ne", "i64", "5", "5") == "constant 0 : i1");
}

TEST_CASE("canonicalize: float comparisons, NaN included") {
  CHECK(foldCmp("fcmp olt", "f32", "1.0", "2.0") == "constant 1 : i1");
  CHECK(foldCmp("fcmp olt", "f32", "1.0", "nan") == "constant 0 : i1");
  CHECK(foldCmp("fcmp ult", "f32", "1.0", "nan") == "constant 1 : i1");
  CHECK(foldCmp("fcmp oeq", "f64", "0.0", "-0.0") == "constant 1 : i1");
  CHECK(foldCmp("fcmp une", "f64", "nan", "nan") == "constant 1 : i1");
  CHECK(foldCmp("fcmp ord", "f16", "1.0", "2.0") == "constant 1 : i1");
  CHECK(foldCmp("fcmp uno", "f16", "1.0", "nan") == "constant 1 : i1");
}

TEST_CASE("canonicalize: float arithmetic rounds to the type's precision") {
  // 0.1 + 0.2 rounds differently in f32 and f64.
  CHECK(foldBinary("fadd", "f32", "0.1", "0.2") ==
        "constant 0.30000001192092896 : f32");
  CHECK(foldBinary("fadd", "f64", "0.1", "0.2") ==
        "constant 0.30000000000000004 : f64");
  CHECK(foldBinary("fdiv", "f32", "1.0", "3.0") ==
        "constant 0.3333333432674408 : f32");
  // 1 + 2^-11 is a tie in f16 and rounds to even.
  CHECK(foldBinary("fadd", "f16", "1.0", "0.00048828125") ==
        "constant 1.0 : f16");
  CHECK(foldBinary("fmul", "bf16", "3.0", "3.0") == "constant 9.0 : bf16");
  CHECK(foldBinary("fsub", "f32", "1.0", "1.0") == "constant 0.0 : f32");
  CHECK(foldBinary("frem", "f64", "7.5", "2.0") == "constant 1.5 : f64");
  CHECK(foldBinary("fdiv", "f32", "1.0", "0.0") == "constant inf : f32");
  // fmin/fmax ignore a NaN, fminimum/fmaximum propagate it.
  CHECK(foldBinary("fmin", "f32", "nan", "2.0") == "constant 2.0 : f32");
  CHECK(foldBinary("fmaximum", "f32", "nan", "2.0") == "constant nan : f32");
  CHECK(foldBinary("fminimum", "f32", "-0.0", "0.0") == "constant -0.0 : f32");
  // fp8 is not folded.
  CHECK(foldBinary("fadd", "f8e5m2", "1.0", "2.0") == "fadd %a, %b : f8e5m2");
}

TEST_CASE("canonicalize: unary operations and fma") {
  CHECK(foldUnary("neg", "i8", "-128") == "constant -128 : i8");
  CHECK(foldUnary("abs", "i32", "-5") == "constant 5 : i32");
  CHECK(foldUnary("neg", "f32", "0.0") == "constant -0.0 : f32");
  CHECK(foldUnary("abs", "f64", "-2.5") == "constant 2.5 : f64");
  CHECK(foldUnary("floor", "f32", "-2.5") == "constant -3.0 : f32");
  CHECK(foldUnary("ceil", "f32", "-2.5") == "constant -2.0 : f32");
  // Transcendental functions are the target's to round.
  CHECK(foldUnary("exp", "f32", "1.0") == "exp %a : f32");
  std::string Fma = runPipeline(R"(func @f() -> f32 {
bb0:
  %a = constant 3.0 : f32
  %b = constant 4.0 : f32
  %c = constant 0.5 : f32
  %r = fma %a, %b, %c : f32
  ret %r
}
)",
                                "canonicalize");
  CHECK(returnedDef(Fma) == "constant 12.5 : f32");
}

TEST_CASE("canonicalize: casts") {
  CHECK(foldCast("trunc", "i32", "i8", "300") == "constant 44 : i8");
  CHECK(foldCast("zext", "i8", "i32", "-1") == "constant 255 : i32");
  CHECK(foldCast("sext", "i8", "i32", "-1") == "constant -1 : i32");
  CHECK(foldCast("zext", "i1", "i32", "1") == "constant 1 : i32");
  CHECK(foldCast("sext", "i1", "i32", "1") == "constant -1 : i32");
  CHECK(foldCast("sitofp", "i32", "f32", "-3") == "constant -3.0 : f32");
  CHECK(foldCast("uitofp", "i8", "f32", "-1") == "constant 255.0 : f32");
  // 2^24 + 1 is not an f32; it rounds to even.
  CHECK(foldCast("sitofp", "i32", "f32", "16777217") ==
        "constant 16777216.0 : f32");
  CHECK(foldCast("fptosi", "f32", "i32", "-3.9") == "constant -3 : i32");
  CHECK(foldCast("fptoui", "f64", "i8", "255.5") == "constant -1 : i8");
  // Out of range or NaN: no value to fold to.
  CHECK(foldCast("fptoui", "f32", "i32", "1e10") == "fptoui %a : i32");
  CHECK(foldCast("fptosi", "f32", "i32", "nan") == "fptosi %a : i32");
  CHECK(foldCast("fptoui", "f32", "i32", "-1.0") == "fptoui %a : i32");
  CHECK(foldCast("fptrunc", "f64", "f32", "0.1") ==
        "constant 0.10000000149011612 : f32");
  CHECK(foldCast("fptrunc", "f64", "f32", "0.1", " {rounding=rtz}") ==
        "constant 0.09999999403953552 : f32");
  CHECK(foldCast("fptrunc", "f32", "f16", "65520.0") == "constant inf : f16");
  CHECK(foldCast("fpext", "bf16", "f32", "1.5") == "constant 1.5 : f32");
  CHECK(foldCast("bitcast", "f32", "i32", "1.0") ==
        "constant 1065353216 : i32");
  CHECK(foldCast("bitcast", "i32", "f32", "-1082130432") ==
        "constant -1.0 : f32");
  CHECK(foldCast("fptrunc", "f32", "f8e4m3", "1.0") == "fptrunc %a : f8e4m3");
  CHECK(foldCast("fptrunc", "f32", "f8e4b15", "1.0") == "fptrunc %a : f8e4b15");
}

TEST_CASE("canonicalize: block constants fold elementwise as splats") {
  std::string Out = runPipeline(R"(func @f(%x: i32) -> <4 x 8 x i32> {
bb0:
  %c = constant 3 : i32
  %s = splat %c : <8 x i32>
  %e = expand_dims %s {axis=0} : <1 x 8 x i32>
  %b = broadcast %e : <4 x 8 x i32>
  %t = trans %b {order=[1, 0]} : <8 x 4 x i32>
  %r = reshape %t : <4 x 8 x i32>
  %two = constant 2 : <4 x 8 x i32>
  %m = mul %r, %two : <4 x 8 x i32>
  ret %m
}
)",
                                "canonicalize");
  CHECK(Out == R"(func @f(%x: i32) -> <4 x 8 x i32> {
bb0:
  %1 = constant 6 : <4 x 8 x i32>
  ret %1
}
)");
}

TEST_CASE("canonicalize: select") {
  CHECK(simplify("i32", "i32", "  %t = constant 1 : i1\n"
                               "  %r = select %t, %x, %y : i32\n") == "%x");
  CHECK(simplify("i32", "i32", "  %t = constant 0 : <4 x i1>\n"
                               "  %sx = splat %x : <4 x i32>\n"
                               "  %sy = splat %y : <4 x i32>\n"
                               "  %s = select %t, %sx, %sy : <4 x i32>\n"
                               "  %r = reduce %s {axis=0, kind=add} : i32\n") ==
        "reduce %sy {axis=0, kind=add} : i32");
  CHECK(simplify("i1", "i32", "  %a = constant 7 : i32\n"
                              "  %r = select %x, %a, %a : i32\n") ==
        "constant 7 : i32");
  CHECK(simplify("i1", "i1", "  %t = constant 1 : i1\n"
                             "  %f = constant 0 : i1\n"
                             "  %r = select %x, %t, %f : i1\n") == "%x");
}

TEST_CASE("canonicalize: integer identities") {
  const char *Zero = "  %z = constant 0 : i32\n";
  const char *One = "  %o = constant 1 : i32\n";
  std::string Z(Zero), O(One);
  CHECK(simplify("i32", "i32", Z + "  %r = add %x, %z : i32\n") == "%x");
  CHECK(simplify("i32", "i32", Z + "  %r = add %z, %x : i32\n") == "%x");
  CHECK(simplify("i32", "i32", Z + "  %r = sub %x, %z : i32\n") == "%x");
  CHECK(simplify("i32", "i32", "  %r = sub %x, %x : i32\n") ==
        "constant 0 : i32");
  CHECK(simplify("i32", "i32", O + "  %r = mul %o, %x : i32\n") == "%x");
  CHECK(simplify("i32", "i32", Z + "  %r = mul %x, %z : i32\n") ==
        "constant 0 : i32");
  CHECK(simplify("i32", "i32", O + "  %r = sdiv %x, %o : i32\n") == "%x");
  CHECK(simplify("i32", "i32", O + "  %r = urem %x, %o : i32\n") ==
        "constant 0 : i32");
  CHECK(simplify("i32", "i32", "  %r = and %x, %x : i32\n") == "%x");
  CHECK(simplify("i32", "i32", "  %m = constant -1 : i32\n"
                               "  %r = and %x, %m : i32\n") == "%x");
  CHECK(simplify("i32", "i32", Z + "  %r = and %x, %z : i32\n") ==
        "constant 0 : i32");
  CHECK(simplify("i32", "i32", Z + "  %r = or %x, %z : i32\n") == "%x");
  CHECK(simplify("i32", "i32", "  %r = or %x, %x : i32\n") == "%x");
  CHECK(simplify("i32", "i32", "  %r = xor %x, %x : i32\n") ==
        "constant 0 : i32");
  CHECK(simplify("i32", "i32", Z + "  %r = shl %x, %z : i32\n") == "%x");
  CHECK(simplify("i32", "i32", Z + "  %r = ashr %x, %z : i32\n") == "%x");
  CHECK(simplify("i32", "i32", "  %r = smax %x, %x : i32\n") == "%x");
  CHECK(simplify("i32", "i32", "  %n = neg %x : i32\n"
                               "  %r = neg %n : i32\n") == "%x");
  CHECK(simplify("i32", "i32", "  %n = neg %x : i32\n"
                               "  %r = abs %n : i32\n") == "abs %x : i32");
  // Constants move to the right of commutative operations.
  CHECK(simplify("i32", "i32", "  %c = constant 5 : i32\n"
                               "  %r = add %c, %x : i32\n") ==
        "add %x, %c : i32");
  CHECK(simplify("i32", "i32", "  %r = add %x, %y : i32\n") ==
        "add %x, %y : i32");
}

TEST_CASE("canonicalize: float identities keep signed zeros and NaNs") {
  CHECK(simplify("f32", "f32", "  %o = constant 1.0 : f32\n"
                               "  %r = fmul %x, %o : f32\n") == "%x");
  CHECK(simplify("f32", "f32", "  %o = constant 1.0 : f32\n"
                               "  %r = fdiv %x, %o : f32\n") == "%x");
  CHECK(simplify("f32", "f32", "  %z = constant -0.0 : f32\n"
                               "  %r = fadd %x, %z : f32\n") == "%x");
  CHECK(simplify("f32", "f32", "  %z = constant 0.0 : f32\n"
                               "  %r = fsub %x, %z : f32\n") == "%x");
  // -0.0 + 0.0 is +0.0, and NaN * 0.0 is NaN: neither is an identity.
  CHECK(simplify("f32", "f32", "  %z = constant 0.0 : f32\n"
                               "  %r = fadd %x, %z : f32\n") ==
        "fadd %x, %z : f32");
  CHECK(simplify("f32", "f32", "  %z = constant 0.0 : f32\n"
                               "  %r = fmul %x, %z : f32\n") ==
        "fmul %x, %z : f32");
  CHECK(simplify("f32", "f32", "  %r = fsub %x, %x : f32\n") ==
        "fsub %x, %x : f32");
}

TEST_CASE("canonicalize: comparisons of a value with itself") {
  CHECK(simplify("i32", "i1", "  %r = icmp eq %x, %x : i1\n") ==
        "constant 1 : i1");
  CHECK(simplify("i32", "i1", "  %r = icmp slt %x, %x : i1\n") ==
        "constant 0 : i1");
  CHECK(simplify("i32", "i1", "  %r = icmp uge %x, %x : i1\n") ==
        "constant 1 : i1");
  // x != x for a NaN: fcmp is left alone.
  CHECK(simplify("f32", "i1", "  %r = fcmp oeq %x, %x : i1\n") ==
        "fcmp oeq %x, %x : i1");
  // A constant on the left moves right with the predicate swapped.
  CHECK(simplify("i32", "i1", "  %c = constant 5 : i32\n"
                              "  %r = icmp slt %c, %x : i1\n") ==
        "icmp sgt %x, %c : i1");
}

TEST_CASE("canonicalize: chains of casts") {
  CHECK(simplify("i8", "i8", "  %e = zext %x : i32\n"
                             "  %r = trunc %e : i8\n") == "%x");
  CHECK(simplify("i8", "i16", "  %e = sext %x : i32\n"
                              "  %r = trunc %e : i16\n") == "sext %x : i16");
  CHECK(simplify("i16", "i8", "  %e = zext %x : i32\n"
                              "  %r = trunc %e : i8\n") == "trunc %x : i8");
  CHECK(simplify("i8", "i64", "  %e = zext %x : i32\n"
                              "  %r = sext %e : i64\n") == "zext %x : i64");
  CHECK(simplify("i8", "i64", "  %e = sext %x : i32\n"
                              "  %r = sext %e : i64\n") == "sext %x : i64");
  CHECK(simplify("f16", "f64", "  %e = fpext %x : f32\n"
                               "  %r = fpext %e : f64\n") == "fpext %x : f64");
  CHECK(simplify("f32", "f32", "  %e = bitcast %x : i32\n"
                               "  %r = bitcast %e : f32\n") == "%x");
  // A truncation first loses bits: not an identity.
  CHECK(simplify("i32", "i32", "  %t = trunc %x : i8\n"
                               "  %r = zext %t : i32\n") == "zext %t : i32");
}

TEST_CASE("canonicalize: cond_br on a constant becomes br and fixes phis") {
  std::string Out = runPipeline(R"(func @f(%x: i32, %y: i32) -> i32 {
entry:
  %a = constant 3 : i32
  %b = constant 4 : i32
  %c = icmp slt %a, %b : i1
  cond_br %c, then, else
then:
  br join
else:
  br join
join:
  %r = phi [%x, then], [%y, else] : i32
  ret %r
}
)",
                                "canonicalize");
  CHECK(Out == R"(func @f(%x: i32, %y: i32) -> i32 {
entry:
  br then
then:
  br join
else:
  br join
join:
  %r = phi [%x, then], [%y, else] : i32
  ret %r
}
)");
  // The unreachable block is dce's to remove; then the phi has one entry
  // and canonicalize replaces it.
  std::string Clean = runPipeline(Out, "dce,canonicalize");
  CHECK(Clean == R"(func @f(%x: i32, %y: i32) -> i32 {
entry:
  br then
then:
  br join
join:
  ret %x
}
)");
}

TEST_CASE("canonicalize: cond_br to one block twice becomes br") {
  std::string Out = runPipeline(R"(func @f(%c: i1, %x: i32) -> i32 {
entry:
  cond_br %c, join, join
join:
  ret %x
}
)",
                                "canonicalize");
  CHECK(Out == R"(func @f(%c: i1, %x: i32) -> i32 {
entry:
  br join
join:
  ret %x
}
)");
}

TEST_CASE("canonicalize: phis of one value, around loops too") {
  std::string Out = runPipeline(R"(func @f(%x: i32, %n: i32) -> i32 {
entry:
  %z = constant 0 : i32
  br loop
loop:
  %i = phi [%z, entry], [%i.next, loop] : i32
  %v = phi [%x, entry], [%v, loop] : i32
  %o = constant 1 : i32
  %i.next = add %i, %o : i32
  %c = icmp slt %i.next, %n : i1
  cond_br %c, loop, exit
exit:
  ret %v
}
)",
                                "canonicalize");
  CHECK(returnedDef(Out) == "%x");
  CHECK(Out.find("%v = phi") == std::string::npos);
  CHECK(Out.find("%i = phi") != std::string::npos);
}

TEST_CASE("canonicalize: folds cascade to a fixpoint and erase what they "
          "leave dead") {
  std::string Out = runPipeline(R"(func @f(%x: i32) -> i32 {
bb0:
  %a = constant 1 : i32
  %b = constant 2 : i32
  %s = add %a, %b : i32
  %c = constant 3 : i32
  %m = mul %s, %c : i32
  %n = constant 9 : i32
  %d = sub %m, %n : i32
  %r = add %x, %d : i32
  ret %r
}
)",
                                "canonicalize");
  CHECK(Out == R"(func @f(%x: i32) -> i32 {
bb0:
  ret %x
}
)");
}

TEST_CASE("canonicalize: side effects stay") {
  std::string IR = R"(kernel @k(%p: ptr<i32>, %x: i32) {
bb0:
  %a = atomic_rmw add %p, %x : i32
  %v = load %p {volatile} : i32
  print %x {prefix="x"}
  ret
}
)";
  CHECK(runPipeline(IR, "canonicalize") == IR);
}
