//===- FloatConversions.cpp - bf16 and fp8 in LLVM IR ---------------------===//
//
// Rounding to nearest even on the bit pattern: adding (half an ulp - 1) plus
// the lowest kept bit and truncating rounds ties to even, and a carry out of
// the mantissa correctly bumps the exponent.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/FloatConversions.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/Intrinsics.h"

#include <cmath>

using namespace tritium;

namespace {
/// Layout of an fp8 format.
struct FP8Format {
  unsigned ExpBits, MantBits, Bias;
  uint32_t MaxFinite; // bit pattern without sign
  uint32_t NaN;
  bool HasInf;
};

/// \p T shaped like \p V: T for a scalar, a vector of T as long as V's.
/// Every conversion here takes scalars or vectors alike (the cpu converts
/// 16 registers at a time).
llvm::Type *like(llvm::Value *V, llvm::Type *T) { return V->getType()->getWithNewType(T); }
llvm::Constant *i32Like(llvm::Value *V, uint32_t X) {
  return llvm::ConstantInt::get(like(V, llvm::Type::getInt32Ty(V->getContext())), X);
}

FP8Format formatOf(Type::Kind K) {
  if (K == Type::Kind::F8E4M3) // e4m3fn: no infinities, one NaN pattern
    return {4, 3, 7, 0x7E, 0x7F, false};
  if (K == Type::Kind::F8E4M3B15) // e4m3fn's encoding, values scaled by 2^-8
    return {4, 3, 15, 0x7E, 0x7F, false};
  return {5, 2, 15, 0x7B, 0x7F, true}; // e5m2: IEEE-like
}
} // namespace

llvm::Value *tritium::bf16ToF32(llvm::IRBuilder<> &B, llvm::Value *Bits) {
  llvm::Value *W = B.CreateShl(B.CreateZExt(Bits, like(Bits, B.getInt32Ty())), 16);
  return B.CreateBitCast(W, like(Bits, B.getFloatTy()));
}

llvm::Value *tritium::f32ToBF16(llvm::IRBuilder<> &B, llvm::Value *F,
                                RoundingMode Mode) {
  llvm::Value *Bits = B.CreateBitCast(F, like(F, B.getInt32Ty()));
  llvm::Value *R;
  if (Mode == RoundingMode::RTZ) {
    R = B.CreateLShr(Bits, 16);
  } else {
    llvm::Value *Lsb = B.CreateAnd(B.CreateLShr(Bits, 16), 1);
    R = B.CreateLShr(B.CreateAdd(B.CreateAdd(Bits, i32Like(F, 0x7FFF)), Lsb), 16);
  }
  // A NaN keeps its sign and becomes the quiet NaN (rounding could have
  // turned a NaN with only low mantissa bits into an infinity).
  llvm::Value *IsNaN = B.CreateFCmpUNO(F, F);
  llvm::Value *QNaN = B.CreateOr(B.CreateAnd(B.CreateLShr(Bits, 16), 0x8000), 0x7FC0);
  return B.CreateTrunc(B.CreateSelect(IsNaN, QNaN, R), like(F, B.getInt16Ty()));
}

llvm::Value *tritium::fp8ToF32(llvm::IRBuilder<> &B, llvm::Value *Bits8,
                               Type::Kind K) {
  FP8Format Fmt = formatOf(K);
  llvm::Type *I32 = like(Bits8, B.getInt32Ty()), *F32 = like(Bits8, B.getFloatTy());
  auto K32 = [&](uint32_t X) { return i32Like(Bits8, X); };
  llvm::Value *Bits = B.CreateZExt(Bits8, I32);
  llvm::Value *Sign = B.CreateShl(B.CreateAnd(Bits, 0x80), 24);
  llvm::Value *Exp = B.CreateAnd(B.CreateLShr(Bits, Fmt.MantBits),
                                 (1u << Fmt.ExpBits) - 1);
  llvm::Value *Mant = B.CreateAnd(Bits, (1u << Fmt.MantBits) - 1);
  llvm::Value *Normal = B.CreateOr(
      Sign, B.CreateOr(B.CreateShl(B.CreateAdd(Exp, K32(127 - Fmt.Bias)), 23),
                       B.CreateShl(Mant, 23 - Fmt.MantBits)));
  // Subnormals: mantissa times the smallest subnormal.
  float Unit = std::ldexp(1.0f, 1 - int(Fmt.Bias) - int(Fmt.MantBits));
  llvm::Value *Sub = B.CreateFMul(B.CreateUIToFP(Mant, F32),
                                  llvm::ConstantFP::get(F32, Unit));
  Sub = B.CreateOr(B.CreateBitCast(Sub, I32), Sign);
  llvm::Value *R = B.CreateSelect(B.CreateICmpEQ(Exp, K32(0)), Sub, Normal);
  llvm::Value *Abs = B.CreateAnd(Bits, 0x7F);
  if (Fmt.HasInf) {
    uint32_t InfBits = ((1u << Fmt.ExpBits) - 1) << Fmt.MantBits;
    llvm::Value *IsInf = B.CreateICmpEQ(Abs, K32(InfBits));
    llvm::Value *IsNaN = B.CreateICmpUGT(Abs, K32(InfBits));
    R = B.CreateSelect(IsInf, B.CreateOr(Sign, K32(0x7F800000)), R);
    R = B.CreateSelect(IsNaN, B.CreateOr(Sign, K32(0x7FC00000)), R);
  } else {
    llvm::Value *IsNaN = B.CreateICmpEQ(Abs, K32(Fmt.NaN));
    R = B.CreateSelect(IsNaN, B.CreateOr(Sign, K32(0x7FC00000)), R);
  }
  return B.CreateBitCast(R, F32);
}

llvm::Value *tritium::f32ToFP8(llvm::IRBuilder<> &B, llvm::Value *F, Type::Kind K) {
  FP8Format Fmt = formatOf(K);
  llvm::Value *Bits = B.CreateBitCast(F, like(F, B.getInt32Ty()));
  llvm::Value *Sign = B.CreateAnd(B.CreateLShr(Bits, 24), 0x80);
  llvm::Value *AbsBits = B.CreateAnd(Bits, 0x7FFFFFFF);
  llvm::Value *Abs = B.CreateBitCast(AbsBits, F->getType());
  // Normal numbers: rebias the exponent, then round the mantissa.
  unsigned Drop = 23 - Fmt.MantBits;
  llvm::Value *X = B.CreateSub(AbsBits, i32Like(F, (127 - Fmt.Bias) << 23));
  llvm::Value *Lsb = B.CreateAnd(B.CreateLShr(X, Drop), 1);
  llvm::Value *Normal = B.CreateLShr(
      B.CreateAdd(B.CreateAdd(X, i32Like(F, (1u << (Drop - 1)) - 1)), Lsb), Drop);
  // Subnormals: scale to units of the smallest subnormal and round to even.
  float Scale = std::ldexp(1.0f, int(Fmt.Bias) - 1 + int(Fmt.MantBits));
  llvm::Value *Scaled = B.CreateFMul(Abs, llvm::ConstantFP::get(F->getType(), Scale));
  llvm::Value *Rounded =
      B.CreateUnaryIntrinsic(llvm::Intrinsic::rint, Scaled);
  llvm::Value *Sub = B.CreateFPToUI(Rounded, like(F, B.getInt32Ty()));
  float MinNormal = std::ldexp(1.0f, 1 - int(Fmt.Bias));
  llvm::Value *IsSub =
      B.CreateFCmpOLT(Abs, llvm::ConstantFP::get(F->getType(), MinNormal));
  llvm::Value *R = B.CreateSelect(IsSub, Sub, Normal);
  // Saturate (this also takes infinities to the largest finite value).
  llvm::Value *Big = B.CreateICmpUGT(R, i32Like(F, Fmt.MaxFinite));
  llvm::Value *TooBig = B.CreateOr(
      Big, B.CreateICmpUGE(AbsBits, i32Like(F, 0x7F800000)));
  R = B.CreateSelect(TooBig, i32Like(F, Fmt.MaxFinite), R);
  llvm::Value *IsNaN = B.CreateICmpUGT(AbsBits, i32Like(F, 0x7F800000));
  R = B.CreateSelect(IsNaN, i32Like(F, Fmt.NaN), R);
  return B.CreateTrunc(B.CreateOr(R, Sign), like(F, B.getInt8Ty()));
}

uint8_t tritium::fp8ConstantBits(double D, Type::Kind K) {
  FP8Format Fmt = formatOf(K);
  uint8_t Sign = std::signbit(D) ? 0x80 : 0;
  if (std::isnan(D))
    return uint8_t(Fmt.NaN | Sign);
  // Rounded once, to nearest even, from the constant's double (as the
  // interpreter does). LLVM has e4m3fn and e5m2; e4b15 is e4m3fn's encoding
  // of D * 2^8. What LLVM makes an infinity or a NaN (out of range, or an
  // infinity) saturates, as f32ToFP8 does.
  const llvm::fltSemantics &Sem = K == Type::Kind::F8E5M2 ? llvm::APFloat::Float8E5M2()
                                                           : llvm::APFloat::Float8E4M3FN();
  llvm::APFloat A(K == Type::Kind::F8E4M3B15 ? std::ldexp(D, 8) : D);
  bool LosesInfo;
  A.convert(Sem, llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
  if (A.isInfinity() || A.isNaN())
    return uint8_t(Fmt.MaxFinite | Sign);
  return uint8_t(A.bitcastToAPInt().getZExtValue());
}

bool tritium::isCarriedFloat(Type *Elem) {
  Type::Kind K = Elem->getScalarType()->getKind();
  return K == Type::Kind::BF16 || Elem->getScalarType()->isFP8();
}

llvm::Value *tritium::toF32(llvm::IRBuilder<> &B, llvm::Value *V, Type *Elem) {
  switch (Elem->getScalarType()->getKind()) {
  case Type::Kind::BF16: return bf16ToF32(B, V);
  case Type::Kind::F8E4M3:
  case Type::Kind::F8E5M2:
  case Type::Kind::F8E4M3B15: return fp8ToF32(B, V, Elem->getScalarType()->getKind());
  case Type::Kind::F16:
  case Type::Kind::F64: return B.CreateFPCast(V, like(V, B.getFloatTy()));
  default: return V;
  }
}

llvm::Value *tritium::fromF32(llvm::IRBuilder<> &B, llvm::Value *F, Type *Elem,
                              RoundingMode Mode) {
  switch (Elem->getScalarType()->getKind()) {
  case Type::Kind::BF16: return f32ToBF16(B, F, Mode);
  case Type::Kind::F8E4M3:
  case Type::Kind::F8E5M2:
  case Type::Kind::F8E4M3B15: return f32ToFP8(B, F, Elem->getScalarType()->getKind());
  case Type::Kind::F16: return B.CreateFPTrunc(F, like(F, B.getHalfTy()));
  case Type::Kind::F64: return B.CreateFPExt(F, like(F, B.getDoubleTy()));
  default: return F;
  }
}
