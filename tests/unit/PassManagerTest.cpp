//===- PassManagerTest.cpp - Passes, analysis caching, the registry -------===//

#include "ir/Builder.h"
#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/PassManager.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace tritium;

namespace {

/// Counts its runs; the result is the number of blocks of the function.
struct BlockCount {
  using Result = size_t;
  static char ID;
  static int Runs;
  static Result run(Function &F, AnalysisManager &) {
    ++Runs;
    return F.size();
  }
};
char BlockCount::ID;
int BlockCount::Runs = 0;

/// Depends on BlockCount, so computing it caches another result meanwhile.
struct TwiceBlockCount {
  using Result = size_t;
  static char ID;
  static int Runs;
  static Result run(Function &F, AnalysisManager &AM) {
    ++Runs;
    return 2 * AM.get<BlockCount>(F);
  }
};
char TwiceBlockCount::ID;
int TwiceBlockCount::Runs = 0;

/// A module with functions @a and @b, each an entry block with `ret`.
struct PMFixture {
  Context Ctx;
  Module M{Ctx};
  Function *A, *B;
  PMFixture() {
    BlockCount::Runs = TwiceBlockCount::Runs = 0;
    A = addFunction("a");
    B = addFunction("b");
  }
  Function *addFunction(llvm::StringRef Name) {
    Function *F = M.createFunction(Name, FunctionType::get(Ctx, {}, {}));
    IRBuilder Bld(Ctx);
    Bld.setInsertPoint(F->createBlock("entry"));
    Bld.createRet();
    return F;
  }
};

/// A pass made of a lambda.
class LambdaPass : public Pass {
public:
  using Fn = std::function<PreservedAnalyses(Module &, AnalysisManager &)>;
  LambdaPass(std::string Name, Fn Body) : Name(std::move(Name)), Body(Body) {}
  llvm::StringRef getName() const override { return Name; }
  PreservedAnalyses run(Module &M, AnalysisManager &AM) override {
    return Body(M, AM);
  }

private:
  std::string Name;
  Fn Body;
};

/// Adds a block to the functions named in Changes and reports what it kept.
class AddBlockPass : public FunctionPass {
public:
  explicit AddBlockPass(std::vector<std::string> Changes)
      : Changes(std::move(Changes)) {}
  llvm::StringRef getName() const override { return "add-block"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &) override {
    Seen.push_back(F.getName().str());
    if (llvm::find(Changes, F.getName()) == Changes.end())
      return PreservedAnalyses::all();
    F.createBlock("extra");
    return PreservedAnalyses::none();
  }
  std::vector<std::string> Changes, Seen;
};

} // namespace

TEST_CASE("PreservedAnalyses") {
  PreservedAnalyses All = PreservedAnalyses::all();
  CHECK(All.areAllPreserved());
  CHECK(All.isPreserved(&BlockCount::ID));
  PreservedAnalyses None = PreservedAnalyses::none();
  CHECK_FALSE(None.areAllPreserved());
  CHECK_FALSE(None.isPreserved(&BlockCount::ID));
  PreservedAnalyses Some = PreservedAnalyses::none().preserve<BlockCount>();
  CHECK_FALSE(Some.areAllPreserved());
  CHECK(Some.isPreserved(&BlockCount::ID));
  CHECK_FALSE(Some.isPreserved(&TwiceBlockCount::ID));
}

TEST_CASE_FIXTURE(PMFixture, "analyses are computed once and cached") {
  AnalysisManager AM;
  CHECK(AM.getCached<BlockCount>(*A) == nullptr);
  CHECK(AM.get<BlockCount>(*A) == 1u);
  CHECK(AM.get<BlockCount>(*A) == 1u);
  CHECK(BlockCount::Runs == 1);
  REQUIRE(AM.getCached<BlockCount>(*A));
  CHECK(*AM.getCached<BlockCount>(*A) == 1u);
  // Cached per function.
  CHECK(AM.getCached<BlockCount>(*B) == nullptr);
  AM.get<BlockCount>(*B);
  CHECK(BlockCount::Runs == 2);
  // A cached result is not recomputed even if stale: invalidation is the
  // passes' job.
  A->createBlock("x");
  CHECK(AM.get<BlockCount>(*A) == 1u);
  AM.clear();
  CHECK(AM.getCached<BlockCount>(*A) == nullptr);
  CHECK(AM.get<BlockCount>(*A) == 2u);
  CHECK(BlockCount::Runs == 3);
}

TEST_CASE_FIXTURE(PMFixture, "an analysis may use another while it runs") {
  // Enough functions that caching the inner result grows the cache while
  // the outer one is being computed.
  std::vector<Function *> Fs;
  for (int I = 0; I < 100; ++I)
    Fs.push_back(addFunction("f" + std::to_string(I)));
  AnalysisManager AM;
  for (Function *F : Fs)
    CHECK(AM.get<TwiceBlockCount>(*F) == 2u);
  CHECK(TwiceBlockCount::Runs == 100);
  CHECK(BlockCount::Runs == 100);
  for (Function *F : Fs) {
    REQUIRE(AM.getCached<TwiceBlockCount>(*F));
    CHECK(*AM.getCached<TwiceBlockCount>(*F) == 2u);
    CHECK(AM.get<TwiceBlockCount>(*F) == 2u);
  }
  CHECK(TwiceBlockCount::Runs == 100);
}

TEST_CASE_FIXTURE(PMFixture, "invalidation drops what was not preserved") {
  AnalysisManager AM;
  AM.get<TwiceBlockCount>(*A);
  AM.get<BlockCount>(*B);
  AM.invalidate(PreservedAnalyses::all());
  CHECK(AM.getCached<BlockCount>(*A));
  CHECK(AM.getCached<TwiceBlockCount>(*A));
  AM.invalidate(PreservedAnalyses::none().preserve<BlockCount>());
  CHECK(AM.getCached<BlockCount>(*A));
  CHECK(AM.getCached<BlockCount>(*B));
  CHECK(AM.getCached<TwiceBlockCount>(*A) == nullptr);
  AM.invalidate(PreservedAnalyses::none());
  CHECK(AM.getCached<BlockCount>(*A) == nullptr);
  CHECK(AM.getCached<BlockCount>(*B) == nullptr);
}

TEST_CASE_FIXTURE(PMFixture, "passes run in order and invalidate") {
  std::vector<std::string> Log;
  PassManager PM;
  PM.add(std::make_unique<LambdaPass>("first", [&](Module &, AnalysisManager &AM) {
    Log.push_back("first:" + std::to_string(AM.get<BlockCount>(*A)));
    return PreservedAnalyses::all();
  }));
  PM.add(std::make_unique<LambdaPass>("second", [&](Module &, AnalysisManager &AM) {
    // Still cached from the first pass.
    Log.push_back("second:" + std::to_string(*AM.getCached<BlockCount>(*A)));
    A->createBlock("new");
    return PreservedAnalyses::none();
  }));
  PM.add(std::make_unique<LambdaPass>("third", [&](Module &, AnalysisManager &AM) {
    std::string Was = AM.getCached<BlockCount>(*A) ? "cached" : "dropped";
    Log.push_back("third:" + Was + ":" + std::to_string(AM.get<BlockCount>(*A)));
    return PreservedAnalyses::all();
  }));
  CHECK(PM.size() == 3u);
  AnalysisManager AM;
  PM.run(M, AM);
  CHECK(llvm::join(Log, " ") == "first:1 second:1 third:dropped:2");
  CHECK(BlockCount::Runs == 2);
  CHECK(AM.getCached<BlockCount>(*A)); // the third pass preserved all
}

TEST_CASE_FIXTURE(PMFixture, "a function pass runs on every function") {
  AnalysisManager AM;
  AM.get<BlockCount>(*A);
  AM.get<BlockCount>(*B);
  {
    AddBlockPass P({});
    CHECK(P.run(M, AM).areAllPreserved());
    CHECK(llvm::join(P.Seen, " ") == "a b");
    CHECK(AM.getCached<BlockCount>(*A));
  }
  {
    // Changing @b alone drops the analysis of both functions, since
    // invalidation does not look at which function a result belongs to.
    AddBlockPass P({"b"});
    PreservedAnalyses PA = P.run(M, AM);
    CHECK_FALSE(PA.areAllPreserved());
    CHECK_FALSE(PA.isPreserved(&BlockCount::ID));
    CHECK(AM.getCached<BlockCount>(*A) == nullptr);
    CHECK(AM.getCached<BlockCount>(*B) == nullptr);
    CHECK(B->size() == 2u);
    CHECK(A->size() == 1u);
  }
}

TEST_CASE("the registry builds pipelines from names") {
  PassRegistry R;
  int Made = 0;
  auto Factory = [&](const char *Name) {
    return [&Made, Name]() -> std::unique_ptr<Pass> {
      ++Made;
      return std::make_unique<LambdaPass>(
          Name, [](Module &, AnalysisManager &) { return PreservedAnalyses::all(); });
    };
  };
  R.add("zeta", "the last letter", Factory("zeta"));
  R.add("alpha", "the first letter", Factory("alpha"));
  REQUIRE(R.lookup("alpha"));
  CHECK(R.lookup("alpha")->Name == "alpha");
  CHECK(R.lookup("alpha")->Description == "the first letter");
  CHECK(R.lookup("beta") == nullptr);
  std::vector<const PassRegistry::Entry *> Es = R.entries();
  REQUIRE(Es.size() == 2u);
  CHECK(Es[0]->Name == "alpha");
  CHECK(Es[1]->Name == "zeta");

  PassManager PM;
  R.parsePipeline(" zeta, alpha,,zeta ", PM);
  CHECK(PM.size() == 3u);
  CHECK(Made == 3);
  R.parsePipeline("", PM);
  CHECK(PM.size() == 3u);
  CHECK_THROWS_WITH_AS(
      R.parsePipeline("alpha,beta", PM),
      "unknown pass 'beta' (tritium-opt --list-passes shows them all)",
      CompileError);
  CHECK_THROWS_WITH_AS(R.parsePipeline("alpha, ,zeta", PM),
                       "unknown pass '' (tritium-opt --list-passes shows them all)",
                       CompileError);

  // The global registry has the passes of ir/.
  CHECK(PassRegistry::global().lookup("verify"));
  CHECK(PassRegistry::global().lookup("print"));
}

TEST_CASE_FIXTURE(PMFixture, "verify-each names the pass that broke the IR") {
  PassManagerOptions Opts;
  Opts.VerifyEach = true;
  PassManager PM(Opts);
  PM.add(std::make_unique<LambdaPass>("harmless", [](Module &, AnalysisManager &) {
    return PreservedAnalyses::all();
  }));
  PM.add(std::make_unique<LambdaPass>("drop-ret", [&](Module &, AnalysisManager &) {
    B->front().back().eraseFromParent();
    return PreservedAnalyses::none();
  }));
  PM.add(std::make_unique<LambdaPass>("never", [](Module &, AnalysisManager &) {
    FAIL("a pass after the failure ran");
    return PreservedAnalyses::all();
  }));
  CHECK_THROWS_WITH_AS(PM.run(M),
                       "the IR is invalid after pass 'drop-ret':\n"
                       "in @b, entry: block does not end with a terminator",
                       CompileError);
}

TEST_CASE_FIXTURE(PMFixture, "print-before/after-all and the timer") {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  std::vector<std::string> Timed;
  PassManagerOptions Opts;
  Opts.PrintAfterAll = true;
  Opts.PrintStream = &OS;
  Opts.Timer = [&](llvm::StringRef Name, double Seconds) {
    CHECK(Seconds >= 0.0);
    Timed.push_back(Name.str());
  };
  M.eraseFunction(B);
  PassManager PM(Opts);
  PM.add(std::make_unique<LambdaPass>("noop", [](Module &, AnalysisManager &) {
    return PreservedAnalyses::all();
  }));
  PM.add(std::make_unique<LambdaPass>("grow", [&](Module &, AnalysisManager &) {
    A->createBlock("more");
    return PreservedAnalyses::none();
  }));
  PM.run(M);
  CHECK(llvm::join(Timed, " ") == "noop grow");
  CHECK(Out == "// -----// IR Dump After noop //----- //\n"
               "func @a() {\n"
               "entry:\n"
               "  ret\n"
               "}\n"
               "// -----// IR Dump After grow //----- //\n"
               "func @a() {\n"
               "entry:\n"
               "  ret\n"
               "more:\n"
               "}\n");

  // Without a stream nothing is printed; before-all prints the input.
  Out.clear();
  PassManagerOptions Quiet;
  Quiet.PrintAfterAll = true;
  PassManager PM2(Quiet);
  PM2.add(std::make_unique<LambdaPass>("noop", [](Module &, AnalysisManager &) {
    return PreservedAnalyses::all();
  }));
  PM2.run(M);
  CHECK(Out.empty());
  PassManagerOptions Before;
  Before.PrintBeforeAll = true;
  Before.PrintStream = &OS;
  Before.Label = "a_kernel";
  PassManager PM3(Before);
  PM3.add(std::make_unique<LambdaPass>("noop", [](Module &, AnalysisManager &) {
    return PreservedAnalyses::all();
  }));
  PM3.run(M);
  CHECK(llvm::StringRef(Out).startswith("// -----// IR Dump Before noop (a_kernel) //----- //\n"
                                        "func @a() {\n"));
}

namespace {
std::string readFile(const std::string &Path) {
  auto Buf = llvm::MemoryBuffer::getFile(Path);
  REQUIRE(Buf);
  return (*Buf)->getBuffer().str();
}
} // namespace

TEST_CASE_FIXTURE(PMFixture, "the reproducer holds the module before the failing pass") {
  llvm::SmallString<64> Path;
  REQUIRE(!llvm::sys::fs::createTemporaryFile("pm-repro", "tir", Path));
  PassManagerOptions Opts;
  Opts.ReproducerPath = Path.str().str();
  M.eraseFunction(B);
  auto Grow = [&](Module &, AnalysisManager &) {
    A->createBlock("more");
    return PreservedAnalyses::none();
  };
  auto Fail = [&](Module &, AnalysisManager &) -> PreservedAnalyses {
    A->createBlock("half-done"); // what the failing pass changed stays out
    throw CompileError(Loc{"k.py", 3, 5}, "no layout fits\nsecond line");
  };
  auto Noop = [](Module &, AnalysisManager &) { return PreservedAnalyses::all(); };

  // A pipeline that succeeds leaves the module before it, and the pipeline.
  PassManager Good(Opts);
  Good.add(std::make_unique<LambdaPass>("noop", Noop), "noop{x=1}");
  Good.run(M);
  std::string Replay = "; replay: tritium-opt " + Opts.ReproducerPath + " -p 'noop{x=1}'\n";
  CHECK(readFile(Opts.ReproducerPath) == "; Tritium reproducer: the module before the pipeline "
                                         "below.\n; pipeline: noop{x=1}\n" + Replay +
                                         "func @a() {\nentry:\n  ret\n}\n");

  // A failure rewrites it: the module right before the failing pass, the
  // pipeline from it, the first line of the error with its location.
  PassManager Bad(Opts);
  Bad.add(std::make_unique<LambdaPass>("grow", Grow));
  Bad.add(std::make_unique<LambdaPass>("fail", Fail), "fail{n=2}");
  Bad.add(std::make_unique<LambdaPass>("noop", Noop));
  CHECK_THROWS_AS(Bad.run(M), CompileError);
  CHECK(readFile(Opts.ReproducerPath) ==
        "; Tritium reproducer: pass 'fail' failed on this module:\n"
        ";   k.py:3:5: no layout fits\n"
        "; pipeline: fail{n=2},noop\n"
        "; replay: tritium-opt " + Opts.ReproducerPath + " -p 'fail{n=2},noop'\n"
        "func @a() {\nentry:\n  ret\nmore:\n}\n");
  llvm::sys::fs::remove(Path);
}

TEST_CASE_FIXTURE(PMFixture, "remarks reach the passes only where a stream is given") {
  auto Remarking = [] {
    return std::make_unique<LambdaPass>("remarking", [](Module &, AnalysisManager &AM) {
      if (llvm::raw_ostream *OS = AM.getRemarkStream())
        *OS << "// remark: remarking: left alone\n";
      return PreservedAnalyses::all();
    });
  };
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  PassManagerOptions Quiet;
  Quiet.PrintStream = &OS; // a print stream alone carries no remarks
  PassManager PM(Quiet);
  PM.add(Remarking());
  PM.run(M);
  CHECK(Out.empty());
  PassManagerOptions Opts;
  Opts.RemarkStream = &OS;
  PassManager PM2(Opts);
  PM2.add(Remarking());
  PM2.run(M);
  CHECK(Out == "// remark: remarking: left alone\n");
}
