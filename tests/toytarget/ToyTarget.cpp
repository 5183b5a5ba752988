//===- ToyTarget.cpp - A target that is a folder and nothing else ----------===//
//
// The proof that a new target is a new folder (issue 40): a registration of
// its kind ("toy:<arch>"), a TargetInfo, and a Backend whose stages stop at
// LLVM IR. Nothing outside this folder names it. Its primitives are calls
// of external functions (`toy.thread_id`, ...), which a real target would
// give its instructions; what it lacks (shuffles, atomics, printf) is an
// error. ToyTargetTest.cpp compiles the vector add through it.
//
//===----------------------------------------------------------------------===//

#include "codegen/Backend.h"
#include "codegen/Passes.h"
#include "codegen/lowering/Lowering.h"
#include "ir/Diagnostics.h"
#include "ir/PassManager.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

using namespace tritium;

namespace {
using Builder = llvm::IRBuilder<>;

/// A call of the external function @toy.<Name> returning \p Ret.
llvm::Value *call(Builder &B, llvm::StringRef Name, llvm::Type *Ret,
                  llvm::ArrayRef<llvm::Value *> Args = {}) {
  llvm::SmallVector<llvm::Type *, 4> Types;
  for (llvm::Value *A : Args)
    Types.push_back(A->getType());
  llvm::Module *M = B.GetInsertBlock()->getModule();
  return B.CreateCall(M->getOrInsertFunction(("toy." + Name).str(),
                                             llvm::FunctionType::get(Ret, Types, false)),
                      Args);
}

[[noreturn]] void lacks(llvm::StringRef What) {
  reportError({}, "the toy target has no " + What.str());
}

class ToyTargetInfo : public TargetInfo {
public:
  llvm::Value *threadId(Builder &B) const override { return call(B, "thread_id", B.getInt32Ty()); }
  llvm::Value *programId(Builder &B, unsigned Axis) const override {
    return call(B, "program_id", B.getInt32Ty(), {B.getInt32(Axis)});
  }
  llvm::Value *numPrograms(Builder &B, unsigned Axis) const override {
    return call(B, "num_programs", B.getInt32Ty(), {B.getInt32(Axis)});
  }
  void barrier(Builder &B) const override { call(B, "barrier", B.getVoidTy()); }
  llvm::Value *shuffleXor(Builder &, llvm::Value *, unsigned) const override { lacks("shuffles"); }
  llvm::Value *shuffleIdx(Builder &, llvm::Value *, llvm::Value *) const override {
    lacks("shuffles");
  }
  llvm::Value *shuffleUp(Builder &, llvm::Value *, unsigned) const override { lacks("shuffles"); }
  unsigned sharedAddressSpace() const override { return 3; }
  /// Plain LLVM loads and stores; a masked one calls the target's own.
  llvm::Value *loadGlobal(Builder &B, llvm::Value *Ptr, unsigned NumWords, unsigned WordBits,
                          llvm::Value *Pred, llvm::Value *Other,
                          const MemoryHints &) const override {
    auto *Ty = llvm::FixedVectorType::get(B.getIntNTy(WordBits), NumWords);
    if (!Pred)
      return B.CreateAlignedLoad(Ty, Ptr, llvm::Align(NumWords * WordBits / 8));
    return call(B, "masked_load", Ty,
                {Ptr, Pred, Other ? Other : llvm::Constant::getNullValue(Ty)});
  }
  void storeGlobal(Builder &B, llvm::Value *Ptr, llvm::Value *Words, llvm::Value *Pred,
                   const MemoryHints &) const override {
    if (Pred)
      call(B, "masked_store", B.getVoidTy(), {Ptr, Words, Pred});
    else
      B.CreateStore(Words, Ptr);
  }
  llvm::Value *atomicRMW(Builder &, AtomicKind, llvm::Value *, llvm::Value *, llvm::Value *,
                         MemSem, MemScope, Type *) const override {
    lacks("atomics");
  }
  llvm::Value *atomicCAS(Builder &, llvm::Value *, llvm::Value *, llvm::Value *, llvm::Value *,
                         MemSem, MemScope) const override {
    lacks("atomics");
  }
  void printf(Builder &, llvm::StringRef, llvm::ArrayRef<llvm::Value *>) const override {
    lacks("printf");
  }
  void assertFail(Builder &, llvm::Value *, llvm::StringRef, llvm::StringRef, unsigned,
                  llvm::StringRef) const override {
    lacks("assert");
  }
  llvm::Value *unaryMath(Builder &B, Opcode Op, llvm::Value *X) const override {
    return call(B, "math" + std::to_string(unsigned(Op)), X->getType(), {X});
  }
  llvm::Value *fmod(Builder &B, llvm::Value *X, llvm::Value *Y) const override {
    return B.CreateFRem(X, Y);
  }
  llvm::Value *truncTowardZero(Builder &, llvm::Value *, llvm::Type *) const override {
    lacks("rounding toward zero");
  }
  void annotateKernel(llvm::Function *F, unsigned NumThreads, unsigned) const override {
    F->addFnAttr("toy-threads", std::to_string(NumThreads));
  }
};

class ToyBackend : public Backend {
public:
  std::vector<std::string> getStages(const CompileOptions &) const override {
    return {"tgir", "llir"};
  }
  std::string checkOptions(const CompileOptions &Opts) const override {
    return Opts.GPU.getKind() == "toy" ? "" : "the toy backend compiles for toy targets";
  }
  StageOutput runStage(llvm::StringRef Stage, Module &M, llvm::StringRef,
                       const CompileOptions &Opts) const override {
    StageOutput Out;
    if (Stage == "tgir") {
      LayoutPipelineOptions P; // no matrix units, no pipelining
      P.NumWarps = Opts.NumWarps;
      P.WarpSize = Opts.GPU.getWarpSize();
      runLayoutPipeline(M, P, Opts.VerifyEach || Opts.Debug);
      return Out;
    }
    llvm::LLVMContext Ctx;
    LoweringOptions LO;
    LO.NumWarps = Opts.NumWarps;
    LO.GPU = Opts.GPU;
    unsigned Shared = 0;
    std::unique_ptr<llvm::Module> LLM = lowerToLLVM(M, Ctx, LO, ToyTargetInfo(), Shared);
    llvm::raw_string_ostream OS(Out.Data);
    LLM->print(OS, nullptr);
    OS.flush();
    Out.Metadata["shared"] = Shared;
    return Out;
  }
};

const bool Registered = [] {
  Target::registerKind("toy", /*WarpSize=*/32, /*MaxSharedBytes=*/48 * 1024);
  registerBackend("toy", std::make_unique<ToyBackend>());
  return true;
}();
} // namespace
