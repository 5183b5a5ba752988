//===- Passes.cpp - Registering every pass --------------------------------===//

#include "codegen/Passes.h"
#include "analysis/Passes.h"
#include "codegen/layouts/LayoutPasses.h"
#include "codegen/transforms/Transforms.h"
#include "ir/PassManager.h"

using namespace tritium;

void tritium::registerAllPasses(PassRegistry &R) {
  registerIRPasses(R);
  registerAnalysisPasses(R);
  registerLayoutPasses(R);
#define TRANSFORM_PASS(Name, Class, Description)                              \
  R.add(Name, Description, [] { return std::make_unique<Class>(); });
#include "codegen/transforms/Passes.def"
}

llvm::StringRef tritium::getDefaultPipeline() {
  // inline first, so that the other passes see whole kernels (and every
  // descriptor access the make_tensor_descriptor it reads); canonicalize
  // before cse, so that equal expressions have one form; dce last, to sweep
  // what the others left behind.
  return "inline,lower-tensor-descriptors,canonicalize,cse,licm,peephole,dce";
}

std::string tritium::getLayoutPipeline(unsigned NumWarps, unsigned WarpSize,
                                       llvm::StringRef MatrixCores,
                                       std::optional<unsigned> NumStages) {
  return "dce,assign-layouts{num-warps=" + std::to_string(NumWarps) +
         ",warp-size=" + std::to_string(WarpSize) +
         (MatrixCores.empty() ? "" : "," + MatrixCores.str() + "=1") +
         "},remove-layout-conversions,licm,cse,stage-dot-operands" +
         (MatrixCores == "wgmma" ? "{nvmma=1}," : ",") +
         (NumStages ? "pipeline{num-stages=" + std::to_string(*NumStages) +
                          (MatrixCores == "wgmma" ? ",wgmma=1" : "") + "}," : "") +
         "cse,dce,insert-barriers";
}
