// The NVPTX end: LLVM IR -> PTX (with libdevice) -> cubin through ptxas.
#include "codegen/nvptx/PTXEmitter.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Target/TargetMachine.h"

#include <doctest/doctest.h>

using namespace tritium;

namespace {
const char *KernelIR = R"(
define void @k(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %f = sitofp i32 %tid to float
  %e = call float @__nv_expf(float %f)
  %p = getelementptr float, ptr addrspace(1) %out, i32 %tid
  store float %e, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @__nv_expf(float)
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
)";
} // namespace

TEST_CASE("LLVM IR with a libdevice call becomes PTX and a cubin") {
  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(KernelIR, Diag, Ctx);
  REQUIRE(M);
  auto TM = createNVPTXTargetMachine(Target());
  REQUIRE(TM);
  prepareNVPTXModule(*M, *TM);
  if (findLibdevice().empty()) {
    MESSAGE("libdevice not installed; skipping");
    return;
  }
  CHECK(linkLibdevice(*M, Target()) == "");
  CHECK(M->getFunction("__nv_expf") != nullptr);
  optimizeModule(*M, *TM);
  // The libdevice body was inlined and dropped; only the kernel remains.
  CHECK(M->getFunction("__nv_expf") == nullptr);
  std::string Err;
  std::string PTX = emitPTX(*M, *TM, Err);
  CHECK(Err == "");
  CHECK(PTX.find(".visible .entry k(") != std::string::npos);
  CHECK(PTX.find(".target sm_90") != std::string::npos);
  CHECK(PTX.find("ex2.approx") != std::string::npos);
  std::string Patched = patchPTXHeader(PTX, "8.0", "sm_90a");
  CHECK(Patched.find(".version 8.0\n") != std::string::npos);
  CHECK(Patched.find(".target sm_90a\n") != std::string::npos);

  std::string Ptxas = findPtxas();
  if (Ptxas.empty()) {
    MESSAGE("ptxas not installed; skipping the cubin");
    return;
  }
  CubinResult R = assembleCubin(PTX, Target(), Ptxas);
  CHECK(R.Error == "");
  CHECK(R.Cubin.substr(0, 4) == "\x7f" "ELF");
  CHECK(R.Registers > 0);
  CHECK(R.SpillStores == 0);
}

TEST_CASE("ptxas errors come back with its message") {
  std::string Ptxas = findPtxas();
  if (Ptxas.empty())
    return;
  CubinResult R = assembleCubin(".version 7.8\n.target sm_90\nbogus;\n", Target(), Ptxas);
  CHECK(R.Cubin.empty());
  CHECK(R.Error.find("ptxas failed") != std::string::npos);
  CHECK(R.Error.find("syntax error") != std::string::npos);
}

TEST_CASE("ptxas -v output gives registers and spill bytes") {
  CubinResult R;
  parsePtxasLog("ptxas info    : Compiling entry function 'k' for 'sm_90'\n"
                "ptxas info    : Function properties for k\n"
                "    24 bytes stack frame, 16 bytes spill stores, 8 bytes spill loads\n"
                "ptxas info    : Used 38 registers, used 0 barriers, 364 bytes cmem[0]\n",
                R);
  CHECK(R.Registers == 38);
  CHECK(R.SpillStores == 16);
  CHECK(R.SpillLoads == 8);

  CubinResult None;
  parsePtxasLog("ptxas fatal   : Unresolved extern function 'f'\n", None);
  CHECK(None.Registers == -1);
  CHECK(None.SpillStores == -1);
  CHECK(None.SpillLoads == -1);
}

TEST_CASE("__nvvm_reflect queries are answered for the target") {
  const char *IR = R"(
@arch = private constant [12 x i8] c"__CUDA_ARCH\00"
@ftz = private constant [11 x i8] c"__CUDA_FTZ\00"
@other = private constant [6 x i8] c"__FOO\00"
declare i32 @__nvvm_reflect(ptr)
define i32 @f() {
  %a = call i32 @__nvvm_reflect(ptr @arch)
  %b = call i32 @__nvvm_reflect(ptr @ftz)
  %c = call i32 @__nvvm_reflect(ptr @other)
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  ret i32 %t
}
)";
  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(IR, Diag, Ctx);
  REQUIRE(M);
  Target SM80;
  REQUIRE(Target::parse("cuda:80", SM80) == "");
  resolveNVVMReflect(*M, SM80, /*FlushDenormals=*/true);
  std::string S;
  llvm::raw_string_ostream OS(S);
  M->print(OS, nullptr);
  CHECK(OS.str().find("call i32 @__nvvm_reflect") == std::string::npos);
  CHECK(OS.str().find("add i32 800, 1") != std::string::npos);
  CHECK(OS.str().find(", 0") != std::string::npos);
}
