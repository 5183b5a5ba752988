//===- CPUBackend.cpp - Tritium IR to an object file for the host CPU ----===//
//
// The "cpu" targets' stages: tgir (layouts for one thread of one lane: every
// element of a block in its registers), llir (lowered with CPUTargetInfo,
// each kernel given its launch entry, libdevice calls bound to the C
// library's functions, LLVM's O3 for the host) and obj (an ELF object that
// runtime/CpuDriver.cpp links into the process and runs on its threads).
//
// `cpu` is the host's processor with all its features; `cpu:<name>` an
// LLVM processor name (x86-64, skylake-avx512, ...) with its own. A name
// that only AArch64 knows (neoverse-v1, cortex-a72, apple-m1, ...) compiles
// for AArch64 Linux by the same code: an object for that machine, which this
// process does not run (the driver links objects of its own architecture).
//
// A kernel's launch entry has the kernel's name:
//   void name(void **params)
// where params[i] points at the value of the kernel's i-th parameter (as
// CUDA's kernelParams): it runs one program, the one the runtime's
// program id says. The kernel itself becomes `name.body`, inlined into it.
//
// A program is one thread, or a loop of threads where no thread needs
// another's values (programThreads): one thread per 64 elements of its
// largest block, each holding one run of every block (LayoutOptions::
// ThreadRuns), the loop's counter its thread id. A 1,024-element vector
// add is then a loop of 16 threads of 64 elements, whose code LLVM
// compiles in a tenth of the time of 1,024 elements at once (whose
// registers the greedy allocator spilled for 140 ms) and runs as fast.
//
//===----------------------------------------------------------------------===//

#include "analysis/SharedMemory.h"
#include "codegen/Backend.h"
#include "codegen/Passes.h"
#include "codegen/cpu/CPUTargetInfo.h"
#include "codegen/lowering/LLVMDiagnostics.h"
#include "codegen/lowering/LLVMOptimize.h"
#include "codegen/lowering/Lowering.h"
#include "ir/Diagnostics.h"
#include "ir/Instructions.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "ir/PassManager.h"

#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/Host.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <cmath>
#include <mutex>

using namespace tritium;

extern "C" {
void LLVMInitializeAArch64TargetInfo();
void LLVMInitializeAArch64Target();
void LLVMInitializeAArch64TargetMC();
void LLVMInitializeAArch64AsmPrinter();
}

namespace {

/// The lean pipeline of the GPU targets with the SLP vectorizer, which makes
/// vectors of the lowering's per-element code. O3 (TRITIUM_LLVM_O3) took
/// three times as long for no faster matmul.
const char *const kCPUPipeline =
    "always-inline,function(sroa,early-cse<memssa>,instcombine,simplifycfg,loop-mssa(licm),gvn,"
    "inject-tli-mappings,slp-vectorizer,instcombine,adce,simplifycfg),globaldce";
/// A module the lowering made large gets the GPU targets' lean pipeline,
/// without SLP: its time grows faster than the code (a 64x64x32 matmul tile,
/// 82k instructions: 8.5 of its 9.6 s), and there the dot and the accesses
/// are vectors already. The add, softmax and a 32x32x128 dot are 13-32k.
constexpr unsigned kMaxInstructionsForSLP = 40000;

unsigned countInstructions(const llvm::Module &M) {
  unsigned N = 0;
  for (const llvm::Function &F : M)
    N += F.getInstructionCount();
  return N;
}

/// The library functions of \p Triple, with glibc's vector math (libmvec:
/// exp, log, sin, cos, pow on 4 or 8 floats) where this process can load it
/// (the driver loads it for the kernels): a block's exp is 1/8 the calls.
llvm::TargetLibraryInfoImpl hostLibrary(const llvm::Triple &Triple) {
  llvm::TargetLibraryInfoImpl Library(Triple);
  if (Triple.getArch() == llvm::Triple::x86_64 &&
      !llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1"))
    Library.addVectorizableFunctionsFromVecLib(llvm::TargetLibraryInfoImpl::LIBMVEC_X86, Triple);
  return Library;
}

/// CPUTargetInfo for \p TM's processor: its vector registers' bytes (64
/// with AVX-512, else 32) and how many floats its vector math takes at a
/// time: 16 on AVX-512, 8 on AVX2, 0 without libmvec (\p Library has its
/// functions where this process loaded it). A program of \p Threads.
CPUTargetInfo hostTargetInfo(const llvm::TargetMachine &TM,
                             const llvm::TargetLibraryInfoImpl &Library, unsigned Threads) {
  const llvm::MCSubtargetInfo *ST = TM.getMCSubtargetInfo();
  // Asked of x86 only: another target's subtarget warns of unknown features.
  bool X86 = TM.getTargetTriple().getArch() == llvm::Triple::x86_64;
  bool AVX512 = X86 && ST->checkFeatures("+avx512f"), AVX2 = X86 && ST->checkFeatures("+avx2");
  bool Mvec = Library.isFunctionVectorizable("expf", llvm::ElementCount::getFixed(8));
  // Elsewhere (AArch64) NEON's 16-byte registers.
  return CPUTargetInfo(Threads, AVX512 ? 64 : X86 ? 32 : 16,
                       !Mvec ? 0 : AVX512 ? 16 : AVX2 ? 8 : 0);
}

/// The most shared memory a program's arena holds (the runtime allocates
/// one per thread).
constexpr unsigned kMaxArenaBytes = 1u << 20;

std::unique_ptr<llvm::TargetMachine> createHostTargetMachine(const Target &CPU, bool FPFusion) {
  static std::once_flag Once;
  std::call_once(Once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  std::string Triple = llvm::sys::getProcessTriple(), Err;
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(Triple, Err);
  if (!T)
    reportError({}, "LLVM has no target for this host (" + Triple + "): " + Err);
  std::string Name = CPU.getArchName(), Features;
  if (Name.empty() || Name == llvm::sys::getHostCPUName()) {
    Name = llvm::sys::getHostCPUName().str();
    llvm::StringMap<bool> Host;
    llvm::sys::getHostCPUFeatures(Host);
    for (auto &[F, On] : Host)
      Features += (Features.empty() ? "" : ",") + std::string(On ? "+" : "-") + F.str();
  }
  // Asked of a generic subtarget: one made for an unknown name warns on stderr.
  auto Knows = [&](const llvm::Target *In, const std::string &InTriple) {
    return std::unique_ptr<llvm::MCSubtargetInfo>(In->createMCSubtargetInfo(InTriple, "", ""))
        ->isCPUStringValid(Name);
  };
  if (!Knows(T, Triple)) {
    const std::string Arm = "aarch64-unknown-linux-gnu";
    static std::once_flag ArmOnce;
    std::call_once(ArmOnce, [] {
      LLVMInitializeAArch64TargetInfo();
      LLVMInitializeAArch64Target();
      LLVMInitializeAArch64TargetMC();
      LLVMInitializeAArch64AsmPrinter();
    });
    const llvm::Target *A = Triple == Arm ? nullptr : llvm::TargetRegistry::lookupTarget(Arm, Err);
    if (!A || !Knows(A, Arm))
      reportError({}, "LLVM knows no processor '" + Name + "' for " + Triple +
                          " or AArch64 (cpu:<name> takes LLVM's names, e.g. cpu:x86-64)");
    T = A, Triple = Arm;
  }
  llvm::TargetOptions Opts;
  Opts.AllowFPOpFusion = FPFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Strict;
  return std::unique_ptr<llvm::TargetMachine>(
      T->createTargetMachine(Triple, Name, Features, Opts, llvm::Reloc::PIC_, std::nullopt,
                             llvm::CodeGenOpt::Aggressive));
}

/// The TargetMachine of \p CPU, made once per thread and target (a
/// TargetMachine is not for two threads at once; making one, the host's
/// features read and its processor checked, was a tenth of a small
/// kernel's compile).
llvm::TargetMachine &hostTargetMachine(const Target &CPU, bool FPFusion) {
  thread_local llvm::StringMap<std::unique_ptr<llvm::TargetMachine>> Made;
  std::unique_ptr<llvm::TargetMachine> &TM = Made[CPU.str() + (FPFusion ? "+fma" : "")];
  if (!TM)
    TM = createHostTargetMachine(CPU, FPFusion);
  return *TM;
}

/// The elements of a program's largest block one of its threads holds, and
/// the most threads a program runs as (programThreads).
constexpr int64_t kThreadElements = 64;
constexpr unsigned kMaxThreads = 4096;

/// How many threads a program of \p M runs as (the file comment): one per
/// kThreadElements elements of its largest block, or per row where a block
/// of two dimensions or more has longer rows (a row a thread keeps a row's
/// reduction in its thread), where nothing in it needs another thread's
/// values: no dot (CPULowerDot.cpp takes whole tiles), no function beside
/// the kernels (the loop would not reach its thread id), and, tried on a
/// copy of \p M with \p P's layout pipeline, no shared memory and no
/// barrier. 1 otherwise.
unsigned programThreads(const Module &M, LayoutPipelineOptions P) {
  int64_t Largest = 0, Share = kThreadElements;
  for (Function *F : M.functions()) {
    if (!F->isKernel() && !F->empty())
      return 1;
    for (BasicBlock &BB : *F)
      for (Instruction &I : BB) {
        if (I.getOpcode() == Opcode::Dot)
          return 1;
        for (unsigned R = 0; R < I.getNumResults(); ++R)
          if (Type *T = I.getResult(R)->getType(); T->isBlock()) {
            Largest = std::max(Largest, T->getNumElements());
            if (T->getRank() > 1)
              Share = std::max(Share, T->getShape().back());
          }
      }
  }
  P.NumWarps =
      unsigned(std::clamp<uint64_t>(llvm::PowerOf2Floor(Largest / Share), 1, kMaxThreads));
  if (P.NumWarps == 1)
    return 1;
  try {
    std::unique_ptr<Module> Copy = parseModule(M.str(), M.getContext(), "<cpu threads>");
    runLayoutPipeline(*Copy, P, /*VerifyEach=*/false);
    for (Function *F : Copy->functions()) {
      AnalysisManager AM;
      if (AM.get<SharedMemoryAllocation>(*F).getTotalBytes())
        return 1;
      for (BasicBlock &BB : *F)
        for (Instruction &I : BB)
          if (I.getFamily() == OpFamily::Barrier || I.getFamily() == OpFamily::MBarrier)
            return 1;
    }
  } catch (const CompileError &) {
    return 1; // the one-thread compile reports it
  }
  return P.NumWarps;
}

/// The threads a program of \p M runs as: the warps its layouts name.
unsigned threadsOfLayouts(const Module &M) {
  for (Function *F : M.functions())
    for (BasicBlock &BB : *F)
      for (Instruction &I : BB)
        if (const LinearLayout *L = I.getLayout())
          return 1u << L->getInDimSizeLog2(kWarp);
  return 1;
}

/// Renames kernel \p Body to `<name>.body`, inlined into its launch entry
/// `void <name>(void **params)` (the file comment): once, or in a loop of
/// \p Threads iterations whose counter replaces CPUTargetInfo's thread id.
void addLaunchEntry(llvm::Function *Body, unsigned Threads) {
  llvm::LLVMContext &Ctx = Body->getContext();
  std::string Name = Body->getName().str();
  Body->setName(Name + ".body");
  Body->setLinkage(llvm::GlobalValue::InternalLinkage);
  Body->addFnAttr(llvm::Attribute::AlwaysInline);
  auto *Ptr = llvm::PointerType::get(Ctx, 0);
  auto *Entry = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getVoidTy(Ctx), {Ptr}, false),
                                       llvm::GlobalValue::ExternalLinkage, Name, Body->getParent());
  // The body's 512-bit math calls (CPUTargetInfo::vectorMath), inlined here.
  if (llvm::Attribute A = Body->getFnAttribute("min-legal-vector-width"); A.isValid())
    Entry->addFnAttr(A);
  llvm::BasicBlock *Start = llvm::BasicBlock::Create(Ctx, "entry", Entry);
  llvm::IRBuilder<> B(Start);
  llvm::SmallVector<llvm::Value *, 16> Args;
  for (llvm::Argument &A : Body->args()) {
    llvm::Value *Slot = B.CreateLoad(Ptr, B.CreateConstGEP1_32(Ptr, Entry->getArg(0), A.getArgNo()));
    llvm::Type *T = A.getType()->isIntegerTy(1) ? B.getInt8Ty() : A.getType();
    llvm::Value *V = B.CreateAlignedLoad(T, Slot, llvm::Align(1));
    Args.push_back(T == A.getType() ? V : B.CreateTrunc(V, A.getType()));
  }
  if (Threads == 1) {
    B.CreateCall(Body, Args);
    B.CreateRetVoid();
    return;
  }
  llvm::BasicBlock *Loop = llvm::BasicBlock::Create(Ctx, "thread", Entry);
  llvm::BasicBlock *Done = llvm::BasicBlock::Create(Ctx, "done", Entry);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  llvm::PHINode *Tid = B.CreatePHI(B.getInt32Ty(), 2, "tid");
  llvm::CallInst *Call = B.CreateCall(Body, Args);
  llvm::Value *Next = B.CreateAdd(Tid, B.getInt32(1), "", /*HasNUW=*/true, /*HasNSW=*/true);
  B.CreateCondBr(B.CreateICmpULT(Next, B.getInt32(Threads)), Loop, Done);
  Tid->addIncoming(B.getInt32(0), Start);
  Tid->addIncoming(Next, Loop);
  B.SetInsertPoint(Done);
  B.CreateRetVoid();
  llvm::InlineFunctionInfo IFI;
  if (!llvm::InlineFunction(*Call, IFI).isSuccess())
    reportError({}, "internal error: cannot inline kernel '" + Name + "' into its thread loop");
  llvm::Module *LLM = Body->getParent();
  Body->eraseFromParent();
  // The other kernels' bodies call it too until their own entries inline them.
  if (llvm::Function *Id = LLM->getFunction(CPUThreadId))
    for (llvm::User *U : llvm::make_early_inc_range(Id->users()))
      if (auto *C = llvm::cast<llvm::CallInst>(U); C->getFunction() == Entry) {
        C->replaceAllUsesWith(Tid);
        C->eraseFromParent();
      }
}

/// Gives \p F (libdevice's isnan, isinf or signbit of a float or double
/// \p Name: isnanf, signbitd, ...; i32 0 or 1) a body, which C has as
/// macros only. False for other names.
bool defineClassification(llvm::Function &F, llvm::StringRef Name) {
  if (!(Name.consume_back("f") || Name.consume_back("d")) ||
      !(Name == "isnan" || Name == "isinf" || Name == "signbit") || F.arg_size() != 1)
    return false;
  llvm::IRBuilder<> B(llvm::BasicBlock::Create(F.getContext(), "entry", &F));
  llvm::Value *X = F.getArg(0);
  llvm::Value *R;
  if (Name == "isnan")
    R = B.CreateFCmpUNO(X, X);
  else if (Name == "isinf")
    R = B.CreateFCmpOEQ(B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, X),
                        llvm::ConstantFP::getInfinity(X->getType()));
  else
    R = B.CreateICmpSLT(B.CreateBitCast(X, B.getIntNTy(X->getType()->getPrimitiveSizeInBits())),
                        B.getIntN(X->getType()->getPrimitiveSizeInBits(), 0));
  B.CreateRet(B.CreateZExt(R, F.getReturnType()));
  F.setLinkage(llvm::GlobalValue::InternalLinkage);
  return true;
}

/// Gives \p F (libdevice's erfinvf or erfinv, \p Name) a body, which the C
/// library lacks: in double, Winitzki's closed-form guess (2e-3 relative)
/// and three Newton steps on the C library's erf (quadratic: below 1e-15),
/// rounded to the result's type; +-1 give +-inf, |y| > 1 and NaN give NaN.
/// False for other names.
bool defineErfinv(llvm::Function &F, llvm::StringRef Name) {
  if ((Name != "erfinv" && Name != "erfinvf") || F.arg_size() != 1)
    return false;
  llvm::IRBuilder<> B(llvm::BasicBlock::Create(F.getContext(), "entry", &F));
  llvm::Type *D = B.getDoubleTy();
  llvm::FunctionCallee Erf = F.getParent()->getOrInsertFunction("erf", D, D);
  auto K = [&](double V) { return llvm::ConstantFP::get(D, V); };
  auto Un = [&](llvm::Intrinsic::ID ID, llvm::Value *V) { return B.CreateUnaryIntrinsic(ID, V); };
  llvm::Value *Y = B.CreateFPExt(F.getArg(0), D);
  llvm::Value *W = Un(llvm::Intrinsic::log, B.CreateFMul(B.CreateFSub(K(1), Y), B.CreateFAdd(K(1), Y)));
  const double A = 0.147, Pi = 3.14159265358979323846;
  llvm::Value *T = B.CreateFAdd(K(2 / (Pi * A)), B.CreateFMul(W, K(0.5)));
  llvm::Value *G = Un(llvm::Intrinsic::sqrt,
                      B.CreateFSub(Un(llvm::Intrinsic::sqrt,
                                      B.CreateFSub(B.CreateFMul(T, T), B.CreateFDiv(W, K(A)))),
                                   T));
  G = B.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, G, Y);
  for (int Step = 0; Step < 3; ++Step) {
    llvm::Value *Slope = B.CreateFMul(K(2 / std::sqrt(Pi)),
                                      Un(llvm::Intrinsic::exp, B.CreateFNeg(B.CreateFMul(G, G))));
    G = B.CreateFSub(G, B.CreateFDiv(B.CreateFSub(B.CreateCall(Erf, {G}), Y), Slope));
  }
  llvm::Value *Abs = Un(llvm::Intrinsic::fabs, Y);
  llvm::Value *Inf = B.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, K(INFINITY), Y);
  llvm::Value *R = B.CreateSelect(B.CreateFCmpOEQ(Abs, K(1)), Inf,
                                  B.CreateSelect(B.CreateFCmpOLT(Abs, K(1)), G, K(NAN)));
  B.CreateRet(B.CreateFPTrunc(R, F.getReturnType()));
  F.setLinkage(llvm::GlobalValue::InternalLinkage);
  return true;
}

/// Binds libdevice's functions (extern_elementwise's `__nv_<f>`, the names
/// tl.extra.libdevice uses) to the C library's `<f>` (`__nv_fast_<f>` too)
/// where this process has it; the others are an error at the user's line.
void bindLibdevice(const Module &M, llvm::Module &LLM) {
  for (llvm::Function &F : LLM) {
    llvm::StringRef Name = F.getName();
    if (!F.isDeclaration() || !Name.consume_front("__nv_"))
      continue;
    Name.consume_front("fast_");
    if (defineClassification(F, Name) || defineErfinv(F, Name))
      continue;
    if (!llvm::sys::DynamicLibrary::SearchForAddressOfSymbol(Name.str()))
      reportLinkError(M, "undefined function '" + F.getName().str() +
                             "': the cpu target has no such libdevice function");
    llvm::FunctionCallee C = LLM.getOrInsertFunction(Name, F.getFunctionType());
    F.replaceAllUsesWith(C.getCallee());
  }
}

class CPUBackend : public Backend {
public:
  std::vector<std::string> getStages(const CompileOptions &) const override {
    return {"tgir", "llir", "obj"};
  }
  std::string checkOptions(const CompileOptions &Opts) const override {
    if (Opts.GPU.getKind() != "cpu")
      return "the CPU backend compiles for cpu targets, not " + Opts.GPU.str();
    if (Opts.MaxNReg || Opts.WavesPerEU)
      return "maxnreg and waves_per_eu are for GPU targets";
    return "";
  }
  StageOutput runStage(llvm::StringRef Stage, Module &M, llvm::StringRef Input,
                       const CompileOptions &Opts) const override {
    StageOutput Out;
    if (Stage == "tgir") {
      // Warps of one lane, as many as the program's threads, whatever
      // num_warps says (a GPU's setting).
      LayoutPipelineOptions P;
      P.WarpSize = 1;
      P.NumStages = 1;
      P.ThreadRuns = true;
      P.NumWarps = programThreads(M, P);
      runLayoutPipeline(M, P, Opts.VerifyEach || Opts.Debug, Opts.Debugging);
      return Out;
    }
    llvm::LLVMContext Ctx;
    LLVMErrorCollector Errors(Ctx);
    llvm::TargetMachine *TM = &hostTargetMachine(Opts.GPU, Opts.FPFusion);
    if (Stage == "llir") {
      LoweringOptions LO;
      LO.NumWarps = threadsOfLayouts(M);
      LO.GPU = Opts.GPU;
      LO.Debug = Opts.Debug;
      LO.LineInfo = Opts.LineInfo;
      // A program of one thread holds whole blocks: a 128x128 tile is
      // 16,384 elements. The lowering unrolls each element, in vectors of
      // 16 where it can (packRegisters; reductions, casts, gathers and dot
      // operands in vectors): on this project's 2-core machine an fp8
      // 128x256x128 matmul loop (32,768 elements a tile) compiles in 45 s,
      // tl.histogram's 131,072-element compare-and-sum in 8-13 s (a block of
      // gathers was minutes at 65,536 while each was a scalar load).
      LO.MaxElementsPerThread = 1u << 17;
      unsigned Shared = 0;
      llvm::TargetLibraryInfoImpl Library = hostLibrary(TM->getTargetTriple());
      std::unique_ptr<llvm::Module> LLM =
          lowerToLLVM(M, Ctx, LO, hostTargetInfo(*TM, Library, LO.NumWarps), Shared);
      // The threads of a loop run one after the other: none may wait for
      // another's shared memory (programThreads checked; a tgir override
      // may not have).
      if (LO.NumWarps > 1 && Shared)
        reportError({}, "a cpu program of " + std::to_string(LO.NumWarps) +
                            " threads (the warps of its layouts) cannot share memory: its "
                            "threads run one after the other");
      LLM->setTargetTriple(TM->getTargetTriple().str());
      LLM->setDataLayout(TM->createDataLayout());
      llvm::SmallVector<llvm::Function *, 2> Kernels;
      for (Function *F : M.functions())
        if (F->isKernel())
          Kernels.push_back(LLM->getFunction(F->getName()));
      for (llvm::Function *K : Kernels)
        addLaunchEntry(K, LO.NumWarps);
      if (llvm::Function *Id = LLM->getFunction(CPUThreadId)) {
        if (!Id->use_empty())
          reportError({}, "internal error: a cpu thread id outside a kernel's thread loop");
        Id->eraseFromParent();
      }
      bindLibdevice(M, *LLM);
      optimizeModule(*LLM, *TM, Opts.LLVMO3, Opts.Debugging,
                     countInstructions(*LLM) > kMaxInstructionsForSLP ? "" : kCPUPipeline,
                     &Library);
      llvm::raw_string_ostream OS(Out.Data);
      LLM->print(OS, nullptr);
      OS.flush();
      Out.Metadata["shared"] = Shared;
      return Out;
    }
    std::unique_ptr<llvm::Module> LLM = parseLLVMIR(Input, Ctx);
    LLM->setDataLayout(TM->createDataLayout());
    llvm::SmallString<0> Buf;
    llvm::raw_svector_ostream OS(Buf);
    llvm::legacy::PassManager PM;
    if (TM->addPassesToEmitFile(PM, OS, nullptr, llvm::CGFT_ObjectFile))
      reportError({}, "LLVM cannot emit an object file for " + TM->getTargetTriple().str());
    PM.run(*LLM);
    Errors.throwIfAny("LLVM cannot compile the kernel for " + Opts.GPU.str());
    Out.Data = std::string(Buf.str());
    Out.Binary = true;
    return Out;
  }
};

const bool Registered = [] {
  Target::registerKind("cpu", /*WarpSize=*/1, kMaxArenaBytes);
  registerBackend("cpu", std::make_unique<CPUBackend>());
  return true;
}();

} // namespace
