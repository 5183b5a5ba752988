//===- WGMMALayouts.h - Hopper's wgmma: which dots, which shared layouts -*- C++ -*-===//
//
// `wgmma.mma_async` (sm_90a) multiplies a warpgroup's (4 warps') 64xN tile
// over K = 16 (f16, bf16) with A and B read from shared memory through
// matrix descriptors. Its accumulator fragment is mma.sync's: warp w of
// the group holds rows 16w..16w+15, a thread d[4j + q] at row g + 8 (q/2),
// column 8j + 2t + q%2 (g = lane / 4, t = lane % 4). So a dot placed for
// mma.sync with every warp along M (MMAWarps{NumWarps, 1}) is already in
// wgmma's layout: warpgroup G's instruction covers rows 64G..64G+63 of
// each block of 16 * NumWarps rows.
//
// The operands must be in the NVMMA shared layout with 128-byte swizzling
// (the PTX ISA's "canonical layouts"): 64 f16 (128 bytes) of the
// contiguous dimension make a row, eight rows an atom of 1024 bytes in
// which row r's 16-byte chunk c sits at chunk c ^ (r % 8); atoms follow
// along the other dimension (the descriptor's stride byte offset, 1024),
// and 64-element blocks of the contiguous dimension come last (the
// leading byte offset, when that dimension is M or N). Either dimension
// may be the contiguous one: K (K-major) or M / N (MN-major, the
// instruction's transpose bit).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_NVPTX_WGMMALAYOUTS_H
#define TRITIUM_CODEGEN_NVPTX_WGMMALAYOUTS_H

#include "ir/LinearLayout.h"

#include <optional>

namespace tritium {

class Instruction;
class MemDescType;
class Value;

/// The swizzle wgmma and TMA name for rows of \p RowBytes: 128 bytes for
/// a multiple of 128 (column blocks of 128 bytes side by side), else 64 or
/// 32 for rows of exactly that; 0 for none.
unsigned nvmmaSwizzleBytes(int64_t RowBytes);

/// The NVMMA shared layout of a 2-d block of \p Shape and \p ElementBytes-
/// byte elements, dimension \p Contiguous fastest, in the swizzle of
/// nvmmaSwizzleBytes(its rows' bytes); nullopt where that is none or the
/// other dimension is not a multiple of 8.
std::optional<LinearLayout> nvmmaSharedLayout(llvm::ArrayRef<int64_t> Shape, unsigned Contiguous,
                                              unsigned ElementBytes);

/// Whether TMA can copy the blocks \p Access (a descriptor_load or
/// descriptor_store) reads or writes, through a buffer in the NVMMA layout
/// with the last dimension contiguous: its descriptor a
/// make_tensor_descriptor with a tensormap, a 2-d block whose rows span a
/// multiple of 128 bytes (copied as boxes of 128 bytes by its row count,
/// at most 256), its base 16-byte aligned and its row stride a multiple
/// of 16 bytes (the tensormap then encodes: tools/tensor_descriptor.py's
/// tma_box is the host's side of this rule).
bool tmaCopies(const Instruction &Access, const class AxisInfoAnalysis &AI);

/// Which dimension of \p M is contiguous, if its layout is the NVMMA one.
std::optional<unsigned> nvmmaContiguousDim(const MemDescType &M);
/// The same of the buffer \p Operand is read from, if it is a local_load
/// (a dot operand wgmma can read through a descriptor).
std::optional<unsigned> nvmmaLoadContiguousDim(const Value *Operand);

/// Whether \p Dot fits wgmma on \p NumWarps warps: f16, bf16 or fp8 (e4m3,
/// e5m2, mixed too; not e4b15, which wgmma lacks) inputs, f32 accumulator,
/// whole warpgroups, M a multiple of 16 * NumWarps (every warp along M), N a
/// multiple of 8 up to 256, K a multiple of 16 (32 for fp8).
bool isWGMMACandidate(const Instruction &Dot, unsigned NumWarps);

/// Whether \p Dot is placed for wgmma: a candidate in mma.sync's
/// accumulator layout with every warp along M.
bool isWGMMADot(const Instruction &Dot);

/// Whether \p Dot's wgmma group may stay in flight into the next iteration
/// of its loop (a matmul's K loop): its accumulator is a phi of the loop's
/// header that only the dot reads in the loop, the dot's result only that
/// phi's value from the body, the body a single block after the header
/// (its latch), the exit entered only from the header, and the dot's
/// operands local_loads of ring slots or of buffers made before the loop
/// (never of a buffer the body stores from registers). The next iteration's
/// dot then queues behind it; the lowering waits for the one before it
/// right after issuing it, and for the last one where the loop exits.
bool wgmmaStaysInFlight(const Instruction &Dot);

} // namespace tritium

#endif // TRITIUM_CODEGEN_NVPTX_WGMMALAYOUTS_H
