//===- PassManager.h - Running passes and caching analyses -------*- C++ -*-===//
//
// A pass transforms a Module and says which analyses it kept valid. The
// AnalysisManager computes an analysis of a function on first request and
// serves the cached result until a pass that did not preserve it runs:
//
//   DominatorTree &DT = AM.get<DominatorTreeAnalysis>(F);
//   return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>();
//
// An analysis is a class with `using Result = ...;`, `static char ID;` and
// `static Result run(Function &F, AnalysisManager &AM);`.
//
// Passes register by name in the PassRegistry (each library lists its
// passes once in its Passes.def), so tritium-opt and the Python pipeline
// build pipelines from strings like "inline,dce,cse".
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_PASSMANAGER_H
#define TRITIUM_IR_PASSMANAGER_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tritium {

class Function;
class Module;

/// The analyses a pass left valid.
class PreservedAnalyses {
public:
  static PreservedAnalyses all() {
    PreservedAnalyses PA;
    PA.All = true;
    return PA;
  }
  static PreservedAnalyses none() { return {}; }
  template <typename AnalysisT> PreservedAnalyses &preserve() {
    Kept.insert(&AnalysisT::ID);
    return *this;
  }
  bool areAllPreserved() const { return All; }
  /// Keeps only what both this and \p O preserved.
  void intersect(const PreservedAnalyses &O) {
    if (O.All)
      return;
    if (All) {
      *this = O;
      return;
    }
    llvm::SmallPtrSet<const void *, 4> Both;
    for (const void *ID : Kept)
      if (O.Kept.count(ID))
        Both.insert(ID);
    Kept = std::move(Both);
  }
  bool isPreserved(const void *ID) const { return All || Kept.count(ID); }

private:
  bool All = false;
  llvm::SmallPtrSet<const void *, 4> Kept;
};

class AnalysisManager {
public:
  /// The result of \p AnalysisT for \p F, computed now if not cached.
  template <typename AnalysisT> typename AnalysisT::Result &get(Function &F) {
    using ModelT = Model<typename AnalysisT::Result>;
    if (auto *Cached = getCached<AnalysisT>(F))
      return *Cached;
    // Run first, insert after: the analysis may get() others, which grows
    // the map and would move a slot taken before the run (and a run that
    // throws must not leave an empty slot behind).
    auto Res = std::make_unique<ModelT>(AnalysisT::run(F, *this));
    auto &Slot = Cache[{&AnalysisT::ID, &F}];
    Slot = std::move(Res);
    return static_cast<ModelT *>(Slot.get())->R;
  }
  /// The cached result, or null.
  template <typename AnalysisT>
  typename AnalysisT::Result *getCached(Function &F) {
    auto It = Cache.find({&AnalysisT::ID, &F});
    if (It == Cache.end())
      return nullptr;
    return &static_cast<Model<typename AnalysisT::Result> *>(It->second.get())->R;
  }
  /// Drops every cached result not in \p PA (for all functions).
  void invalidate(const PreservedAnalyses &PA);
  void clear() { Cache.clear(); }

  /// Where a pass says why an optimization it was asked for did not apply
  /// (PassManagerOptions::RemarkStream: the dump knob's); null: nowhere.
  llvm::raw_ostream *getRemarkStream() const { return Remarks; }
  void setRemarkStream(llvm::raw_ostream *OS) { Remarks = OS; }

private:
  llvm::raw_ostream *Remarks = nullptr;
  struct Concept {
    virtual ~Concept() = default;
  };
  template <typename ResultT> struct Model : Concept {
    explicit Model(ResultT &&Res) : R(std::move(Res)) {}
    ResultT R;
  };
  llvm::DenseMap<std::pair<const void *, Function *>, std::unique_ptr<Concept>>
      Cache;
};

class Pass {
public:
  virtual ~Pass() = default;
  virtual llvm::StringRef getName() const = 0;
  /// Transforms \p M. Errors in the input throw CompileError.
  virtual PreservedAnalyses run(Module &M, AnalysisManager &AM) = 0;
};

/// A pass that runs on each function independently.
class FunctionPass : public Pass {
public:
  PreservedAnalyses run(Module &M, AnalysisManager &AM) final;
  virtual PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) = 0;
};

struct PassManagerOptions {
  /// Run the verifier after every pass; a failure names the pass.
  bool VerifyEach = false;
  /// Print the module after every pass to PrintStream.
  bool PrintAfterAll = false;
  /// Print the module before every pass to PrintStream.
  bool PrintBeforeAll = false;
  llvm::raw_ostream *PrintStream = nullptr;
  /// Given to the passes for their remarks (AnalysisManager::getRemarkStream).
  llvm::raw_ostream *RemarkStream = nullptr;
  /// Named in the print banners, `// -----// IR Dump Before cse (Label)
  /// //----- //` (MLIR's and Triton's form): the kernel, in a compile.
  std::string Label;
  /// Called with each pass's name and its wall time in seconds.
  std::function<void(llvm::StringRef, double)> Timer;
  /// A file that holds, before the passes run, the module and the pipeline;
  /// where a pass fails, the module right before it and the pipeline from
  /// it, with the tritium-opt command that replays the failure.
  std::string ReproducerPath;
};

class PassManager {
public:
  explicit PassManager(PassManagerOptions Opts = {}) : Opts(std::move(Opts)) {}
  /// Appends \p P; \p Spelling is how a pipeline string names it, with its
  /// options (what a reproducer writes; its name where empty).
  void add(std::unique_ptr<Pass> P, std::string Spelling = {}) {
    Spellings.push_back(Spelling.empty() ? P->getName().str() : std::move(Spelling));
    Passes.push_back(std::move(P));
  }
  size_t size() const { return Passes.size(); }
  /// Runs every pass in order. Throws CompileError on the first failure.
  void run(Module &M, AnalysisManager &AM);
  void run(Module &M) {
    AnalysisManager AM;
    run(M, AM);
  }

private:
  /// Writes the reproducer: \p IR, to run through the passes from \p First.
  void writeReproducer(llvm::StringRef IR, size_t First, llvm::StringRef Failure) const;
  /// The module under a `// -----// IR Dump <When> <Pass> (Label) //----- //` banner.
  void printBanner(Module &M, llvm::StringRef When, llvm::StringRef Pass) const;

  PassManagerOptions Opts;
  std::vector<std::unique_ptr<Pass>> Passes;
  std::vector<std::string> Spellings;
};

/// Name -> factory of every pass that can appear in a pipeline string.
/// Options of one pass in a pipeline string: `assign-layouts{num-warps=8}`.
using PassOptions = llvm::StringMap<std::string>;

class PassRegistry {
public:
  using Factory = std::function<std::unique_ptr<Pass>()>;
  /// A factory of a pass that takes options; it throws CompileError for an
  /// option it does not know or a value it cannot use.
  using OptionsFactory = std::function<std::unique_ptr<Pass>(const PassOptions &)>;
  struct Entry {
    std::string Name;
    std::string Description;
    OptionsFactory Create;
    /// The options it takes, for --list-passes ("" for none).
    std::string OptionsHelp;
  };

  /// The registry with every pass of every library linked in.
  static PassRegistry &global();

  void add(llvm::StringRef Name, llvm::StringRef Description, Factory F);
  void add(llvm::StringRef Name, llvm::StringRef Description,
           llvm::StringRef OptionsHelp, OptionsFactory F);
  const Entry *lookup(llvm::StringRef Name) const;
  /// Entries sorted by name.
  std::vector<const Entry *> entries() const;

  /// Appends the passes of a comma-separated \p Pipeline to \p PM; a pass
  /// may carry options in braces: "inline,assign-layouts{num-warps=8},dce".
  /// Throws CompileError naming an unknown pass or option.
  void parsePipeline(llvm::StringRef Pipeline, PassManager &PM) const;

private:
  llvm::StringMap<Entry> Entries;
};

/// Adds the passes defined in ir/ ("verify", "print") to \p R.
void registerIRPasses(PassRegistry &R);

} // namespace tritium

#endif // TRITIUM_IR_PASSMANAGER_H
