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

llvm::CmpInst::Predicate tritium::llvmPredicate(ICmpPredicate P) {
  switch (P) {
  case ICmpPredicate::EQ: return llvm::CmpInst::ICMP_EQ;
  case ICmpPredicate::NE: return llvm::CmpInst::ICMP_NE;
  case ICmpPredicate::SLT: return llvm::CmpInst::ICMP_SLT;
  case ICmpPredicate::SLE: return llvm::CmpInst::ICMP_SLE;
  case ICmpPredicate::SGT: return llvm::CmpInst::ICMP_SGT;
  case ICmpPredicate::SGE: return llvm::CmpInst::ICMP_SGE;
  case ICmpPredicate::ULT: return llvm::CmpInst::ICMP_ULT;
  case ICmpPredicate::ULE: return llvm::CmpInst::ICMP_ULE;
  case ICmpPredicate::UGT: return llvm::CmpInst::ICMP_UGT;
  case ICmpPredicate::UGE: return llvm::CmpInst::ICMP_UGE;
  }
  llvm_unreachable("unknown predicate");
}

llvm::CmpInst::Predicate tritium::llvmPredicate(FCmpPredicate P) {
  switch (P) {
  case FCmpPredicate::OEQ: return llvm::CmpInst::FCMP_OEQ;
  case FCmpPredicate::ONE: return llvm::CmpInst::FCMP_ONE;
  case FCmpPredicate::OLT: return llvm::CmpInst::FCMP_OLT;
  case FCmpPredicate::OLE: return llvm::CmpInst::FCMP_OLE;
  case FCmpPredicate::OGT: return llvm::CmpInst::FCMP_OGT;
  case FCmpPredicate::OGE: return llvm::CmpInst::FCMP_OGE;
  case FCmpPredicate::ORD: return llvm::CmpInst::FCMP_ORD;
  case FCmpPredicate::UNO: return llvm::CmpInst::FCMP_UNO;
  case FCmpPredicate::UEQ: return llvm::CmpInst::FCMP_UEQ;
  case FCmpPredicate::UNE: return llvm::CmpInst::FCMP_UNE;
  case FCmpPredicate::ULT: return llvm::CmpInst::FCMP_ULT;
  case FCmpPredicate::ULE: return llvm::CmpInst::FCMP_ULE;
  case FCmpPredicate::UGT: return llvm::CmpInst::FCMP_UGT;
  case FCmpPredicate::UGE: return llvm::CmpInst::FCMP_UGE;
  }
  llvm_unreachable("unknown predicate");
}
