//===- MFMALayouts.h - Layouts of AMD's MFMA and its operands ----*- C++ -*-===//
//
// The register layouts of CDNA's matrix instructions on wave64
// (v_mfma_*_32x32x* and *_16x16x*: gfx90a, gfx940) as linear layouts. For a
// tile of T x T (T = 32 or 16) lane l holds, of A, row l % T and of B,
// column l % T, at K positions kWidth * (l / T) + i; of the accumulator,
// column l % T and rows 4 * (l / T) + (i % 4) + 8 * (i / 4) (T = 32: 16
// values, bases register=[[1,0],[2,0],[8,0],[16,0]] lane=[[0,1],[0,2],[0,4],
// [0,8],[0,16],[4,0]]; T = 16: 4 values, register=[[1,0],[2,0]]
// lane=[[0,1],[0,2],[0,4],[0,8],[4,0],[8,0]]); the transposed variant swaps
// the coordinates of those bases.
//
// The operand layouts give each lane W consecutive K elements (16 bytes: 8
// f16 or bf16, 4 f32, 16 i8), more than one instruction's kWidth: a K chunk
// of W * 64 / T is then W / kWidth instructions, the j-th taking elements
// [j * kWidth, (j + 1) * kWidth) of every lane. That permutes K the same way
// for A and B, which a sum over K does not see, and lets both the writes
// into shared memory and the reads out of it be 16 bytes a lane
// (ds_write_b128 / ds_read_b128) on either generation (gfx940's i8
// instruction takes 8 K elements a lane, gfx90a's 4).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_AMDGPU_MFMALAYOUTS_H
#define TRITIUM_CODEGEN_AMDGPU_MFMALAYOUTS_H

#include "analysis/DotLayouts.h"

namespace tritium {

class Type;

/// K elements a lane holds per chunk: 16 bytes of \p Elem.
unsigned mfmaLoadWidth(const Type *Elem);

/// The tile (32 or 16) an [M, N] dot over K takes with \p W K elements a
/// lane per chunk: 32 where M and N have room and K fills chunks, else 16,
/// else 0 (FMA).
unsigned mfmaTileFor(int64_t M, int64_t N, int64_t K, unsigned W);

/// How many warps tile M and N (tiles of T x T; M first, as mmaWarps).
MMAWarps mfmaWarps(llvm::ArrayRef<int64_t> Shape, unsigned NumWarps, unsigned T);

/// Whether the types and shapes of \p Dot fit MFMA: 2-d, A and B both f16,
/// bf16, f32 (f32 accumulator) or i8 (i32 accumulator), and a tile.
bool isMFMACandidate(const Instruction &Dot);

/// How a dot sits on MFMA: its tile, the K elements a lane holds per chunk,
/// its warps and the accumulator's variant.
struct MFMAConfig {
  unsigned Tile = 0; // 32 or 16
  unsigned Width = 0;
  MMAWarps Warps;
  bool Transposed = true;
};
/// The accumulator layout of an [M, N] dot on T x T tiles. Transposed: the
/// instruction computes each tile's transpose (B^T A^T, A and B swapped in
/// the call), so that a lane's registers run along N (four consecutive
/// columns: vector stores in the epilogue) and its lane along M; what the
/// layout passes choose, as Triton's AMD backend does.
LinearLayout mfmaAccumulatorLayout(llvm::ArrayRef<int64_t> Shape, const MFMAConfig &C);
/// The layout of operand \p OpIdx (0: A [M, K], 1: B [K, N]) of an [M, N]
/// dot on T x T tiles, Width K elements a lane per chunk.
LinearLayout mfmaOperandLayout(unsigned OpIdx, llvm::ArrayRef<int64_t> OperandShape,
                               llvm::ArrayRef<int64_t> ResultShape, const MFMAConfig &C);

/// The placement the layout passes give a candidate dot on \p NumWarps
/// waves: 16-byte chunks and Triton's warp tiling; for dots chained through
/// their results (attention) every warp along M, and the tail's operands
/// one instruction's K a lane (4 f16 or bf16, 1 f32; i8 chains stay on
/// FMA), so that the head's transposed accumulator is the tail's A by a
/// renaming of registers. nullopt: not on MFMA.
std::optional<MFMAConfig> chooseMFMA(const Instruction &Dot, unsigned NumWarps);

/// How \p Dot is placed, if it and its operands are in MFMA layouts (the
/// accumulator in either variant).
std::optional<MFMAConfig> matchMFMADot(const Instruction &Dot);
inline bool isMFMADot(const Instruction &Dot) { return matchMFMADot(Dot).has_value(); }

} // namespace tritium

#endif // TRITIUM_CODEGEN_AMDGPU_MFMALAYOUTS_H
