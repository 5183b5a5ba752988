//===- Dot.cpp - tl.dot ----------------------------------------------------===//
//
// Matrix multiplication with Triton's operand and result rules: fp8 x fp8 in
// any combination, otherwise both operands int8, uint8, fp16, bf16, fp32 or
// fp64 and of one type; int8 accumulates in int32, fp32 and bf16 in fp32,
// fp64 in fp64, fp16 and fp8 in out_dtype (fp32 or fp16). Without an
// accumulator the product is added to zeros. K is at least 16 (32 for 8-bit
// operands), Triton 3.6's lower bound on NVIDIA GPUs, where tensor cores take
// K in steps of 16 or 32 bytes; M and N may be anything (padded).
//
//===----------------------------------------------------------------------===//

#include "frontend/Promotion.h"
#include "frontend/Semantic.h"

#include "llvm/ADT/StringExtras.h"

using namespace tritium;

namespace {
bool isDotType(DType *T) {
  static const char *const Names[] = {"int8", "uint8", "fp16",
                                      "bf16", "fp32",  "fp64"};
  for (const char *N : Names)
    if (T->getName() == N)
      return true;
  return false;
}
} // namespace

TypeResult tritium::typeDot(DType *TA, DType *TB, DType *Acc, llvm::StringRef InputPrecision,
                            int64_t MaxNumImpreciseAcc, DType *OutDType) {
  auto Fail = [](const llvm::Twine &Msg) { return TypeResult::fail(Msg.str()); };
  if (!TA->isBlock() || !TB->isBlock())
    return Fail("dot expects two blocks, got " + TA->getName() + " and " + TB->getName());
  DType *EA = TA->getScalar(), *EB = TB->getScalar();
  bool FP8 = EA->isFP8() && EB->isFP8();
  if (!FP8) {
    if (!isDotType(EA))
      return Fail("dot does not support lhs dtype " + EA->getName());
    if (!isDotType(EB))
      return Fail("dot does not support rhs dtype " + EB->getName());
    if (EA != EB)
      return Fail("dot operands must have the same dtype, got " + EA->getName() + " and " +
                  EB->getName());
  }
  llvm::ArrayRef<int64_t> SA = TA->getShape(), SB = TB->getShape();
  size_t R = SA.size();
  if (SB.size() != R || (R != 2 && R != 3))
    return Fail("Both inputs must be either 2D or 3D; (lhs: " + formatShape(SA) +
                " vs rhs: " + formatShape(SB) + ")");
  int64_t K = SA[R - 1];
  if (K != SB[R - 2])
    return Fail("First input shape (" + formatShape(SA) + ") and second input shape " +
                formatShape(SB) +
                " are not compatible for matmul (second index of first shape (" +
                llvm::Twine(K) + ") must be equal to first index of second shape (" +
                llvm::Twine(SB[R - 2]) + "))");
  if (R == 3 && SA[0] != SB[0])
    return Fail("dot operands have different batch sizes: " + formatShape(SA) + " and " +
                formatShape(SB));

  OutDType = OutDType ? OutDType->getScalar() : DType::getFloat(Type::Kind::F32);
  DType *Ret;
  if (EA->isInt()) {
    if (EA->getName() != "int8")
      return Fail("dot supports int8 integer operands only, got " + EA->getName());
    Ret = DType::getInt(32);
  } else if (OutDType->getName() == "bf16") {
    return Fail("out_dtype=bfloat16 is unsupported. Please use "
                "out_dtype=float32/float16 and cast with `.to(tl.bfloat16)`");
  } else if (EA->getName() == "fp32" || EA->getName() == "bf16") {
    Ret = DType::getFloat(Type::Kind::F32);
  } else if (EA->getName() == "fp64") {
    Ret = DType::getFloat(Type::Kind::F64);
  } else {
    if (OutDType->getName() != "fp32" && OutDType->getName() != "fp16")
      return Fail("dot out_dtype must be fp32 or fp16, got " + OutDType->getName());
    Ret = OutDType;
  }
  int64_t MinK = EA->getBitWidth() == 8 ? 32 : 16;
  if (K < MinK)
    return Fail("Input shapes should have M >= 1, N >= 1 and K >= " + llvm::Twine(MinK));
  Shape Dims;
  if (R == 3)
    Dims.push_back(SA[0]);
  Dims.push_back(SA[R - 2]);
  Dims.push_back(SB[R - 1]);
  // [1024, 16] x [16, 2048] has more elements than a block holds.
  std::string ShapeErr = checkBlockShape(Dims);
  if (!ShapeErr.empty())
    return TypeResult::fail(ShapeErr);
  DType *RetTy = DType::getBlock(Ret, Dims);
  if (!InputPrecision.empty() &&
      !lookupEnumValue(EnumTable::DotPrecision, InputPrecision.lower()))
    // bf16x3 and bf16x6 never get here: tl.dot splits them into bf16 dots.
    return Fail("input_precision must be one of tf32, tf32x3, bf16x3, bf16x6, ieee; got " +
                InputPrecision);
  if (FP8 && MaxNumImpreciseAcc > K)
    return Fail("max_num_imprecise_acc (" + llvm::Twine(MaxNumImpreciseAcc) +
                ") must be <= K (" + llvm::Twine(K) + ")");
  if (Acc && Acc != RetTy)
    return Fail("the accumulator of dot must be " + RetTy->getName() + ", got " +
                Acc->getName());
  return TypeResult::ok(RetTy);
}

TValue Semantic::dot(TValue A, TValue Bv, std::optional<TValue> Acc,
                     llvm::StringRef InputPrecision,
                     int64_t MaxNumImpreciseAcc, DType *OutDType) {
  TypeResult R = typeDot(A.Ty, Bv.Ty, Acc ? Acc->Ty : nullptr, InputPrecision,
                         MaxNumImpreciseAcc, OutDType);
  if (!R)
    error(R.Error);
  DType *RetTy = R.Ty, *EA = A.Ty->getScalar();
  bool FP8 = EA->isFP8() && Bv.Ty->getScalar()->isFP8();
  // Triton's default on NVIDIA: tf32 for fp32 operands.
  DotPrecision Prec = EA->getName() == "fp32" ? DotPrecision::TF32 : DotPrecision::IEEE;
  if (!InputPrecision.empty())
    Prec = DotPrecision(*lookupEnumValue(EnumTable::DotPrecision, InputPrecision.lower()));
  TValue C = Acc ? *Acc
                 : literal(Operand::integer(0), RetTy->getScalar(), RetTy->getShape());
  // The limit matters to fp8 operands only; negative: none (tensor cores
  // accumulate as they do).
  return make(B.createDot(A.V, Bv.V, C.V, Prec, FP8 ? MaxNumImpreciseAcc : -1), RetTy);
}
