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

TValue Semantic::dot(TValue A, TValue Bv, std::optional<TValue> Acc,
                     llvm::StringRef InputPrecision,
                     int64_t MaxNumImpreciseAcc, DType *OutDType) {
  if (!A.Ty->isBlock() || !Bv.Ty->isBlock())
    error("dot expects two blocks, got " + A.Ty->getName() + " and " +
          Bv.Ty->getName());
  DType *EA = A.Ty->getScalar(), *EB = Bv.Ty->getScalar();
  bool FP8 = EA->isFP8() && EB->isFP8();
  if (!FP8) {
    if (!isDotType(EA))
      error("dot does not support lhs dtype " + EA->getName());
    if (!isDotType(EB))
      error("dot does not support rhs dtype " + EB->getName());
    if (EA != EB)
      error("dot operands must have the same dtype, got " + EA->getName() +
            " and " + EB->getName());
  }
  llvm::ArrayRef<int64_t> SA = A.Ty->getShape(), SB = Bv.Ty->getShape();
  size_t R = SA.size();
  if (SB.size() != R || (R != 2 && R != 3))
    error("Both inputs must be either 2D or 3D; (lhs: " + formatShape(SA) +
          " vs rhs: " + formatShape(SB) + ")");
  int64_t K = SA[R - 1];
  if (K != SB[R - 2])
    error("First input shape (" + formatShape(SA) + ") and second input shape " +
          formatShape(SB) +
          " are not compatible for matmul (second index of first shape (" +
          llvm::Twine(K) + ") must be equal to first index of second shape (" +
          llvm::Twine(SB[R - 2]) + "))");
  if (R == 3 && SA[0] != SB[0])
    error("dot operands have different batch sizes: " + formatShape(SA) +
          " and " + formatShape(SB));

  if (!OutDType)
    OutDType = DType::getFloat(Type::Kind::F32);
  OutDType = OutDType->getScalar();
  DType *Ret;
  if (EA->isInt()) {
    if (EA->getName() != "int8")
      error("dot supports int8 integer operands only, got " + EA->getName());
    Ret = DType::getInt(32);
  } else if (OutDType->getName() == "bf16") {
    error("out_dtype=bfloat16 is unsupported. Please use "
          "out_dtype=float32/float16 and cast with `.to(tl.bfloat16)`");
  } else if (EA->getName() == "fp32" || EA->getName() == "bf16") {
    Ret = DType::getFloat(Type::Kind::F32);
  } else if (EA->getName() == "fp64") {
    Ret = DType::getFloat(Type::Kind::F64);
  } else {
    if (OutDType->getName() != "fp32" && OutDType->getName() != "fp16")
      error("dot out_dtype must be fp32 or fp16, got " + OutDType->getName());
    Ret = OutDType;
  }
  int64_t MinK = EA->getBitWidth() == 8 ? 32 : 16;
  if (K < MinK)
    error("Input shapes should have M >= 1, N >= 1 and K >= " + llvm::Twine(MinK));
  Shape Dims;
  if (R == 3)
    Dims.push_back(SA[0]);
  Dims.push_back(SA[R - 2]);
  Dims.push_back(SB[R - 1]);
  // [1024, 16] x [16, 2048] has more elements than a block holds.
  std::string ShapeErr = checkBlockShape(Dims);
  if (!ShapeErr.empty())
    error(ShapeErr);
  DType *RetTy = DType::getBlock(Ret, Dims);

  std::string P = InputPrecision.lower();
  DotPrecision Prec;
  if (P.empty()) {
    // Triton's default on NVIDIA: tf32 for fp32 operands.
    Prec = EA->getName() == "fp32" ? DotPrecision::TF32 : DotPrecision::IEEE;
  } else if (std::optional<unsigned> V =
                 lookupEnumValue(EnumTable::DotPrecision, P)) {
    Prec = DotPrecision(*V);
  } else {
    error("input_precision must be one of tf32, tf32x3, ieee; got " +
          InputPrecision);
  }
  if (FP8 && MaxNumImpreciseAcc > K)
    error("max_num_imprecise_acc (" + llvm::Twine(MaxNumImpreciseAcc) +
          ") must be <= K (" + llvm::Twine(K) + ")");

  TValue C;
  if (Acc) {
    if (Acc->Ty != RetTy)
      error("the accumulator of dot must be " + RetTy->getName() + ", got " +
            Acc->Ty->getName());
    C = *Acc;
  } else {
    C = literal(Operand::integer(0), Ret, Dims);
  }
  // The limit matters to fp8 operands only; negative: none (tensor cores
  // accumulate as they do).
  return make(B.createDot(A.V, Bv.V, C.V, Prec, FP8 ? MaxNumImpreciseAcc : -1), RetTy);
}
