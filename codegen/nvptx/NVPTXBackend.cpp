//===- NVPTXBackend.cpp - Tritium IR to a cubin ---------------------------===//

#include "codegen/nvptx/NVPTXBackend.h"
#include "codegen/nvptx/NVPTXTargetInfo.h"
#include "codegen/Passes.h"
#include "codegen/lowering/LLVMDiagnostics.h"
#include "codegen/lowering/Lowering.h"
#include "codegen/nvptx/PTXEmitter.h"
#include "codegen/nvptx/RematerializeAfterLoops.h"
#include "ir/Diagnostics.h"
#include "ir/Instructions.h"
#include "ir/Module.h"
#include "ir/PassManager.h"
#include "ir/Verifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <mutex>

using namespace tritium;

namespace {
/// The module the llir stage just printed, kept for the ptx stage that
/// usually follows with exactly that text: it then skips re-parsing the
/// LLVM IR. Edited text (TRITIUM_KERNEL_OVERRIDE), or another compile in
/// between, simply parses. One entry; the mutex covers threads compiling
/// at once.
struct LoweredModule {
  std::string IR;
  std::unique_ptr<llvm::LLVMContext> Ctx;
  std::unique_ptr<llvm::Module> M; // lives in *Ctx: always released first
  void clear() {
    M.reset();
    Ctx.reset();
    IR.clear();
  }
  ~LoweredModule() { clear(); }
};
std::mutex LastLoweredMutex;
// Never destroyed: at exit LLVM's own statics may already be gone.
LoweredModule &LastLowered = *new LoweredModule;
} // namespace

std::string tritium::checkNVPTXOptions(const CompileOptions &Opts) {
  if (!Opts.GPU.isNVIDIA())
    return "the NVIDIA backend compiles for cuda targets, not " + Opts.GPU.str();
  if (Opts.NumWarps == 0 || Opts.NumWarps > 32 || !llvm::isPowerOf2_32(Opts.NumWarps))
    return "num_warps must be a power of 2 between 1 and 32, got " +
           std::to_string(Opts.NumWarps);
  if (std::string Why = checkNumStages(Opts.NumStages); !Why.empty())
    return Why;
  // PTX allows .maxnreg up to 255; ptxas rounds small values up itself.
  if (Opts.MaxNReg > 255)
    return "maxnreg must be between 1 and 255, got " + std::to_string(Opts.MaxNReg);
  if (Opts.WavesPerEU)
    return "waves_per_eu is for hip targets";
  return "";
}

namespace {
void checkOptionsOrThrow(const CompileOptions &Opts) {
  std::string Err = checkNVPTXOptions(Opts);
  if (!Err.empty())
    reportError({}, Err);
}
} // namespace

std::string tritium::getNVPTXPipeline(const CompileOptions &Opts) {
  return getLayoutPipeline(getNVPTXLayoutOptions(Opts));
}

LayoutPipelineOptions tritium::getNVPTXLayoutOptions(const CompileOptions &Opts) {
  LayoutPipelineOptions P;
  P.NumWarps = Opts.NumWarps;
  P.WarpSize = Opts.GPU.getWarpSize();
  // Pipelining needs cp.async (sm_80+): elsewhere a copy is a load and a
  // store, which would only add the ring's shared memory.
  if (Opts.GPU.has(Target::CpAsync))
    P.NumStages = Opts.NumStages;
  if (Opts.GPU.has(Target::WGMMA)) {
    // wgmma reads its operands from NVMMA buffers, and its groups may stay
    // in flight across a pipelined loop's iterations; TMA fills them.
    P.MatrixUnits = "wgmma";
    if (Opts.TMA) {
      P.TensorCopies = "tma";
      P.TargetPasses = "lower-tma-copies";
    }
  } else if (Opts.GPU.has(Target::MMASync)) {
    P.MatrixUnits = "mma";
  }
  return P;
}

void tritium::runNVPTXPipeline(Module &M, const CompileOptions &Opts) {
  checkOptionsOrThrow(Opts);
  runLayoutPipeline(M, getNVPTXLayoutOptions(Opts), Opts.VerifyEach || Opts.Debug,
                    Opts.Debugging);
}

namespace {
/// Names the lowering gives a meaning of its own: the driver's printf and
/// assert, the shared memory buffer, libdevice.
bool isReservedName(llvm::StringRef Name) {
  return Name == "vprintf" || Name == "__assertfail" || Name == "global_smem" ||
         Name.startswith("__nv_");
}

/// What makes \p M impossible to lower for NVIDIA GPUs before lowering
/// starts: a name the lowering reserves.
void checkModule(Module &M) {
  llvm::SmallVector<Function *, 4> Functions = M.functions();
  for (Function *F : Functions) {
    if (isReservedName(F->getName()))
      reportError({}, "the name @" + F->getName() +
                          " is reserved by the NVIDIA backend (printf, assert, shared "
                          "memory, libdevice)");
    for (BasicBlock &B : *F)
      for (Instruction &I : B)
        if (auto *E = llvm::dyn_cast<ExternElementwiseInst>(&I))
          if (isReservedName(E->getSymbol()) && !E->getSymbol().startswith("__nv_"))
            reportError(I.getLoc(), "extern_elementwise symbol '" + E->getSymbol() +
                                        "' is reserved by the NVIDIA backend");
  }
}
} // namespace

LLVMIRResult tritium::lowerNVPTXToLLVMIR(Module &M, const CompileOptions &Opts) {
  checkOptionsOrThrow(Opts);
  checkModule(M);
  auto CtxOwner = std::make_unique<llvm::LLVMContext>();
  llvm::LLVMContext &Ctx = *CtxOwner;
  LoweringOptions LO;
  LO.NumWarps = Opts.NumWarps;
  LO.GPU = Opts.GPU;
  LO.MaxRegisters = Opts.MaxNReg;
  LO.Debug = Opts.Debug;
  LO.LineInfo = Opts.LineInfo;
  NVPTXTargetInfo TI(Opts.GPU, Opts.ReflectFTZ);
  LLVMIRResult Result;
  std::unique_ptr<llvm::Module> LLM = lowerToLLVM(M, Ctx, LO, TI, Result.SharedBytes);
  std::unique_ptr<llvm::TargetMachine> TM = createNVPTXTargetMachine(Opts.GPU, Opts.FPFusion);
  if (!TM)
    reportError({}, "LLVM has no NVPTX target");
  prepareNVPTXModule(*LLM, *TM);
  std::string Err = linkLibdevice(*LLM, Opts.GPU, Opts.ReflectFTZ, Opts.LibraryPath);
  if (!Err.empty())
    reportLinkError(M, Err);
  optimizeModule(*LLM, *TM, Opts.LLVMO3, Opts.Debugging);
  rematerializeAfterLoops(*LLM);
  llvm::raw_string_ostream OS(Result.IR);
  LLM->print(OS, nullptr);
  OS.flush();
  std::lock_guard<std::mutex> Lock(LastLoweredMutex);
  LastLowered.clear();
  LastLowered.IR = Result.IR;
  LastLowered.M = std::move(LLM);
  LastLowered.Ctx = std::move(CtxOwner);
  return Result;
}

std::string tritium::compileToPTX(llvm::StringRef LLVMIR, const Target &GPU, bool FPFusion) {
  if (!GPU.isNVIDIA())
    reportError({}, "the NVIDIA backend compiles for cuda targets, not " + GPU.str());
  // M is declared after its context, so it is destroyed first.
  std::unique_ptr<llvm::LLVMContext> Ctx;
  std::unique_ptr<llvm::Module> M;
  {
    std::lock_guard<std::mutex> Lock(LastLoweredMutex);
    if (LastLowered.M && LastLowered.IR == LLVMIR) {
      Ctx = std::move(LastLowered.Ctx);
      M = std::move(LastLowered.M);
    }
    LastLowered.clear();
  }
  if (!M) {
    Ctx = std::make_unique<llvm::LLVMContext>();
    M = parseLLVMIR(LLVMIR, *Ctx);
  }
  LLVMErrorCollector Errors(*Ctx);
  std::unique_ptr<llvm::TargetMachine> TM = createNVPTXTargetMachine(GPU, FPFusion);
  prepareNVPTXModule(*M, *TM);
  std::string Err;
  std::string PTX = emitPTX(*M, *TM, Err);
  if (!Err.empty())
    reportError({}, Err);
  Errors.throwIfAny("LLVM cannot compile the kernel for " + GPU.getArchName());
  // LLVM 16 stops at sm_90 and PTX 7.8: sm_90a gets its own header.
  if (GPU.isArchSpecific())
    PTX = patchPTXHeader(PTX, std::to_string(GPU.getPTXVersion() / 10) + "." +
                                  std::to_string(GPU.getPTXVersion() % 10),
                         GPU.getArchName());
  return PTX;
}

namespace {
/// The "cuda" targets' stages for the stage loop (codegen/Backend.h).
class NVPTXBackend : public Backend {
public:
  std::vector<std::string> getStages(const CompileOptions &) const override {
    return {"tgir", "llir", "ptx", "cubin"};
  }
  std::string checkOptions(const CompileOptions &Opts) const override {
    return checkNVPTXOptions(Opts);
  }
  StageOutput runStage(llvm::StringRef Stage, Module &M, llvm::StringRef Input,
                       const CompileOptions &Opts) const override {
    StageOutput Out;
    if (Stage == "tgir") {
      runNVPTXPipeline(M, Opts);
    } else if (Stage == "llir") {
      LLVMIRResult R = lowerNVPTXToLLVMIR(M, Opts);
      Out.Data = std::move(R.IR);
      Out.Metadata["shared"] = R.SharedBytes;
    } else if (Stage == "ptx") {
      Out.Data = compileToPTX(Input, Opts.GPU, Opts.FPFusion);
      if (llvm::StringRef Line = llvm::StringRef(Out.Data).split(".version ").second;
          !Line.empty())
        Out.Metadata["ptx_version"] = Line.split('\n').first.trim().str();
    } else {
      std::string Ptxas = Opts.AssemblerPath.empty() ? findPtxas() : Opts.AssemblerPath;
      if (Ptxas.empty())
        throw CompileError("ptxas not found (set TRITIUM_PTXAS_PATH)");
      CubinResult C = assembleCubin(Input, Opts.GPU, Ptxas, Opts.FPFusion, Opts.AssemblerOptions);
      if (Opts.Debugging.DumpAssemblerLog)
        Opts.Debugging.dump([&](llvm::raw_ostream &OS) { OS << C.Log; });
      if (!C.Error.empty())
        throw CompileError(C.Error);
      Out.Data = std::move(C.Cubin);
      Out.Binary = true;
      Out.Metadata["n_regs"] = C.Registers;
      Out.Metadata["n_spills"] = std::max(C.SpillStores, 0);
    }
    return Out;
  }
};

const bool Registered = (registerBackend("cuda", std::make_unique<NVPTXBackend>()), true);
} // namespace
