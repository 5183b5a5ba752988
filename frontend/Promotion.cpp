//===- Promotion.cpp - Type rules of the kernel language ------------------===//
//
// Pure functions of dtypes (see Promotion.h for the rules). Nothing here
// builds IR, so the interpreter can ask the same questions.
//
//===----------------------------------------------------------------------===//

#include "frontend/Promotion.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstdio>

using namespace tritium;

//===----------------------------------------------------------------------===//
// Literals
//===----------------------------------------------------------------------===//

Operand Operand::boolean(bool B) {
  Operand O;
  O.K = Kind::Bool;
  O.I = B;
  return O;
}

Operand Operand::integer(int64_t Bits, bool IsUnsigned64) {
  Operand O;
  O.K = Kind::Int;
  O.I = Bits;
  // Only a negative bit pattern can stand for a value >= 2^63.
  O.U64 = IsUnsigned64 && Bits < 0;
  return O;
}

Operand Operand::floating(double F) {
  Operand O;
  O.K = Kind::Float;
  O.F = F;
  return O;
}

DType *Operand::getLiteralType() const {
  switch (K) {
  case Kind::Value: return Val.Ty;
  case Kind::Bool: return DType::getBool();
  case Kind::Int:
    if (U64)
      return DType::getInt(64, false);
    if (I >= INT32_MIN && I <= INT32_MAX)
      return DType::getInt(32, true);
    if (I >= 0 && I <= int64_t(UINT32_MAX))
      return DType::getInt(32, false);
    return DType::getInt(64, true);
  case Kind::Float: {
    // fp32 unless the magnitude needs fp64: zero, inf and nan stay fp32, and
    // so do fp32's normal numbers (denormals do not count).
    double A = std::fabs(F);
    bool Fp32 = A == 0.0 || std::isinf(A) || std::isnan(A) ||
                (A >= std::ldexp(1.0, -126) &&
                 A <= (2.0 - std::ldexp(1.0, -23)) * std::ldexp(1.0, 127));
    return DType::getFloat(Fp32 ? Type::Kind::F32 : Type::Kind::F64);
  }
  }
  return nullptr;
}

std::string Operand::str() const {
  switch (K) {
  case Kind::Value: return Val.Ty ? Val.Ty->getName() : "<value>";
  case Kind::Bool: return I ? "True" : "False";
  case Kind::Int:
    return U64 ? std::to_string(uint64_t(I)) : std::to_string(I);
  case Kind::Float: {
    if (std::isnan(F))
      return "nan";
    if (std::isinf(F))
      return F < 0 ? "-inf" : "inf";
    char Buf[32];
    std::snprintf(Buf, sizeof(Buf), "%.17g", F);
    // Python's repr: the shortest string that reads back the same double.
    for (int P = 1; P <= 17; ++P) {
      std::snprintf(Buf, sizeof(Buf), "%.*g", P, F);
      if (std::strtod(Buf, nullptr) == F)
        break;
    }
    std::string S = Buf;
    if (S.find_first_of(".en") == std::string::npos)
      S += ".0";
    return S;
  }
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Operator spellings
//===----------------------------------------------------------------------===//

llvm::StringRef tritium::getOpSymbol(Semantic::BinOp Op) {
  using B = Semantic::BinOp;
  switch (Op) {
  case B::Add: return "+";
  case B::Sub: return "-";
  case B::Mul: return "*";
  case B::TrueDiv: return "/";
  case B::FloorDiv: return "//";
  case B::Mod: return "%";
  case B::BitAnd: return "&";
  case B::BitOr: return "|";
  case B::BitXor: return "^";
  case B::Shl: return "<<";
  case B::Shr: return ">>";
  case B::LogicalAnd: return "and";
  case B::LogicalOr: return "or";
  case B::FDiv: return "fdiv";
  case B::DivRn: return "div_rn";
  case B::UMulHi: return "umulhi";
  }
  return "?";
}

llvm::StringRef tritium::getOpSymbol(Semantic::CmpOp Op) {
  using C = Semantic::CmpOp;
  switch (Op) {
  case C::EQ: return "==";
  case C::NE: return "!=";
  case C::LT: return "<";
  case C::LE: return "<=";
  case C::GT: return ">";
  case C::GE: return ">=";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Scalar promotion
//===----------------------------------------------------------------------===//

DType *tritium::integerPromote(DType *A, DType *B) {
  unsigned WA = A->getBitWidth(), WB = B->getBitWidth();
  if (A->isUnsigned() == B->isUnsigned())
    return WA > WB ? A : B;
  if (A->isUnsigned())
    return WA >= WB ? A : B;
  return WB >= WA ? B : A;
}

namespace {
/// Triton's kinds, in the order of the weak-literal rule.
int kindRank(DType *T) {
  if (T->isBool())
    return 0;
  if (T->isInt())
    return 1;
  return 2;
}

bool isF(DType *T, Type::Kind K) { return T->isFloat() && T->getFloatKind() == K; }
DType *fp(Type::Kind K) { return DType::getFloat(K); }
} // namespace

TypeResult tritium::computationType(DType *A, bool ALiteral, DType *B,
                                    bool BLiteral, bool DivOrMod,
                                    llvm::StringRef Symbol) {
  using K = Type::Kind;
  // A weak literal of a kind no higher than the value's takes the value's
  // type (fp16/bf16 still divide in fp32).
  if (ALiteral != BLiteral) {
    DType *Lit = ALiteral ? A : B, *Val = ALiteral ? B : A;
    if (kindRank(Lit) <= kindRank(Val)) {
      if (DivOrMod && (isF(Val, K::F16) || isF(Val, K::BF16)))
        return TypeResult::ok(fp(K::F32));
      return TypeResult::ok(Val);
    }
  }
  if (isF(A, K::F64) || isF(B, K::F64))
    return TypeResult::ok(fp(K::F64));
  if (isF(A, K::F32) || isF(B, K::F32))
    return TypeResult::ok(fp(K::F32));
  if (isF(A, K::F16) || isF(B, K::F16))
    return TypeResult::ok(fp(DivOrMod ? K::F32 : K::F16));
  if (isF(A, K::BF16) && isF(B, K::BF16))
    return TypeResult::ok(fp(DivOrMod ? K::F32 : K::BF16));
  if (isF(A, K::BF16) || isF(B, K::BF16))
    return TypeResult::ok(fp(K::F32));
  if (A->isFP8() && B->isFP8())
    return TypeResult::ok(A == B ? A : fp(K::F16));
  if (!A->isInt() || !B->isInt())
    return TypeResult::fail(("unexpected types " + A->getName() + " and " +
                             B->getName() + " for " + Symbol)
                                .str());
  if (DivOrMod && A->isUnsigned() != B->isUnsigned())
    return TypeResult::fail(
        "Cannot use /, //, or % with " + A->getName() + " and " +
        B->getName() +
        " because they have different signedness; cast them to the same "
        "signedness");
  return TypeResult::ok(integerPromote(A, B));
}

//===----------------------------------------------------------------------===//
// Operator typing
//===----------------------------------------------------------------------===//

namespace {
std::string invalidOperands(DType *L, DType *R, llvm::StringRef Symbol) {
  return ("invalid operands of type " + L->getName() + " and " + R->getName() +
          " for " + Symbol)
      .str();
}

/// Triton's check_ptr_type_impl, both ways: a pointer is allowed only on the
/// sides that allow one, never next to a float or a different pointer.
std::string checkPointers(DType *L, DType *R, bool AllowL, bool AllowR,
                          llvm::StringRef Symbol) {
  auto Check = [&](DType *A, DType *B, bool Allow) -> bool {
    if (!A->isPointer())
      return true;
    if (!Allow)
      return false;
    if (B->isPointer() && A != B)
      return false;
    return !B->isFloat();
  };
  if (!Check(L, R, AllowL) || !Check(R, L, AllowR))
    return invalidOperands(L, R, Symbol);
  return "";
}

BinaryTyping failed(std::string Msg) {
  BinaryTyping T;
  T.Error = std::move(Msg);
  return T;
}

BinaryTyping uniform(DType *Comp, DType *Operands, DType *Result) {
  BinaryTyping T;
  T.CompTy = Comp;
  T.LhsTy = T.RhsTy = Operands;
  T.ResultTy = Result;
  return T;
}

/// The common arithmetic typing: no pointers, both operands to the
/// computation type, which is also the result.
BinaryTyping arithmetic(DType *L, bool LL, DType *R, bool RL, bool DivOrMod,
                        llvm::StringRef Symbol) {
  std::string Err = checkPointers(L, R, false, false, Symbol);
  if (!Err.empty())
    return failed(Err);
  TypeResult C = computationType(L, LL, R, RL, DivOrMod, Symbol);
  if (!C)
    return failed(C.Error);
  return uniform(C.Ty, C.Ty, C.Ty);
}

/// Triton's math builtins accept only some element types, checked on the
/// values passed (literals are not checked).
std::string checkDTypes(DType *T, bool Literal,
                        std::initializer_list<const char *> Names,
                        llvm::StringRef Fn) {
  if (Literal)
    return "";
  for (const char *N : Names)
    if (T->getName() == N)
      return "";
  std::string List;
  for (const char *N : Names)
    List += (List.empty() ? "" : ", ") + std::string(N);
  return (Fn + " expects " + List + ", got " + T->getName()).str();
}
} // namespace

BinaryTyping tritium::typeBinary(Semantic::BinOp Op, DType *L, bool LL,
                                 DType *R, bool RL) {
  using B = Semantic::BinOp;
  llvm::StringRef Sym = getOpSymbol(Op);
  switch (Op) {
  case B::Add:
  case B::Sub: {
    bool IsAdd = Op == B::Add;
    std::string Err = checkPointers(L, R, true, IsAdd, Sym);
    if (!Err.empty())
      return failed(Err);
    if (L->isPointer() && R->isPointer())
      return failed(IsAdd ? "cannot add pointers together"
                          : invalidOperands(L, R, Sym));
    if (L->isPointer() || R->isPointer()) {
      // Pointer arithmetic: operands keep their types.
      BinaryTyping T;
      T.ResultTy = L->isPointer() ? L : R;
      return T;
    }
    return arithmetic(L, LL, R, RL, false, Sym);
  }
  case B::Mul:
  case B::Mod:
    return arithmetic(L, LL, R, RL, Op == B::Mod, Sym);
  case B::TrueDiv: {
    BinaryTyping T = arithmetic(L, LL, R, RL, true, Sym);
    // int / int divides in fp32.
    if (T.Error.empty() && T.CompTy->isInt())
      T.LhsTy = T.RhsTy = T.ResultTy = DType::getFloat(Type::Kind::F32);
    return T;
  }
  case B::FloorDiv: {
    BinaryTyping T = arithmetic(L, LL, R, RL, true, Sym);
    if (T.Error.empty() && !T.CompTy->isInt())
      return failed(("unexpected type " + T.CompTy->getName() + " for " + Sym)
                        .str());
    return T;
  }
  case B::BitAnd:
  case B::BitOr:
  case B::BitXor:
  case B::Shl:
  case B::Shr: {
    BinaryTyping T = arithmetic(L, LL, R, RL, false, Sym);
    if (!T.Error.empty())
      return T;
    // Triton's wording (IncompatibleTypeErrorImpl), which its tests check.
    if (!L->isInt() || !R->isInt())
      return failed(invalidOperands(L, R, ("bitwise " + Sym).str()));
    return T;
  }
  case B::LogicalAnd:
  case B::LogicalOr: {
    std::string Err = checkPointers(L, R, false, false, Sym);
    if (!Err.empty())
      return failed(Err);
    DType *I1 = DType::getBool();
    return uniform(nullptr, I1, I1);
  }
  case B::FDiv: {
    if (!L->isFloat() || !R->isFloat())
      return failed("both operands of fdiv must have floating scalar type, "
                    "got " +
                    L->getName() + " and " + R->getName());
    // Triton leaves the types alone; mixed float types promote by the
    // ordinary (non-division) rules here instead of failing later.
    return arithmetic(L, LL, R, RL, false, Sym);
  }
  case B::DivRn: {
    for (auto [T, Lit] : {std::pair(L, LL), std::pair(R, RL)}) {
      std::string Err = checkDTypes(T, Lit, {"fp32"}, Sym);
      if (!Err.empty())
        return failed(Err);
    }
    BinaryTyping T = arithmetic(L, LL, R, RL, false, Sym);
    if (T.Error.empty() && !T.CompTy->isFloat())
      return failed("div_rn expects fp32, got " + T.CompTy->getName());
    return T;
  }
  case B::UMulHi: {
    for (auto [T, Lit] : {std::pair(L, LL), std::pair(R, RL)}) {
      std::string Err =
          checkDTypes(T, Lit, {"int32", "int64", "uint32", "uint64"}, Sym);
      if (!Err.empty())
        return failed(Err);
    }
    BinaryTyping T = arithmetic(L, LL, R, RL, false, Sym);
    if (T.Error.empty() && !T.CompTy->isInt())
      return failed("umulhi expects integers, got " + T.CompTy->getName());
    return T;
  }
  }
  return failed("unknown operator");
}

BinaryTyping tritium::typeCompare(Semantic::CmpOp Op, DType *L, DType *R) {
  BinaryTyping T = arithmetic(L, false, R, false, false, getOpSymbol(Op));
  if (T.Error.empty())
    T.ResultTy = DType::getBool();
  return T;
}

BinaryTyping tritium::typeMinMax(bool IsMax, DType *L, bool LL, DType *R,
                                 bool RL) {
  return arithmetic(L, LL, R, RL, false, IsMax ? "maximum" : "minimum");
}

bool tritium::intLiteralFits(const Operand &Lit, DType *T) {
  if (!Lit.isLiteral() || Lit.getKind() == Operand::Kind::Float || !T->isInt())
    return false;
  unsigned W = T->getBitWidth();
  int64_t V = Lit.getInt();
  if (Lit.isUnsigned64())
    return T->isUnsigned() && W == 64;
  if (T->isUnsigned())
    return V >= 0 && (W == 64 || V < (int64_t(1) << W));
  return W == 64 ||
         (V >= -(int64_t(1) << (W - 1)) && V < (int64_t(1) << (W - 1)));
}

BinaryTyping tritium::typeWhere(DType *X, bool XL, DType *Y, bool YL) {
  if (!X->isPointer() && !Y->isPointer())
    return arithmetic(X, XL, Y, YL, false, "where");
  std::string Err = checkPointers(X, Y, true, true, "where");
  if (!Err.empty())
    return failed(Err);
  if (X != Y)
    return failed(invalidOperands(X, Y, "where"));
  return uniform(nullptr, X, X);
}

std::string tritium::checkWeakLiteral(const Operand &Lit, DType *T) {
  if (!Lit.isLiteral() || !T->isInt() || Lit.getKind() == Operand::Kind::Float)
    return "";
  bool Negative = !Lit.isUnsigned64() && Lit.getInt() < 0;
  if (Negative && T->isUnsigned())
    return "Cannot perform a binary operation between an unsigned tensor "
           "and a negative scalar (" +
           Lit.str() + "); perform an explicit cast on one of them";
  if (!intLiteralFits(Lit, T))
    return "Scalar " + Lit.str() + " is out of range for type " + T->getName();
  return "";
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

std::optional<Shape> tritium::broadcastShapes(llvm::ArrayRef<int64_t> A,
                                              llvm::ArrayRef<int64_t> B) {
  if (A.size() < B.size())
    std::swap(A, B);
  Shape R(A.begin(), A.end());
  size_t Pad = A.size() - B.size();
  for (size_t I = 0; I < B.size(); ++I) {
    int64_t X = A[Pad + I], Y = B[I];
    if (X == 1)
      R[Pad + I] = Y;
    else if (Y != 1 && Y != X)
      return std::nullopt;
  }
  return R;
}

std::string tritium::checkBlockShape(llvm::ArrayRef<int64_t> Dims) {
  // Triton's limit on the elements of one block, which the IR shares.
  constexpr unsigned MaxLog2Numel = BlockType::MaxElementsLog2;
  if (Dims.empty())
    return "a block needs at least one dimension";
  unsigned Log2Numel = 0;
  for (size_t I = 0; I < Dims.size(); ++I) {
    if (Dims[I] <= 0 || !llvm::isPowerOf2_64(uint64_t(Dims[I])))
      return "Shape element " + std::to_string(I) + " must be a power of 2";
    Log2Numel += llvm::Log2_64(uint64_t(Dims[I]));
  }
  if (Log2Numel > MaxLog2Numel) {
    std::string Numel = Log2Numel < 63
                            ? std::to_string(int64_t(1) << Log2Numel)
                            : "2^" + std::to_string(Log2Numel);
    return "numel (" + Numel + ") exceeds triton maximum tensor numel (" +
           std::to_string(int64_t(1) << MaxLog2Numel) + ")";
  }
  return "";
}

std::string tritium::formatShape(llvm::ArrayRef<int64_t> Dims) {
  std::string S = "[";
  for (size_t I = 0; I < Dims.size(); ++I)
    S += (I ? ", " : "") + std::to_string(Dims[I]);
  return S + "]";
}

std::optional<int64_t> tritium::wrapAxis(int64_t Axis, int64_t Rank) {
  if (Axis < -Rank || Axis >= Rank)
    return std::nullopt;
  return Axis < 0 ? Axis + Rank : Axis;
}
