//===- FloatConversions.h - bf16 and fp8 in LLVM IR -------------*- C++ -*-===//
//
// bf16 and the fp8 formats are carried as i16 / i8 in LLVM IR (LLVM 16's
// NVPTX backend cannot select most bfloat operations, and has no fp8), and
// computed on in f32. These helpers convert between the carriers and f32 with
// the rounding Triton uses: round to nearest even, NaN kept, and for fp8 the
// "satfinite" saturation of `cvt.rn.satfinite` (out-of-range values become
// the largest finite value of their sign). They are plain integer IR, so they
// work on every target and architecture, on scalars or vectors alike (the
// cpu converts 16 registers at a time).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_LOWERING_FLOATCONVERSIONS_H
#define TRITIUM_CODEGEN_LOWERING_FLOATCONVERSIONS_H

#include "ir/Attribute.h"
#include "ir/Types.h"

#include "llvm/IR/IRBuilder.h"

namespace tritium {

/// bf16 bits (i16) to float, exactly.
llvm::Value *bf16ToF32(llvm::IRBuilder<> &B, llvm::Value *Bits);
/// float to bf16 bits, round to nearest even (or toward zero).
llvm::Value *f32ToBF16(llvm::IRBuilder<> &B, llvm::Value *F,
                       RoundingMode Mode = RoundingMode::RTNE);
/// fp8 bits (i8) of format \p K (F8E4M3, F8E5M2, F8E4M3B15) to float, exactly.
llvm::Value *fp8ToF32(llvm::IRBuilder<> &B, llvm::Value *Bits, Type::Kind K);
/// float to fp8 bits of format \p K, round to nearest even, saturating.
llvm::Value *f32ToFP8(llvm::IRBuilder<> &B, llvm::Value *F, Type::Kind K);
/// The fp8 bits of format \p K of the constant \p D: rounded to nearest
/// even and saturating as f32ToFP8 does (and the interpreter), not the NaN
/// or infinity LLVM's conversion gives out of range.
uint8_t fp8ConstantBits(double D, Type::Kind K);

/// Any float element value (as carried) to f32.
llvm::Value *toF32(llvm::IRBuilder<> &B, llvm::Value *V, Type *Elem);
/// An f32 value to the carrier of float element type \p Elem.
llvm::Value *fromF32(llvm::IRBuilder<> &B, llvm::Value *F, Type *Elem,
                     RoundingMode Mode = RoundingMode::RTNE);
/// Whether \p Elem is computed on in f32 (bf16, fp8).
bool isCarriedFloat(Type *Elem);

} // namespace tritium

#endif // TRITIUM_CODEGEN_LOWERING_FLOATCONVERSIONS_H
