//===- AssignLayouts.cpp - Give every block value a layout ----------------===//
//
// assign-layouts decides, for every block value, which register of which
// lane of which warp holds each element (a linear layout, stored in the
// defining instruction's `layout` attribute), and inserts convert_layout
// where an operand must be in another layout than the one it was made in.
//
//   1. Anchors. Loads, stores and atomics take the coalesced layout of their
//      pointer (coalescing: the widest vector the axis analysis allows along
//      the most contiguous dimension, consecutive lanes on consecutive
//      vectors; a load at least as wide as the widest access of its shape
//      and order that it computes with, as Triton's coalescing does, so that
//      a gather beside a vector load needs no conversion); dots take
//      mma.sync's accumulator layout (option mma=1, where the dot fits) or
//      the FMA result layout. A split into scalars needs
//      both elements in every thread's registers (its operand's anchor).
//   2. Propagation to a fixed point: forward, a result takes the layout its
//      operands imply (elementwise ops keep it, reductions slice it,
//      reshape/trans/expand_dims/join/cat reinterpret it); backward, an
//      operand not yet placed takes the layout its user needs (so address
//      arithmetic is computed directly in the layout of its load or store).
//      Results whose layout follows from their operands (reductions, loads,
//      dots, ...) are only ever set forward, and so are join, split and cat:
//      they need the joined, split or concatenated bit in registers, which
//      a user's layout (a store's, say) need not have.
//   3. Whatever is still unplaced gets the default layout, one value at a
//      time in program order, each followed by more propagation.
//   4. Every operand whose layout differs from what its user needs goes
//      through a convert_layout (for phis, at the end of the incoming block);
//      the operands of a multi-operand reduce or of a print take the first
//      one's layout.
//
// Requires: verified IR, calls inlined, no unreachable blocks. Produces: a `layout` on every
// instruction with block results. Preserves: the CFG. Options:
// num-warps=N (default 4), warp-size=N (the target's: 32, or 64 on AMD's CDNA),
// mma=0|1 (the target has mma.sync: sm_80 on).
//
//===----------------------------------------------------------------------===//

#include "analysis/AxisInfo.h"
#include "analysis/LayoutRules.h"
#include "codegen/layouts/LayoutPasses.h"
#include "ir/Builder.h"
#include "ir/Diagnostics.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/PassManager.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"

#include <map>

using namespace tritium;

namespace {

/// Results whose layout is decided by their operands or their anchor, never
/// by their users.
bool isForwardOnly(const Instruction &I) {
  switch (I.getOpcode()) {
  case Opcode::Load:
  case Opcode::DescriptorLoad:
  case Opcode::AtomicRMW:
  case Opcode::AtomicCAS:
  case Opcode::Dot:
  case Opcode::Reduce:
  case Opcode::ArgMin:
  case Opcode::ArgMax:
  case Opcode::Join:
  case Opcode::Split:
  case Opcode::Cat:
  case Opcode::Gather:
  case Opcode::ConvertLayout:
    return true;
  default:
    return false;
  }
}

bool isBlock(const Value *V) { return V->getType()->isBlock(); }

class LayoutAssigner {
public:
  LayoutAssigner(Function &F, AxisInfoAnalysis &AI, const LayoutOptions &Opts)
      : F(F), AI(AI), Opts(Opts), DT(F), Scalar(scalarLayout(Opts)) {}

  void run() {
    // Layouts flow along the CFG from the entry; code no path reaches has
    // none to take (dce, which the tgir pipeline runs first, removes it).
    if (DT.getReversePostOrder().size() != F.size())
      reportError({}, "assign-layouts needs a function without unreachable blocks (run dce "
                      "first): @" + F.getName().str());
    seedAnchors();
    propagate();
    // Defaults, one at a time, each followed by propagation.
    while (Value *V = firstUnplaced()) {
      set(V, defaultLayout(V->getType()->getShape(), Opts));
      propagate();
    }
    materialize();
    annotate();
  }

private:
  const LinearLayout *get(const Value *V) const {
    auto It = Layouts.find(V);
    return It == Layouts.end() ? nullptr : &It->second;
  }

  /// Places \p V (and the other results of its instruction, which share
  /// one layout).
  bool set(Value *V, const LinearLayout &L) {
    if (Instruction *I = V->getDefiningInstruction()) {
      bool Changed = false;
      for (unsigned R = 0; R < I->getNumResults(); ++R)
        if (isBlock(I->getResult(R)) && !get(I->getResult(R))) {
          Layouts.insert({I->getResult(R), L});
          Changed = true;
        }
      return Changed;
    }
    return Layouts.insert({V, L}).second;
  }

  /// The layout \p I's operands are judged against: its result's, or the
  /// anchor of a store or of a split into scalars.
  const LinearLayout *resultLayout(const Instruction &I) const {
    if (I.getNumResults() == 0 || !isBlock(I.getResult(0))) {
      auto It = OperandAnchors.find(&I);
      return It == OperandAnchors.end() ? nullptr : &It->second;
    }
    for (unsigned R = 0; R < I.getNumResults(); ++R)
      if (const LinearLayout *L = get(I.getResult(R)))
        return L;
    return nullptr;
  }

  /// For each block load, the widest vector (accessVectorWidth) among the
  /// loads, stores and atomics of the same shape and access order that are
  /// connected to it through block values (one computation): the width its
  /// coalesced layout takes at least.
  llvm::DenseMap<const Instruction *, int64_t> sliceWidths() {
    llvm::EquivalenceClasses<const Instruction *> Connected;
    llvm::SmallVector<const Instruction *, 16> Accesses;
    for (BasicBlock &B : F)
      for (Instruction &I : B) {
        Connected.insert(&I);
        for (Value *Op : I.getOperands())
          if (const Instruction *D = Op->getDefiningInstruction(); D && isBlock(Op))
            Connected.unionSets(&I, D);
        switch (I.getOpcode()) {
        case Opcode::Load:
        case Opcode::Store:
        case Opcode::AtomicRMW:
        case Opcode::AtomicCAS:
          if (isBlock(I.getOperand(0)))
            Accesses.push_back(&I);
          break;
        default:
          break;
        }
      }
    // (computation, shape, access order) of each access, and the widest.
    using Key = std::tuple<const Instruction *, llvm::SmallVector<int64_t, 4>,
                           llvm::SmallVector<unsigned, 4>>;
    llvm::SmallVector<Key, 16> Keys;
    std::map<Key, int64_t> Widest;
    for (const Instruction *I : Accesses) {
      const Value *Ptr = I->getOperand(0);
      llvm::ArrayRef<int64_t> Shape = Ptr->getType()->getShape();
      Keys.emplace_back(Connected.getLeaderValue(I),
                        llvm::SmallVector<int64_t, 4>(Shape.begin(), Shape.end()),
                        accessOrder(Ptr, AI));
      int64_t &W = Widest[Keys.back()];
      W = std::max(W, accessVectorWidth(Ptr, AI));
    }
    llvm::DenseMap<const Instruction *, int64_t> Widths;
    for (auto [I, K] : llvm::zip(Accesses, Keys))
      if (I->getOpcode() == Opcode::Load)
        Widths[I] = Widest[K];
    return Widths;
  }

  void seedAnchors() {
    llvm::DenseMap<const Instruction *, int64_t> LoadWidths = sliceWidths();
    for (BasicBlock *B : DT.getReversePostOrder())
      for (Instruction &I : *B) {
        switch (I.getOpcode()) {
        case Opcode::Load:
        case Opcode::AtomicRMW:
        case Opcode::AtomicCAS:
          if (isBlock(I.getOperand(0)))
            set(I.getResult(), coalescedLayout(I.getOperand(0), AI, Opts,
                                               LoadWidths.lookup(&I)));
          break;
        case Opcode::DescriptorLoad:
          set(I.getResult(), descriptorBlockLayout(I.getResult()->getType(), Opts));
          break;
        case Opcode::Store:
          if (isBlock(I.getOperand(0)))
            OperandAnchors.insert({&I, coalescedLayout(I.getOperand(0), AI, Opts)});
          break;
        case Opcode::Split:
          // Both elements of a <2 x T> split into scalars in every thread:
          // requiredOperandLayout of a scalar result layout.
          if (!isBlock(I.getResult(0)))
            OperandAnchors.insert({&I, Scalar});
          break;
        case Opcode::Dot:
          set(I.getResult(), dotLayout(I, Opts));
          break;
        case Opcode::ConvertLayout: {
          // A layout written in the input must fit the kernel's warps.
          std::string Why = checkLayoutFits(*I.getLayout(), Opts);
          if (!Why.empty())
            reportError(I.getLoc(), "'convert_layout': " + Why);
          set(I.getResult(), *I.getLayout());
          break;
        }
        default:
          break;
        }
      }
  }

  void propagate() {
    for (unsigned Round = 0; Round < 64; ++Round) {
      bool Changed = false;
      // Forward.
      for (BasicBlock *B : DT.getReversePostOrder())
        for (Instruction &I : *B) {
          if (!I.getNumResults() || !isBlock(I.getResult(0)) || get(I.getResult(0)))
            continue;
          llvm::SmallVector<const LinearLayout *, 4> Ops;
          for (Value *Op : I.getOperands())
            // A join of scalars stacks them in registers of every thread.
            Ops.push_back(I.getOpcode() == Opcode::Join && !isBlock(Op) ? &Scalar
                                                                       : get(Op));
          if (std::optional<LinearLayout> L = inferResultLayout(I, Ops))
            Changed |= set(I.getResult(0), *L);
        }
      // Backward.
      auto RPO = DT.getReversePostOrder();
      for (auto BI = RPO.rbegin(); BI != RPO.rend(); ++BI)
        for (auto II = (*BI)->rbegin(); II != (*BI)->rend(); ++II) {
          Instruction &I = *II;
          const LinearLayout *RL = resultLayout(I);
          if (!RL)
            continue;
          LinearLayout Result = *RL;
          for (unsigned K = 0; K < I.getNumOperands(); ++K) {
            Value *Op = I.getOperand(K);
            if (!isBlock(Op) || get(Op))
              continue;
            if (Instruction *Def = Op->getDefiningInstruction())
              if (isForwardOnly(*Def))
                continue;
            if (std::optional<LinearLayout> Need = requiredOperandLayout(I, K, Result))
              Changed |= set(Op, *Need);
          }
        }
      if (!Changed)
        return;
    }
  }

  /// The first block value without a layout that may take a default: a
  /// function argument, or a result not decided by its operands. A
  /// forward-only result whose rule failed (a split along lanes) takes the
  /// default too; its operand is converted to fit.
  Value *firstUnplaced() {
    for (Argument *A : F.args())
      if (isBlock(A) && !get(A))
        return A;
    Value *Stuck = nullptr;
    for (BasicBlock *B : DT.getReversePostOrder())
      for (Instruction &I : *B)
        for (unsigned R = 0; R < I.getNumResults(); ++R) {
          Value *V = I.getResult(R);
          if (!isBlock(V) || get(V))
            continue;
          if (!isForwardOnly(I))
            return V;
          bool OperandsPlaced = llvm::all_of(I.getOperands(), [&](Value *Op) {
            return !isBlock(Op) || get(Op);
          });
          if (OperandsPlaced && !Stuck)
            Stuck = V;
        }
    return Stuck;
  }

  /// Converts \p V to \p L before \p Pos, reusing a conversion of the same
  /// value to the same layout in the same block.
  Value *convert(Value *V, const LinearLayout &L, Instruction *Pos) {
    for (const Conversion &C : Conversions)
      if (C.Src == V && C.Block == Pos->getParent() && C.To == L &&
          DT.dominates(C.Result, Pos))
        return C.Result;
    IRBuilder B(F.getContext());
    B.setInsertPoint(Pos);
    B.setLoc(Pos->getLoc());
    Instruction *I = B.create(Opcode::ConvertLayout, {V->getType()}, {V},
                              {{AttrKey::Layout, AttrValue::layout(L)}});
    Layouts.insert({I->getResult(), L});
    Conversions.push_back({V, Pos->getParent(), L, I->getResult()});
    return I->getResult();
  }

  void materialize() {
    llvm::SmallVector<Instruction *, 64> Insts;
    for (BasicBlock &B : F)
      for (Instruction &I : B)
        Insts.push_back(&I);
    for (Instruction *I : Insts) {
      if (I->getOpcode() == Opcode::ConvertLayout)
        continue;
      // A multi-operand reduce or a print walks its operands' registers in
      // lockstep: they all take the first one's layout.
      if (const Value *Lead = sharedLayoutOperand(*I)) {
        LinearLayout Want = *get(Lead);
        for (unsigned K = 0; K < I->getNumOperands(); ++K) {
          Value *Op = I->getOperand(K);
          if (isBlock(Op) && *get(Op) != Want)
            I->setOperand(K, convert(Op, Want, I));
        }
        continue;
      }
      const LinearLayout *RL = resultLayout(*I);
      if (!RL)
        continue;
      LinearLayout Result = *RL;
      for (unsigned K = 0; K < I->getNumOperands(); ++K) {
        Value *Op = I->getOperand(K);
        if (!isBlock(Op))
          continue;
        std::optional<LinearLayout> Need = requiredOperandLayout(*I, K, Result);
        const LinearLayout *Have = get(Op);
        if (!Need || (Have && *Have == *Need))
          continue;
        Instruction *Pos = I;
        if (auto *Phi = llvm::dyn_cast<PhiInst>(I))
          Pos = Phi->getIncomingBlock(K)->getTerminator();
        I->setOperand(K, convert(Op, *Need, Pos));
      }
    }
  }

  void annotate() {
    for (BasicBlock &B : F)
      for (Instruction &I : B)
        if (I.getNumResults() && isBlock(I.getResult(0))) {
          const LinearLayout *L = get(I.getResult(0));
          if (!L)
            reportError(I.getLoc(), "internal error: no layout for a block of '" +
                                        I.getOpcodeName() + "'");
          I.setLayout(*L);
        }
  }

  struct Conversion {
    Value *Src;
    BasicBlock *Block;
    LinearLayout To;
    Value *Result;
  };

  Function &F;
  AxisInfoAnalysis &AI;
  LayoutOptions Opts;
  DominatorTree DT;
  LinearLayout Scalar;
  llvm::DenseMap<const Value *, LinearLayout> Layouts;
  /// What the operands of instructions without block results (stores,
  /// splits into scalars) are judged against.
  llvm::DenseMap<const Instruction *, LinearLayout> OperandAnchors;
  std::vector<Conversion> Conversions;
};

class AssignLayoutsPass : public FunctionPass {
public:
  explicit AssignLayoutsPass(LayoutOptions Opts) : Opts(Opts) {}
  llvm::StringRef getName() const override { return "assign-layouts"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override {
    if (F.empty())
      return PreservedAnalyses::all();
    LayoutAssigner(F, AM.get<AxisInfoAnalysis>(F), Opts).run();
    return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>();
  }

private:
  LayoutOptions Opts;
};

} // namespace

std::unique_ptr<Pass> tritium::createAssignLayoutsPass(const LayoutOptions &Opts) {
  return std::make_unique<AssignLayoutsPass>(Opts);
}
