// Tests of the AMDGPU stage functions (codegen/amdgpu/): options, the llir
// stage's static LDS, the amdgcn stage's LLVM errors, the hsaco stage's code
// object and its metadata, and LLVM's error diagnostics collected instead
// of ending the process. No AMD GPU: the code objects are inspected.
#include "codegen/amdgpu/AMDGPUBackend.h"
#include "codegen/amdgpu/AMDGPUDeviceLibs.h"
#include "codegen/lowering/LLVMDiagnostics.h"
#include "ir/Context.h"
#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/Parser.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <doctest/doctest.h>

#include <ostream>

using namespace tritium;

namespace {
const char *Reduce = R"(kernel @sum(%x: ptr<f32> {divisibility=16}, %out: ptr<f32>) {
entry:
  %r = make_range {start=0, end=1024} : <1024 x i32>
  %xs = splat %x : <1024 x ptr<f32>>
  %xp = getelementptr %xs, %r : <1024 x ptr<f32>>
  %v = load %xp : <1024 x f32>
  %s = reduce %v {axis=0, kind=fadd} : f32
  store %out, %s
  ret
}
)";

CompileOptions options(const char *GPU) {
  CompileOptions O;
  REQUIRE(Target::parse(GPU, O.GPU).empty());
  return O;
}

LLVMIRResult lower(const CompileOptions &Opts) {
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(Reduce, Ctx);
  runAMDGPUPipeline(*M, Opts);
  return lowerAMDGPUToLLVMIR(*M, Opts);
}

bool contains(const std::string &S, const char *Part) { return S.find(Part) != std::string::npos; }
} // namespace

TEST_CASE("AMDGPU options are checked against the target") {
  CompileOptions O = options("hip:gfx90a");
  CHECK(checkAMDGPUOptions(O) == "");
  O.NumWarps = 16; // 1024 work-items: the most a workgroup holds
  CHECK(checkAMDGPUOptions(O) == "");
  O.NumWarps = 32;
  CHECK(contains(checkAMDGPUOptions(O), "at most 1024 threads (16 wavefronts of 64), got 32"));
  O = options("hip:gfx1030");
  O.NumWarps = 32; // wave32: 1024 work-items
  CHECK(checkAMDGPUOptions(O) == "");
  O.NumWarps = 3;
  CHECK(contains(checkAMDGPUOptions(O), "num_warps must be a power of 2"));
  O = options("hip:gfx90a");
  O.WavesPerEU = 11;
  CHECK(checkAMDGPUOptions(O) == "waves_per_eu must be at most 10, got 11");
  O.WavesPerEU = 0;
  O.MaxNReg = 64;
  CHECK(checkAMDGPUOptions(O) == "maxnreg is for cuda targets (hip targets take waves_per_eu)");
  O = options("cuda:90");
  CHECK(checkAMDGPUOptions(O) == "the AMDGPU backend compiles for hip targets, not cuda:90");
}

TEST_CASE("the llir stage sizes the LDS statically and the code object says so") {
  CompileOptions Opts = options("hip:gfx90a");
  LLVMIRResult R = lower(Opts);
  REQUIRE(R.SharedBytes > 0);
  std::string Global = "@global_smem = internal addrspace(3) global [" +
                       std::to_string(R.SharedBytes) + " x i8] undef, align 16";
  CHECK(contains(R.IR, Global.c_str()));
  CHECK(contains(R.IR, "define amdgpu_kernel void @sum("));

  std::string Asm = compileToAMDGCN(R.IR, Opts.GPU);
  CHECK(contains(Asm, ".amdgcn_target \"amdgcn-amd-amdhsa--gfx90a"));
  CHECK(contains(Asm, "ds_bpermute_b32"));
  HsacoResult H = assembleHsaco(Asm, Opts.GPU);
  CHECK(H.Hsaco.compare(0, 4, "\x7f" "ELF") == 0);
  CHECK(H.KernelName == "sum");
  CHECK(H.LDSBytes == int(R.SharedBytes));
  CHECK(H.ScratchBytes == 0);
  CHECK(H.WavefrontSize == 64);
  CHECK(H.KernargBytes == 16);
  CHECK(H.MaxFlatWorkgroupSize == 256);
  // The two pointers: 8 bytes each, at 0 and 8, in the global address space.
  REQUIRE(H.Args.size() == 2);
  CHECK(H.Args[0].Offset == 0);
  CHECK(H.Args[0].Size == 8);
  CHECK(H.Args[0].Kind == "global_buffer");
  CHECK(H.Args[1].Offset == 8);
  CHECK(H.VGPRs > 0);
  CHECK(H.SGPRs > 0);

  // The metadata reads back the same from the image alone.
  HsacoResult Again;
  CHECK(readHsacoMetadata(H.Hsaco, Again) == "");
  CHECK(Again.LDSBytes == H.LDSBytes);
  CHECK(Again.VGPRs == H.VGPRs);
}

TEST_CASE("wave32 targets lay out 32-lane wavefronts") {
  CompileOptions Opts = options("hip:gfx1030");
  LLVMIRResult R = lower(Opts);
  HsacoResult H = assembleHsaco(compileToAMDGCN(R.IR, Opts.GPU), Opts.GPU);
  CHECK(H.WavefrontSize == 32);
}

TEST_CASE("a bad image or bad assembly is an error, not a crash") {
  HsacoResult R;
  CHECK(contains(readHsacoMetadata("not an elf", R), "not an ELF code object"));
  CHECK_THROWS_WITH_AS(assembleHsaco("\tv_frobnicate v0, v1\n", options("hip:gfx90a").GPU),
                       doctest::Contains("cannot assemble the AMDGPU assembly"), CompileError);
  CHECK_THROWS_WITH_AS(compileToAMDGCN("define void @f( {", options("hip:gfx90a").GPU),
                       doctest::Contains("cannot parse the LLVM IR"), CompileError);
  CHECK_THROWS_WITH_AS(compileToAMDGCN("", Target()),
                       doctest::Contains("compiles for hip targets, not cuda:90"), CompileError);
}

TEST_CASE("LLVM's error diagnostics are collected, its warnings dropped") {
  llvm::LLVMContext Ctx;
  LLVMErrorCollector Errors(Ctx);
  CHECK_NOTHROW(Errors.throwIfAny("compiling"));
  Ctx.diagnose(llvm::DiagnosticInfoInlineAsm("just a warning", llvm::DS_Warning));
  CHECK(Errors.errors() == "");
  Ctx.emitError("first");
  Ctx.emitError("second");
  CHECK(Errors.errors() == "first\nsecond");
  CHECK_THROWS_WITH_AS(Errors.throwIfAny("compiling"), "compiling: first\nsecond", CompileError);
}

TEST_CASE("libdevice calls become ocml's functions or LLVM's operations") {
  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(R"(
declare float @__nv_expf(float)
declare double @__nv_isnand(double)
declare float @__nv_powif(float, i32)
declare i32 @__nv_popcll(i64)
declare i32 @__nv_umulhi(i32, i32)
define float @f(float %x, double %d, i64 %l, i32 %i) {
  %a = call float @__nv_expf(float %x)
  %b = call double @__nv_isnand(double %d)
  %c = call float @__nv_powif(float %a, i32 %i)
  %p = call i32 @__nv_popcll(i64 %l)
  %h = call i32 @__nv_umulhi(i32 %p, i32 %i)
  ret float %c
}
)", Diag, Ctx);
  REQUIRE(M);
  CHECK(replaceLibdeviceCalls(*M) == "");
  CHECK(M->getFunction("__ocml_exp_f32"));
  CHECK(M->getFunction("__ocml_isnan_f64"));
  CHECK(M->getFunction("__ocml_pown_f32"));
  for (const char *Gone : {"__nv_expf", "__nv_isnand", "__nv_powif", "__nv_popcll", "__nv_umulhi"})
    CHECK_MESSAGE(!M->getFunction(Gone), Gone);
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  M->print(OS, nullptr);
  CHECK(contains(OS.str(), "call i64 @llvm.ctpop.i64"));
  CHECK(contains(OS.str(), "lshr i64"));

  std::unique_ptr<llvm::Module> R = llvm::parseAssemblyString(R"(
declare float @__nv_fdiv_rn(float, float)
define float @g(float %x) {
  %a = call float @__nv_fdiv_rn(float %x, float %x)
  ret float %a
}
)", Diag, Ctx);
  REQUIRE(R);
  CHECK(contains(replaceLibdeviceCalls(*R), "libdevice's __nv_fdiv_rn has no AMD equivalent"));
}
