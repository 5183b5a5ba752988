//===- DotLayouts.h - What every target's matrix layouts build on -*- C++ -*-===//
//
// The vendor-neutral pieces of the dots' layouts: how warps tile a dot's
// result (Triton's tiling, for any tile size), which dots are chained
// through their results (attention's two), the 2-d dots matrix units start
// from, and the swizzle that keeps a 2-d block's rows of 16-byte chunks out
// of each other's shared memory banks. mma.sync's and wgmma's layouts
// (MMALayouts.h, WGMMALayouts.h) and MFMA's (codegen/amdgpu/MFMALayouts.h)
// are made of them.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_DOTLAYOUTS_H
#define TRITIUM_ANALYSIS_DOTLAYOUTS_H

#include "ir/LinearLayout.h"

#include <optional>

namespace tritium {

class Instruction;

/// How many warps tile M and N of an [M, N] dot on \p NumWarps warps.
struct MMAWarps {
  unsigned M = 1, N = 1;
};
/// Triton's tiling of \p NumWarps warps over tiles of TileM x TileN: more
/// warps along M while the tiles per warp along M are at least those along
/// N (and M has tiles left); mmaWarps is it for 16 x 8.
MMAWarps warpsPerTile(llvm::ArrayRef<int64_t> Shape, unsigned NumWarps, int64_t TileM,
                      int64_t TileN);

/// Whether \p Dot's result reaches another dot's A operand (a chain's
/// head), or its A comes from another dot's result (its tail), through
/// instructions that keep the block's shape (elementwise math, casts,
/// conversions).
bool feedsDotA(const Instruction &Dot);
bool takesADotResult(const Instruction &Dot);
inline bool isChainedDot(const Instruction &Dot) { return feedsDotA(Dot) || takesADotResult(Dot); }

/// Whether \p Dot is a dot of two 2-d blocks whose sides are powers of two
/// (what either vendor's matrix instructions start from).
bool is2DDot(const Instruction &Dot);

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

#endif // TRITIUM_ANALYSIS_DOTLAYOUTS_H
