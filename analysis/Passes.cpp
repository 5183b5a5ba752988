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
/// Prints analysis \p AnalysisT of each function to stderr under "<What>
/// of @f:" (skipping functions without blocks when \p SkipEmpty).
template <typename AnalysisT> class PrintAnalysisPass : public FunctionPass {
public:
  PrintAnalysisPass(const char *Name, const char *What, bool SkipEmpty)
      : Name(Name), What(What), SkipEmpty(SkipEmpty) {}
  llvm::StringRef getName() const override { return Name; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override {
    if (SkipEmpty && F.empty())
      return PreservedAnalyses::all();
    llvm::errs() << What << " of @" << F.getName() << ":\n";
    AM.get<AnalysisT>(F).print(llvm::errs());
    return PreservedAnalyses::all();
  }

private:
  const char *Name, *What;
  bool SkipEmpty;
};

template <typename AnalysisT>
void addPrinter(PassRegistry &R, const char *Name, const char *What, bool SkipEmpty,
                const char *Description) {
  R.add(Name, Description,
        [=] { return std::make_unique<PrintAnalysisPass<AnalysisT>>(Name, What, SkipEmpty); });
}
} // namespace

void tritium::registerAnalysisPasses(PassRegistry &R) {
  R.add("print<axis-info>", "Print contiguity, divisibility and constancy of every value",
        [] { return std::make_unique<PrintAxisInfoPass>(); });
  addPrinter<DominatorTreeAnalysis>(R, "print<domtree>", "dominator tree", false,
                                    "Print the dominator tree of every function");
  addPrinter<LoopAnalysis>(R, "print<loops>", "loops", true,
                           "Print the natural loops of every function (nesting, latches, and "
                           "the induction variable, bound and trip count of counted loops)");
  addPrinter<SharedMemoryAllocation>(R, "print<shared-memory>", "shared memory", true,
                                     "Print the shared memory buffers of every function "
                                     "(offset, size, alignment, live range)");
}
