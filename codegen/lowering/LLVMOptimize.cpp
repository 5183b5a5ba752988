//===- LLVMOptimize.cpp - LLVM's passes on a lowered module ---------------===//

#include "codegen/lowering/LLVMOptimize.h"

#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"

using namespace tritium;

namespace {
const char *const kLeanPipeline =
    "always-inline,function(sroa,early-cse<memssa>,instcombine,simplifycfg,"
    "loop-mssa(licm),gvn,instcombine,adce,simplifycfg),globaldce";

/// Puts each constant-offset GEP next to each of its users in another block
/// (LICM hoisted it out of their loop). An address the loop only reads at
/// a constant distance from another then folds into the access's
/// immediate offset instead of taking a register of its own across the
/// loop: attention's Q tile, read by ldmatrix in every iteration, kept 16
/// 64-bit addresses where 8 do. CodeGenPrepare does this for loads and
/// stores but not for intrinsics such as ldmatrix.
void sinkConstantOffsets(llvm::Function &F) {
  llvm::SmallVector<llvm::GetElementPtrInst *, 16> GEPs;
  for (llvm::BasicBlock &BB : F)
    for (llvm::Instruction &I : BB)
      if (auto *G = llvm::dyn_cast<llvm::GetElementPtrInst>(&I))
        if (G->hasAllConstantIndices() && !G->hasAllZeroIndices())
          GEPs.push_back(G);
  for (llvm::GetElementPtrInst *G : GEPs) {
    for (llvm::Use &U : llvm::make_early_inc_range(G->uses())) {
      auto *User = llvm::cast<llvm::Instruction>(U.getUser());
      if (User->getParent() == G->getParent() || llvm::isa<llvm::PHINode>(User))
        continue;
      llvm::Instruction *Copy = G->clone();
      Copy->insertBefore(User);
      U.set(Copy);
    }
    if (G->use_empty())
      G->eraseFromParent();
  }
}

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
  for (llvm::Function &F : M)
    if (!F.isDeclaration())
      sinkConstantOffsets(F);
}

