//===- Passes.cpp - Registering every pass --------------------------------===//

#include "codegen/Passes.h"
#include "analysis/Passes.h"
#include "analysis/TensorCopies.h"
#include "codegen/layouts/LayoutPasses.h"
#include "codegen/transforms/Transforms.h"
#include "ir/Diagnostics.h"
#include "ir/PassManager.h"
#include "ir/Verifier.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/Format.h"

#include <vector>

using namespace tritium;

namespace {
std::vector<void (*)(PassRegistry &)> &targetPasses() {
  static std::vector<void (*)(PassRegistry &)> Registers;
  return Registers;
}
} // namespace

void tritium::addTargetPasses(void (*Register)(PassRegistry &)) {
  targetPasses().push_back(Register);
}

void tritium::registerAllPasses(PassRegistry &R) {
  for (auto *Register : targetPasses())
    Register(R);
  registerIRPasses(R);
  registerAnalysisPasses(R);
  registerLayoutPasses(R);
#define TRANSFORM_PASS(Name, Class, Description)                              \
  R.add(Name, Description, [] { return std::make_unique<Class>(); });
#include "codegen/transforms/Passes.def"
  R.add("lower-tensor-descriptors",
        "Turn descriptor loads and stores into masked loads and stores of pointer "
        "blocks; keep=tensormaps leaves the loads of descriptors with a tensormap "
        "(for the target to decide), keep=tma those TMA copies (a target's tensor "
        "copies, by the name it registered them under)",
        "keep=none|tensormaps|tma", [](const PassOptions &O) {
          using Keep = LowerTensorDescriptorsPass::Keep;
          Keep K = Keep::None;
          const TensorCopies *Copies = nullptr;
          for (auto &KV : O) {
            llvm::StringRef V = KV.getValue();
            if (KV.getKey() != "keep")
              throw CompileError("lower-tensor-descriptors has no option '" +
                                 KV.getKey().str() + "'");
            if (V == "tensormaps") {
              K = Keep::TensorMaps;
            } else if (auto It = allTensorCopies().find(V); It != allTensorCopies().end()) {
              K = Keep::Copies;
              Copies = &It->second;
            } else if (V != "none") {
              std::string Names;
              for (const auto &C : allTensorCopies())
                Names += ", " + C.first().str();
              throw CompileError("keep must be none, tensormaps" + Names + ", got '" + V.str() +
                                 "'");
            }
          }
          return std::make_unique<LowerTensorDescriptorsPass>(K, Copies);
        });
}

std::string tritium::getDefaultPipeline(bool WideOffsets) {
  // inline first, so that the other passes see whole kernels (and every
  // descriptor access the make_tensor_descriptor it reads); canonicalize
  // before cse, so that equal expressions have one form; dce last, to sweep
  // what the others left behind. A descriptor load that may read through a
  // tensormap is
  // what the target decides (TMA on sm_90a) stays for the layout pipeline.
  // widen-offsets (tensors of 2^31 elements or more) after the lowering of
  // descriptors, whose offsets it widens too, and before cse, which merges
  // the sext'ed values it makes.
  return std::string("inline,lower-tensor-descriptors{keep=tensormaps},") +
         (WideOffsets ? "widen-offsets," : "") + "canonicalize,cse,licm,peephole,dce";
}

std::string tritium::getLayoutPipeline(const LayoutPipelineOptions &O) {
  // The tensor copies take what they can; the rest reads pointers. The
  // passes that place, stage and pipeline dots ask the same matrix units.
  std::string Units = O.MatrixUnits.empty() ? "" : O.MatrixUnits + "=1";
  return std::string("lower-tensor-descriptors") +
         (O.TensorCopies.empty() ? "" : "{keep=" + O.TensorCopies + "}") +
         ",dce,assign-layouts{num-warps=" + std::to_string(O.NumWarps) +
         ",warp-size=" + std::to_string(O.WarpSize) + (O.ThreadRuns ? ",thread-runs=1" : "") +
         (Units.empty() ? "" : "," + Units) +
         "},remove-layout-conversions,licm,cse,stage-dot-operands" +
         (Units.empty() ? "," : "{" + Units + "},") +
         (O.NumStages ? "pipeline{num-stages=" + std::to_string(*O.NumStages) +
                            (O.RegisterCopies ? ",register-copies=1" : "") +
                            (Units.empty() ? "" : "," + Units) + "},"
                      : "") +
         (O.TargetPasses.empty() ? "" : O.TargetPasses + ",") + "cse,dce,insert-barriers";
}

void tritium::runStagePipeline(Module &M, llvm::StringRef Stage, llvm::StringRef Pipeline,
                               bool VerifyEach, const DebugOptions &Debug) {
  PassRegistry &R = PassRegistry::global();
  registerAllPasses(R);
  PassManagerOptions PMO;
  PMO.VerifyEach = VerifyEach;
  if (!Debug.ReproducerPrefix.empty())
    PMO.ReproducerPath = Debug.ReproducerPrefix + "." + Stage.str() + ".repro.tir";
  std::string Dump; // printed at the end, in one piece
  llvm::raw_string_ostream DumpOS(Dump);
  PMO.PrintBeforeAll = PMO.PrintAfterAll = Debug.DumpIR;
  PMO.PrintStream = &DumpOS;
  if (Debug.DumpIR)
    PMO.RemarkStream = &DumpOS;
  PMO.Label = Debug.Kernel;
  if (Debug.PassTiming)
    PMO.Timer = [&](llvm::StringRef Pass, double Seconds) {
      DumpOS << llvm::format("// %s pass %-28s %9.3f ms\n", Stage.str().c_str(),
                             Pass.str().c_str(), Seconds * 1e3);
    };
  PassManager PM(std::move(PMO));
  R.parsePipeline(Pipeline, PM);
  auto Flush = llvm::make_scope_exit([&] { // what was dumped before a pass failed, too
    if (!Dump.empty())
      Debug.dump([&](llvm::raw_ostream &OS) { OS << Dump; });
  });
  PM.run(M);
  // A pass that broke the IR is an error here, not a crash in a later stage.
  verifyModuleOrThrow(M);
}

void tritium::runLayoutPipeline(Module &M, const LayoutPipelineOptions &Opts, bool VerifyEach,
                                const DebugOptions &Debug) {
  runStagePipeline(M, "tgir", getLayoutPipeline(Opts), VerifyEach, Debug);
}
