//===- ConstantFold.cpp - Folding constant operands -----------------------===//

#include "codegen/transforms/ConstantFold.h"
#include "ir/Instructions.h"

using namespace tritium;
using llvm::APFloat;
using llvm::APInt;

const llvm::fltSemantics *tritium::getFoldSemantics(const Type *Elem) {
  switch (Elem->getKind()) {
  case Type::Kind::F16: return &APFloat::IEEEhalf();
  case Type::Kind::BF16: return &APFloat::BFloat();
  case Type::Kind::F32: return &APFloat::IEEEsingle();
  case Type::Kind::F64: return &APFloat::IEEEdouble();
  default: return nullptr;
  }
}

std::optional<APInt> tritium::getIntConstant(const Value *V) {
  std::optional<int64_t> C = getConstantIntValue(V);
  Type *Elem = V->getType()->getScalarType();
  if (!C || !Elem->isInt())
    return std::nullopt;
  return APInt(Elem->getScalarSizeInBits(), uint64_t(*C), /*isSigned=*/true);
}

std::optional<APFloat> tritium::getFloatConstant(const Value *V) {
  std::optional<double> C = getConstantFloatValue(V);
  const llvm::fltSemantics *Sem =
      getFoldSemantics(V->getType()->getScalarType());
  if (!C || !Sem)
    return std::nullopt;
  APFloat F(*C);
  bool LosesInfo;
  F.convert(*Sem, APFloat::rmNearestTiesToEven, &LosesInfo);
  return F;
}

std::optional<APInt> tritium::foldIntBinary(Opcode Op, const APInt &L,
                                            const APInt &R) {
  unsigned W = L.getBitWidth();
  switch (Op) {
  case Opcode::Add: return L + R;
  case Opcode::Sub: return L - R;
  case Opcode::Mul: return L * R;
  case Opcode::SDiv:
  case Opcode::SRem:
    if (R.isZero() || (L.isMinSignedValue() && R.isAllOnes()))
      return std::nullopt;
    return Op == Opcode::SDiv ? L.sdiv(R) : L.srem(R);
  case Opcode::UDiv:
  case Opcode::URem:
    if (R.isZero())
      return std::nullopt;
    return Op == Opcode::UDiv ? L.udiv(R) : L.urem(R);
  case Opcode::Shl:
  case Opcode::LShr:
  case Opcode::AShr:
    if (R.uge(W))
      return std::nullopt;
    if (Op == Opcode::Shl)
      return L.shl(R);
    return Op == Opcode::LShr ? L.lshr(R) : L.ashr(R);
  case Opcode::And: return L & R;
  case Opcode::Or: return L | R;
  case Opcode::Xor: return L ^ R;
  case Opcode::SMin: return L.slt(R) ? L : R;
  case Opcode::SMax: return L.sgt(R) ? L : R;
  case Opcode::UMin: return L.ult(R) ? L : R;
  case Opcode::UMax: return L.ugt(R) ? L : R;
  case Opcode::UMulHi:
    return (L.zext(2 * W) * R.zext(2 * W)).lshr(W).trunc(W);
  default: return std::nullopt;
  }
}

std::optional<APFloat> tritium::foldFloatBinary(Opcode Op, APFloat L,
                                                const APFloat &R) {
  const auto RNE = APFloat::rmNearestTiesToEven;
  switch (Op) {
  case Opcode::FAdd: L.add(R, RNE); return L;
  case Opcode::FSub: L.subtract(R, RNE); return L;
  case Opcode::FMul: L.multiply(R, RNE); return L;
  case Opcode::FDiv: L.divide(R, RNE); return L;
  case Opcode::FRem: L.mod(R); return L; // fmod: exact, no rounding
  case Opcode::FMin: return llvm::minnum(L, R);
  case Opcode::FMax: return llvm::maxnum(L, R);
  case Opcode::FMinimum: return llvm::minimum(L, R);
  case Opcode::FMaximum: return llvm::maximum(L, R);
  default: return std::nullopt;
  }
}

bool tritium::foldICmp(ICmpPredicate P, const APInt &L, const APInt &R) {
  switch (P) {
  case ICmpPredicate::EQ: return L == R;
  case ICmpPredicate::NE: return L != R;
  case ICmpPredicate::SLT: return L.slt(R);
  case ICmpPredicate::SLE: return L.sle(R);
  case ICmpPredicate::SGT: return L.sgt(R);
  case ICmpPredicate::SGE: return L.sge(R);
  case ICmpPredicate::ULT: return L.ult(R);
  case ICmpPredicate::ULE: return L.ule(R);
  case ICmpPredicate::UGT: return L.ugt(R);
  case ICmpPredicate::UGE: return L.uge(R);
  }
  return false;
}

bool tritium::foldFCmp(FCmpPredicate P, const APFloat &L,
                       const APFloat &R) {
  APFloat::cmpResult C = L.compare(R);
  bool Unordered = C == APFloat::cmpUnordered;
  bool LT = C == APFloat::cmpLessThan, GT = C == APFloat::cmpGreaterThan,
       EQ = C == APFloat::cmpEqual;
  switch (P) {
  case FCmpPredicate::OEQ: return EQ;
  case FCmpPredicate::ONE: return LT || GT;
  case FCmpPredicate::OLT: return LT;
  case FCmpPredicate::OLE: return LT || EQ;
  case FCmpPredicate::OGT: return GT;
  case FCmpPredicate::OGE: return GT || EQ;
  case FCmpPredicate::ORD: return !Unordered;
  case FCmpPredicate::UNO: return Unordered;
  case FCmpPredicate::UEQ: return Unordered || EQ;
  case FCmpPredicate::UNE: return !EQ;
  case FCmpPredicate::ULT: return Unordered || LT;
  case FCmpPredicate::ULE: return Unordered || LT || EQ;
  case FCmpPredicate::UGT: return Unordered || GT;
  case FCmpPredicate::UGE: return Unordered || GT || EQ;
  }
  return false;
}
