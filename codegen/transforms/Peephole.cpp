//===- Peephole.cpp - Block-shape folding and mask simplification -------===//
//
// `peephole` rewrites short chains of block-shaping instructions that the
// frontend's broadcasting rules produce, and memory operations whose mask is
// known, with a worklist until nothing changes:
//
//   - broadcast to the operand's own type, reshape to the operand's own
//     type and trans by the identity order are the operand
//   - broadcast, reshape, expand_dims or trans of a splat is a splat of the
//     result's shape (so expand_dims + broadcast of a splat is one splat)
//   - broadcast of a broadcast is one broadcast; reshape of a reshape is one
//     reshape (allowing reorder if either did), or the source when the
//     shapes match
//   - trans of a trans is one trans by the composed order, or the source
//     when the orders cancel
//   - a getelementptr adding a splat offset to a block of pointers built
//     from a splat base (by getelementptr, broadcast and expand_dims, in the
//     same loop) is that chain rebuilt over `splat(getelementptr base, s)`:
//     the uniform offset is one scalar add, and the original block need not
//     stay live for it. Attention's second loop starts at `k_ptrs + lo *
//     stride`: without this the first loop carried the 16 pointers of
//     k_ptrs and v_ptrs (32 registers a thread) through it unused, and ptxas
//     had that many fewer to schedule the loop with. A constant offset
//     stays where it is (an address immediate), unless the base is the
//     splat itself
//   - `fadd %x, dot(%a, %b, zeros)` (or `add`, either order; the dot used
//     only there) is `dot(%a, %b, %x)`: `acc += tl.dot(a, b)` accumulates
//     in the dot itself, as Triton combines it, so that the tensor cores
//     add into the accumulator and no block-sized add follows each dot
//     (tutorial 08); not for fp8 dots with max_num_imprecise_acc
//   - a load, store or atomic whose mask is all true drops the mask (a load
//     its `other` too); a load whose mask is all false is its `other` (or
//     undef), and a store whose mask is all false is erased
//
// A mask is known when it is a constant (scalar or splat) or a splat,
// broadcast, reshape, expand_dims or trans of a known mask; see
// knownMaskValue; before the rules run, masks the axis analysis proves
// constant (e.g. `arange(0, 64) < 64`, by value ranges) are replaced by
// constants so the same rules apply. A splat of a splat cannot occur: splat takes a scalar.
// Instructions left without uses and without side effects are erased.
//
// Requires: verified IR. Preserves: the CFG and so the dominator tree.
//
//===----------------------------------------------------------------------===//

#include "analysis/AxisInfo.h"
#include "analysis/LoopInfo.h"
#include "codegen/transforms/TransformUtils.h"
#include "codegen/transforms/Transforms.h"
#include "ir/Builder.h"
#include "ir/Dominance.h"
#include "ir/Function.h"

using namespace tritium;

namespace {

bool isIdentityOrder(llvm::ArrayRef<int64_t> Order) {
  for (unsigned I = 0; I < Order.size(); ++I)
    if (Order[I] != int64_t(I))
      return false;
  return true;
}

/// The instruction defining \p V if it has opcode \p Op, else null.
Instruction *getDef(Value *V, Opcode Op) {
  Instruction *I = V->getDefiningInstruction();
  return I && I->getOpcode() == Op ? I : nullptr;
}

class Peephole : public WorklistRewriter {
public:
  Peephole(Function &F, const LoopInfo &LI) : WorklistRewriter(F), LI(LI) {}
  bool run() {
    foldProvenMasks();
    return rewrite();
  }

private:
  /// Mask rules change \p I in place or erase it instead.
  Value *simplify(Instruction *I) override;
  Value *simplifyBroadcast(Instruction *I);
  Value *simplifyReshape(ReshapeInst *I);
  Value *simplifyTrans(TransInst *I);
  Value *simplifyLoad(LoadInst *I);
  void simplifyStore(StoreInst *I);
  Value *foldUniformOffset(GetElementPtrInst *I);
  Value *foldDotAccumulation(Instruction *Add);

  /// Whether every lane of \p Mask is true (true), false (false), or
  /// unknown (nullopt). Extension point: the axis analysis will answer
  /// for masks that are not constants.
  std::optional<bool> knownMaskValue(Value *Mask) const;

  /// Replaces masks the axis analysis proves all true or all false by
  /// constants, for the mask rules to pick up.
  void foldProvenMasks();
  /// Removes operands from \p First on, queueing what they were defined by.
  void dropOperandsFrom(Instruction *I, unsigned First);
  Value *queued(Value *V) {
    Worklist.pushDefOf(V);
    return V;
  }

  const LoopInfo &LI;
};

void Peephole::dropOperandsFrom(Instruction *I, unsigned First) {
  while (I->getNumOperands() > First) {
    Worklist.pushDefOf(I->getOperand(I->getNumOperands() - 1));
    I->removeOperand(I->getNumOperands() - 1);
  }
  Changed = true;
}

void Peephole::foldProvenMasks() {
  AxisInfoAnalysis AI(F);
  for (BasicBlock &B : F)
    for (Instruction &I : B) {
      unsigned MaskIdx;
      switch (I.getOpcode()) {
      case Opcode::Load: MaskIdx = 1; break;
      case Opcode::Store:
      case Opcode::AtomicRMW: MaskIdx = 2; break;
      case Opcode::AtomicCAS: MaskIdx = 3; break;
      default: continue;
      }
      if (I.getNumOperands() <= MaskIdx)
        continue;
      Value *Mask = I.getOperand(MaskIdx);
      std::optional<int64_t> C = AI.get(Mask).Constant;
      if (!C || getConstantIntValue(Mask))
        continue;
      Builder.setInsertPoint(&I);
      Builder.setLoc(I.getLoc());
      I.setOperand(MaskIdx, Builder.getIntConstant(Mask->getType(), *C != 0));
      Changed = true;
    }
}

std::optional<bool> Peephole::knownMaskValue(Value *Mask) const {
  if (std::optional<int64_t> C = getConstantIntValue(Mask))
    return *C != 0;
  Instruction *I = Mask->getDefiningInstruction();
  if (!I)
    return std::nullopt;
  switch (I->getOpcode()) {
  case Opcode::Splat:
  case Opcode::Broadcast:
  case Opcode::Reshape:
  case Opcode::ExpandDims:
  case Opcode::Trans:
    // Every lane comes from a lane of the operand.
    return knownMaskValue(I->getOperand(0));
  default:
    return std::nullopt;
  }
}

Value *Peephole::simplify(Instruction *I) {
  switch (I->getOpcode()) {
  case Opcode::Broadcast:
    return simplifyBroadcast(I);
  case Opcode::Reshape:
    return simplifyReshape(llvm::cast<ReshapeInst>(I));
  case Opcode::ExpandDims:
    if (Instruction *S = getDef(I->getOperand(0), Opcode::Splat))
      return queued(Builder.createSplat(S->getOperand(0),
                                        I->getResult()->getType()->getShape()));
    return nullptr;
  case Opcode::Trans:
    return simplifyTrans(llvm::cast<TransInst>(I));
  case Opcode::GetElementPtr:
    return foldUniformOffset(llvm::cast<GetElementPtrInst>(I));
  case Opcode::Add:
  case Opcode::FAdd:
    return foldDotAccumulation(I);
  case Opcode::Load:
    return simplifyLoad(llvm::cast<LoadInst>(I));
  case Opcode::Store:
    simplifyStore(llvm::cast<StoreInst>(I));
    return nullptr;
  case Opcode::AtomicRMW:
    if (I->getNumOperands() > 2 && knownMaskValue(I->getOperand(2)) == true)
      dropOperandsFrom(I, 2);
    return nullptr;
  case Opcode::AtomicCAS:
    if (I->getNumOperands() > 3 && knownMaskValue(I->getOperand(3)) == true)
      dropOperandsFrom(I, 3);
    return nullptr;
  default:
    return nullptr;
  }
}

Value *Peephole::simplifyBroadcast(Instruction *I) {
  Value *Src = I->getOperand(0);
  Type *T = I->getResult()->getType();
  if (Src->getType() == T)
    return Src;
  if (Instruction *S = getDef(Src, Opcode::Splat))
    return queued(Builder.createSplat(S->getOperand(0), T->getShape()));
  if (Instruction *B = getDef(Src, Opcode::Broadcast))
    return queued(Builder.createBroadcast(B->getOperand(0), T->getShape()));
  return nullptr;
}

Value *Peephole::simplifyReshape(ReshapeInst *I) {
  Value *Src = I->getSrc();
  Type *T = I->getResult()->getType();
  if (Src->getType() == T)
    return Src;
  if (Instruction *S = getDef(Src, Opcode::Splat))
    return T->isBlock() ? queued(Builder.createSplat(S->getOperand(0), T->getShape()))
                        : S->getOperand(0);
  if (auto *Inner =
          llvm::cast_or_null<ReshapeInst>(getDef(Src, Opcode::Reshape))) {
    Value *X = Inner->getSrc();
    if (X->getType() == T)
      return X;
    return queued(Builder.createReshape(X, T->getShape(),
                                        I->allowsReorder() ||
                                            Inner->allowsReorder()));
  }
  return nullptr;
}

Value *Peephole::simplifyTrans(TransInst *I) {
  Value *Src = I->getSrc();
  if (isIdentityOrder(I->getOrder()))
    return Src;
  if (Instruction *S = getDef(Src, Opcode::Splat))
    return queued(Builder.createSplat(S->getOperand(0),
                                      I->getResult()->getType()->getShape()));
  auto *Inner = llvm::cast_or_null<TransInst>(getDef(Src, Opcode::Trans));
  if (!Inner)
    return nullptr;
  // Result dimension i is the inner result's dimension Outer[i], which is
  // the source's dimension InnerOrder[Outer[i]].
  llvm::ArrayRef<int64_t> Outer = I->getOrder(), InnerOrder = Inner->getOrder();
  llvm::SmallVector<int64_t, 4> Composed;
  for (int64_t D : Outer)
    Composed.push_back(InnerOrder[D]);
  if (isIdentityOrder(Composed))
    return Inner->getSrc();
  return queued(Builder.createTrans(Inner->getSrc(), Composed));
}

Value *Peephole::foldUniformOffset(GetElementPtrInst *I) {
  Instruction *Offset = getDef(I->getOffset(), Opcode::Splat);
  Instruction *Top = I->getPtr()->getDefiningInstruction();
  if (!Offset || !Top)
    return nullptr;
  Value *S = Offset->getOperand(0);
  // The chain from the pointer block down to its splat base, outermost first.
  llvm::SmallVector<Instruction *, 8> Chain;
  Instruction *Root = Top;
  constexpr unsigned MaxChain = 8;
  while (Root->getOpcode() != Opcode::Splat) {
    Opcode Op = Root->getOpcode();
    if (Chain.size() == MaxChain ||
        (Op != Opcode::GetElementPtr && Op != Opcode::Broadcast && Op != Opcode::ExpandDims))
      return nullptr;
    Chain.push_back(Root);
    Root = Root->getOperand(0)->getDefiningInstruction();
    if (!Root)
      return nullptr;
  }
  // Rebuilding the chain elsewhere than where it was computed would compute
  // it once per iteration of a loop it was invariant in.
  if (!Chain.empty() && (getDef(S, Opcode::Constant) ||
                         LI.getLoopFor(Top->getParent()) != LI.getLoopFor(I->getParent())))
    return nullptr;
  Value *V = Builder.createSplat(Builder.createGEP(Root->getOperand(0), S),
                                 Root->getResult()->getType()->getShape());
  for (Instruction *C : llvm::reverse(Chain)) {
    if (auto *G = llvm::dyn_cast<GetElementPtrInst>(C))
      V = Builder.createGEP(V, G->getOffset());
    else if (auto *E = llvm::dyn_cast<ExpandDimsInst>(C))
      V = Builder.createExpandDims(V, E->getAxis());
    else
      V = Builder.createBroadcast(V, C->getResult()->getType()->getShape());
  }
  return queued(V);
}

Value *Peephole::foldDotAccumulation(Instruction *Add) {
  if (Add->getLayout())
    return nullptr;
  for (unsigned K = 0; K < 2; ++K) {
    auto *Dot = llvm::dyn_cast_or_null<DotInst>(getDef(Add->getOperand(K), Opcode::Dot));
    Value *X = Add->getOperand(1 - K);
    if (!Dot || !Dot->getResult()->hasOneUse() || Dot->getMaxNumImpreciseAcc() ||
        X->getType() != Dot->getResult()->getType())
      continue;
    std::optional<double> F = getConstantFloatValue(Dot->getAcc());
    std::optional<int64_t> I = getConstantIntValue(Dot->getAcc());
    if ((F ? *F != 0.0 : !I || *I != 0))
      continue;
    // The dot's line, not the add's: the tensor cores do the add (Triton
    // gives the combined dot the dot's location too; test_line_info).
    Builder.setLoc(Dot->getLoc());
    return queued(Builder.createDot(Dot->getA(), Dot->getB(), X, Dot->getPrecision()));
  }
  return nullptr;
}

Value *Peephole::simplifyLoad(LoadInst *I) {
  Value *Mask = I->getMask();
  if (!Mask)
    return nullptr;
  std::optional<bool> Known = knownMaskValue(Mask);
  if (!Known)
    return nullptr;
  if (*Known) {
    dropOperandsFrom(I, 1);
    return nullptr;
  }
  // A volatile load still happens, masked off or not.
  if (I->isVolatile())
    return nullptr;
  if (Value *Other = I->getOther())
    return Other;
  return queued(Builder.createUndef(I->getResult()->getType()));
}

void Peephole::simplifyStore(StoreInst *I) {
  Value *Mask = I->getMask();
  if (!Mask)
    return;
  std::optional<bool> Known = knownMaskValue(Mask);
  if (!Known)
    return;
  if (*Known)
    dropOperandsFrom(I, 2);
  else
    erase(I);
}

} // namespace

PreservedAnalyses PeepholePass::runOnFunction(Function &F, AnalysisManager &AM) {
  Peephole P(F, AM.get<LoopAnalysis>(F));
  if (!P.run())
    return PreservedAnalyses::all();
  return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>();
}
