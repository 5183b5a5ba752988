//===- Backend.cpp - The backends' registry and the stage loop -------------===//

#include "codegen/Backend.h"
#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "ir/Verifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace tritium;

namespace {
llvm::StringMap<std::unique_ptr<Backend>> &registry() {
  static llvm::StringMap<std::unique_ptr<Backend>> Backends;
  return Backends;
}
} // namespace

void tritium::registerBackend(llvm::StringRef Kind, std::unique_ptr<Backend> B) {
  registry()[Kind] = std::move(B);
}

const Backend *tritium::getBackend(const Target &GPU) {
  auto It = registry().find(GPU.getKind());
  return It == registry().end() ? nullptr : It->second.get();
}

std::vector<std::pair<std::string, StageOutput>>
tritium::compileStages(Module &M, const CompileOptions &Opts, llvm::StringRef Last,
                       const StageReplacement &Replace) {
  const Backend *B = getBackend(Opts.GPU);
  if (!B)
    reportError({}, "no backend compiles for " + Opts.GPU.str());
  if (std::string Why = B->checkOptions(Opts); !Why.empty())
    reportError({}, Why);
  std::vector<std::string> Stages = B->getStages(Opts);
  if (!Last.empty() && !llvm::is_contained(Stages, Last))
    reportError({}, "'" + Last + "' is not a stage of " + Opts.GPU.str() + ": its stages are " +
                        llvm::join(Stages, ", "));
  std::unique_ptr<Module> Replaced; // a tgir read back; the later stages lower it
  Module *Cur = &M;
  std::vector<std::pair<std::string, StageOutput>> Out;
  for (const std::string &Stage : Stages) {
    std::optional<std::string> Text = Replace ? Replace(Stage) : std::nullopt;
    StageOutput S;
    if (Text && Stage == "tgir") {
      Replaced = parseModule(*Text, M.getContext(), "<tgir override>");
      verifyModuleOrThrow(*Replaced);
      Cur = Replaced.get();
      S.Data = *Text;
    } else if (Text) {
      S.Data = *Text;
    } else {
      S = B->runStage(Stage, *Cur, Out.empty() ? "" : Out.back().second.Data, Opts);
      if (Stage == "tgir")
        S.Data = Cur->str();
    }
    Out.emplace_back(Stage, std::move(S));
    if (Stage == Last)
      break;
  }
  return Out;
}
