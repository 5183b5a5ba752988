//===- MMALayouts.h - Layouts of NVIDIA's mma.sync and its operands -*- C++ -*-===//
//
// The register layouts of `mma.sync.aligned` (m16n8k16 for f16 and bf16
// inputs, m16n8k8 tf32, m16n8k32 int8; f32, f16 or s32 accumulation), as
// linear layouts, and the XOR-swizzled shared layout its operands pass
// through on their way from a coalesced load to `ldmatrix`. The PTX ISA's
// fragment tables, written as bases (dim0 is M or K, dim1 is K or N; g =
// lane / 4, t = lane % 4):
//
//   accumulator m16n8: c0,c1 at (g, 2t + {0,1}), c2,c3 at (g + 8, same)
//     register=[[0,1],[8,0]] lane=[[0,2],[0,4],[1,0],[2,0],[4,0]]
//   A m16k16:  a0,a1 (g, 2t + {0,1}); a2,a3 row + 8; a4,a5 col + 8; a6,a7 both
//     register=[[0,1],[8,0],[0,8]] lane=[[0,2],[0,4],[1,0],[2,0],[4,0]]
//   B k16n8:   b0,b1 (2t + {0,1}, g); b2,b3 row + 8
//     register=[[1,0],[8,0]] lane=[[2,0],[4,0],[0,1],[0,2],[0,4]]
//
// Every input type has the same fragments in 32-bit words: a word holds
// kWidth = 4 / (element bytes) elements consecutive along K, and the tile's
// K is 8 * kWidth (tf32: a0 (g, t), a1 row + 8, a2 col + 4, a3 both; int8:
// a0 (g, 4t + {0..3}) and so on). fp8 inputs, which this path upcasts to
// f16 as Triton's Ampere path does, take int8's layout (kWidth 4): a K
// tile of 32 is two m16n8k16 instructions over a permutation of its K,
// the same for A and B, so that the sum is unchanged and each operand
// still reads 4 consecutive bytes per word.
//
// Warps tile the result as Triton's Ampere path does (more along M while
// that leaves tiles at least as tall as wide); an operand is held by every
// warp that needs it (zero bases for the other warps). Larger shapes repeat
// the tiles in registers: along N first, then M, for the accumulator.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_NVPTX_MMALAYOUTS_H
#define TRITIUM_CODEGEN_NVPTX_MMALAYOUTS_H

#include "analysis/DotLayouts.h"

#include <optional>

namespace tritium {

class Instruction;

MMAWarps mmaWarps(llvm::ArrayRef<int64_t> Shape, unsigned NumWarps);
/// Every warp along M, where M has room (else mmaWarps): for dots chained
/// through their results (attention), so that one dot's accumulator is the
/// next one's A operand by a renaming of registers, and both share the row
/// mapping their row statistics broadcast along.
MMAWarps mmaWarpsAlongM(llvm::ArrayRef<int64_t> Shape, unsigned NumWarps);

/// The accumulator layout of an [M, N] dot (M >= 16, N >= 8).
LinearLayout mmaAccumulatorLayout(llvm::ArrayRef<int64_t> Shape, MMAWarps W);
inline LinearLayout mmaAccumulatorLayout(llvm::ArrayRef<int64_t> Shape, unsigned NumWarps) {
  return mmaAccumulatorLayout(Shape, mmaWarps(Shape, NumWarps));
}
/// The warps of \p L if it is an accumulator layout of \p Shape (for
/// either tiling of its warps).
std::optional<MMAWarps> matchMMAAccumulator(const LinearLayout &L,
                                            llvm::ArrayRef<int64_t> Shape);

/// The layout of operand \p OpIdx (0: A [M, K], 1: B [K, N]) of a dot whose
/// result is \p ResultShape [M, N], with \p KWidth elements per 32-bit word
/// (K >= 8 * KWidth).
LinearLayout mmaOperandLayout(unsigned OpIdx, llvm::ArrayRef<int64_t> OperandShape,
                              llvm::ArrayRef<int64_t> ResultShape, MMAWarps W,
                              unsigned KWidth = 2);
inline LinearLayout mmaOperandLayout(unsigned OpIdx, llvm::ArrayRef<int64_t> OperandShape,
                                     llvm::ArrayRef<int64_t> ResultShape, unsigned NumWarps,
                                     unsigned KWidth = 2) {
  return mmaOperandLayout(OpIdx, OperandShape, ResultShape, mmaWarps(ResultShape, NumWarps),
                          KWidth);
}

/// The mma.sync instruction a dot runs on, read off its types.
struct MMAInstr {
  enum class Input { F16, BF16, TF32, S8 };
  enum class Accum { F32, F16, S32 };
  Input In = Input::F16;
  Accum Acc = Accum::F32;
  unsigned KWidth = 2;    // operand elements per 32-bit word
  bool UpcastFP8 = false; // fp8 operands converted to f16 in registers
  bool Split3 = false;    // tf32x3: three tf32 products of split operands
  /// K of one K tile of the layouts (two instructions for fp8).
  unsigned kTile() const { return 8 * KWidth; }
};
/// The instruction for \p Dot: 2-d; f16 (f32 or f16 accumulator), bf16
/// (f32), f32 with tf32 or tf32x3 precision (f32), int8 (int32), fp8 of
/// either kind (f32 or f16); M >= 16, N >= 8, K >= its K tile. nullopt for
/// what the FMA dot keeps (ieee f32, fp64, small shapes).
std::optional<MMAInstr> mmaInstrOf(const Instruction &Dot);

/// Whether the types and shapes of the dot \p Dot fit an mma.sync.
inline bool isMMACandidate(const Instruction &Dot) { return mmaInstrOf(Dot).has_value(); }

/// Whether \p Dot is placed for mma.sync: a candidate whose result and
/// operands have the layouts above (the number of warps read off the
/// result's layout). The lowering and the shared memory analysis agree on
/// this, so a dot in any other layouts still lowers (through FMA).
bool isMMADot(const Instruction &Dot);

} // namespace tritium

#endif // TRITIUM_CODEGEN_NVPTX_MMALAYOUTS_H
