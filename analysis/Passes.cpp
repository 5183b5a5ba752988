//===- Passes.cpp - Printer passes of the analyses ------------------------===//
//
// Each analysis has a printer pass so that its results can be tested as text
// (`tritium-opt f.tir -p 'print<axis-info>'`), as LLVM prints domtrees.
//
//===----------------------------------------------------------------------===//

#include "analysis/Passes.h"
#include "analysis/AxisInfo.h"
#include "analysis/LoopInfo.h"
#include "analysis/SharedMemory.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Module.h"
#include "ir/PassManager.h"

using namespace tritium;

namespace {
/// Prints the axis facts of every integer and pointer value to stderr.
class PrintAxisInfoPass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "print<axis-info>"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override {
    AxisInfoAnalysis &AI = AM.get<AxisInfoAnalysis>(F);
    llvm::raw_ostream &OS = llvm::errs();
    OS << "axis info of @" << F.getName() << ":\n";
    auto Show = [&](const Value *V) {
      Type *E = V->getType()->getScalarType();
      if (!E->isInt() && !E->isPointer())
        return;
      OS << "  ";
      V->printAsOperand(OS);
      OS << ": ";
      AI.get(V).print(OS);
      OS << '\n';
    };
    for (Argument *A : F.args())
      Show(A);
    for (BasicBlock &B : F)
      for (Instruction &I : B)
        for (unsigned R = 0; R < I.getNumResults(); ++R)
          Show(I.getResult(R));
    return PreservedAnalyses::all();
  }
};
/// Prints each function's dominator tree to stderr.
class PrintDomTreePass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "print<domtree>"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override {
    llvm::errs() << "dominator tree of @" << F.getName() << ":\n";
    AM.get<DominatorTreeAnalysis>(F).print(llvm::errs());
    return PreservedAnalyses::all();
  }
};
/// Prints each function's loops to stderr.
class PrintLoopsPass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "print<loops>"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override {
    if (F.empty())
      return PreservedAnalyses::all();
    llvm::errs() << "loops of @" << F.getName() << ":\n";
    AM.get<LoopAnalysis>(F).print(llvm::errs());
    return PreservedAnalyses::all();
  }
};
/// Prints each function's shared memory buffers to stderr.
class PrintSharedMemoryPass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "print<shared-memory>"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override {
    if (F.empty())
      return PreservedAnalyses::all();
    llvm::errs() << "shared memory of @" << F.getName() << ":\n";
    AM.get<SharedMemoryAllocation>(F).print(llvm::errs());
    return PreservedAnalyses::all();
  }
};
} // namespace

void tritium::registerAnalysisPasses(PassRegistry &R) {
  R.add("print<axis-info>",
        "Print contiguity, divisibility and constancy of every value",
        [] { return std::make_unique<PrintAxisInfoPass>(); });
  R.add("print<domtree>", "Print the dominator tree of every function",
        [] { return std::make_unique<PrintDomTreePass>(); });
  R.add("print<loops>",
        "Print the natural loops of every function (nesting, latches, and the "
        "induction variable, bound and trip count of counted loops)",
        [] { return std::make_unique<PrintLoopsPass>(); });
  R.add("print<shared-memory>",
        "Print the shared memory buffers of every function (offset, size, "
        "alignment, live range)",
        [] { return std::make_unique<PrintSharedMemoryPass>(); });
}
