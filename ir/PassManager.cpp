//===- PassManager.cpp - Running passes and caching analyses --------------===//

#include "ir/PassManager.h"
#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"

#include <chrono>

using namespace tritium;

void AnalysisManager::invalidate(const PreservedAnalyses &PA) {
  if (PA.areAllPreserved())
    return;
  llvm::SmallVector<std::pair<const void *, Function *>, 8> Dead;
  for (auto &E : Cache)
    if (!PA.isPreserved(E.first.first))
      Dead.push_back(E.first);
  for (auto &K : Dead)
    Cache.erase(K);
}

PreservedAnalyses FunctionPass::run(Module &M, AnalysisManager &AM) {
  PreservedAnalyses Kept = PreservedAnalyses::all();
  for (Function *F : M.functions()) {
    PreservedAnalyses PA = runOnFunction(*F, AM);
    // Later functions must not see analyses this one invalidated; the cache
    // is keyed per function, so invalidate as we go.
    AM.invalidate(PA);
    Kept.intersect(PA);
  }
  return Kept;
}

namespace {
std::string printedWithLocations(const Module &M) {
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  PrintOptions PO;
  PO.PrintLocs = true; // a replayed error names the same source line
  printModule(M, OS, PO);
  return Text;
}
} // namespace

void PassManager::writeReproducer(llvm::StringRef IR, size_t First,
                                  llvm::StringRef Failure) const {
  std::error_code EC;
  llvm::raw_fd_ostream OS(Opts.ReproducerPath, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "tritium: cannot write the reproducer '" << Opts.ReproducerPath
                 << "': " << EC.message() << '\n';
    return;
  }
  std::string Pipeline = llvm::join(llvm::ArrayRef(Spellings).drop_front(First), ",");
  if (Failure.empty())
    OS << "; Tritium reproducer: the module before the pipeline below.\n";
  else
    OS << "; Tritium reproducer: pass '" << Passes[First]->getName()
       << "' failed on this module:\n;   " << Failure.take_until([](char C) { return C == '\n'; })
       << '\n';
  OS << "; pipeline: " << Pipeline << "\n; replay: tritium-opt " << Opts.ReproducerPath
     << (Opts.VerifyEach ? " --verify-each" : "") << " -p '" << Pipeline << "'\n"
     << IR;
}

void PassManager::printBanner(Module &M, llvm::StringRef When, llvm::StringRef Pass) const {
  if (!Opts.PrintStream)
    return;
  *Opts.PrintStream << "// -----// IR Dump " << When << ' ' << Pass;
  if (!Opts.Label.empty())
    *Opts.PrintStream << " (" << Opts.Label << ')';
  *Opts.PrintStream << " //----- //\n";
  printModule(M, *Opts.PrintStream);
}

void PassManager::run(Module &M, AnalysisManager &AM) {
  if (Opts.RemarkStream)
    AM.setRemarkStream(Opts.RemarkStream);
  bool Reproduce = !Opts.ReproducerPath.empty();
  for (size_t I = 0; I < Passes.size(); ++I) {
    Pass &P = *Passes[I];
    if (Opts.PrintBeforeAll)
      printBanner(M, "Before", P.getName());
    std::string Before = Reproduce ? printedWithLocations(M) : "";
    if (Reproduce && I == 0)
      writeReproducer(Before, 0, "");
    try {
      auto Start = std::chrono::steady_clock::now();
      PreservedAnalyses PA = P.run(M, AM);
      if (Opts.Timer)
        Opts.Timer(P.getName(), std::chrono::duration<double>(
                                    std::chrono::steady_clock::now() - Start)
                                    .count());
      AM.invalidate(PA);
      if (Opts.PrintAfterAll)
        printBanner(M, "After", P.getName());
      if (Opts.VerifyEach) {
        std::vector<std::string> Errors = verifyModule(M);
        if (!Errors.empty())
          throw CompileError("the IR is invalid after pass '" + P.getName().str() + "':\n" +
                             llvm::join(Errors, "\n"));
      }
    } catch (const CompileError &E) {
      if (Reproduce)
        writeReproducer(Before, I, E.describe());
      throw;
    }
  }
}

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

PassRegistry &PassRegistry::global() {
  static PassRegistry R = [] {
    PassRegistry R;
    registerIRPasses(R);
    return R;
  }();
  return R;
}

void PassRegistry::add(llvm::StringRef Name, llvm::StringRef Description,
                       Factory F) {
  std::string N = Name.str();
  add(Name, Description, "",
      [N, F = std::move(F)](const PassOptions &Opts) {
        if (!Opts.empty())
          throw CompileError("pass '" + N + "' takes no options");
        return F();
      });
}

void PassRegistry::add(llvm::StringRef Name, llvm::StringRef Description,
                       llvm::StringRef OptionsHelp, OptionsFactory F) {
  Entries[Name] =
      Entry{Name.str(), Description.str(), std::move(F), OptionsHelp.str()};
}

const PassRegistry::Entry *PassRegistry::lookup(llvm::StringRef Name) const {
  auto It = Entries.find(Name);
  return It == Entries.end() ? nullptr : &It->second;
}

std::vector<const PassRegistry::Entry *> PassRegistry::entries() const {
  std::vector<const Entry *> Es;
  for (auto &E : Entries)
    Es.push_back(&E.second);
  llvm::sort(Es, [](const Entry *A, const Entry *B) { return A->Name < B->Name; });
  return Es;
}

void PassRegistry::parsePipeline(llvm::StringRef Pipeline,
                                 PassManager &PM) const {
  // Split at commas outside braces.
  llvm::SmallVector<llvm::StringRef, 8> Items;
  unsigned Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= Pipeline.size(); ++I) {
    char C = I < Pipeline.size() ? Pipeline[I] : ',';
    if (C == '{')
      ++Depth;
    else if (C == '}' && Depth)
      --Depth;
    else if (C == ',' && !Depth) {
      // "a,,b" skips the empty item; "a, ,b" names a pass '' (an error).
      llvm::StringRef Raw = Pipeline.slice(Start, I);
      if (!Raw.empty())
        Items.push_back(Raw.trim());
      Start = I + 1;
    }
  }
  for (llvm::StringRef Item : Items) {
    llvm::StringRef Name = Item, Rest;
    PassOptions Opts;
    size_t Brace = Item.find('{');
    if (Brace != llvm::StringRef::npos) {
      Name = Item.take_front(Brace).trim();
      Rest = Item.drop_front(Brace + 1);
      if (!Rest.consume_back("}"))
        throw CompileError("expected '}' after the options of pass '" +
                           Name.str() + "'");
      llvm::SmallVector<llvm::StringRef, 4> Pairs;
      Rest.split(Pairs, ',', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef P : Pairs) {
        auto [K, V] = P.split('=');
        if (K.trim().empty() || !P.contains('='))
          throw CompileError("expected key=value in the options of pass '" +
                             Name.str() + "', got '" + P.trim().str() + "'");
        Opts[K.trim()] = V.trim().str();
      }
    }
    const Entry *E = lookup(Name);
    if (!E)
      throw CompileError("unknown pass '" + Name.str() +
                         "' (tritium-opt --list-passes shows them all)");
    PM.add(E->Create(Opts), Item.str());
  }
}

//===----------------------------------------------------------------------===//
// The passes of ir/
//===----------------------------------------------------------------------===//

namespace {
/// Runs the verifier and fails with its messages.
class VerifyPass : public Pass {
public:
  llvm::StringRef getName() const override { return "verify"; }
  PreservedAnalyses run(Module &M, AnalysisManager &) override {
    verifyModuleOrThrow(M);
    return PreservedAnalyses::all();
  }
};

/// Prints the module to stderr, for pipelines like "dce,print,cse".
class PrintPass : public Pass {
public:
  llvm::StringRef getName() const override { return "print"; }
  PreservedAnalyses run(Module &M, AnalysisManager &) override {
    printModule(M, llvm::errs());
    return PreservedAnalyses::all();
  }
};
} // namespace

void tritium::registerIRPasses(PassRegistry &R) {
  R.add("verify", "Check the module's invariants (see ir/Verifier.cpp)",
        [] { return std::make_unique<VerifyPass>(); });
  R.add("print", "Print the module to stderr",
        [] { return std::make_unique<PrintPass>(); });
}
