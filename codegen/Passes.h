//===- Passes.h - Every pass of every library -------------------*- C++ -*-===//
#ifndef TRITIUM_CODEGEN_PASSES_H
#define TRITIUM_CODEGEN_PASSES_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tritium {

class PassRegistry;

/// Adds every pass Tritium has (ir/, analysis/, codegen/) to \p R. Safe to
/// call more than once.
void registerAllPasses(PassRegistry &R);

/// The machine-independent cleanup pipeline the compiler runs on a kernel
/// fresh from the frontend, as a pipeline string for
/// PassRegistry::parsePipeline: "inline,canonicalize,cse,licm,peephole,dce".
llvm::StringRef getDefaultPipeline();

/// The layout pipeline of every GPU target's tgir stage: unreachable code
/// out of the way (layouts flow from the entry), layouts for \p NumWarps
/// warps of \p WarpSize lanes, the conversions cheaper to recompute dropped,
/// dots on the target's matrix cores (\p MatrixCores: "mma" for NVIDIA's
/// mma.sync, "wgmma" for Hopper's wgmma (mma.sync where it does not fit),
/// "mfma" for AMD's, "" for none) with their operands staged
/// through swizzled shared memory, their loads in loops software-pipelined
/// where the target copies asynchronously (\p NumStages set: the stages of
/// loops that do not ask themselves), cleanup, and barriers last, once the
/// shared memory users are final.
std::string getLayoutPipeline(unsigned NumWarps, unsigned WarpSize,
                              llvm::StringRef MatrixCores = "",
                              std::optional<unsigned> NumStages = std::nullopt,
                              bool TMA = false);

} // namespace tritium

#endif // TRITIUM_CODEGEN_PASSES_H
