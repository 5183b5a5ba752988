//===- Arithmetic.cpp - Operators, comparisons, math and select ------------===//
//
// Every elementwise operation: the type rules come from Promotion.h, then the
// operands are converted (weak literals become constants of the computation
// type directly, shaped like the other operand) and broadcast, and one opcode
// is chosen by element type and signedness:
//
//   //  sdiv / udiv (truncating, like C)     %   srem / urem / frem
//   >>  ashr / lshr by the left operand      ~x  xor with all ones
//   <   icmp slt / ult, fcmp olt             !=  icmp ne, fcmp une
//   minimum/maximum  smin umin fmin (NaN-ignoring), fminimum (propagate_nan)
//   ptr + int, ptr - int  getelementptr (unsigned offsets zero-extended)
//
//===----------------------------------------------------------------------===//

#include "frontend/Promotion.h"
#include "frontend/Semantic.h"

using namespace tritium;

//===----------------------------------------------------------------------===//
// Operand conversion
//===----------------------------------------------------------------------===//

TValue Semantic::conform(const Operand &O, DType *Ty,
                         llvm::ArrayRef<int64_t> Dims) {
  if (O.isLiteral())
    return literal(O, Ty ? Ty : O.getLiteralType(), Dims);
  TValue V = O.getValue();
  if (Ty)
    V = castTo(V, Ty);
  return expandToShape(V, Dims);
}

std::pair<TValue, TValue> Semantic::coerce(const Operand &L, DType *LTy,
                                           const Operand &R, DType *RTy,
                                           llvm::StringRef What) {
  auto ShapeOf = [](const Operand &O) {
    return O.isValue() ? O.getValue().Ty->getShape() : llvm::ArrayRef<int64_t>();
  };
  Shape S = commonShape(ShapeOf(L), ShapeOf(R), What);
  TValue X = conform(L, LTy, S);
  TValue Y = conform(R, RTy, S);
  return {X, Y};
}

TValue Semantic::emit(Opcode Op, TValue L, TValue R, DType *Ty) {
  return make(B.createBinary(Op, L.V, R.V), Ty);
}

namespace {
/// Throws the typing's error, if any.
void check(const Semantic &S, const BinaryTyping &T) {
  if (!T.Error.empty())
    S.error(T.Error);
}

/// Triton checks the Python numbers of an arithmetic operation against the
/// type it computes in.
void checkLiterals(const Semantic &S, const Operand &L, const Operand &R,
                   DType *CompTy) {
  if (!CompTy)
    return;
  for (const Operand *O : {&L, &R}) {
    std::string Err = checkWeakLiteral(*O, CompTy);
    if (!Err.empty())
      S.error(Err);
  }
}

Opcode pick(DType *T, Opcode Signed, Opcode Unsigned, Opcode Float) {
  if (T->isFloat())
    return Float;
  return T->isSigned() ? Signed : Unsigned;
}
} // namespace

//===----------------------------------------------------------------------===//
// Binary operators
//===----------------------------------------------------------------------===//

TValue Semantic::binary(BinOp Op, Operand L, Operand R) {
  llvm::StringRef Sym = getOpSymbol(Op);
  DType *LT = typeOf(L)->getScalar(), *RT = typeOf(R)->getScalar();
  BinaryTyping T = typeBinary(Op, LT, L.isLiteral(), RT, R.isLiteral());
  check(*this, T);
  checkLiterals(*this, L, R, T.CompTy);
  auto [X, Y] = coerce(L, T.LhsTy, R, T.RhsTy, Sym);
  DType *ResTy = X.Ty->withScalar(T.ResultTy);

  if ((Op == BinOp::Add || Op == BinOp::Sub) && T.ResultTy->isPointer()) {
    if (!X.Ty->getScalar()->isPointer())
      std::swap(X, Y);
    // getelementptr takes signed offsets: widen unsigned ones first.
    DType *OffTy = Y.Ty->getScalar();
    if (OffTy->isUnsigned() && OffTy->getBitWidth() < 64)
      Y = castTo(Y, DType::getInt(64));
    if (Op == BinOp::Sub)
      Y = make(B.createUnary(Opcode::Neg, Y.V), Y.Ty);
    return make(B.createGEP(X.V, Y.V), X.Ty);
  }

  DType *C = X.Ty->getScalar();
  switch (Op) {
  case BinOp::Add: return emit(pick(C, Opcode::Add, Opcode::Add, Opcode::FAdd), X, Y, ResTy);
  case BinOp::Sub: return emit(pick(C, Opcode::Sub, Opcode::Sub, Opcode::FSub), X, Y, ResTy);
  case BinOp::Mul: return emit(pick(C, Opcode::Mul, Opcode::Mul, Opcode::FMul), X, Y, ResTy);
  case BinOp::TrueDiv:
  case BinOp::FDiv: {
    // Triton's `/` and tl.fdiv in fp32 are approximate (to 2 ulp: NVIDIA's
    // div.full.f32); tl.div_rn and the other widths divide exactly.
    TValue Q = emit(Opcode::FDiv, X, Y, ResTy);
    Instruction *I = Q.V->getDefiningInstruction();
    if (I && I->getOpcode() == Opcode::FDiv && T.ResultTy->getFloatKind() == Type::Kind::F32)
      I->setAttr(AttrKey::Approx, AttrValue::unit());
    return Q;
  }
  case BinOp::DivRn:
    return emit(Opcode::FDiv, X, Y, ResTy);
  case BinOp::FloorDiv:
    return emit(pick(C, Opcode::SDiv, Opcode::UDiv, Opcode::FDiv), X, Y, ResTy);
  case BinOp::Mod:
    return emit(pick(C, Opcode::SRem, Opcode::URem, Opcode::FRem), X, Y, ResTy);
  case BinOp::BitAnd:
  case BinOp::LogicalAnd: return emit(Opcode::And, X, Y, ResTy);
  case BinOp::BitOr:
  case BinOp::LogicalOr: return emit(Opcode::Or, X, Y, ResTy);
  case BinOp::BitXor: return emit(Opcode::Xor, X, Y, ResTy);
  case BinOp::Shl: return emit(Opcode::Shl, X, Y, ResTy);
  case BinOp::Shr: {
    // Triton picks the shift by the tensor operand's own signedness (the
    // left one if both are tensors), not by the promoted type.
    DType *Decides = L.isValue() ? LT : R.isValue() ? RT : C;
    return emit(Decides->isSigned() ? Opcode::AShr : Opcode::LShr, X, Y, ResTy);
  }
  case BinOp::UMulHi: return emit(Opcode::UMulHi, X, Y, ResTy);
  }
  llvm_unreachable("unknown binary operator");
}

TValue Semantic::minMax(bool IsMax, Operand L, Operand R, bool PropagateNan) {
  DType *LT = typeOf(L)->getScalar(), *RT = typeOf(R)->getScalar();
  BinaryTyping T = typeMinMax(IsMax, LT, L.isLiteral(), RT, R.isLiteral());
  check(*this, T);
  checkLiterals(*this, L, R, T.CompTy);
  auto [X, Y] = coerce(L, T.LhsTy, R, T.RhsTy, IsMax ? "maximum" : "minimum");
  DType *C = X.Ty->getScalar();
  Opcode Op;
  if (C->isFloat())
    Op = PropagateNan ? (IsMax ? Opcode::FMaximum : Opcode::FMinimum)
                      : (IsMax ? Opcode::FMax : Opcode::FMin);
  else
    Op = IsMax ? pick(C, Opcode::SMax, Opcode::UMax, Opcode::FMax)
               : pick(C, Opcode::SMin, Opcode::UMin, Opcode::FMin);
  return emit(Op, X, Y, X.Ty);
}

TValue Semantic::compare(CmpOp Op, Operand L, Operand R) {
  // Triton turns a comparison's literal into a value first: it is not weak.
  BinaryTyping T =
      typeCompare(Op, typeOf(L)->getScalar(), typeOf(R)->getScalar());
  check(*this, T);
  auto [X, Y] = coerce(L, T.LhsTy, R, T.RhsTy, getOpSymbol(Op));
  DType *C = X.Ty->getScalar();
  DType *ResTy = X.Ty->withScalar(DType::getBool());
  if (C->isFloat()) {
    static const FCmpPredicate Preds[] = {
        FCmpPredicate::OEQ, FCmpPredicate::UNE, FCmpPredicate::OLT,
        FCmpPredicate::OLE, FCmpPredicate::OGT, FCmpPredicate::OGE};
    return make(B.createFCmp(Preds[unsigned(Op)], X.V, Y.V), ResTy);
  }
  bool S = C->isSigned();
  ICmpPredicate P = ICmpPredicate::EQ;
  switch (Op) {
  case CmpOp::EQ: P = ICmpPredicate::EQ; break;
  case CmpOp::NE: P = ICmpPredicate::NE; break;
  case CmpOp::LT: P = S ? ICmpPredicate::SLT : ICmpPredicate::ULT; break;
  case CmpOp::LE: P = S ? ICmpPredicate::SLE : ICmpPredicate::ULE; break;
  case CmpOp::GT: P = S ? ICmpPredicate::SGT : ICmpPredicate::UGT; break;
  case CmpOp::GE: P = S ? ICmpPredicate::SGE : ICmpPredicate::UGE; break;
  }
  return make(B.createICmp(P, X.V, Y.V), ResTy);
}

//===----------------------------------------------------------------------===//
// Unary operators and math
//===----------------------------------------------------------------------===//

namespace {
struct MathFn {
  Opcode Op;
  const char *Name;
  bool Fp32Only;
};

MathFn mathFn(Semantic::UnaryOp U) {
  using U_ = Semantic::UnaryOp;
  switch (U) {
  case U_::Exp: return {Opcode::Exp, "exp", false};
  case U_::Exp2: return {Opcode::Exp2, "exp2", false};
  case U_::Log: return {Opcode::Log, "log", false};
  case U_::Log2: return {Opcode::Log2, "log2", false};
  case U_::Sqrt: return {Opcode::Sqrt, "sqrt", false};
  case U_::SqrtRn: return {Opcode::SqrtRn, "sqrt_rn", true};
  case U_::Rsqrt: return {Opcode::Rsqrt, "rsqrt", false};
  case U_::Sin: return {Opcode::Sin, "sin", false};
  case U_::Cos: return {Opcode::Cos, "cos", false};
  case U_::Floor: return {Opcode::Floor, "floor", false};
  case U_::Ceil: return {Opcode::Ceil, "ceil", false};
  case U_::Erf: return {Opcode::Erf, "erf", false};
  default: return {Opcode::Undef, nullptr, false};
  }
}
} // namespace

TypeResult tritium::typeUnary(Semantic::UnaryOp Op, DType *S) {
  using U_ = Semantic::UnaryOp;
  switch (Op) {
  case U_::Plus: return TypeResult::ok(S);
  case U_::Neg:
    return S->isPointer() ? TypeResult::fail("wrong type argument to unary minus (" +
                                              S->getName() + ")")
                          : TypeResult::ok(S);
  case U_::Invert:
    return S->isPointer() || S->isFloat()
               ? TypeResult::fail("wrong type argument to unary invert (" + S->getName() + ")")
               : TypeResult::ok(S);
  case U_::Not: return TypeResult::ok(DType::getBool());
  case U_::Abs:
    return S->isPointer() ? TypeResult::fail("unexpected type " + S->getName() + " for abs")
                          : TypeResult::ok(S);
  default: break;
  }
  MathFn F = mathFn(Op);
  assert(F.Name && "unhandled unary operator");
  if (S->getName() == "fp32" || (!F.Fp32Only && S->getName() == "fp64"))
    return TypeResult::ok(S);
  return TypeResult::fail((llvm::Twine(F.Name) + " expects " +
                           (F.Fp32Only ? "fp32" : "fp32, fp64") + ", got " + S->getName() +
                           "; cast the operand first (x.to(tl.float32))")
                              .str());
}

TValue Semantic::unary(UnaryOp Op, Operand Operand_) {
  TValue X = toValue(Operand_);
  DType *S = X.Ty->getScalar();
  TypeResult T = typeUnary(Op, S);
  if (!T)
    error(T.Error);
  switch (Op) {
  case UnaryOp::Plus: return X;
  case UnaryOp::Neg: return make(B.createUnary(Opcode::Neg, X.V), X.Ty);
  case UnaryOp::Invert: {
    TValue Ones = literal(Operand::integer(-1), S, X.Ty->getShape());
    return emit(Opcode::Xor, X, Ones, X.Ty);
  }
  case UnaryOp::Not: {
    // `not x` is x == 0 (Triton accepts only int1 here; this also takes
    // the types Python's `not` does).
    if (S->isBool() || S->isPointer()) {
      TValue C = toBool(X);
      TValue True = literal(Operand::boolean(true), C.Ty->getScalar(),
                            C.Ty->getShape());
      return emit(Opcode::Xor, C, True, C.Ty);
    }
    TValue Zero = literal(Operand::integer(0), S, X.Ty->getShape());
    DType *ResTy = X.Ty->withScalar(DType::getBool());
    if (S->isFloat())
      return make(B.createFCmp(FCmpPredicate::OEQ, X.V, Zero.V), ResTy);
    return make(B.createICmp(ICmpPredicate::EQ, X.V, Zero.V), ResTy);
  }
  case UnaryOp::Abs:
    if (S->isUnsigned())
      return X;
    return make(B.createUnary(Opcode::Abs, X.V), X.Ty);
  default: break;
  }
  return make(B.createUnary(mathFn(Op).Op, X.V), X.Ty);
}

//===----------------------------------------------------------------------===//
// fma, where, clamp
//===----------------------------------------------------------------------===//

TypeResult tritium::typeFma(DType *A, DType *B, DType *C) {
  for (DType *T : {A, B, C})
    if (!T->isInt() && !T->isFloat())
      return TypeResult::fail("fma expects numbers, got " + T->getName());
  // Triton turns all three into values first, then promotes pairwise:
  // (a, b), (c, a), (c, b); the last type is every operand's.
  TypeResult T = computationType(A, false, B, false, false, "fma");
  if (T)
    T = computationType(C, false, T.Ty, false, false, "fma");
  if (T && !T.Ty->isFloat())
    return TypeResult::fail("fma expects float operands, got " + T.Ty->getName());
  return T;
}

TypeResult tritium::typeClamp(DType *X, bool XL, DType *Lo, bool LoL, DType *Hi, bool HiL) {
  for (DType *T : {X, Lo, Hi})
    if (T->isPointer())
      return TypeResult::fail("clamp expects numbers, got " + T->getName());
  // Triton promotes (lo, hi), then (x, lo), then (x, hi); lo and hi are
  // values after the first step, so only that one sees weak literals.
  TypeResult T = computationType(Lo, LoL, Hi, HiL, false, "clamp");
  if (T)
    T = computationType(X, XL, T.Ty, false, false, "clamp");
  if (T && !T.Ty->isFloat())
    return TypeResult::fail("clamp only supports floating point types, got " + T.Ty->getName());
  return T;
}

TValue Semantic::fma(Operand A, Operand Bv, Operand C) {
  TValue X = toValue(A), Y = toValue(Bv), Z = toValue(C);
  TypeResult R = typeFma(X.Ty->getScalar(), Y.Ty->getScalar(), Z.Ty->getScalar());
  if (!R)
    error(R.Error);
  DType *T = R.Ty;
  Shape S = commonShape(X.Ty->getShape(), Y.Ty->getShape(), "fma");
  S = commonShape(S, Z.Ty->getShape(), "fma");
  X = conform(X, T, S);
  Y = conform(Y, T, S);
  Z = conform(Z, T, S);
  return make(B.createFma(X.V, Y.V, Z.V), X.Ty);
}

TValue Semantic::where(Operand C, Operand X, Operand Y) {
  TValue Cond = toBool(toValue(C));
  DType *XT = typeOf(X)->getScalar(), *YT = typeOf(Y)->getScalar();
  BinaryTyping T = typeWhere(XT, X.isLiteral(), YT, Y.isLiteral());
  check(*this, T);
  checkLiterals(*this, X, Y, T.CompTy);
  auto ShapeOf = [](const Operand &O) {
    return O.isValue() ? O.getValue().Ty->getShape() : llvm::ArrayRef<int64_t>();
  };
  Shape S = commonShape(ShapeOf(X), ShapeOf(Y), "where");
  S = commonShape(Cond.Ty->getShape(), S, "where");
  // A scalar condition selects whole blocks; the IR takes it as it is.
  if (Cond.Ty->isBlock())
    Cond = expandToShape(Cond, S);
  TValue A = conform(X, T.LhsTy, S), Bv = conform(Y, T.RhsTy, S);
  return make(B.createSelect(Cond.V, A.V, Bv.V), A.Ty);
}

TValue Semantic::clamp(Operand X, Operand Lo, Operand Hi, bool PropagateNan) {
  TypeResult R = typeClamp(typeOf(X)->getScalar(), X.isLiteral(), typeOf(Lo)->getScalar(),
                           Lo.isLiteral(), typeOf(Hi)->getScalar(), Hi.isLiteral());
  if (!R)
    error(R.Error);
  DType *T = R.Ty;
  auto ShapeOf = [](const Operand &O) {
    return O.isValue() ? O.getValue().Ty->getShape() : llvm::ArrayRef<int64_t>();
  };
  Shape S = commonShape(ShapeOf(Lo), ShapeOf(Hi), "clamp");
  S = commonShape(ShapeOf(X), S, "clamp");
  TValue V = conform(X, T, S), L = conform(Lo, T, S), H = conform(Hi, T, S);
  Opcode Max = PropagateNan ? Opcode::FMaximum : Opcode::FMax;
  Opcode Min = PropagateNan ? Opcode::FMinimum : Opcode::FMin;
  return emit(Min, emit(Max, V, L, V.Ty), H, V.Ty);
}
