//===- AttributeTest.cpp - Attribute tables, values and printing ----------===//

#include "ir/Attribute.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>

using namespace tritium;

namespace {

std::string floatStr(double V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printFloat(OS, V);
  return S;
}

std::string quoted(llvm::StringRef V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printQuoted(OS, V);
  return S;
}

std::string valueStr(AttrKey K, AttrValue V) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printAttrValue(OS, {K, std::move(V)});
  return S;
}

bool sameBits(double A, double B) {
  return std::memcmp(&A, &B, sizeof(double)) == 0;
}

/// printFloat's text parsed back with strtod.
double roundTrip(double V) {
  std::string S = floatStr(V);
  char *End = nullptr;
  double R = std::strtod(S.c_str(), &End);
  CHECK(*End == '\0');
  return R;
}

} // namespace

TEST_CASE("attribute key table") {
  CHECK(getAttrKeyName(AttrKey::Value) == "value");
  CHECK(getAttrKeyKind(AttrKey::Value) == AttrKeyKind::Number);
  CHECK(getAttrKeyEnumTable(AttrKey::Value) == EnumTable::None);
  CHECK(getAttrKeyName(AttrKey::IPredicate) == "ipredicate");
  CHECK(getAttrKeyKind(AttrKey::IPredicate) == AttrKeyKind::Enum);
  CHECK(getAttrKeyEnumTable(AttrKey::IPredicate) == EnumTable::ICmpPredicate);
  CHECK(getAttrKeyEnumTable(AttrKey::FPredicate) == EnumTable::FCmpPredicate);
  CHECK(getAttrKeyEnumTable(AttrKey::RMWKind) == EnumTable::AtomicKind);
  CHECK(getAttrKeyEnumTable(AttrKey::Sem) == EnumTable::MemSem);
  CHECK(getAttrKeyEnumTable(AttrKey::Scope) == EnumTable::MemScope);
  CHECK(getAttrKeyEnumTable(AttrKey::Cache) == EnumTable::CacheModifier);
  CHECK(getAttrKeyEnumTable(AttrKey::Evict) == EnumTable::EvictionPolicy);
  CHECK(getAttrKeyEnumTable(AttrKey::Rounding) == EnumTable::RoundingMode);
  CHECK(getAttrKeyEnumTable(AttrKey::Precision) == EnumTable::DotPrecision);
  CHECK(getAttrKeyEnumTable(AttrKey::Kind) == EnumTable::CombineKind);
  CHECK(getAttrKeyKind(AttrKey::Volatile) == AttrKeyKind::Unit);
  CHECK(getAttrKeyKind(AttrKey::Axis) == AttrKeyKind::Int);
  CHECK(getAttrKeyKind(AttrKey::Order) == AttrKeyKind::IntList);
  CHECK(getAttrKeyKind(AttrKey::Combine) == AttrKeyKind::Symbol);
  CHECK(getAttrKeyKind(AttrKey::Callee) == AttrKeyKind::Symbol);
  CHECK(getAttrKeyKind(AttrKey::Message) == AttrKeyKind::String);
  CHECK(getAttrKeyName(AttrKey::MaxNumImpreciseAcc) == "max_num_imprecise_acc");
  CHECK(getAttrKeyName(AttrKey::Callee) == "callee");
  CHECK(getAttrKeyName(AttrKey::Unsigned) == "unsigned");
  CHECK(getAttrKeyKind(AttrKey::Unsigned) == AttrKeyKind::Unit);
  CHECK(getAttrKeyName(AttrKey::Pack) == "pack");
  CHECK(getAttrKeyKind(AttrKey::Pack) == AttrKeyKind::Int);

  // Every key is found by its name, and names are unique.
  unsigned NumKeys = unsigned(AttrKey::Callee) + 1;
  CHECK(NumKeys == 34u);
  for (unsigned I = 0; I < NumKeys; ++I) {
    std::optional<AttrKey> K = lookupAttrKey(getAttrKeyName(AttrKey(I)));
    REQUIRE(K);
    CHECK(unsigned(*K) == I);
    // Only Enum-kinded keys name a table.
    CHECK((getAttrKeyKind(AttrKey(I)) == AttrKeyKind::Enum) ==
          (getAttrKeyEnumTable(AttrKey(I)) != EnumTable::None));
  }
  CHECK_FALSE(lookupAttrKey("nonexistent"));
  CHECK_FALSE(lookupAttrKey(""));
  CHECK_FALSE(lookupAttrKey("Value"));
}

TEST_CASE("enumeration tables") {
  CHECK(getEnumNames(EnumTable::None).empty());
  CHECK(getEnumNames(EnumTable::ICmpPredicate).size() == 10u);
  CHECK(getEnumNames(EnumTable::FCmpPredicate).size() == 14u);
  CHECK(getEnumNames(EnumTable::AtomicKind).size() == 10u);
  CHECK(getEnumNames(EnumTable::MemSem).size() == 4u);
  CHECK(getEnumNames(EnumTable::MemScope).size() == 3u);
  CHECK(getEnumNames(EnumTable::CacheModifier).size() == 6u);
  CHECK(getEnumNames(EnumTable::EvictionPolicy).size() == 2u);
  CHECK(getEnumNames(EnumTable::RoundingMode).size() == 2u);
  CHECK(getEnumNames(EnumTable::DotPrecision).size() == 3u);
  CHECK(getEnumNames(EnumTable::CombineKind).size() == 13u);

  CHECK(lookupEnumValue(EnumTable::ICmpPredicate, "sge") ==
        unsigned(ICmpPredicate::SGE));
  CHECK(lookupEnumValue(EnumTable::FCmpPredicate, "uno") ==
        unsigned(FCmpPredicate::UNO));
  CHECK(lookupEnumValue(EnumTable::MemSem, "acq_rel") == unsigned(MemSem::AcqRel));
  CHECK(lookupEnumValue(EnumTable::CombineKind, "umax") ==
        unsigned(CombineKind::UMax));
  CHECK_FALSE(lookupEnumValue(EnumTable::MemSem, "sge"));
  CHECK_FALSE(lookupEnumValue(EnumTable::None, "add"));

  // Every name of every table maps back to its index.
  for (unsigned T = 1; T <= unsigned(EnumTable::CombineKind); ++T) {
    llvm::ArrayRef<const char *> Names = getEnumNames(EnumTable(T));
    CHECK_FALSE(Names.empty());
    for (unsigned I = 0; I < Names.size(); ++I)
      CHECK(lookupEnumValue(EnumTable(T), Names[I]) == I);
  }
}

TEST_CASE("stringify names each enumerator") {
  CHECK(stringify(ICmpPredicate::EQ) == "eq");
  CHECK(stringify(ICmpPredicate::UGE) == "uge");
  CHECK(stringify(FCmpPredicate::OEQ) == "oeq");
  CHECK(stringify(FCmpPredicate::UNE) == "une");
  CHECK(stringify(AtomicKind::FAdd) == "fadd");
  CHECK(stringify(AtomicKind::Xchg) == "xchg");
  CHECK(stringify(MemSem::Relaxed) == "relaxed");
  CHECK(stringify(MemSem::AcqRel) == "acq_rel");
  CHECK(stringify(MemScope::CTA) == "cta");
  CHECK(stringify(MemScope::Sys) == "sys");
  CHECK(stringify(CacheModifier::CV) == "cv");
  CHECK(stringify(CacheModifier::WT) == "wt");
  CHECK(stringify(EvictionPolicy::EvictFirst) == "evict_first");
  CHECK(stringify(EvictionPolicy::EvictLast) == "evict_last");
  CHECK(stringify(RoundingMode::RTNE) == "rtne");
  CHECK(stringify(RoundingMode::RTZ) == "rtz");
  CHECK(stringify(DotPrecision::TF32x3) == "tf32x3");
  CHECK(stringify(CombineKind::SMin) == "smin");
  CHECK(stringify(CombineKind::Xor) == "xor");
}

TEST_CASE("attribute values compare by kind and content") {
  CHECK(AttrValue::unit() == AttrValue::unit());
  CHECK(AttrValue::integer(3) == AttrValue::integer(3));
  CHECK(AttrValue::integer(3) != AttrValue::integer(4));
  // Same payload, different kinds.
  CHECK(AttrValue::integer(3) != AttrValue::enumerator(3));
  CHECK(AttrValue::string("f") != AttrValue::symbol("f"));
  CHECK(AttrValue::symbol("f") == AttrValue::symbol("f"));
  CHECK(AttrValue::intList({1, 2}) == AttrValue::intList({1, 2}));
  CHECK(AttrValue::intList({1, 2}) != AttrValue::intList({2, 1}));
  CHECK(AttrValue::intList({}) != AttrValue::unit());
  // Floats compare bitwise: NaN equals itself, 0.0 is not -0.0.
  double NaN = std::numeric_limits<double>::quiet_NaN();
  CHECK(AttrValue::floating(NaN) == AttrValue::floating(NaN));
  CHECK(AttrValue::floating(0.0) != AttrValue::floating(-0.0));
  CHECK(AttrValue::floating(1.5) == AttrValue::floating(1.5));
  CHECK(AttrValue::floating(1.0) != AttrValue::integer(1));

  Attribute A{AttrKey::Axis, AttrValue::integer(1)};
  CHECK(A == Attribute{AttrKey::Axis, AttrValue::integer(1)});
  CHECK_FALSE(A == Attribute{AttrKey::Start, AttrValue::integer(1)});
}

TEST_CASE("printFloat always reads as a float") {
  CHECK(floatStr(1.0) == "1.0");
  CHECK(floatStr(0.0) == "0.0");
  CHECK(floatStr(-0.0) == "-0.0");
  CHECK(floatStr(100.0) == "100.0");
  CHECK(floatStr(0.1) == "0.1");
  CHECK(floatStr(-2.5) == "-2.5");
  CHECK(floatStr(1e300) == "1e+300");
  CHECK(floatStr(1e-300) == "1e-300");
  CHECK(floatStr(1e21) == "1e+21");
  CHECK(floatStr(5e-324) == "5e-324");
  CHECK(floatStr(std::numeric_limits<double>::infinity()) == "inf");
  CHECK(floatStr(-std::numeric_limits<double>::infinity()) == "-inf");
  CHECK(floatStr(std::numeric_limits<double>::quiet_NaN()) == "nan");
  CHECK(floatStr(-std::numeric_limits<double>::quiet_NaN()) == "-nan");
}

TEST_CASE("printFloat round-trips through strtod") {
  const double Values[] = {
      0.0,
      -0.0,
      1.0,
      0.1,
      1.0 / 3.0,
      -123456.789,
      1e300,
      -1e300,
      1e-300,
      std::numeric_limits<double>::max(),
      std::numeric_limits<double>::lowest(),
      std::numeric_limits<double>::min(),        // smallest normal
      std::numeric_limits<double>::denorm_min(), // smallest denormal
      2.5e-310,                                  // a denormal
      double(float(0.1)),                        // f32 0.1 as a double
      65504.0,                                   // f16 max
      9007199254740993.0,                        // 2^53 + 1 (rounds)
      std::numeric_limits<double>::infinity(),
      -std::numeric_limits<double>::infinity(),
  };
  for (double V : Values) {
    CAPTURE(V);
    CHECK(sameBits(roundTrip(V), V));
  }
  double N = roundTrip(std::numeric_limits<double>::quiet_NaN());
  CHECK(std::isnan(N));
  CHECK_FALSE(std::signbit(N));
  double NegN = roundTrip(-std::numeric_limits<double>::quiet_NaN());
  CHECK(std::isnan(NegN));
  CHECK(std::signbit(NegN));
}

TEST_CASE("printQuoted escapes") {
  CHECK(quoted("") == "\"\"");
  CHECK(quoted("abc def") == "\"abc def\"");
  CHECK(quoted("say \"hi\"") == "\"say \\\"hi\\\"\"");
  CHECK(quoted("a\\b") == "\"a\\\\b\"");
  CHECK(quoted("line\nnext\ttab") == "\"line\\nnext\\ttab\"");
  CHECK(quoted(llvm::StringRef("\0\x01\x7f", 3)) == "\"\\00\\01\\7f\"");
  CHECK(quoted("\r") == "\"\\0d\"");
  CHECK(quoted("\xc3\xa9") == "\"\\c3\\a9\""); // UTF-8 bytes, one by one
  CHECK(quoted("~{}") == "\"~{}\"");
}

TEST_CASE("printAttrValue prints each kind") {
  CHECK(valueStr(AttrKey::Volatile, AttrValue::unit()) == "");
  CHECK(valueStr(AttrKey::Axis, AttrValue::integer(-3)) == "-3");
  CHECK(valueStr(AttrKey::Value, AttrValue::floating(2.0)) == "2.0");
  CHECK(valueStr(AttrKey::Message, AttrValue::string("x\"y")) == "\"x\\\"y\"");
  CHECK(valueStr(AttrKey::Callee, AttrValue::symbol("fn")) == "@fn");
  CHECK(valueStr(AttrKey::Order, AttrValue::intList({1, 0, 2})) == "[1, 0, 2]");
  CHECK(valueStr(AttrKey::Order, AttrValue::intList({})) == "[]");
  CHECK(valueStr(AttrKey::Sem, AttrValue::enumerator(unsigned(MemSem::Release))) ==
        "release");
  CHECK(valueStr(AttrKey::Kind, AttrValue::enumerator(unsigned(CombineKind::FMax))) ==
        "fmax");
  // An enumerator out of its key's table.
  CHECK(valueStr(AttrKey::Sem, AttrValue::enumerator(4)) == "<invalid enum 4>");
  CHECK(valueStr(AttrKey::Axis, AttrValue::enumerator(0)) == "<invalid enum 0>");
}
