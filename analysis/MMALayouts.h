//===- MMALayouts.h - Layouts of NVIDIA's mma.sync and its operands -*- C++ -*-===//
//
// The register layouts of `mma.sync.aligned.m16n8k16` (f16 and bf16 inputs,
// f32 accumulation), as linear layouts, and the XOR-swizzled shared layout
// its operands pass through on their way from a coalesced load to
// `ldmatrix`. The PTX ISA's fragment tables, written as bases (dim0 is M or
// K, dim1 is K or N; g = lane / 4, t = lane % 4):
//
//   accumulator m16n8: c0,c1 at (g, 2t + {0,1}), c2,c3 at (g + 8, same)
//     register=[[0,1],[8,0]] lane=[[0,2],[0,4],[1,0],[2,0],[4,0]]
//   A m16k16:  a0,a1 (g, 2t + {0,1}); a2,a3 row + 8; a4,a5 col + 8; a6,a7 both
//     register=[[0,1],[8,0],[0,8]] lane=[[0,2],[0,4],[1,0],[2,0],[4,0]]
//   B k16n8:   b0,b1 (2t + {0,1}, g); b2,b3 row + 8
//     register=[[1,0],[8,0]] lane=[[2,0],[4,0],[0,1],[0,2],[0,4]]
//
// Warps tile the result as Triton's Ampere path does (more along M while
// that leaves tiles at least as tall as wide); an operand is held by every
// warp that needs it (zero bases for the other warps). Larger shapes repeat
// the tiles in registers: along N first, then M, for the accumulator.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_MMALAYOUTS_H
#define TRITIUM_ANALYSIS_MMALAYOUTS_H

#include "ir/LinearLayout.h"

#include <optional>

namespace tritium {

class Instruction;

/// How many warps tile M and N of an [M, N] dot on \p NumWarps warps.
struct MMAWarps {
  unsigned M = 1, N = 1;
};
MMAWarps mmaWarps(llvm::ArrayRef<int64_t> Shape, unsigned NumWarps);
/// Triton's tiling of \p NumWarps warps over tiles of TileM x TileN: more
/// warps along M while the tiles per warp along M are at least those along
/// N (and M has tiles left); mmaWarps is it for 16 x 8.
MMAWarps warpsPerTile(llvm::ArrayRef<int64_t> Shape, unsigned NumWarps, int64_t TileM,
                      int64_t TileN);
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
/// result is \p ResultShape [M, N].
LinearLayout mmaOperandLayout(unsigned OpIdx, llvm::ArrayRef<int64_t> OperandShape,
                              llvm::ArrayRef<int64_t> ResultShape, MMAWarps W);
inline LinearLayout mmaOperandLayout(unsigned OpIdx, llvm::ArrayRef<int64_t> OperandShape,
                                     llvm::ArrayRef<int64_t> ResultShape, unsigned NumWarps) {
  return mmaOperandLayout(OpIdx, OperandShape, ResultShape, mmaWarps(ResultShape, NumWarps));
}

/// Whether \p Dot's result reaches another dot's A operand (a chain's
/// head), or its A comes from another dot's result (its tail), through
/// instructions that keep the block's shape (elementwise math, casts,
/// conversions).
bool feedsDotA(const Instruction &Dot);
bool takesADotResult(const Instruction &Dot);
inline bool isChainedDot(const Instruction &Dot) {
  return feedsDotA(Dot) || takesADotResult(Dot);
}

/// Whether \p Dot is a dot of two 2-d blocks whose sides are powers of two
/// (what either vendor's matrix instructions start from).
bool is2DDot(const Instruction &Dot);

/// Whether the types and shapes of the dot \p Dot fit mma.sync m16n8k16:
/// 2-d, A and B both f16 or both bf16, an f32 accumulator, M >= 16, N >= 8
/// and K a multiple of 16.
bool isMMACandidate(const Instruction &Dot);

/// Whether \p Dot is placed for mma.sync: a candidate whose result and
/// operands have the layouts above (the number of warps read off the
/// result's layout). The lowering and the shared memory analysis agree on
/// this, so a dot in any other layouts still lowers (through FMA).
bool isMMADot(const Instruction &Dot);

/// A shared layout ("offset" in elements -> the block's coordinates) for a
/// 2-d block of \p ElementBytes-byte elements stored with dimension
/// \p Contiguous fastest: rows of 16-byte chunks whose chunk index is XORed
/// with a phase of the row, so that the 8 rows an ldmatrix phase reads at
/// one chunk, and 8 consecutive chunks a quarter warp writes, fall in
/// distinct banks. Rows of 128 bytes or more take phase = row % 8; shorter
/// rows share a phase between 128 / row-bytes consecutive rows.
LinearLayout swizzledSharedLayout(llvm::ArrayRef<int64_t> Shape, unsigned Contiguous,
                                  unsigned ElementBytes);

} // namespace tritium

#endif // TRITIUM_ANALYSIS_MMALAYOUTS_H
