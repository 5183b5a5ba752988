// Tests of the NVIDIA stage functions (codegen/nvptx/NVPTXBackend.cpp): the
// ptx stage reuses the module the llir stage just lowered when it is handed
// that very text, and gives the same PTX as when it parses the text.
#include "codegen/nvptx/NVPTXBackend.h"
#include "ir/Context.h"
#include "ir/Module.h"
#include "ir/Parser.h"

#include <doctest/doctest.h>

using namespace tritium;

namespace {
const char *VectorAdd = R"(kernel @add(%x: ptr<f32> {divisibility=16}, %out: ptr<f32> {divisibility=16}, %n: i32 {divisibility=16}) {
entry:
  %r = make_range {start=0, end=512} : <512 x i32>
  %ns = splat %n : <512 x i32>
  %m = icmp slt %r, %ns : <512 x i1>
  %xs = splat %x : <512 x ptr<f32>>
  %xp = getelementptr %xs, %r : <512 x ptr<f32>>
  %v = load %xp, %m : <512 x f32>
  %w = fadd %v, %v : <512 x f32>
  %os = splat %out : <512 x ptr<f32>>
  %op = getelementptr %os, %r : <512 x ptr<f32>>
  store %op, %w, %m
  ret
}
)";

LLVMIRResult lower(const CompileOptions &Opts) {
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(VectorAdd, Ctx);
  runNVPTXPipeline(*M, Opts);
  return lowerNVPTXToLLVMIR(*M, Opts);
}
} // namespace

TEST_CASE("the ptx stage gives the same PTX from the kept module and from text") {
  CompileOptions Opts;
  LLVMIRResult R = lower(Opts);
  std::string Kept = compileToPTX(R.IR, Target());   // the module the llir stage kept
  std::string Parsed = compileToPTX(R.IR, Target()); // nothing kept now: parsed
  CHECK(Kept == Parsed);
  CHECK(Kept.find(".visible .entry add(") != std::string::npos);
  CHECK(Kept.find("ld.global.v4.b32") != std::string::npos);

  // Other text than the last lowering (an edited override) is parsed, and
  // the kept module is not used for it.
  LLVMIRResult R2 = lower(Opts);
  std::string Edited = R2.IR;
  size_t At = Edited.find("fadd float");
  REQUIRE(At != std::string::npos);
  Edited.replace(At, 10, "fmul float");
  std::string FromEdit = compileToPTX(Edited, Target());
  CHECK(FromEdit.find("mul.f32") != std::string::npos);
  CHECK(FromEdit != Kept);
}
