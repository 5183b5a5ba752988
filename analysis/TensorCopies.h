//===- TensorCopies.h - A target's copies of whole tiles, as the passes see them -*- C++ -*-===//
//
// Some targets copy a tile between global and shared memory with one
// instruction that reads a tensor descriptor (NVIDIA's TMA). The generic
// passes ask two things of such copies: which descriptor accesses they take
// (lower-tensor-descriptors keeps those for the target) and which shared
// buffers they fill (the pipeliner stages a kept descriptor_load into a
// ring only where the copy can write it). A target's folder registers its
// copies under the name lower-tensor-descriptors{keep=<name>} uses
// (codegen/nvptx: "tma"); nothing here names an instruction.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_TENSORCOPIES_H
#define TRITIUM_ANALYSIS_TENSORCOPIES_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

namespace tritium {

class AxisInfoAnalysis;
class Instruction;
class MemDescType;

struct TensorCopies {
  /// Whether they take the descriptor access \p Access.
  bool (*Takes)(const Instruction &Access, const AxisInfoAnalysis &AI);
  /// Whether they write a buffer of type \p M.
  bool (*Fills)(const MemDescType &M);
};

/// Registers \p C as \p Name; a target's folder does it once, from a
/// static object.
void registerTensorCopies(llvm::StringRef Name, TensorCopies C);
/// Every registered one, by name.
const llvm::StringMap<TensorCopies> &allTensorCopies();
/// Whether some target's tensor copies fill a buffer of type \p M.
bool tensorCopiesFill(const MemDescType &M);

} // namespace tritium

#endif // TRITIUM_ANALYSIS_TENSORCOPIES_H
