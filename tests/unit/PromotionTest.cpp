//===- PromotionTest.cpp - The type rules, table by table -----------------===//
//
// The tables are Triton 3.6's computation_type_impl, transcribed separately
// from Promotion.cpp: every pair of scalar dtypes, with and without the
// division rules, and every dtype against each kind of weak literal.
//
//===----------------------------------------------------------------------===//

#include "frontend/Promotion.h"

#include "llvm/ADT/StringExtras.h"

#include <doctest/doctest.h>

using namespace tritium;

namespace {

const char *const Names[] = {"int1",   "int8",    "int16", "int32", "int64",
                             "uint8",  "uint16",  "uint32", "uint64",
                             "fp8e4nv", "fp8e5",  "fp16",  "bf16",  "fp32",
                             "fp64"};

/// The table's abbreviations; "!" is a type error, "/!" the signedness
/// error of division.
DType *fromShort(llvm::StringRef S) {
  static const std::pair<const char *, const char *> Map[] = {
      {"i1", "int1"},   {"i8", "int8"},       {"i16", "int16"},
      {"i32", "int32"}, {"i64", "int64"},     {"u8", "uint8"},
      {"u16", "uint16"}, {"u32", "uint32"},   {"u64", "uint64"},
      {"f8e4", "fp8e4nv"}, {"f8e5", "fp8e5"}, {"f16", "fp16"},
      {"bf16", "bf16"}, {"f32", "fp32"},      {"f64", "fp64"}};
  for (auto &[Short, Long] : Map)
    if (S == Short)
      return DType::fromName(Long);
  return nullptr;
}

std::string describe(const TypeResult &R) {
  if (R)
    return R.Ty->getName();
  if (llvm::StringRef(R.Error).startswith("Cannot use /, //, or %"))
    return "/!";
  if (llvm::StringRef(R.Error).startswith("unexpected types"))
    return "!";
  return "?" + R.Error;
}

/// Checks one table: Rows[i] holds the results for Names[i] against each
/// column type.
void checkTable(const char *const *Rows, llvm::ArrayRef<DType *> Columns,
                bool ColumnsAreLiterals, bool DivOrMod) {
  for (unsigned I = 0; I < 15; ++I) {
    llvm::SmallVector<llvm::StringRef, 16> Want;
    llvm::StringRef(Rows[I]).split(Want, ' ', -1, false);
    REQUIRE(Want.size() == Columns.size());
    DType *A = DType::fromName(Names[I]);
    for (unsigned J = 0; J < Columns.size(); ++J) {
      // The rules are symmetric: check both operand orders.
      TypeResult R1 = computationType(A, false, Columns[J], ColumnsAreLiterals,
                                      DivOrMod, "+");
      TypeResult R2 = computationType(Columns[J], ColumnsAreLiterals, A, false,
                                      DivOrMod, "+");
      DType *W = fromShort(Want[J]);
      std::string Expect = W ? W->getName() : Want[J].str();
      INFO(Names[I], " with ", Columns[J]->getName(),
           ColumnsAreLiterals ? " (literal)" : "", DivOrMod ? " for /" : "");
      CHECK(describe(R1) == Expect);
      CHECK(describe(R2) == Expect);
    }
  }
}

std::vector<DType *> allTypes() {
  std::vector<DType *> Ts;
  for (const char *N : Names)
    Ts.push_back(DType::fromName(N));
  return Ts;
}

} // namespace

TEST_CASE("computation type of every pair of dtypes") {
  //             i1   i8  i16  i32  i64   u8  u16  u32  u64 f8e4 f8e5  f16 bf16  f32  f64
  static const char *const Plain[] = {
      "  i1   i8  i16  i32  i64   u8  u16  u32  u64    !    !  f16  f32  f32  f64",
      "  i8   i8  i16  i32  i64   u8  u16  u32  u64    !    !  f16  f32  f32  f64",
      " i16  i16  i16  i32  i64  i16  u16  u32  u64    !    !  f16  f32  f32  f64",
      " i32  i32  i32  i32  i64  i32  i32  u32  u64    !    !  f16  f32  f32  f64",
      " i64  i64  i64  i64  i64  i64  i64  i64  u64    !    !  f16  f32  f32  f64",
      "  u8   u8  i16  i32  i64   u8  u16  u32  u64    !    !  f16  f32  f32  f64",
      " u16  u16  u16  i32  i64  u16  u16  u32  u64    !    !  f16  f32  f32  f64",
      " u32  u32  u32  u32  i64  u32  u32  u32  u64    !    !  f16  f32  f32  f64",
      " u64  u64  u64  u64  u64  u64  u64  u64  u64    !    !  f16  f32  f32  f64",
      "   !    !    !    !    !    !    !    !    ! f8e4  f16  f16  f32  f32  f64",
      "   !    !    !    !    !    !    !    !    !  f16 f8e5  f16  f32  f32  f64",
      " f16  f16  f16  f16  f16  f16  f16  f16  f16  f16  f16  f16  f16  f32  f64",
      " f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f16 bf16  f32  f64",
      " f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f64",
      " f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64",
  };
  checkTable(Plain, allTypes(), false, false);
}

TEST_CASE("computation type of every pair of dtypes for / // %") {
  static const char *const Div[] = {
      "  i1   /!   /!   /!   /!   u8  u16  u32  u64    !    !  f32  f32  f32  f64",
      "  /!   i8  i16  i32  i64   /!   /!   /!   /!    !    !  f32  f32  f32  f64",
      "  /!  i16  i16  i32  i64   /!   /!   /!   /!    !    !  f32  f32  f32  f64",
      "  /!  i32  i32  i32  i64   /!   /!   /!   /!    !    !  f32  f32  f32  f64",
      "  /!  i64  i64  i64  i64   /!   /!   /!   /!    !    !  f32  f32  f32  f64",
      "  u8   /!   /!   /!   /!   u8  u16  u32  u64    !    !  f32  f32  f32  f64",
      " u16   /!   /!   /!   /!  u16  u16  u32  u64    !    !  f32  f32  f32  f64",
      " u32   /!   /!   /!   /!  u32  u32  u32  u64    !    !  f32  f32  f32  f64",
      " u64   /!   /!   /!   /!  u64  u64  u64  u64    !    !  f32  f32  f32  f64",
      "   !    !    !    !    !    !    !    !    ! f8e4  f16  f32  f32  f32  f64",
      "   !    !    !    !    !    !    !    !    !  f16 f8e5  f32  f32  f32  f64",
      " f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f64",
      " f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f64",
      " f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f32  f64",
      " f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64  f64",
  };
  checkTable(Div, allTypes(), false, true);
}

namespace {
/// Literal columns: True, 1 (int32), 2**31 (uint32), 2**32 (int64),
/// 2**63 (uint64), 1.5 (fp32), 1e300 (fp64).
std::vector<DType *> literalTypes() {
  Operand Lits[] = {Operand::boolean(true),
                    Operand::integer(1),
                    Operand::integer(int64_t(1) << 31),
                    Operand::integer(int64_t(1) << 32),
                    Operand::integer(INT64_MIN, /*IsUnsigned64=*/true),
                    Operand::floating(1.5),
                    Operand::floating(1e300)};
  std::vector<DType *> Ts;
  for (const Operand &L : Lits)
    Ts.push_back(L.getLiteralType());
  return Ts;
}
} // namespace

TEST_CASE("weak literals against every dtype") {
  std::vector<DType *> L = literalTypes();
  CHECK(L[0]->getName() == "int1");
  CHECK(L[1]->getName() == "int32");
  CHECK(L[2]->getName() == "uint32");
  CHECK(L[3]->getName() == "int64");
  CHECK(L[4]->getName() == "uint64");
  CHECK(L[5]->getName() == "fp32");
  CHECK(L[6]->getName() == "fp64");
  //             True    1 2^31 2^32 2^63  1.5 1e300
  static const char *const Plain[] = {
      "  i1  i32  u32  i64  u64  f32  f64", //
      "  i8   i8   i8   i8   i8  f32  f64", //
      " i16  i16  i16  i16  i16  f32  f64", //
      " i32  i32  i32  i32  i32  f32  f64", //
      " i64  i64  i64  i64  i64  f32  f64", //
      "  u8   u8   u8   u8   u8  f32  f64", //
      " u16  u16  u16  u16  u16  f32  f64", //
      " u32  u32  u32  u32  u32  f32  f64", //
      " u64  u64  u64  u64  u64  f32  f64", //
      "f8e4 f8e4 f8e4 f8e4 f8e4 f8e4 f8e4", //
      "f8e5 f8e5 f8e5 f8e5 f8e5 f8e5 f8e5", //
      " f16  f16  f16  f16  f16  f16  f16", //
      "bf16 bf16 bf16 bf16 bf16 bf16 bf16", //
      " f32  f32  f32  f32  f32  f32  f32", //
      " f64  f64  f64  f64  f64  f64  f64", //
  };
  checkTable(Plain, L, true, false);
  static const char *const Div[] = {
      "  i1   /!  u32   /!  u64  f32  f64", //
      "  i8   i8   i8   i8   i8  f32  f64", //
      " i16  i16  i16  i16  i16  f32  f64", //
      " i32  i32  i32  i32  i32  f32  f64", //
      " i64  i64  i64  i64  i64  f32  f64", //
      "  u8   u8   u8   u8   u8  f32  f64", //
      " u16  u16  u16  u16  u16  f32  f64", //
      " u32  u32  u32  u32  u32  f32  f64", //
      " u64  u64  u64  u64  u64  f32  f64", //
      "f8e4 f8e4 f8e4 f8e4 f8e4 f8e4 f8e4", //
      "f8e5 f8e5 f8e5 f8e5 f8e5 f8e5 f8e5", //
      " f32  f32  f32  f32  f32  f32  f32", //
      " f32  f32  f32  f32  f32  f32  f32", //
      " f32  f32  f32  f32  f32  f32  f32", //
      " f64  f64  f64  f64  f64  f64  f64", //
  };
  checkTable(Div, L, true, true);
}

TEST_CASE("fp8e4b15 promotes as fp8e4nv does") {
  DType *B15 = DType::fromName("fp8e4b15"), *E4 = DType::fromName("fp8e4nv");
  for (bool DivOrMod : {false, true}) {
    CHECK(computationType(B15, false, B15, false, DivOrMod, "+").Ty == B15);
    for (const char *N : Names) {
      DType *X = DType::fromName(N);
      if (X->isFP8()) { // another fp8 format: both go to fp16
        CHECK(describe(computationType(B15, false, X, false, DivOrMod, "+")) == "fp16");
        continue;
      }
      INFO(N, DivOrMod ? " for /" : "");
      std::string Want = describe(computationType(E4, false, X, false, DivOrMod, "+"));
      CHECK(describe(computationType(B15, false, X, false, DivOrMod, "+")) == Want);
      CHECK(describe(computationType(X, false, B15, false, DivOrMod, "+")) == Want);
    }
  }
}

TEST_CASE("two literals are both strong") {
  DType *I32 = DType::getInt(32), *F32 = DType::fromName("fp32");
  CHECK(computationType(I32, true, F32, true, false, "+").Ty == F32);
  CHECK(computationType(DType::getBool(), true, I32, true, false, "+").Ty ==
        I32);
}

TEST_CASE("type errors name the operator and the types") {
  DType *E4 = DType::fromName("fp8e4nv"), *I32 = DType::getInt(32);
  CHECK(computationType(E4, false, I32, false, false, "*").Error ==
        "unexpected types fp8e4nv and int32 for *");
  CHECK(computationType(DType::getInt(32, false), false, I32, false, true, "/")
            .Error == "Cannot use /, //, or % with uint32 and int32 because "
                      "they have different signedness; cast them to the same "
                      "signedness");
}

TEST_CASE("integer promotion follows C") {
  auto P = [](const char *A, const char *B) {
    return integerPromote(DType::fromName(A), DType::fromName(B))->getName();
  };
  CHECK(P("int8", "int16") == "int16");
  CHECK(P("uint32", "int32") == "uint32");
  CHECK(P("int32", "uint32") == "uint32");
  CHECK(P("uint32", "int64") == "int64");
  CHECK(P("uint64", "int64") == "uint64");
  CHECK(P("int1", "int8") == "int8");
  CHECK(P("int1", "uint8") == "uint8");
  CHECK(P("int1", "int1") == "int1");
}

TEST_CASE("operator typings") {
  using B = Semantic::BinOp;
  DType *I32 = DType::getInt(32), *U32 = DType::getInt(32, false);
  DType *F16 = DType::fromName("fp16"), *F32 = DType::fromName("fp32");
  DType *I16 = DType::getInt(16);
  DType *P = DType::getPointer(F32), *Q = DType::getPointer(F16);

  BinaryTyping T = typeBinary(B::Add, P, false, I32, false);
  CHECK(T.Error.empty());
  CHECK(T.ResultTy == P);
  CHECK(T.LhsTy == nullptr);
  CHECK(T.CompTy == nullptr);
  T = typeBinary(B::Add, I32, true, P, false);
  CHECK(T.ResultTy == P);
  T = typeBinary(B::Sub, P, false, U32, false);
  CHECK(T.ResultTy == P);

  T = typeBinary(B::TrueDiv, I16, false, I16, false);
  CHECK(T.CompTy == I16);
  CHECK(T.LhsTy == F32);
  CHECK(T.ResultTy == F32);
  T = typeBinary(B::TrueDiv, F16, false, F16, false);
  CHECK(T.ResultTy == F32);
  T = typeBinary(B::FDiv, F16, false, F16, false);
  CHECK(T.ResultTy == F16);
  T = typeBinary(B::Mul, F16, false, Operand::floating(2.0).getLiteralType(),
                 true);
  CHECK(T.ResultTy == F16);
  T = typeBinary(B::LogicalAnd, I32, false, F32, false);
  CHECK(T.LhsTy == DType::getBool());
  CHECK(T.ResultTy == DType::getBool());
  T = typeBinary(B::UMulHi, U32, false, I32, true);
  CHECK(T.ResultTy == U32);
  BinaryTyping C = typeCompare(Semantic::CmpOp::LT, F16, I32);
  CHECK(C.LhsTy == F16);
  CHECK(C.ResultTy == DType::getBool());
  CHECK(typeWhere(P, false, P, false).ResultTy == P);
  CHECK(typeMinMax(true, U32, false, I32, true).ResultTy == U32);

  auto Err = [](B Op, DType *L, DType *R) {
    return typeBinary(Op, L, false, R, false).Error;
  };
  CHECK(Err(B::Add, P, P) == "cannot add pointers together");
  CHECK(Err(B::Add, P, Q) ==
        "invalid operands of type pointer<fp32> and pointer<fp16> for +");
  CHECK(Err(B::Add, P, F32) ==
        "invalid operands of type pointer<fp32> and fp32 for +");
  CHECK(Err(B::Add, F16, P) ==
        "invalid operands of type fp16 and pointer<fp32> for +");
  CHECK(Err(B::Sub, I32, P) ==
        "invalid operands of type int32 and pointer<fp32> for -");
  CHECK(Err(B::Sub, P, P) ==
        "invalid operands of type pointer<fp32> and pointer<fp32> for -");
  CHECK(Err(B::Mul, P, I32) ==
        "invalid operands of type pointer<fp32> and int32 for *");
  CHECK(Err(B::Mod, P, I32) ==
        "invalid operands of type pointer<fp32> and int32 for %");
  CHECK(Err(B::BitAnd, F32, I32) ==
        "invalid operands of type fp32 and int32 for bitwise &");
  CHECK(Err(B::BitXor, I32, F16) ==
        "invalid operands of type int32 and fp16 for bitwise ^");
  CHECK(Err(B::Shl, F32, F32) ==
        "invalid operands of type fp32 and fp32 for bitwise <<");
  CHECK(Err(B::FloorDiv, F32, I32) == "unexpected type fp32 for //");
  CHECK(Err(B::FloorDiv, U32, I32) ==
        "Cannot use /, //, or % with uint32 and int32 because they have "
        "different signedness; cast them to the same signedness");
  CHECK(Err(B::Mod, I32, U32) ==
        "Cannot use /, //, or % with int32 and uint32 because they have "
        "different signedness; cast them to the same signedness");
  CHECK(Err(B::FDiv, I32, F32) ==
        "both operands of fdiv must have floating scalar type, got int32 and "
        "fp32");
  CHECK(Err(B::DivRn, F16, F16) == "div_rn expects fp32, got fp16");
  CHECK(Err(B::UMulHi, I16, I16) ==
        "umulhi expects int32, int64, uint32, uint64, got int16");
  CHECK(Err(B::LogicalOr, P, I32) ==
        "invalid operands of type pointer<fp32> and int32 for or");
  CHECK(typeCompare(Semantic::CmpOp::EQ, P, P).Error ==
        "invalid operands of type pointer<fp32> and pointer<fp32> for ==");
  CHECK(typeWhere(P, false, I32, true).Error ==
        "invalid operands of type pointer<fp32> and int32 for where");
  CHECK(typeMinMax(false, P, false, P, false).Error ==
        "invalid operands of type pointer<fp32> and pointer<fp32> for "
        "minimum");
}

TEST_CASE("literal types by magnitude") {
  auto Ty = [](Operand O) { return O.getLiteralType()->getName(); };
  CHECK(Ty(Operand::integer(INT32_MAX)) == "int32");
  CHECK(Ty(Operand::integer(INT32_MIN)) == "int32");
  CHECK(Ty(Operand::integer(int64_t(INT32_MIN) - 1)) == "int64");
  CHECK(Ty(Operand::integer(int64_t(1) << 31)) == "uint32");
  CHECK(Ty(Operand::integer(UINT32_MAX)) == "uint32");
  CHECK(Ty(Operand::integer(int64_t(1) << 32)) == "int64");
  CHECK(Ty(Operand::integer(INT64_MAX)) == "int64");
  CHECK(Ty(Operand::integer(-1, /*IsUnsigned64=*/true)) == "uint64");
  // The flag only matters for the values that need it.
  CHECK(Ty(Operand::integer(5, /*IsUnsigned64=*/true)) == "int32");
  CHECK(Ty(Operand::floating(1.5)) == "fp32");
  CHECK(Ty(Operand::floating(0.0)) == "fp32");
  CHECK(Ty(Operand::floating(-3.4e38)) == "fp32");
  CHECK(Ty(Operand::floating(3.5e38)) == "fp64");
  CHECK(Ty(Operand::floating(1e-300)) == "fp64");
  CHECK(Ty(Operand::floating(1e-40)) == "fp64"); // an fp32 denormal
  CHECK(Ty(Operand::floating(1.0 / 0.0)) == "fp32");
  CHECK(Ty(Operand::floating(0.0 / 0.0)) == "fp32");
  CHECK(Ty(Operand::boolean(false)) == "int1");
}

TEST_CASE("literals print as Python prints them") {
  CHECK(Operand::integer(-1).str() == "-1");
  CHECK(Operand::integer(-1, true).str() == "18446744073709551615");
  CHECK(Operand::floating(1.0).str() == "1.0");
  CHECK(Operand::floating(0.1).str() == "0.1");
  CHECK(Operand::floating(-2.5).str() == "-2.5");
  CHECK(Operand::floating(1e300).str() == "1e+300");
  CHECK(Operand::floating(-1.0 / 0.0).str() == "-inf");
  CHECK(Operand::boolean(true).str() == "True");
}

TEST_CASE("weak literals must fit the computation type") {
  auto Check = [](Operand O, const char *T) {
    return checkWeakLiteral(O, DType::fromName(T));
  };
  CHECK(Check(Operand::integer(-1), "uint32") ==
        "Cannot perform a binary operation between an unsigned tensor and a "
        "negative scalar (-1); perform an explicit cast on one of them");
  CHECK(Check(Operand::integer(300), "int8") ==
        "Scalar 300 is out of range for type int8");
  CHECK(Check(Operand::integer(-129), "int8") ==
        "Scalar -129 is out of range for type int8");
  CHECK(Check(Operand::integer(-128), "int8") == "");
  CHECK(Check(Operand::integer(255), "uint8") == "");
  CHECK(Check(Operand::integer(256), "uint8") ==
        "Scalar 256 is out of range for type uint8");
  CHECK(Check(Operand::integer(-1, true), "int64") ==
        "Scalar 18446744073709551615 is out of range for type int64");
  CHECK(Check(Operand::integer(-1, true), "uint64") == "");
  CHECK(Check(Operand::boolean(true), "int1") == "");
  CHECK(Check(Operand::floating(-1.0), "uint32") == "");
  CHECK(Check(Operand::integer(7), "fp16") == "");
  CHECK(intLiteralFits(Operand::integer(1), DType::getBool()));
  CHECK_FALSE(intLiteralFits(Operand::integer(2), DType::getBool()));
  CHECK_FALSE(intLiteralFits(Operand::floating(1.0), DType::getInt(32)));
}

TEST_CASE("shapes broadcast with leading 1s") {
  auto B = [](llvm::ArrayRef<int64_t> A, llvm::ArrayRef<int64_t> C) {
    std::optional<Shape> S = broadcastShapes(A, C);
    return S ? formatShape(*S) : std::string("none");
  };
  CHECK(B({4, 1}, {8}) == "[4, 8]");
  CHECK(B({8}, {4, 1}) == "[4, 8]");
  CHECK(B({1, 8, 1}, {4, 1, 2}) == "[4, 8, 2]");
  CHECK(B({}, {4}) == "[4]");
  CHECK(B({}, {}) == "[]");
  CHECK(B({128}, {64}) == "none");
  CHECK(B({4, 8}, {4}) == "none");
  CHECK(B({2, 1, 4}, {8, 1}) == "[2, 8, 4]");
}

TEST_CASE("block shapes follow Triton's limits") {
  CHECK(checkBlockShape({128, 64}) == "");
  CHECK(checkBlockShape({1}) == "");
  CHECK(checkBlockShape({4, 3}) == "Shape element 1 must be a power of 2");
  CHECK(checkBlockShape({0}) == "Shape element 0 must be a power of 2");
  CHECK(checkBlockShape({1024, 1024}) == "");
  CHECK(checkBlockShape({1024, 2048}) ==
        "numel (2097152) exceeds triton maximum tensor numel (1048576)");
  CHECK(checkBlockShape({}) == "a block needs at least one dimension");
}

TEST_CASE("axes wrap like Python indices") {
  CHECK(wrapAxis(-1, 2) == 1);
  CHECK(wrapAxis(0, 2) == 0);
  CHECK(wrapAxis(-2, 2) == 0);
  CHECK_FALSE(wrapAxis(2, 2));
  CHECK_FALSE(wrapAxis(-3, 2));
  CHECK(getOpSymbol(Semantic::BinOp::FloorDiv) == "//");
  CHECK(getOpSymbol(Semantic::CmpOp::NE) == "!=");
}
