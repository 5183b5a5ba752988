//===- AMDGPUBackend.cpp - Tritium IR to AMDGPU assembly ------------------===//
//
// The tgir, llir and amdgcn stages; the hsaco stage is AMDGPUCodeObject.cpp.
//
//===----------------------------------------------------------------------===//

#include "codegen/amdgpu/AMDGPUBackend.h"
#include "codegen/Passes.h"
#include "codegen/amdgpu/AMDGPUDeviceLibs.h"
#include "codegen/amdgpu/AMDGPUTargetInfo.h"
#include "codegen/amdgpu/AMDGPUTargetMachine.h"
#include "codegen/lowering/LLVMDiagnostics.h"
#include "codegen/lowering/LLVMOptimize.h"
#include "codegen/lowering/Lowering.h"
#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/PassManager.h"
#include "ir/Verifier.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

using namespace tritium;

namespace {

void checkOptionsOrThrow(const CompileOptions &Opts) {
  std::string Err = checkAMDGPUOptions(Opts);
  if (!Err.empty())
    reportError({}, Err);
}

/// Gives the lowering's shared memory (an external zero-length array, as
/// CUDA's dynamic shared memory) its size: on AMD GPUs LDS is allocated
/// statically, so LLVM knows it for occupancy and register budgets and the
/// code object's group segment says it (the launch then passes no dynamic
/// LDS). A kernel needing more than the target has fails in the amdgcn stage
/// with LLVM's "local memory exceeds limit".
void sizeSharedMemory(llvm::Module &M, unsigned Bytes) {
  llvm::GlobalVariable *G = M.getGlobalVariable("global_smem");
  if (!G || Bytes == 0)
    return;
  auto *Ty = llvm::ArrayType::get(llvm::Type::getInt8Ty(M.getContext()), Bytes);
  auto *Sized = new llvm::GlobalVariable(M, Ty, /*isConstant=*/false,
                                         llvm::GlobalValue::InternalLinkage,
                                         llvm::UndefValue::get(Ty), "", nullptr,
                                         llvm::GlobalValue::NotThreadLocal,
                                         G->getAddressSpace());
  Sized->setAlignment(G->getAlign().valueOrOne());
  Sized->takeName(G);
  G->replaceAllUsesWith(Sized);
  G->eraseFromParent();
}

} // namespace

std::string tritium::checkAMDGPUOptions(const CompileOptions &Opts) {
  if (!Opts.GPU.isAMD())
    return "the AMDGPU backend compiles for hip targets, not " + Opts.GPU.str();
  // A workgroup holds at most 1024 work-items.
  if (Opts.NumWarps == 0 || !llvm::isPowerOf2_32(Opts.NumWarps) ||
      Opts.NumWarps * Opts.GPU.getWarpSize() > 1024)
    return "num_warps must be a power of 2 with at most 1024 threads (" +
           std::to_string(1024 / Opts.GPU.getWarpSize()) + " wavefronts of " +
           std::to_string(Opts.GPU.getWarpSize()) + "), got " + std::to_string(Opts.NumWarps);
  if (Opts.WavesPerEU > 10)
    return "waves_per_eu must be at most 10, got " + std::to_string(Opts.WavesPerEU);
  if (Opts.MaxNReg)
    return "maxnreg is for cuda targets (hip targets take waves_per_eu)";
  return "";
}

void tritium::runAMDGPUPipeline(Module &M, const CompileOptions &Opts) {
  checkOptionsOrThrow(Opts);
  // MFMA where both of Triton's CDNA targets have it: gfx90a and gfx940
  // (gfx908 lacks the bf16 instructions; RDNA has none).
  llvm::StringRef Arch = Opts.GPU.getArchName();
  LayoutPipelineOptions P;
  P.NumWarps = Opts.NumWarps;
  P.WarpSize = Opts.GPU.getWarpSize();
  // num_stages as Triton's AMD stream pipeliner: 2 or more pipelines the
  // loads for dots through registers into a ring in LDS (no async copies).
  P.NumStages = Opts.NumStages;
  P.RegisterCopies = true;
  if (Opts.GPU.has(Target::MFMA) && (Arch == "gfx90a" || Arch == "gfx940"))
    P.MatrixUnits = "mfma";
  runLayoutPipeline(M, P, Opts.VerifyEach || Opts.Debug, Opts.Debugging);
}

LLVMIRResult tritium::lowerAMDGPUToLLVMIR(Module &M, const CompileOptions &Opts) {
  checkOptionsOrThrow(Opts);
  llvm::LLVMContext Ctx;
  LoweringOptions LO;
  LO.NumWarps = Opts.NumWarps;
  LO.GPU = Opts.GPU;
  LO.Debug = Opts.Debug;
  LO.LineInfo = Opts.LineInfo;
  AMDGPUTargetInfo TI(Opts.GPU);
  LLVMIRResult Result;
  std::unique_ptr<llvm::Module> LLM = lowerToLLVM(M, Ctx, LO, TI, Result.SharedBytes);
  sizeSharedMemory(*LLM, Result.SharedBytes);
  std::unique_ptr<llvm::TargetMachine> TM = createAMDGPUTargetMachine(Opts.GPU, Opts.FPFusion);
  LLM->setTargetTriple(AMDGPUTriple);
  LLM->setDataLayout(TM->createDataLayout());
  if (Opts.WavesPerEU)
    for (llvm::Function &F : *LLM)
      if (F.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL)
        F.addFnAttr("amdgpu-waves-per-eu", std::to_string(Opts.WavesPerEU));
  std::string Err = replaceLibdeviceCalls(*LLM);
  if (Err.empty())
    Err = linkDeviceLibs(*LLM, Opts.GPU, Opts.LibraryPath);
  if (Err.empty())
    Err = undefinedFunction(*LLM);
  if (!Err.empty())
    reportLinkError(M, Err);
  optimizeModule(*LLM, *TM, Opts.LLVMO3, Opts.Debugging);
  llvm::raw_string_ostream OS(Result.IR);
  LLM->print(OS, nullptr);
  OS.flush();
  return Result;
}

std::string tritium::compileToAMDGCN(llvm::StringRef LLVMIR, const Target &GPU, bool FPFusion) {
  if (!GPU.isAMD())
    reportError({}, "the AMDGPU backend compiles for hip targets, not " + GPU.str());
  llvm::LLVMContext Ctx;
  LLVMErrorCollector Errors(Ctx);
  std::unique_ptr<llvm::Module> M = parseLLVMIR(LLVMIR, Ctx);
  std::unique_ptr<llvm::TargetMachine> TM = createAMDGPUTargetMachine(GPU, FPFusion);
  M->setTargetTriple(AMDGPUTriple);
  M->setDataLayout(TM->createDataLayout());
  llvm::SmallString<0> Buf;
  llvm::raw_svector_ostream OS(Buf);
  llvm::legacy::PassManager PM;
  if (TM->addPassesToEmitFile(PM, OS, nullptr, llvm::CGFT_AssemblyFile))
    reportError({}, "the AMDGPU target cannot emit assembly");
  PM.run(*M);
  Errors.throwIfAny("LLVM cannot compile the kernel for " + GPU.getArchName());
  return std::string(Buf.str());
}

namespace {
/// The "hip" targets' stages for the stage loop (codegen/Backend.h).
class AMDGPUBackend : public Backend {
public:
  std::vector<std::string> getStages(const CompileOptions &) const override {
    return {"tgir", "llir", "amdgcn", "hsaco"};
  }
  std::string checkOptions(const CompileOptions &Opts) const override {
    return checkAMDGPUOptions(Opts);
  }
  StageOutput runStage(llvm::StringRef Stage, Module &M, llvm::StringRef Input,
                       const CompileOptions &Opts) const override {
    StageOutput Out;
    if (Stage == "tgir") {
      runAMDGPUPipeline(M, Opts);
    } else if (Stage == "llir") {
      LLVMIRResult R = lowerAMDGPUToLLVMIR(M, Opts);
      Out.Data = std::move(R.IR);
      Out.Metadata["shared"] = R.SharedBytes; // static LDS: launches pass none
    } else if (Stage == "amdgcn") {
      Out.Data = compileToAMDGCN(Input, Opts.GPU, Opts.FPFusion);
    } else {
      HsacoResult H = assembleHsaco(Input, Opts.GPU);
      Out.Data = std::move(H.Hsaco);
      Out.Binary = true;
      Out.Metadata["n_regs"] = H.VGPRs;
      Out.Metadata["n_sgprs"] = H.SGPRs;
      Out.Metadata["scratch"] = H.ScratchBytes;
      Out.Metadata["n_spills"] = H.ScratchBytes > 0 ? H.ScratchBytes / 4 : 0;
    }
    return Out;
  }
};

const bool Registered = (registerBackend("hip", std::make_unique<AMDGPUBackend>()), true);
} // namespace
