//===- SharedMemory.h - Shared memory of a kernel ---------------*- C++ -*-===//
//
// Which instructions use shared memory, how much, and where. Today every use
// is a scratch buffer an instruction needs only while it runs (a layout
// conversion through shared memory, the cross-warp step of a reduction or
// scan, the broadcast of a scalar atomic's result); getScratchBytes says how
// much each needs, in the same terms its lowering uses it.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_SHAREDMEMORY_H
#define TRITIUM_ANALYSIS_SHAREDMEMORY_H

#include "llvm/ADT/DenseMap.h"

#include <optional>

namespace tritium {

class Function;
class Instruction;
class LinearLayout;
class Type;

/// Bytes one element of \p T takes in shared memory (i1 takes a byte).
unsigned getSharedElementBytes(Type *T);

/// Whether converting \p Src to \p Dst moves data between threads (and so
/// goes through shared memory).
bool conversionNeedsSharedMemory(const LinearLayout &Src, const LinearLayout &Dst);

/// The number of warps a reduction or scan along \p Axis of a value in
/// layout \p L combines across (2^bits of the warp bases moving \p Axis).
unsigned getCrossWarpFactor(const LinearLayout &L, unsigned Axis);

/// Scratch bytes \p I needs while it runs (0 for none). Layout-level IR.
unsigned getScratchBytes(const Instruction &I);

/// Offsets of every buffer in the kernel's dynamic shared memory.
class SharedMemoryAllocation {
public:
  explicit SharedMemoryAllocation(Function &F);
  /// The offset of \p I's scratch buffer, if it has one.
  std::optional<unsigned> getScratchOffset(const Instruction &I) const;
  /// Bytes of shared memory the kernel needs.
  unsigned getTotalBytes() const { return Total; }

private:
  llvm::DenseMap<const Instruction *, unsigned> Offsets;
  unsigned Total = 0;
};

} // namespace tritium

#endif // TRITIUM_ANALYSIS_SHAREDMEMORY_H
