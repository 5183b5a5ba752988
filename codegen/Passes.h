//===- Passes.h - Every pass of every library -------------------*- C++ -*-===//
#ifndef TRITIUM_CODEGEN_PASSES_H
#define TRITIUM_CODEGEN_PASSES_H

#include "codegen/DebugOptions.h"

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tritium {

class Module;
class PassRegistry;

/// Adds every pass Tritium has (ir/, analysis/, codegen/, and the passes
/// the targets' folders added with addTargetPasses) to \p R. Safe to call
/// more than once.
void registerAllPasses(PassRegistry &R);

/// Has registerAllPasses call \p Register too: a target's folder adds the
/// passes of its own layout pipeline this way, once, from a static object.
void addTargetPasses(void (*Register)(PassRegistry &));

/// The machine-independent cleanup pipeline the compiler runs on a kernel
/// fresh from the frontend, as a pipeline string for
/// PassRegistry::parsePipeline: "inline,canonicalize,cse,licm,peephole,dce";
/// with \p WideOffsets, widen-offsets too (a launch on tensors of 2^31
/// elements or more).
std::string getDefaultPipeline(bool WideOffsets = false);

/// What a target puts into the layout pipeline: its warps, its matrix
/// units (the name they are registered under, analysis/MatrixCores.h; ""
/// for none), which assign-layouts, stage-dot-operands and pipeline ask,
/// whether its loops are software-pipelined (NumStages set: the
/// stages of loops that do not ask themselves), the tensor copies that
/// keep the descriptor accesses they take (the name registerTensorCopies
/// gave them; "" for none), and its own passes after the pipeliner
/// (addTargetPasses; "" for none).
struct LayoutPipelineOptions {
  unsigned NumWarps = 4, WarpSize = 32;
  std::string MatrixUnits;
  std::optional<unsigned> NumStages;
  /// The pipeline's copies go through registers (no asynchronous copies).
  bool RegisterCopies = false;
  /// Each thread's elements one run (LayoutOptions::ThreadRuns: the cpu).
  bool ThreadRuns = false;
  std::string TensorCopies, TargetPasses;
};

/// The layout pipeline of every GPU target's tgir stage: unreachable code
/// out of the way (layouts flow from the entry), layouts for the target's
/// warps, the conversions cheaper to recompute dropped, dots on its matrix
/// units with their operands staged through shared memory, their loads in
/// loops software-pipelined, cleanup, and barriers last, once the shared
/// memory users are final.
std::string getLayoutPipeline(const LayoutPipelineOptions &Opts);

/// Runs \p Pipeline on \p M as the compile's stage \p Stage ("tir",
/// "tgir"): the verifier after every pass with \p VerifyEach, and after the
/// last in any case; the module before and after each pass, each pass's
/// time and the reproducer (`<prefix>.<Stage>.repro.tir`) as \p Debug asks.
/// Throws CompileError.
void runStagePipeline(Module &M, llvm::StringRef Stage, llvm::StringRef Pipeline,
                      bool VerifyEach, const DebugOptions &Debug = {});

/// runStagePipeline of getLayoutPipeline(\p Opts): the tgir stage of every
/// target.
void runLayoutPipeline(Module &M, const LayoutPipelineOptions &Opts, bool VerifyEach,
                       const DebugOptions &Debug = {});

} // namespace tritium

#endif // TRITIUM_CODEGEN_PASSES_H
