//===- Lowering.cpp - Layout-level Tritium IR to LLVM IR ------------------===//
//
// The driver: one LLVM function per Tritium function, one LLVM block per
// Tritium block (plus any an instruction splits off, e.g. an assert), the
// instructions in reverse post-order so that operands come first, phis
// created empty and completed once every block is lowered. Control flow
// (br, cond_br, ret, call, phi) is lowered here; every other family in its
// own file.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/Lowering.h"
#include "codegen/lowering/LineTable.h"
#include "analysis/LayoutRules.h"
#include "ir/Diagnostics.h"
#include "ir/Dominance.h"
#include "ir/Module.h"
#include "ir/PassManager.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace tritium;

namespace {

class FunctionLowering {
public:
  FunctionLowering(LoweringContext &C, Function &F, LineTable *Lines)
      : C(C), F(F), Lines(Lines) {}

  void run() {
    llvm::Function *LLF = C.getLLVMFunction();
    llvm::IRBuilder<> &B = C.B;
    llvm::DISubprogram *SP = Lines ? Lines->addFunction(*LLF, F) : nullptr;
    if (SP)
      B.SetCurrentDebugLocation(Lines->at(F.getLoc(), SP));
    for (unsigned I = 0; I < F.getNumArgs(); ++I)
      C.set(F.getArg(I), {LLF->getArg(I)});
    for (BasicBlock &BB : F)
      C.setBlock(&BB, llvm::BasicBlock::Create(C.getLLVMContext(),
                                               BB.hasName() ? BB.getName() : "",
                                               LLF));
    // The entry block (lane and warp ids, thread offsets) falls into the
    // function's first block.
    B.CreateBr(C.getBlock(&F.front()));

    DominatorTree DT(F);
    for (BasicBlock *BB : DT.getReversePostOrder()) {
      B.SetInsertPoint(C.getBlock(BB));
      for (Instruction &I : *BB) {
        C.flushPendingDot(&I);
        if (SP)
          B.SetCurrentDebugLocation(Lines->at(I.getLoc(), SP));
        if (!C.getTarget().lowerInstruction(C, I))
          lower(I);
      }
      C.flushPendingDot(nullptr);
      Last[BB] = B.GetInsertBlock();
    }
    // Blocks not reachable from the entry still need a terminator.
    for (BasicBlock &BB : F)
      if (!DT.isReachable(&BB)) {
        B.SetInsertPoint(C.getBlock(&BB));
        B.CreateUnreachable();
      }
    for (auto &[Phi, LLPhis] : Phis)
      for (unsigned K = 0; K < Phi->getNumIncoming(); ++K) {
        BasicBlock *From = Phi->getIncomingBlock(K);
        if (!DT.isReachable(From))
          continue;
        const LoweringContext::Regs &In = C.get(Phi->getIncomingValue(K));
        llvm::BasicBlock *Pred = Last.lookup(From);
        for (unsigned R = 0; R < LLPhis.size(); ++R)
          LLPhis[R]->addIncoming(packed(In, R, LLPhis[R]->getType(), Pred), Pred);
      }
    C.waitAtLoopExits();
  }

private:
  /// The incoming value of phi \p R of type \p Ty from \p Pred: register R
  /// of \p In, or registers [R*W, R*W + W) packed at \p Pred's end.
  llvm::Value *packed(const LoweringContext::Regs &In, unsigned R, llvm::Type *Ty,
                      llvm::BasicBlock *Pred) {
    auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(Ty);
    if (!VT)
      return In[R];
    llvm::IRBuilder<> At(Pred->getTerminator());
    unsigned W = VT->getNumElements();
    return packRegisters(At, llvm::ArrayRef<llvm::Value *>(In).slice(R * W, W));
  }

  void lower(Instruction &I) {
    llvm::IRBuilder<> &B = C.B;
    switch (I.getFamily()) {
    case OpFamily::Phi: {
      unsigned N = I.getResult()->getType()->isBlock()
                       ? LoweringContext::numRegs(C.layout(I.getResult()))
                       : 1;
      llvm::Type *Ty = C.elemType(I.getResult()->getType());
      // Registers carried in vectors of W where the target asks (a cpu
      // thread carries whole tiles: 4,096 scalar phis of a matmul's
      // accumulator took LLVM seconds; the vectors' inserts and extracts
      // fold away against the vectors the loop made).
      unsigned W = C.getTarget().registerVectorWidth();
      if (N < W || N % W || Ty->isPointerTy())
        W = 1;
      llvm::Type *PhiTy = W > 1 ? llvm::FixedVectorType::get(Ty, W) : Ty;
      // Phis before the block's other instructions (a vector phi's extracts).
      llvm::BasicBlock *BB = B.GetInsertBlock();
      llvm::Instruction *Before = BB->getFirstNonPHI();
      LoweringContext::Regs Rs;
      std::vector<llvm::PHINode *> LL;
      for (unsigned R = 0; R < N / W; ++R) {
        llvm::PHINode *P = Before ? llvm::PHINode::Create(PhiTy, I.getNumOperands(), "", Before)
                                  : B.CreatePHI(PhiTy, I.getNumOperands());
        LL.push_back(P);
      }
      for (llvm::PHINode *P : LL)
        for (unsigned K = 0; K < W; ++K)
          Rs.push_back(W > 1 ? B.CreateExtractElement(P, K) : P);
      C.set(I.getResult(), Rs);
      Phis.push_back({llvm::cast<PhiInst>(&I), LL});
      return;
    }
    case OpFamily::Br: {
      llvm::BranchInst *Br = B.CreateBr(C.getBlock(I.getBlockOperand(0)));
      // Into a loop header that keeps its invariant code: the latch's
      // branch carries llvm.licm.disable (on the entry edge it is ignored).
      auto *Head = llvm::dyn_cast_or_null<CondBrInst>(I.getBlockOperand(0)->getTerminator());
      if (Head && Head->disablesLicm()) {
        llvm::LLVMContext &Ctx = B.getContext();
        llvm::Metadata *Licm = llvm::MDNode::get(Ctx, llvm::MDString::get(Ctx, "llvm.licm.disable"));
        llvm::MDNode *Loop = llvm::MDNode::getDistinct(Ctx, {nullptr, Licm});
        Loop->replaceOperandWith(0, Loop);
        Br->setMetadata(llvm::LLVMContext::MD_loop, Loop);
      }
      return;
    }
    case OpFamily::CondBr:
      B.CreateCondBr(C.scalar(I.getOperand(0)), C.getBlock(I.getBlockOperand(0)),
                     C.getBlock(I.getBlockOperand(1)));
      return;
    case OpFamily::Ret:
      lowerRet(I);
      return;
    case OpFamily::Call:
      lowerCall(I);
      return;
    case OpFamily::Load:
    case OpFamily::Store:
    case OpFamily::AtomicRMW:
    case OpFamily::AtomicCAS:
      lowerMemory(C, I);
      return;
    case OpFamily::Broadcast:
    case OpFamily::Reshape:
    case OpFamily::ExpandDims:
    case OpFamily::Trans:
    case OpFamily::Join:
    case OpFamily::Split:
    case OpFamily::Cat:
    case OpFamily::Gather:
    case OpFamily::ConvertLayout:
      lowerShape(C, I);
      return;
    case OpFamily::Reduce:
    case OpFamily::ArgMinMax:
      lowerReduce(C, I);
      return;
    case OpFamily::Scan:
      lowerScan(C, I);
      return;
    case OpFamily::LocalAlloc:
    case OpFamily::LocalLoad:
    case OpFamily::LocalStore:
    case OpFamily::MemDescIndex:
    case OpFamily::MemDescTrans:
    case OpFamily::LocalDealloc:
    case OpFamily::AsyncCopy:
    case OpFamily::AsyncCommitGroup:
    case OpFamily::AsyncWait:
    case OpFamily::MBarrier:
    case OpFamily::AsyncTMACopy:
    case OpFamily::AsyncTMAStore:
      lowerSharedMemory(C, I);
      return;
    case OpFamily::MakeTensorDesc:
      // Only TMA copies read one here (the rest became pointers): they
      // read its tensormap argument.
      return;
    case OpFamily::Dot:
      lowerDot(C, I);
      return;
    case OpFamily::Barrier:
    case OpFamily::Print:
    case OpFamily::Assert:
      lowerDebug(C, I);
      return;
    default:
      lowerElementwise(C, I);
      return;
    }
  }

  void lowerRet(Instruction &I) {
    llvm::IRBuilder<> &B = C.B;
    if (I.getNumOperands() == 0) {
      B.CreateRetVoid();
      return;
    }
    llvm::Type *RetTy = C.getLLVMFunction()->getReturnType();
    if (I.getNumOperands() == 1) {
      B.CreateRet(C.scalar(I.getOperand(0)));
      return;
    }
    llvm::Value *Agg = llvm::PoisonValue::get(RetTy);
    for (unsigned K = 0; K < I.getNumOperands(); ++K)
      Agg = B.CreateInsertValue(Agg, C.scalar(I.getOperand(K)), K);
    B.CreateRet(Agg);
  }

  void lowerCall(Instruction &I) {
    auto &Call = llvm::cast<CallInst>(I);
    llvm::Function *Callee = C.getLLVMModule().getFunction(Call.getCallee());
    if (!Callee)
      C.unsupported(I, "a call to a function that is not lowered");
    llvm::SmallVector<llvm::Value *, 8> Args;
    for (Value *V : I.getOperands())
      Args.push_back(C.scalar(V));
    llvm::Value *R = C.B.CreateCall(Callee, Args);
    if (I.getNumResults() == 1)
      C.set(I.getResult(), {R});
    else
      for (unsigned K = 0; K < I.getNumResults(); ++K)
        C.set(I.getResult(K), {C.B.CreateExtractValue(R, K)});
  }

  LoweringContext &C;
  Function &F;
  LineTable *Lines; // null: no line info
  llvm::DenseMap<const BasicBlock *, llvm::BasicBlock *> Last;
  std::vector<std::pair<PhiInst *, std::vector<llvm::PHINode *>>> Phis;
};

/// The LLVM function of \p F: scalar arguments and results only (calls
/// with blocks are inlined before the backend runs).
llvm::Function *declare(llvm::Module &LLM, Function &F, const LoweringOptions &Opts,
                        const TargetInfo &Target) {
  llvm::LLVMContext &Ctx = LLM.getContext();
  auto ScalarTy = [&](Type *T) -> llvm::Type * {
    if (T->isBlock())
      reportError({}, "function @" + F.getName() +
                          " takes or returns a block; the " + Opts.GPU.str() +
                          " backend needs such functions inlined (they may not be noinline)");
    if (llvm::Type *LT = elementType(Ctx, T))
      return LT;
    reportError({}, "unsupported argument type " + T->str());
  };
  llvm::SmallVector<llvm::Type *, 8> Params;
  // A tensormap is a byval 128-byte aggregate: LLVM declares it `.param
  // .align 64 .b8 x[128]`, and the TMA copies name it (NVPTXTMA.cpp).
  for (Argument *A : F.args())
    Params.push_back(A->getAttrs().TensorMap && Target.passesTensorMapsByValue()
                         ? llvm::PointerType::get(Ctx, 0)
                         : ScalarTy(A->getType()));
  llvm::SmallVector<llvm::Type *, 2> Results;
  for (Type *T : F.getResultTypes())
    Results.push_back(ScalarTy(T));
  llvm::Type *Ret = Results.empty()      ? llvm::Type::getVoidTy(Ctx)
                    : Results.size() == 1 ? Results[0]
                                          : llvm::StructType::get(Ctx, Results);
  auto *FT = llvm::FunctionType::get(Ret, Params, false);
  llvm::Function *LLF = llvm::Function::Create(
      FT, F.isKernel() ? llvm::GlobalValue::ExternalLinkage
                       : llvm::GlobalValue::InternalLinkage,
      F.getName(), LLM);
  for (Argument *A : F.args()) {
    llvm::Argument *LA = LLF->getArg(A->getArgNo());
    if (A->hasName())
      LA->setName(A->getName());
    const ArgAttrs &At = A->getAttrs();
    if (At.TensorMap && Target.passesTensorMapsByValue()) {
      LA->addAttr(llvm::Attribute::getWithByValType(
          Ctx, llvm::ArrayType::get(llvm::Type::getInt8Ty(Ctx), 128)));
      LA->addAttr(llvm::Attribute::getWithAlignment(Ctx, llvm::Align(64)));
    } else if (A->getType()->isPointer()) {
      if (At.NoAlias)
        LA->addAttr(llvm::Attribute::NoAlias);
      if (At.Divisibility >= 2)
        LA->addAttr(llvm::Attribute::getWithAlignment(
            Ctx, llvm::Align(uint64_t(std::min<int64_t>(At.Divisibility, 256)))));
    }
  }
  if (F.isKernel())
    Target.annotateKernel(LLF, Opts.NumWarps * Opts.warpSize(), Opts.MaxRegisters);
  else if (F.isNoInline())
    LLF->addFnAttr(llvm::Attribute::NoInline);
  else // a combine or map_elementwise function: the lean pipeline inlines only these
    LLF->addFnAttr(llvm::Attribute::AlwaysInline);
  return LLF;
}

/// Refuses a function with a block spread that thinly, as a configuration
/// too large (OutOfResources, which the autotuner skips), before any time
/// is spent on it.
void checkElementsPerThread(Function &F, unsigned Max) {
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (const LinearLayout *L = I.getLayout(); L && getNumRegisters(*L) > Max)
        throw OutOfResourcesError(F.getName().str(), "elements of one block per thread",
                                  getNumRegisters(*L), Max, "Compiler limit");
}

} // namespace

void tritium::reportLinkError(const Module &M, const std::string &Err) {
  size_t Open = Err.find('\'');
  size_t Close = Open == std::string::npos ? Open : Err.find('\'', Open + 1);
  if (Close != std::string::npos) {
    llvm::StringRef Symbol = llvm::StringRef(Err).slice(Open + 1, Close);
    for (Function *F : M.functions())
      for (BasicBlock &BB : *F)
        for (Instruction &I : BB)
          if (auto *E = llvm::dyn_cast<ExternElementwiseInst>(&I); E && E->getSymbol() == Symbol)
            reportError(I.getLoc(), Err);
  }
  reportError({}, Err);
}

namespace {
/// The lowering as a pass of the pass manager, whose analyses it reads:
/// the axis facts and the shared memory allocation insert-barriers placed
/// its barriers for. Its product, an LLVM module, goes to \p Out.
class LoweringPass : public Pass {
public:
  LoweringPass(llvm::LLVMContext &Ctx, const LoweringOptions &Opts, const TargetInfo &Target,
               std::unique_ptr<llvm::Module> &Out, unsigned &SharedBytes)
      : Ctx(Ctx), Opts(Opts), Target(Target), Out(Out), SharedBytes(SharedBytes) {}
  llvm::StringRef getName() const override { return "lower-to-llvm"; }
  PreservedAnalyses run(Module &M, AnalysisManager &AM) override;

private:
  llvm::LLVMContext &Ctx;
  const LoweringOptions &Opts;
  const TargetInfo &Target;
  std::unique_ptr<llvm::Module> &Out;
  unsigned &SharedBytes;
};
} // namespace

std::unique_ptr<llvm::Module> tritium::lowerToLLVM(Module &M, llvm::LLVMContext &Ctx,
                                                   const LoweringOptions &Opts,
                                                   const TargetInfo &Target,
                                                   unsigned &SharedBytes) {
  std::unique_ptr<llvm::Module> LLM;
  PassManager PM;
  PM.add(std::make_unique<LoweringPass>(Ctx, Opts, Target, LLM, SharedBytes));
  PM.run(M);
  return LLM;
}

PreservedAnalyses LoweringPass::run(Module &M, AnalysisManager &AM) {
  auto LLM = std::make_unique<llvm::Module>("tritium", Ctx);
  SharedBytes = 0;
  llvm::SmallVector<Function *, 4> All = M.functions();
  if (llvm::none_of(All, [](Function *F) { return F->isKernel(); }))
    reportError(All.empty() ? Loc{} : All.front()->getLoc(),
                "the module has no kernel to compile (a 'kernel @name(...)' function)");
  // Declare everything first so calls resolve in any order.
  std::vector<std::pair<Function *, llvm::Function *>> Fns;
  for (Function *F : M.functions())
    if (!F->empty())
      Fns.push_back({F, declare(*LLM, *F, Opts, Target)});
  LayoutOptions LayoutOpts{Opts.NumWarps, Opts.warpSize()};
  std::optional<LineTable> Lines;
  if (Opts.LineInfo)
    Lines.emplace(*LLM);
  for (auto &[F, LLF] : Fns) {
    // Layout-level IR from outside the pipeline (a tgir override) may place
    // values where the lowering cannot read them: an error, not a crash.
    for (BasicBlock &BB : *F)
      for (Instruction &I : BB) {
        std::string Why = checkLayouts(I, LayoutOpts);
        if (!Why.empty())
          reportError(I.getLoc(), "cannot lower '" + I.str() + "': " + Why);
      }
    AxisInfoAnalysis &AI = AM.get<AxisInfoAnalysis>(*F);
    // The same offsets insert-barriers placed its barriers for (the
    // allocation depends only on the IR).
    const SharedMemoryAllocation &Smem = AM.get<SharedMemoryAllocation>(*F);
    // Before lowering, as Triton checks at load time: the autotuner skips
    // the configuration.
    if (Smem.getTotalBytes() > Opts.GPU.getMaxSharedBytes())
      throw OutOfResourcesError(F->getName().str(), "shared memory", Smem.getTotalBytes(),
                                Opts.GPU.getMaxSharedBytes());
    SharedBytes = std::max(SharedBytes, Smem.getTotalBytes());
    checkElementsPerThread(*F, Opts.MaxElementsPerThread);
    LoweringContext C(*LLM, LLF, *F, Opts, Target, AI, Smem);
    FunctionLowering(C, *F, Lines ? &*Lines : nullptr).run();
  }
  if (Lines)
    Lines->finish();
  std::string Err;
  llvm::raw_string_ostream OS(Err);
  if (llvm::verifyModule(*LLM, &OS))
    reportError({}, "internal error: lowering produced invalid LLVM IR:\n" + OS.str());
  Out = std::move(LLM);
  return PreservedAnalyses::all(); // the IR is read, not changed
}
