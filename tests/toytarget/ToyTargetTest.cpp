// The toy target (ToyTarget.cpp, this folder's only other file) compiles the
// vector add to LLVM IR through the same stage loop as the GPU targets.
#include "codegen/Backend.h"
#include "ir/Context.h"
#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/Parser.h"

#include "llvm/Support/MemoryBuffer.h"

#include <doctest/doctest.h>

using namespace tritium;

TEST_CASE("a target that is a folder compiles the vector add") {
  CompileOptions Opts;
  REQUIRE(Target::parse("toy:one", Opts.GPU) == "");
  CHECK(Opts.GPU.str() == "toy:one");
  CHECK(Opts.GPU.getKind() == "toy");
  CHECK(Opts.GPU.getWarpSize() == 32);
  auto Text = llvm::MemoryBuffer::getFile(TRITIUM_SOURCE_DIR "/examples/vector_add.tir");
  REQUIRE(Text);
  Context Ctx;
  std::unique_ptr<Module> M = parseModule((*Text)->getBuffer(), Ctx);
  auto Stages = compileStages(*M, Opts);
  REQUIRE(Stages.size() == 2);
  CHECK(Stages[0].first == "tgir");
  CHECK(Stages[0].second.Data.find("layout=<register=") != std::string::npos);
  const std::string &IR = Stages[1].second.Data;
  CHECK(Stages[1].first == "llir");
  CHECK(IR.find("define void @vector_add(") != std::string::npos);
  CHECK(IR.find("\"toy-threads\"=\"128\"") != std::string::npos);
  for (const char *Call : {"@toy.thread_id()", "@toy.program_id(i32 0)", "@toy.masked_load(",
                           "@toy.masked_store("})
    CHECK_MESSAGE(IR.find(Call) != std::string::npos, Call);
  CHECK(IR.find("fadd float") != std::string::npos);
}

TEST_CASE("what the toy target lacks is an error, and its options are its own") {
  CompileOptions Opts;
  REQUIRE(Target::parse("toy", Opts.GPU) == "");
  const char *Print = R"(kernel @k(%x: i32) {
bb0:
  print %x {prefix="x"}
  ret
}
)";
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(Print, Ctx);
  CHECK_THROWS_WITH_AS(compileStages(*M, Opts), "the toy target has no printf", CompileError);
  CHECK(Target::parse("toys:1", Opts.GPU).find(", toy:<arch>") != std::string::npos);
}
