//===- Layouts.h - The familiar layouts as linear layouts -------*- C++ -*-===//
//
// Constructors of LinearLayout for the distributed layouts the code
// generator uses. Input dimensions are "register", "lane" and "warp"; output
// dimensions are the tensor's "dim0", "dim1", ... in order.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_LAYOUTS_H
#define TRITIUM_ANALYSIS_LAYOUTS_H

#include "ir/LinearLayout.h"

#include <optional>

namespace tritium {

/// Names of the hardware dimensions.
inline constexpr const char *kRegister = "register";
inline constexpr const char *kLane = "lane";
inline constexpr const char *kWarp = "warp";
/// "dim<I>".
std::string outDimName(unsigned I);

/// A blocked layout parameterized as in Triton: each thread holds
/// SizePerThread[d] consecutive elements of dimension d, a warp spreads
/// ThreadsPerWarp[d] threads and the CTA WarpsPerCTA[d] warps along it,
/// Order lists dimensions fastest first. The tile repeats over registers
/// where \p Shape is larger and is clipped (lanes and warps then hold copies)
/// where \p Shape is smaller.
struct BlockedParams {
  llvm::SmallVector<unsigned, 4> SizePerThread;
  llvm::SmallVector<unsigned, 4> ThreadsPerWarp;
  llvm::SmallVector<unsigned, 4> WarpsPerCTA;
  llvm::SmallVector<unsigned, 4> Order;
};
LinearLayout blockedLayout(llvm::ArrayRef<int64_t> Shape, const BlockedParams &P);

/// Triton's default distribution of \p NumWarps warps of \p WarpSize lanes
/// over \p Shape, given each thread's SizePerThread and the Order: lanes
/// then warps go to the fastest dimension first, as far as it has room.
BlockedParams defaultBlockedParams(llvm::ArrayRef<int64_t> Shape,
                                   llvm::ArrayRef<unsigned> SizePerThread,
                                   llvm::ArrayRef<unsigned> Order,
                                   unsigned NumWarps, unsigned WarpSize = 32);

/// The layout of a value with dimension \p Dim of \p Parent removed (what a
/// reduction along Dim leaves): outputs renumbered, registers that only moved
/// along Dim dropped.
LinearLayout sliceLayout(const LinearLayout &Parent, unsigned Dim);

/// \p L with a size-1 dimension inserted at \p Dim (the inverse of a slice
/// for expand_dims).
LinearLayout expandDimsLayout(const LinearLayout &L, unsigned Dim);

/// The rank of the tensor a layout describes.
/// When the same lane and warp hold the same elements in both layouts, the
/// register of \p Src holding each register of \p Dst (both layouts over
/// the same tensor shape); nullopt when data has to cross threads.
std::optional<llvm::SmallVector<int32_t, 16>>
registerMapping(const LinearLayout &Src, const LinearLayout &Dst);

/// Number of registers a thread uses for a value in layout \p L.
inline unsigned getNumRegisters(const LinearLayout &L) {
  return 1u << L.getInDimSizeLog2(kRegister);
}

inline unsigned getRank(const LinearLayout &L) { return L.getOutDims().size(); }

} // namespace tritium

#endif // TRITIUM_ANALYSIS_LAYOUTS_H
