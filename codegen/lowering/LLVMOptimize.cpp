//===- LLVMOptimize.cpp - LLVM's passes on a lowered module ---------------===//

#include "codegen/lowering/LLVMOptimize.h"

#include "ir/Diagnostics.h"

#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Target/TargetMachine.h"

#include <chrono>
#include <mutex>
#include <set>

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

void tritium::applyLLVMFlags(llvm::StringRef Flags) {
  static std::mutex Lock;
  static std::set<std::string, std::less<>> Applied;
  std::lock_guard<std::mutex> Guard(Lock);
  if (Flags.empty() || Applied.count(Flags))
    return;
  llvm::SmallVector<llvm::StringRef, 4> Words;
  Flags.split(Words, ' ', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Args = {"tritium"};
  for (llvm::StringRef W : Words)
    Args.push_back(W.startswith("-") ? W.str() : "-" + W.str());
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  std::string Errors;
  llvm::raw_string_ostream ErrOS(Errors);
  llvm::cl::ResetAllOptionOccurrences();
  if (!llvm::cl::ParseCommandLineOptions(int(Argv.size()), Argv.data(), "", &ErrOS)) {
    llvm::StringRef Why = llvm::StringRef(Errors).split('\n').first;
    Why.consume_front("tritium: ");
    reportError({}, "LLVM does not take the flags '" + Flags.str() + "': " + Why.trim().str() +
                        " (-debug-only needs an LLVM built with assertions)");
  }
  Applied.insert(Flags.str());
}

void tritium::applyDefaultLLVMFlags() { applyLLVMFlags("-disable-lsr"); }

namespace {
/// Dumps before, and times, every pass LLVM runs (not the managers and
/// adaptors that nest them), into \p Out.
void instrument(llvm::PassInstrumentationCallbacks &PIC, const llvm::Module &M,
                const DebugOptions &Debug, llvm::raw_ostream &Out,
                std::vector<std::chrono::steady_clock::time_point> &Starts) {
  auto Counted = [](llvm::StringRef Pass) {
    return !llvm::isSpecialPass(Pass, {"PassManager", "PassAdaptor", "AnalysisManagerProxy"});
  };
  PIC.registerBeforeNonSkippedPassCallback([&, Counted](llvm::StringRef Pass, llvm::Any IR) {
    if (!Counted(Pass))
      return;
    if (Debug.DumpLLVMIR) {
      Out << "; *** IR Dump Before " << Pass << " ***\n";
      if (const auto *F = llvm::any_cast<const llvm::Function *>(&IR))
        (*F)->print(Out);
      else if (const auto *L = llvm::any_cast<const llvm::Loop *>(&IR))
        (*L)->getHeader()->getParent()->print(Out);
      else
        M.print(Out, nullptr);
    }
    Starts.push_back(std::chrono::steady_clock::now());
  });
  auto After = [&, Counted](llvm::StringRef Pass) {
    if (!Counted(Pass) || Starts.empty())
      return;
    std::chrono::duration<double, std::milli> Took = std::chrono::steady_clock::now() - Starts.back();
    Starts.pop_back();
    if (Debug.LLVMTiming)
      Out << llvm::format("// llvm pass %-40s %9.3f ms\n", Pass.str().c_str(), Took.count());
  };
  PIC.registerAfterPassCallback(
      [After](llvm::StringRef Pass, llvm::Any, const llvm::PreservedAnalyses &) { After(Pass); });
  PIC.registerAfterPassInvalidatedCallback(
      [After](llvm::StringRef Pass, const llvm::PreservedAnalyses &) { After(Pass); });
}
} // namespace

void tritium::optimizeModule(llvm::Module &M, llvm::TargetMachine &TM, bool UseO3,
                             const DebugOptions &Debug, llvm::StringRef Pipeline,
                             const llvm::TargetLibraryInfoImpl *Library) {
  applyLLVMFlags(Debug.LLVMFlags);
  if (Debug.DisableLLVMOpt)
    return;
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
  llvm::PassInstrumentationCallbacks PIC;
  std::string Dump; // printed at the end, in one piece
  llvm::raw_string_ostream DumpOS(Dump);
  std::vector<std::chrono::steady_clock::time_point> Starts;
  bool Instrumented = Debug.DumpLLVMIR || Debug.LLVMTiming;
  if (Instrumented)
    instrument(PIC, M, Debug, DumpOS, Starts);
  llvm::PassBuilder PB(&TM, llvm::PipelineTuningOptions(), std::nullopt,
                       Instrumented ? &PIC : nullptr);
  if (Library) // registered first, it is the one the passes get
    FAM.registerPass([&] { return llvm::TargetLibraryAnalysis(*Library); });
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
    llvm::cantFail(PB.parsePassPipeline(MPM, Pipeline.empty() ? kLeanPipeline : Pipeline));
  }
  MPM.run(M, MAM);
  if (!Dump.empty())
    Debug.dump([&](llvm::raw_ostream &OS) { OS << Dump; });
  for (llvm::Function &F : M)
    if (!F.isDeclaration())
      sinkConstantOffsets(F);
}

