//===- RemoveLayoutConversions.cpp - Drop avoidable convert_layouts -------===//
//
// remove-layout-conversions removes the conversions that cost more than
// computing the value again in the wanted layout:
//
//   - a conversion to the layout the value already has disappears;
//   - a conversion of a conversion converts the original value;
//   - a conversion of something cheap to build (make_range, splat, constant,
//     undef), or of an elementwise computation whose inputs are all cheap or
//     scalars (address arithmetic: pid * BLOCK + arange), is replaced by the
//     same computation built directly in the wanted layout;
//   - a conversion that is the only user of a (non-volatile) load, to a
//     layout that still gives the load its own vector width (the axis
//     analysis's) and that no dot reads (a dot's operands stay staged
//     through shared memory, which the pipeliner needs), loads again in
//     that layout, where the original load was, when its pointer, mask and
//     `other` can be rebuilt there:
//     assign-layouts widens a load to the widest access it computes with,
//     and a user that wants it narrower (a store of its own width) then
//     needs no conversion.
//
// The originals stay for their other users; dce removes them when unused.
//
// Requires: assign-layouts. Preserves: the CFG and every `layout`.
//
//===----------------------------------------------------------------------===//

#include "analysis/AxisInfo.h"
#include "analysis/LayoutRules.h"
#include "analysis/MatrixCores.h"
#include "codegen/layouts/LayoutPasses.h"
#include "ir/Builder.h"
#include "ir/Diagnostics.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/PassManager.h"

#include "llvm/ADT/DenseMap.h"

using namespace tritium;

namespace {

/// Elementwise operations that may be recomputed (no memory, no effects).
bool isCheapElementwise(const Instruction &I) {
  switch (I.getFamily()) {
  case OpFamily::Binary:
  case OpFamily::Unary:
  case OpFamily::Cmp:
  case OpFamily::Select:
  case OpFamily::Cast:
  case OpFamily::GetElementPtr:
  case OpFamily::Hint:
  case OpFamily::Broadcast:
  case OpFamily::ExpandDims:
    return true;
  default:
    return false;
  }
}

class Remover {
public:
  Remover(Function &F, const AxisInfoAnalysis &AI) : F(F), AI(AI), B(F.getContext()) {}

  bool run() {
    llvm::SmallVector<Instruction *, 16> Converts;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (I.getOpcode() == Opcode::ConvertLayout)
          Converts.push_back(&I);
    bool Changed = false;
    for (Instruction *C : Converts)
      Changed |= simplify(C);
    return Changed;
  }

private:
  static const LinearLayout *layoutOf(const Value *V) {
    Instruction *I = V->getDefiningInstruction();
    return I ? I->getLayout() : nullptr;
  }

  bool simplify(Instruction *C) {
    const LinearLayout To = *C->getLayout();
    Value *Src = C->getOperand(0);
    // A chain of conversions converts the original.
    while (Instruction *D = Src->getDefiningInstruction()) {
      if (D->getOpcode() != Opcode::ConvertLayout)
        break;
      Src = D->getOperand(0);
    }
    if (const LinearLayout *From = layoutOf(Src); From && *From == To) {
      replace(C, Src);
      return true;
    }
    unsigned Budget = 16;
    if (canRebuild(Src, Budget)) {
      B.setInsertPoint(C);
      B.setLoc(C->getLoc());
      llvm::DenseMap<Value *, Value *> Done;
      replace(C, rebuild(Src, To, Done));
      return true;
    }
    if (Src != C->getOperand(0)) {
      C->setOperand(0, Src);
      return true;
    }
    return reloadIn(C, To);
  }

  /// The conversion \p C of a load that only it uses, replaced by the same
  /// load in \p To, built where the load is (so that no store moves before
  /// it), where \p To keeps the load's own vector width.
  bool reloadIn(Instruction *C, const LinearLayout &To) {
    auto *Load = llvm::dyn_cast_or_null<LoadInst>(C->getOperand(0)->getDefiningInstruction());
    if (!Load || Load->isVolatile() || !Load->getResult()->hasOneUse() ||
        !Load->getPtr()->getType()->isBlock())
      return false;
    for (const Use &U : C->getResult()->uses())
      if (U.getUser()->getOpcode() == Opcode::Dot)
        return false;
    const Value *Ptr = Load->getPtr();
    unsigned Fast = accessOrder(Ptr, AI)[0];
    int64_t Own = accessVectorWidth(Ptr, AI);
    if (To.getNumConsecutiveInOut(kRegister, outDimName(Fast)) < Own)
      return false;
    unsigned Budget = 16;
    for (Value *Op : Load->getOperands())
      if (!canRebuild(Op, Budget))
        return false;
    B.setInsertPoint(Load);
    B.setLoc(Load->getLoc());
    llvm::DenseMap<Value *, Value *> Done;
    Value *Reloaded = rebuild(Load->getResult(), To, Done);
    // The name goes with the value that is used (the original is dead).
    std::string Name = Load->getResult()->getName().str();
    Load->getResult()->setName("");
    Reloaded->setName(Name);
    replace(C, Reloaded);
    return true;
  }

  /// Whether \p V can be computed again in any layout within \p Budget
  /// instructions.
  bool canRebuild(Value *V, unsigned &Budget) {
    if (!V->getType()->isBlock())
      return true;
    Instruction *I = V->getDefiningInstruction();
    if (!I || Budget == 0)
      return false;
    --Budget;
    if (isRematerializable(*I))
      return true;
    if (!isCheapElementwise(*I) || I->getNumResults() != 1)
      return false;
    for (Value *Op : I->getOperands())
      if (!canRebuild(Op, Budget))
        return false;
    return true;
  }

  /// \p V computed again in layout \p To (operands in the layouts the rules
  /// require for it), before the builder's insertion point.
  Value *rebuild(Value *V, const LinearLayout &To,
                 llvm::DenseMap<Value *, Value *> &Done) {
    if (!V->getType()->isBlock())
      return V;
    Instruction *I = V->getDefiningInstruction();
    if (const LinearLayout *L = I->getLayout(); L && *L == To)
      return V;
    if (Value *Prev = Done.lookup(V))
      if (*Prev->getDefiningInstruction()->getLayout() == To)
        return Prev;
    Instruction *Copy = I->clone();
    for (unsigned K = 0; K < Copy->getNumOperands(); ++K) {
      std::optional<LinearLayout> Need = requiredOperandLayout(*I, K, To);
      Value *Op = I->getOperand(K);
      if (Op->getType()->isBlock())
        Copy->setOperand(K, rebuild(Op, Need ? *Need : To, Done));
    }
    Copy->setLayout(To);
    Copy->getResult()->setName("");
    B.insert(Copy);
    Done[V] = Copy->getResult();
    return Copy->getResult();
  }

  void replace(Instruction *C, Value *V) {
    C->getResult()->replaceAllUsesWith(V);
    C->eraseFromParent();
  }

  Function &F;
  const AxisInfoAnalysis &AI;
  IRBuilder B;
};

class RemoveLayoutConversionsPass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "remove-layout-conversions"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override {
    if (!Remover(F, AM.get<AxisInfoAnalysis>(F)).run())
      return PreservedAnalyses::all();
    return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>();
  }
};

/// A pass option that is 0 or 1.
bool parseFlag(llvm::StringRef Key, llvm::StringRef Value) {
  if (Value != "0" && Value != "1")
    throw CompileError(Key.str() + " must be 0 or 1, got '" + Value.str() + "'");
  return Value == "1";
}

/// A flag naming the target's matrix units (analysis/MatrixCores.h: mma=1,
/// wgmma=1 or mfma=1) into \p Cores, one at most; false if \p Key names none.
bool parseCoresFlag(llvm::StringRef Pass, llvm::StringRef Key, llvm::StringRef Value,
                    const MatrixCores *&Cores) {
  const MatrixCores *C = getMatrixCores(Key);
  if (!C)
    return false;
  if (!parseFlag(Key, Value))
    return true;
  if (Cores)
    throw CompileError(Pass.str() + " takes one target's matrix units, not two");
  Cores = C;
  return true;
}

/// assign-layouts' options: num-warps=N (a power of two, 1 to 32; to 4096
/// with one lane a warp, the cpu's threads), warp-size=N (a power of two to
/// 64, the target's: 1 for the cpu), thread-runs=0|1 (LayoutOptions::
/// ThreadRuns), and the target's matrix units as a flag of their name
/// (analysis/MatrixCores.h: mma=1, wgmma=1 or mfma=1), one at most.
LayoutOptions parseLayoutOptions(const PassOptions &Opts) {
  LayoutOptions L;
  auto BadWarps = [](llvm::StringRef Value) {
    return CompileError("num-warps must be a power of two from 1 to 32 (to 4096 with "
                        "warp-size=1), got '" + Value.str() + "'");
  };
  for (auto &KV : Opts) {
    llvm::StringRef Key = KV.getKey(), Value = KV.getValue();
    unsigned N = 0;
    bool Bad = Value.getAsInteger(10, N) || N == 0 || (N & (N - 1));
    if (Key == "num-warps") {
      if (Bad || N > 4096)
        throw BadWarps(Value);
      L.NumWarps = N;
    } else if (Key == "warp-size") {
      if (Bad || N > 64)
        throw CompileError("warp-size must be a power of two from 1 to 64, got '" + Value.str() +
                           "'");
      L.WarpSize = N;
    } else if (Key == "thread-runs" && (Value == "0" || Value == "1")) {
      L.ThreadRuns = Value == "1";
    } else if (!parseCoresFlag("assign-layouts", Key, Value, L.Cores)) {
      throw CompileError("assign-layouts has no option '" + Key.str() + "'");
    }
  }
  if (L.NumWarps > 32 && L.WarpSize != 1)
    throw BadWarps(std::to_string(L.NumWarps));
  return L;
}

} // namespace

std::unique_ptr<Pass> tritium::createRemoveLayoutConversionsPass() {
  return std::make_unique<RemoveLayoutConversionsPass>();
}

void tritium::registerLayoutPasses(PassRegistry &R) {
  R.add("assign-layouts",
        "Give every block value a layout (coalesced memory accesses as anchors) "
        "and convert where users need another",
        "num-warps=N,warp-size=N,thread-runs=0|1,mma=0|1,mfma=0|1,wgmma=0|1",
        [](const PassOptions &O) {
          return createAssignLayoutsPass(parseLayoutOptions(O));
        });
  R.add("remove-layout-conversions",
        "Remove conversions that are cheaper to recompute in the wanted layout",
        [] { return createRemoveLayoutConversionsPass(); });
  R.add("stage-dot-operands",
        "Bring the operands of dots on matrix units into their layouts through swizzled "
        "shared memory (local_alloc + local_load), or the layouts the named units "
        "(wgmma=1: NVMMA) read from shared memory themselves",
        "mma=0|1,mfma=0|1,wgmma=0|1", [](const PassOptions &O) {
          const MatrixCores *Cores = nullptr;
          for (auto &KV : O)
            if (!parseCoresFlag("stage-dot-operands", KV.getKey(), KV.getValue(), Cores))
              throw CompileError("stage-dot-operands has no option '" + KV.getKey().str() +
                                 "'");
          return createStageDotOperandsPass(Cores);
        });
  R.add("pipeline",
        "Software-pipeline counted loops: the global loads staged for dots become "
        "asynchronous copies into a ring of num-stages shared buffers, issued ahead",
        "num-stages=N,register-copies=0|1,mma=0|1,mfma=0|1,wgmma=0|1", [](const PassOptions &O) {
          unsigned N = 3;
          const MatrixCores *Cores = nullptr;
          bool RegisterCopies = false;
          for (auto &KV : O) {
            if (parseCoresFlag("pipeline", KV.getKey(), KV.getValue(), Cores))
              continue;
            if (KV.getKey() == "register-copies") {
              RegisterCopies = parseFlag(KV.getKey(), KV.getValue());
              continue;
            }
            if (KV.getKey() != "num-stages")
              throw CompileError("pipeline has no option '" + KV.getKey().str() + "'");
            if (llvm::StringRef(KV.getValue()).getAsInteger(10, N) || N > kMaxNumStages)
              throw CompileError("num-stages must be from 0 to " +
                                 std::to_string(kMaxNumStages) + ", got '" +
                                 KV.getValue() + "'");
          }
          return createPipelineLoopsPass(N, Cores, RegisterCopies);
        });
  R.add("insert-barriers",
        "Place barriers between conflicting shared memory accesses",
        [] { return createInsertBarriersPass(); });
}
