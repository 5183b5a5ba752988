//===- LLVMOptimize.cpp - LLVM's passes on a lowered module ---------------===//

#include "codegen/lowering/LLVMOptimize.h"

#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"

using namespace tritium;

namespace {
const char *const kLeanPipeline =
    "always-inline,function(sroa,early-cse<memssa>,instcombine,simplifycfg,"
    "loop-mssa(licm),gvn,instcombine,adce,simplifycfg),globaldce";
} // namespace

void tritium::optimizeModule(llvm::Module &M, llvm::TargetMachine &TM, bool UseO3) {
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  llvm::PassBuilder PB(&TM);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  llvm::ModulePassManager MPM;
  if (UseO3) {
    MPM = PB.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3);
  } else {
    // The lowering already emits straight-line, vectorized, CSE'd code with
    // the loops it wants, and ptxas (or the AMDGPU backend) optimizes again;
    // O3's eight InstCombine runs, SLP vectorizer and unrollers took about
    // 3/4 of LLVM's time on a matmul for no smaller PTX. This pipeline keeps
    // what pays: the device library inlined and its reflect branches folded,
    // scalar cleanup, LICM and GVN (redundant loads), dead code gone.
    llvm::cantFail(PB.parsePassPipeline(MPM, kLeanPipeline));
  }
  MPM.run(M, MAM);
}

