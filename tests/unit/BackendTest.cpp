// Tests of the stage loop and the backends' registry (codegen/Backend.cpp):
// each registered target runs its stages in order, up to the one asked
// for; a replaced stage is not run (a replaced tgir is the module the later
// stages lower); options and stages a target lacks are errors.
#include "codegen/Backend.h"
#include "ir/Context.h"
#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "codegen/Passes.h"

#include <doctest/doctest.h>

using namespace tritium;

namespace {
const char *Copy = R"(kernel @copy(%x: ptr<f32> {divisibility=16}, %out: ptr<f32> {divisibility=16}) {
entry:
  %r = make_range {start=0, end=256} : <256 x i32>
  %xs = splat %x : <256 x ptr<f32>>
  %xp = getelementptr %xs, %r : <256 x ptr<f32>>
  %v = load %xp : <256 x f32>
  %os = splat %out : <256 x ptr<f32>>
  %op = getelementptr %os, %r : <256 x ptr<f32>>
  store %op, %v
  ret
}
)";

CompileOptions options(const char *GPU) {
  CompileOptions O;
  REQUIRE(Target::parse(GPU, O.GPU).empty());
  return O;
}

std::vector<std::string> names(const std::vector<std::pair<std::string, StageOutput>> &S) {
  std::vector<std::string> N;
  for (auto &[Name, Out] : S)
    N.push_back(Name);
  return N;
}

bool contains(const std::string &S, const char *Part) { return S.find(Part) != std::string::npos; }
} // namespace

TEST_CASE("both GPU targets are registered, with their stages") {
  REQUIRE(getBackend(options("cuda:80").GPU));
  REQUIRE(getBackend(options("hip:gfx90a").GPU));
  CHECK(getBackend(options("cuda:80").GPU)->getStages({}) ==
        std::vector<std::string>{"tgir", "llir", "ptx", "cubin"});
  CHECK(getBackend(options("hip:gfx90a").GPU)->getStages({}) ==
        std::vector<std::string>{"tgir", "llir", "amdgcn", "hsaco"});
}

TEST_CASE("the stage loop runs a target's stages up to the one asked for") {
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(Copy, Ctx);
  auto S = compileStages(*M, options("cuda:80"), "ptx");
  CHECK(names(S) == std::vector<std::string>{"tgir", "llir", "ptx"});
  CHECK(contains(S[0].second.Data, "layout=<register="));
  CHECK(contains(S[1].second.Data, "define"));
  CHECK(std::get<int64_t>(S[1].second.Metadata.at("shared")) == 0);
  CHECK(contains(S[2].second.Data, ".target sm_80"));
  CHECK(std::get<std::string>(S[2].second.Metadata.at("ptx_version")) != "");
  CHECK_FALSE(S[2].second.Binary);

  Context Ctx2;
  std::unique_ptr<Module> A = parseModule(Copy, Ctx2);
  auto H = compileStages(*A, options("hip:gfx90a"), "amdgcn");
  CHECK(names(H) == std::vector<std::string>{"tgir", "llir", "amdgcn"});
  CHECK(contains(H[2].second.Data, "gfx90a"));
}

TEST_CASE("a replaced stage is not run; a replaced tgir is what the later stages lower") {
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(Copy, Ctx);
  std::string Tgir = compileStages(*M, options("cuda:80"), "tgir")[0].second.Data;
  // The copy stores its value twice as large: %twice, in the load's layout.
  size_t Load = Tgir.find("  %v = load");
  REQUIRE(Load != std::string::npos);
  std::string LoadLine = Tgir.substr(Load, Tgir.find('\n', Load) - Load);
  std::string Edited = Tgir;
  Edited.insert(Tgir.find('\n', Load) + 1,
                "  %twice = fadd %v, %v" + LoadLine.substr(LoadLine.find(" {layout=")) + "\n");
  size_t Store = Edited.find("store %op, %v");
  REQUIRE(Store != std::string::npos);
  Edited.replace(Store, 13, "store %op, %twice");

  Context Ctx2;
  std::unique_ptr<Module> N = parseModule(Copy, Ctx2);
  std::vector<std::string> Asked;
  auto S = compileStages(*N, options("cuda:80"), "ptx", [&](llvm::StringRef Stage) {
    Asked.push_back(Stage.str());
    return Stage == "tgir" ? std::optional<std::string>(Edited) : std::nullopt;
  });
  CHECK(Asked == std::vector<std::string>{"tgir", "llir", "ptx"});
  CHECK(S[0].second.Data == Edited);
  CHECK(contains(S[2].second.Data, "add.f32"));
  CHECK_FALSE(contains(N->str(), "%twice")); // the module given stays as it was
}

TEST_CASE("options and stages a target lacks are errors") {
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(Copy, Ctx);
  CHECK_THROWS_WITH_AS(compileStages(*M, options("hip:gfx90a"), "ptx"),
                       "'ptx' is not a stage of hip:gfx90a: its stages are tgir, llir, amdgcn, "
                       "hsaco",
                       CompileError);
  CompileOptions O = options("cuda:90");
  O.WavesPerEU = 2;
  CHECK_THROWS_WITH_AS(compileStages(*M, O), "waves_per_eu is for hip targets", CompileError);
  O = options("hip:gfx90a");
  O.MaxNReg = 32;
  CHECK_THROWS_WITH_AS(compileStages(*M, O),
                       "maxnreg is for cuda targets (hip targets take waves_per_eu)",
                       CompileError);
}

TEST_CASE("the verifier may follow every pass of tgir; debug builds always do") {
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(Copy, Ctx), N = parseModule(Copy, Ctx);
  CompileOptions O = options("cuda:90a");
  O.VerifyEach = false;
  std::string Plain = compileStages(*M, O, "tgir")[0].second.Data;
  O.VerifyEach = true;
  CHECK(compileStages(*N, O, "tgir")[0].second.Data == Plain);
#ifdef TRITIUM_DEBUG_BUILD
  CHECK(CompileOptions().VerifyEach);
#else
  CHECK_FALSE(CompileOptions().VerifyEach);
#endif
}

TEST_CASE("a target's folder adds the passes of its own layout pipeline") {
  // The NVIDIA folder's lower-tma-copies (codegen/nvptx/NVPTXLowerTMACopies.cpp)
  // joins any registry registerAllPasses fills; so does one added here.
  struct NoOp : Pass {
    llvm::StringRef getName() const override { return "test-target-pass"; }
    PreservedAnalyses run(Module &, AnalysisManager &) override {
      return PreservedAnalyses::all();
    }
  };
  addTargetPasses([](PassRegistry &R) {
    R.add("test-target-pass", "a pass a target folder adds",
          [] { return std::unique_ptr<Pass>(new NoOp); });
  });
  PassRegistry R;
  CHECK_FALSE(R.lookup("lower-tma-copies"));
  registerAllPasses(R);
  REQUIRE(R.lookup("lower-tma-copies"));
  CHECK(R.lookup("lower-tma-copies")->Description.find("TMA") != std::string::npos);
  CHECK(R.lookup("test-target-pass"));
  CHECK(R.lookup("assign-layouts")); // and the generic ones
}

TEST_CASE("descriptor accesses are kept for the tensor copies a target registered") {
  PassRegistry &R = PassRegistry::global();
  registerAllPasses(R);
  PassManager PM;
  CHECK_NOTHROW(R.parsePipeline("lower-tensor-descriptors{keep=tma}", PM)); // NVIDIA's
  CHECK_THROWS_WITH_AS(R.parsePipeline("lower-tensor-descriptors{keep=frob}", PM),
                       "keep must be none, tensormaps, tma, got 'frob'", CompileError);
}
