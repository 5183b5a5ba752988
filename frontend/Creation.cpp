//===- Creation.cpp - Constants, full, arange, program ids -----------------===//
//
// Values out of nothing: Python literals turned into constants (of their own
// type, Triton's to_tensor, or of a type an operation asks for), tl.full,
// tl.arange and the program geometry.
//
//===----------------------------------------------------------------------===//

#include "frontend/Promotion.h"
#include "frontend/Semantic.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace tritium;

namespace {
/// \p V wrapped into the integer type \p T (two's complement), or 0/1 for
/// int1, as an int-to-int cast converts it.
int64_t wrapInt(int64_t V, DType *T) {
  unsigned W = T->getBitWidth();
  if (W == 1)
    return V != 0;
  if (W == 64)
    return V;
  uint64_t Low = uint64_t(V) & ((uint64_t(1) << W) - 1);
  return T->isUnsigned() ? int64_t(Low) : llvm::SignExtend64(Low, W);
}

/// \p F truncated toward zero into the integer type \p T, as fptosi/fptoui
/// do; NaN gives 0 and values out of range saturate (C leaves both
/// undefined).
int64_t floatToInt(double F, DType *T) {
  if (T->isBool())
    return F != 0.0;
  if (std::isnan(F))
    return 0;
  double R = std::trunc(F);
  if (T->isUnsigned()) {
    if (R <= 0)
      return 0;
    if (R >= 18446744073709551616.0)
      return -1;
    return wrapInt(int64_t(uint64_t(R)), T);
  }
  if (R < -9223372036854775808.0)
    return INT64_MIN;
  if (R >= 9223372036854775808.0)
    return INT64_MAX;
  return wrapInt(int64_t(R), T);
}
} // namespace

TValue Semantic::toValue(const Operand &O) {
  if (O.isValue())
    return O.getValue();
  return literal(O, O.getLiteralType());
}

TValue Semantic::literal(const Operand &O, DType *Ty,
                         llvm::ArrayRef<int64_t> Dims) {
  assert(O.isLiteral() && "not a literal");
  if (!Ty->isInt() && !Ty->isFloat())
    error("cannot make a constant of type " + Ty->getName() + " from " +
          O.str());
  DType *Shaped = DType::getShaped(Ty, Dims);
  Type *IRTy = Shaped->toIR(getContext());
  if (Ty->isFloat()) {
    double V = O.getKind() == Operand::Kind::Float ? O.getFloat()
               : O.isUnsigned64() ? double(uint64_t(O.getInt()))
                                  : double(O.getInt());
    return make(B.getFloatConstant(IRTy, V), Shaped);
  }
  int64_t V = O.getKind() == Operand::Kind::Float ? floatToInt(O.getFloat(), Ty)
                                                  : wrapInt(O.getInt(), Ty);
  return make(B.getIntConstant(IRTy, V), Shaped);
}

// Triton makes constants with the builder's get_int8(...) and friends,
// which reject floats and out-of-range values.
std::string tritium::notAConstant(DType *ValueTy) {
  return "expected a Python bool, int or float, got a value of type " + ValueTy->getName();
}

std::string tritium::notAScalarFill(DType *Block) {
  return "full expects a scalar value, got a block " + Block->getName();
}

std::string tritium::checkConstant(const Operand &Lit, DType *Ty) {
  if (!Lit.isLiteral())
    return notAConstant(Lit.getValue().Ty);
  if (!Ty->isInt())
    return "";
  if (Lit.getKind() == Operand::Kind::Float)
    return "cannot make an " + Ty->getName() + " constant from the float " +
           Lit.str();
  if (!intLiteralFits(Lit, Ty))
    return "value " + Lit.str() + " is out of range for " + Ty->getName();
  return "";
}

std::string tritium::checkArange(int64_t Start, int64_t End) {
  std::string Range = "[" + std::to_string(Start) + ", " + std::to_string(End) + ")";
  // Triton's rule: both ends fit in 32 bits (and are not negative).
  if ((Start >> 32) != 0 || (End >> 32) != 0)
    return "arange must fit in int32, got " + Range;
  if (End <= Start)
    return "arange's end argument must be greater than the start argument, got " + Range;
  int64_t N = End - Start;
  if (!llvm::isPowerOf2_64(uint64_t(N)))
    return "arange's range must be a power of 2, got " + std::to_string(N);
  return checkBlockShape({N});
}

std::string tritium::checkProgramAxis(llvm::StringRef What, int64_t Axis) {
  if (Axis < 0 || Axis > 2)
    return (What + " axis must be 0, 1, or 2 but got " + llvm::Twine(Axis)).str();
  return "";
}

TValue Semantic::constant(Operand Lit, DType *Ty) {
  Ty = Ty ? Ty->getScalar() : typeOf(Lit);
  std::string Err = checkConstant(Lit, Ty);
  if (!Err.empty())
    error(Err);
  return literal(Lit, Ty);
}

TValue Semantic::full(llvm::ArrayRef<int64_t> Dims, Operand Value, DType *Ty) {
  if (!Dims.empty()) {
    std::string Err = checkBlockShape(Dims);
    if (!Err.empty())
      error(Err);
  }
  Ty = Ty->getScalar();
  if (Value.isLiteral()) {
    std::string Err = checkConstant(Value, Ty);
    if (!Err.empty())
      error(Err);
    // One splat constant rather than Triton's constant + splat.
    return literal(Value, Ty, Dims);
  }
  TValue V = Value.getValue();
  if (V.Ty->isBlock())
    error(notAScalarFill(V.Ty));
  V = castTo(V, Ty);
  if (Dims.empty())
    return V;
  return make(B.createSplat(V.V, Dims), DType::getBlock(Ty, Dims));
}

TValue Semantic::arange(int64_t Start, int64_t End) {
  std::string Err = checkArange(Start, End);
  if (!Err.empty())
    error(Err);
  return make(B.createMakeRange(Start, End),
              DType::getBlock(DType::getInt(32), {End - Start}));
}

TValue Semantic::programId(int64_t Axis) {
  std::string Err = checkProgramAxis("program_id", Axis);
  if (!Err.empty())
    error(Err);
  return make(B.createProgramId(Axis), DType::getInt(32));
}

TValue Semantic::numPrograms(int64_t Axis) {
  std::string Err = checkProgramAxis("num_programs", Axis);
  if (!Err.empty())
    error(Err);
  return make(B.createNumPrograms(Axis), DType::getInt(32));
}
