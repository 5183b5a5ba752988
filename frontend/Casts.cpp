//===- Casts.cpp - x.to(dtype) and bitcasts --------------------------------===//
//
// Triton's cast rules, lowered to the IR's cast opcodes:
//  * float to float: fpext or fptrunc; conversions between types of one width
//    (fp16 <-> bf16, one fp8 format to another) go through fp32 or fp16,
//    which hold both exactly. fp_downcast_rounding (rtne, rtz) is only for
//    narrowing float conversions and becomes the fptrunc's rounding attribute.
//  * int to int: sext for signed sources, zext for unsigned ones (int1
//    included), trunc to narrow; same width, other signedness: a bitcast, so
//    that the value of each dtype is a value of its own.
//  * int <-> float by the signedness of the integer; fp8 only converts to
//    and from floats, as in Triton.
//  * anything to int1 is `!= 0` (une for floats, so NaN is true).
//  * pointers: to int64 (ptrtoint) or int1 (!= null), from any integer
//    (inttoptr), to other pointers (bitcast).
//
//===----------------------------------------------------------------------===//

#include "frontend/Promotion.h"
#include "frontend/Semantic.h"

using namespace tritium;

namespace {
/// The IR cast of \p X's elements to \p To.
Value *emitCast(IRBuilder &B, Opcode Op, TValue X, DType *To,
                std::optional<RoundingMode> Rounding = std::nullopt) {
  DType *Dst = X.Ty->withScalar(To);
  return B.createCast(Op, X.V, Dst->toIR(B.getContext()), Rounding);
}

std::string cannotCast(DType *S, DType *To) {
  return "cannot cast " + S->getName() + " to " + To->getName();
}
} // namespace

std::string tritium::checkCast(DType *From, DType *To, bool Rounding, bool Bitcast) {
  DType *S = From->getScalar();
  if (To->isVoid())
    return "cannot cast " + From->getName() + " to void";
  if (S == To)
    return "";
  if (!To->isScalar())
    return "cannot cast " + From->getName() + " to " + To->getName() +
           ": the target must be a scalar type";
  if (Bitcast && !S->isPointer() && !To->isPointer()) {
    if (S->getBitWidth() != To->getBitWidth())
      return ("cannot bitcast " + S->getName() + " (" + llvm::Twine(S->getBitWidth()) +
              " bits) to " + To->getName() + " (" + llvm::Twine(To->getBitWidth()) +
              " bits): the sizes differ")
          .str();
    return "";
  }
  bool FloatDowncast = S->isFloat() && To->isFloat() && To->getBitWidth() < S->getBitWidth();
  if (Rounding && !FloatDowncast && !Bitcast)
    return "fp_downcast_rounding should be set only for truncating fp "
           "conversions. Source scalar type is " +
           S->getName() + " and destination type is " + To->getName();
  if (S->isFloat() && To->isFloat())
    return "";
  // fp8 converts to and from floats only.
  if (S->isFP8() || To->isFP8())
    return cannotCast(S, To);
  if (To->isBool() || (S->isInt() && To->isInt()) || (S->isInt() && To->isFloat()) ||
      (S->isFloat() && To->isInt()) || (S->isInt() && To->isPointer()) ||
      (S->isPointer() && To->isPointer()))
    return "";
  if (S->isPointer() && To->isInt())
    return To->getBitWidth() == 64 ? ""
                                   : cannotCast(S, To) + ": pointers convert to int64 or int1 only";
  return cannotCast(S, To);
}

TValue Semantic::cast(Operand X, DType *To, bool Bitcast,
                      std::optional<RoundingMode> Rounding) {
  TValue V = toValue(X);
  // x.to(dtype) takes an element type; the shape is x's.
  To = To->getScalar();
  std::string Err = checkCast(V.Ty, To, Rounding.has_value(), Bitcast);
  if (!Err.empty())
    error(Err);
  if (Bitcast)
    return bitcastTo(V, To);
  return castTo(V, To, Rounding);
}

TValue Semantic::castTo(TValue X, DType *To,
                        std::optional<RoundingMode> Rounding) {
  DType *S = X.Ty->getScalar();
  if (S == To)
    return X;
  std::string Err = checkCast(X.Ty, To, Rounding.has_value(), /*Bitcast=*/false);
  if (!Err.empty())
    error(Err);
  DType *Dst = X.Ty->withScalar(To);
  auto Make = [&](Opcode Op, std::optional<RoundingMode> R = std::nullopt) {
    return make(emitCast(B, Op, X, To, R), Dst);
  };

  if (S->isFloat() && To->isFloat()) {
    if (S->getBitWidth() == To->getBitWidth()) {
      // No IR cast keeps the width: go through a type that holds both.
      DType *Mid = DType::getFloat(S->getBitWidth() == 8 ? Type::Kind::F16
                                                         : Type::Kind::F32);
      return castTo(castTo(X, Mid), To);
    }
    return To->getBitWidth() < S->getBitWidth() ? Make(Opcode::FPTrunc, Rounding)
                                                : Make(Opcode::FPExt);
  }
  if (To->isBool()) {
    if (S->isPointer()) // != null
      S = (X = castTo(X, DType::getInt(64))).Ty->getScalar();
    // x != 0, in x's own type.
    TValue Zero = literal(Operand::integer(0), S, X.Ty->getShape());
    if (S->isFloat())
      return make(B.createFCmp(FCmpPredicate::UNE, X.V, Zero.V), Dst);
    return make(B.createICmp(ICmpPredicate::NE, X.V, Zero.V), Dst);
  }
  if (S->isInt() && To->isInt()) {
    unsigned SW = S->getBitWidth(), TW = To->getBitWidth();
    if (SW == TW)
      return Make(Opcode::Bitcast);
    if (SW > TW)
      return Make(Opcode::Trunc);
    return Make(S->isSigned() ? Opcode::SExt : Opcode::ZExt);
  }
  if (S->isFloat() && To->isInt())
    return Make(To->isSigned() ? Opcode::FPToSI : Opcode::FPToUI);
  if (S->isInt() && To->isFloat())
    return Make(S->isSigned() ? Opcode::SIToFP : Opcode::UIToFP);
  if (S->isPointer() && To->isInt())
    return Make(Opcode::PtrToInt);
  if (S->isInt() && To->isPointer())
    return Make(Opcode::IntToPtr);
  return Make(Opcode::Bitcast); // pointer to pointer
}

TValue Semantic::bitcastTo(TValue X, DType *To) {
  DType *S = X.Ty->getScalar();
  if (S == To)
    return X;
  if (S->isPointer() || To->isPointer())
    return castTo(X, To);
  std::string Err = checkCast(X.Ty, To, false, /*Bitcast=*/true);
  if (!Err.empty())
    error(Err);
  return make(emitCast(B, Opcode::Bitcast, X, To), X.Ty->withScalar(To));
}

TValue Semantic::toBool(TValue X) {
  return castTo(X, DType::getBool());
}
