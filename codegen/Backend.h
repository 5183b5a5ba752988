//===- Backend.h - A target's compile stages, and the one stage loop -*- C++ -*-===//
//
// A backend is a target's folder (codegen/nvptx/, codegen/amdgpu/) seen from
// outside: the stages that take a verified module of Tritium IR to the
// target's binary, and the options it reads. Every backend has the same
// first two:
//
//   tgir   the layout pipeline, on the module in place (layout-level IR)
//   llir   lowering, the target's libraries linked, LLVM's optimizations
//
// then its own (ptx and cubin; amdgcn and hsaco). A backend registers
// itself for its targets' kind ("cuda", "hip") from its folder;
// compileStages() is the loop every caller runs: tritium-translate, the
// Python package (one stage at a time, through runStage, so that each can
// be dumped and overridden) and the tests.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_BACKEND_H
#define TRITIUM_CODEGEN_BACKEND_H

#include "codegen/DebugOptions.h"
#include "ir/Target.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tritium {

class Module;

/// What a compile is asked for, whatever the target: each backend reads
/// what it has a use for and refuses (checkOptions) what is another
/// target's.
struct CompileOptions {
  Target GPU;
  unsigned NumWarps = 4;
  /// The stages of software-pipelined loops that do not ask themselves.
  unsigned NumStages = 3;
  /// cuda: the most registers a thread may use (.maxnreg); 0: ptxas decides.
  unsigned MaxNReg = 0;
  /// hip: waves per execution unit, an occupancy hint; 0: LLVM decides.
  unsigned WavesPerEU = 0;
  bool Debug = false;
  /// The verifier after every pass of tgir (a pass that breaks the IR is
  /// named); debug does it too, and so do debug builds (the tests turn it
  /// on: TRITIUM_VERIFY_EACH).
#ifdef TRITIUM_DEBUG_BUILD
  bool VerifyEach = true;
#else
  bool VerifyEach = false;
#endif
  /// LLVM's default<O3> instead of the backends' short pipeline.
  bool LLVMO3 = false;
  /// a*b+c contracted into fma (Triton's enable_fp_fusion); off: every
  /// product and sum rounded on its own (ptxas too: --fmad=false).
  bool FPFusion = true;
  /// cuda: libdevice's __CUDA_FTZ (its f32 functions flush denormals) and
  /// exp2 as ex2.approx.ftz (Triton's enable_reflect_ftz, on by default).
  bool ReflectFTZ = true;
  /// cuda: the source line of every instruction in the PTX (`.loc`) and,
  /// through ptxas -lineinfo, in the cubin (Python: on unless
  /// TRITIUM_DISABLE_LINE_INFO).
  bool LineInfo = false;
  /// cuda sm_90a: descriptor loads through TMA (TRITIUM_TMA=0: pointer
  /// loads, as on other targets).
  bool TMA = true;
  /// The target's device library: libdevice.10.bc (cuda), the folder of
  /// the ROCm device libraries (hip); empty: found where it usually is.
  std::string LibraryPath;
  /// The assembler of the binary stage where it is a program (ptxas);
  /// empty: found where it usually is.
  std::string AssemblerPath;
  /// More assembler options, after Tritium's own (TRITIUM_PTXAS_OPTIONS;
  /// -O0 for TRITIUM_DISABLE_PTXAS_OPT), space-separated.
  std::string AssemblerOptions;
  /// Dumps, timings, LLVM's flags, the reproducer (DebugOptions.h).
  DebugOptions Debugging;
};

/// A lowered, optimized module as LLVM IR text, and the shared memory its
/// kernels need.
struct LLVMIRResult {
  std::string IR;
  unsigned SharedBytes = 0;
};

/// What one stage made: the module changed in place (tgir), text or a
/// binary; and what it found out about the kernel, in the names of the
/// compiled kernel's metadata ("shared", "n_regs", "n_spills", ...).
struct StageOutput {
  std::string Data; ///< empty for tgir: the module is the output
  bool Binary = false;
  std::map<std::string, std::variant<int64_t, std::string>> Metadata;
};

class Backend {
public:
  virtual ~Backend() = default;
  /// The stages after tir, in order; tgir and llir first.
  virtual std::vector<std::string> getStages(const CompileOptions &Opts) const = 0;
  /// "" if \p Opts can be compiled for, else why not.
  virtual std::string checkOptions(const CompileOptions &Opts) const = 0;
  /// Runs the stage \p Stage: tgir and llir on \p M, the later ones on
  /// \p Input, the output of the stage before. Throws CompileError.
  virtual StageOutput runStage(llvm::StringRef Stage, Module &M, llvm::StringRef Input,
                               const CompileOptions &Opts) const = 0;
};

/// Registers \p B for targets of \p Kind (Target::getKind(): "cuda",
/// "hip", or a kind the folder registered with Target::registerKind). A
/// target's folder does it once, from a static object.
void registerBackend(llvm::StringRef Kind, std::unique_ptr<Backend> B);

/// The backend of \p GPU's kind, or null if no folder registered one.
const Backend *getBackend(const Target &GPU);

/// A stage's replacement (an override: what the stage would have made, read
/// from somewhere else; nullopt: run it), asked before the stage runs.
using StageReplacement = std::function<std::optional<std::string>(llvm::StringRef Stage)>;

/// The stage loop: \p M (verified Tritium IR) through the stages of
/// Opts.GPU's backend, up to and including \p Last (empty: all of them),
/// each stage's output in order (tgir's Data is the module's text). A
/// replaced tgir is parsed into a module of \p M's context that the later
/// stages read. Throws CompileError, also for options the backend refuses
/// or a \p Last it has no stage of.
std::vector<std::pair<std::string, StageOutput>>
compileStages(Module &M, const CompileOptions &Opts, llvm::StringRef Last = "",
              const StageReplacement &Replace = nullptr);

} // namespace tritium

#endif // TRITIUM_CODEGEN_BACKEND_H
