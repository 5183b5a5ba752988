//===- Canonicalize.cpp - Constant folding and algebraic simplification ---===//
//
// `canonicalize` folds instructions whose operands are constants and
// rewrites algebraic identities, until nothing changes. A worklist holds
// every instruction at first; when one is replaced, its users go back on
// the list, and when one is erased, the definitions of its operands do (they
// may have become dead). Instructions left without uses and without side
// effects are erased, as LLVM's InstCombine does.
//
// Folding covers scalars and splat constants alike (a block constant is a
// splat): integer arithmetic wraps at the type's width, but a division by
// zero, INT_MIN / -1, a shift by the width or more, and a float to int
// conversion out of range or of a NaN have no defined value and do not fold;
// float arithmetic rounds in the type's own precision (llvm::APFloat), and
// fp8 constants are not folded, since f8e4m3's finite-only encoding is the
// backend's to define. A cond_br on a constant becomes br, and the phis of the
// block no longer branched to lose their entry.
//
// Simplification rewrites algebraic identities (simplifyBinary and the other
// simplify* below list them). Commutative instructions get a constant
// operand on the right and icmp gets it on the right with the predicate
// swapped, so that cse sees one form.
//
// Requires: verified IR. Preserves: the dominator tree unless a cond_br was
// folded.
//
//===----------------------------------------------------------------------===//

#include "codegen/transforms/ConstantFold.h"
#include "codegen/transforms/TransformUtils.h"
#include "codegen/transforms/Transforms.h"
#include "ir/Builder.h"
#include "ir/Dominance.h"
#include "ir/Function.h"

#include "llvm/ADT/APSInt.h"
#include "llvm/IR/Instructions.h"

#include <optional>

using namespace tritium;
using llvm::APFloat;
using llvm::APInt;

namespace {

//===----------------------------------------------------------------------===//
// Reading constants
//===----------------------------------------------------------------------===//

bool isIntConstant(const Value *V, int64_t Want) {
  std::optional<APInt> C = getIntConstant(V);
  return C && *C == APInt(C->getBitWidth(), uint64_t(Want), /*isSigned=*/true);
}

bool isFloatConstant(const Value *V, double Want) {
  std::optional<APFloat> C = getFloatConstant(V);
  if (!C)
    return false;
  APFloat W(Want);
  bool LosesInfo;
  W.convert(C->getSemantics(), APFloat::rmNearestTiesToEven, &LosesInfo);
  return C->bitwiseIsEqual(W);
}

bool isConstant(const Value *V) {
  Instruction *I = V->getDefiningInstruction();
  return I && I->getOpcode() == Opcode::Constant;
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

class Canonicalizer : public WorklistRewriter {
public:
  explicit Canonicalizer(Function &F) : WorklistRewriter(F) {}

  bool run() { return rewrite(); }
  bool changedCFG() const { return ChangedCFG; }

private:
  Value *simplify(Instruction *I) override;
  Value *simplifyBinary(BinaryInst *I);
  Value *simplifyUnary(UnaryInst *I);
  Value *simplifyFma(FmaInst *I);
  Value *simplifyCmp(CmpInst *I);
  Value *simplifySelect(SelectInst *I);
  Value *simplifyCast(CastInst *I);
  Value *simplifyShape(Instruction *I);
  Value *simplifyPhi(PhiInst *I);
  bool simplifyCondBr(CondBrInst *I);

  /// Constants of \p T (shaped like it), inserted at the builder's point.
  Value *makeInt(Type *T, const APInt &V);
  Value *makeFloat(Type *T, const APFloat &V);
  Value *makeBool(Type *T, bool V) { return makeInt(T, APInt(1, V)); }
  /// A new cast of \p V to \p To before the current instruction.
  Value *makeCast(Opcode Op, Value *V, Type *To);

  bool ChangedCFG = false;
};

Value *Canonicalizer::makeInt(Type *T, const APInt &V) {
  unsigned W = T->getScalarSizeInBits();
  APInt Val = V.sextOrTrunc(W);
  // i1 prints as 0/1; wider integers as their signed value.
  int64_t N = W == 1 ? int64_t(Val.getZExtValue()) : Val.getSExtValue();
  return Builder.getIntConstant(T, N);
}

Value *Canonicalizer::makeFloat(Type *T, const APFloat &V) {
  return Builder.getFloatConstant(T, V.convertToDouble());
}

Value *Canonicalizer::makeCast(Opcode Op, Value *V, Type *To) {
  Value *C = Builder.createCast(Op, V, To);
  Worklist.pushDefOf(C);
  return C;
}

Value *Canonicalizer::simplify(Instruction *I) {
  if (auto *B = llvm::dyn_cast<BinaryInst>(I))
    return simplifyBinary(B);
  if (auto *U = llvm::dyn_cast<UnaryInst>(I))
    return simplifyUnary(U);
  if (auto *Fma = llvm::dyn_cast<FmaInst>(I))
    return simplifyFma(Fma);
  if (auto *C = llvm::dyn_cast<CmpInst>(I))
    return simplifyCmp(C);
  if (auto *S = llvm::dyn_cast<SelectInst>(I))
    return simplifySelect(S);
  if (auto *C = llvm::dyn_cast<CastInst>(I))
    return simplifyCast(C);
  if (auto *P = llvm::dyn_cast<PhiInst>(I))
    return simplifyPhi(P);
  if (auto *Br = llvm::dyn_cast<CondBrInst>(I)) {
    simplifyCondBr(Br);
    return nullptr;
  }
  switch (I->getOpcode()) {
  case Opcode::Splat:
  case Opcode::Broadcast:
  case Opcode::Reshape:
  case Opcode::ExpandDims:
  case Opcode::Trans:
    return simplifyShape(I);
  default:
    return nullptr;
  }
}

Value *Canonicalizer::simplifyBinary(BinaryInst *I) {
  Opcode Op = I->getOpcode();
  Type *T = I->getResult()->getType();
  Value *L = I->getLHS(), *R = I->getRHS();

  if (T->getScalarType()->isInt()) {
    std::optional<APInt> CL = getIntConstant(L), CR = getIntConstant(R);
    if (CL && CR)
      if (std::optional<APInt> V = foldIntBinary(Op, *CL, *CR))
        return makeInt(T, *V);
  } else if (std::optional<APFloat> CL = getFloatConstant(L)) {
    if (std::optional<APFloat> CR = getFloatConstant(R))
      if (std::optional<APFloat> V = foldFloatBinary(Op, *CL, *CR))
        return makeFloat(T, *V);
  }

  // Constants go right, so the rules below and cse see one form.
  if (isCommutative(Op) && isConstant(L) && !isConstant(R)) {
    I->setOperand(0, R);
    I->setOperand(1, L);
    std::swap(L, R);
    Changed = true;
  }

  switch (Op) {
  case Opcode::Add:
  case Opcode::Or:
  case Opcode::Xor:
  case Opcode::Shl:
  case Opcode::LShr:
  case Opcode::AShr:
    if (isIntConstant(R, 0))
      return L;
    break;
  case Opcode::Sub:
    if (isIntConstant(R, 0))
      return L;
    if (L == R)
      return makeInt(T, APInt(T->getScalarSizeInBits(), 0));
    break;
  case Opcode::Mul:
    if (isIntConstant(R, 1))
      return L;
    if (isIntConstant(R, 0))
      return R;
    break;
  case Opcode::SDiv:
  case Opcode::UDiv:
    if (isIntConstant(R, 1))
      return L;
    break;
  case Opcode::SRem:
  case Opcode::URem:
    if (isIntConstant(R, 1))
      return makeInt(T, APInt(T->getScalarSizeInBits(), 0));
    break;
  case Opcode::And:
    if (L == R || isIntConstant(R, -1))
      return L;
    if (isIntConstant(R, 0))
      return R;
    break;
  case Opcode::FMul:
  case Opcode::FDiv:
    if (isFloatConstant(R, 1.0))
      return L;
    break;
  case Opcode::FAdd:
    if (isFloatConstant(R, -0.0))
      return L;
    break;
  case Opcode::FSub:
    if (isFloatConstant(R, 0.0))
      return L;
    break;
  default:
    break;
  }

  switch (Op) {
  case Opcode::Or:
  case Opcode::SMin:
  case Opcode::SMax:
  case Opcode::UMin:
  case Opcode::UMax:
  case Opcode::FMin:
  case Opcode::FMax:
  case Opcode::FMinimum:
  case Opcode::FMaximum:
    if (L == R)
      return L;
    break;
  case Opcode::Xor:
    if (L == R)
      return makeInt(T, APInt(T->getScalarSizeInBits(), 0));
    break;
  default:
    break;
  }
  return nullptr;
}

Value *Canonicalizer::simplifyUnary(UnaryInst *I) {
  Opcode Op = I->getOpcode();
  Type *T = I->getResult()->getType();
  Value *Src = I->getSrc();

  if (std::optional<APInt> C = getIntConstant(Src)) {
    if (Op == Opcode::Neg)
      return makeInt(T, -*C);
    if (Op == Opcode::Abs) // wraps: abs(INT_MIN) is INT_MIN
      return makeInt(T, C->isNegative() ? -*C : *C);
  }
  if (std::optional<APFloat> C = getFloatConstant(Src)) {
    switch (Op) {
    case Opcode::Neg: return makeFloat(T, llvm::neg(*C));
    case Opcode::Abs: return makeFloat(T, llvm::abs(*C));
    case Opcode::Floor:
    case Opcode::Ceil: {
      APFloat V = *C;
      V.roundToIntegral(Op == Opcode::Floor ? APFloat::rmTowardNegative
                                            : APFloat::rmTowardPositive);
      return makeFloat(T, V);
    }
    default: break;
    }
  }

  Instruction *Def = Src->getDefiningInstruction();
  if (!Def)
    return nullptr;
  if (Op == Opcode::Neg && Def->getOpcode() == Opcode::Neg)
    return Def->getOperand(0);
  if (Op == Opcode::Abs && Def->getOpcode() == Opcode::Abs)
    return Src;
  if (Op == Opcode::Abs && Def->getOpcode() == Opcode::Neg) {
    I->setOperand(0, Def->getOperand(0));
    Worklist.push(I);
    Worklist.push(Def);
    Changed = true;
  }
  return nullptr;
}

Value *Canonicalizer::simplifyFma(FmaInst *I) {
  std::optional<APFloat> A = getFloatConstant(I->getOperand(0)),
                         B = getFloatConstant(I->getOperand(1)),
                         C = getFloatConstant(I->getOperand(2));
  if (!A || !B || !C)
    return nullptr;
  A->fusedMultiplyAdd(*B, *C, APFloat::rmNearestTiesToEven);
  return makeFloat(I->getResult()->getType(), *A);
}

Value *Canonicalizer::simplifyCmp(CmpInst *I) {
  Type *T = I->getResult()->getType();
  Value *L = I->getLHS(), *R = I->getRHS();
  if (!I->isFloat()) {
    ICmpPredicate P = I->getIPredicate();
    std::optional<APInt> CL = getIntConstant(L), CR = getIntConstant(R);
    if (CL && CR)
      return makeBool(T, llvm::ICmpInst::compare(*CL, *CR, llvmPredicate(P)));
    if (L == R)
      return makeBool(T, llvm::ICmpInst::compare(APInt(1, 0), APInt(1, 0), llvmPredicate(P)));
    if (isConstant(L) && !isConstant(R)) {
      I->setOperand(0, R);
      I->setOperand(1, L);
      I->setAttr(AttrKey::IPredicate,
                 AttrValue::enumerator(unsigned(getSwappedPredicate(P))));
      Changed = true;
    }
    return nullptr;
  }
  std::optional<APFloat> CL = getFloatConstant(L), CR = getFloatConstant(R);
  if (CL && CR)
    return makeBool(T, llvm::FCmpInst::compare(*CL, *CR, llvmPredicate(I->getFPredicate())));
  return nullptr;
}

Value *Canonicalizer::simplifySelect(SelectInst *I) {
  Value *TV = I->getTrueValue(), *FV = I->getFalseValue();
  if (TV == FV)
    return TV;
  if (std::optional<int64_t> C = getConstantIntValue(I->getCondition()))
    return *C ? TV : FV;
  // select(c, true, false) is c when c already has the result's shape.
  Value *Cond = I->getCondition();
  if (Cond->getType() == I->getResult()->getType() && isIntConstant(TV, 1) &&
      isIntConstant(FV, 0))
    return Cond;
  return nullptr;
}

Value *Canonicalizer::simplifyCast(CastInst *I) {
  Opcode Op = I->getOpcode();
  Value *Src = I->getSrc();
  Type *To = I->getResult()->getType();
  Type *ToElem = To->getScalarType();
  unsigned ToW = ToElem->getScalarSizeInBits();

  if (std::optional<APInt> C = getIntConstant(Src)) {
    switch (Op) {
    case Opcode::Trunc: return makeInt(To, C->trunc(ToW));
    case Opcode::ZExt: return makeInt(To, C->zext(ToW));
    case Opcode::SExt: return makeInt(To, C->sext(ToW));
    case Opcode::UIToFP:
    case Opcode::SIToFP:
      if (const llvm::fltSemantics *Sem = getFoldSemantics(ToElem)) {
        APFloat V(*Sem);
        V.convertFromAPInt(*C, Op == Opcode::SIToFP,
                           APFloat::rmNearestTiesToEven);
        return makeFloat(To, V);
      }
      break;
    case Opcode::Bitcast:
      if (ToElem->isInt())
        return Src->getType() == To ? Src : nullptr;
      if (const llvm::fltSemantics *Sem = getFoldSemantics(ToElem))
        return makeFloat(To, APFloat(*Sem, *C));
      break;
    default: break;
    }
  }
  if (std::optional<APFloat> C = getFloatConstant(Src)) {
    switch (Op) {
    case Opcode::FPTrunc:
    case Opcode::FPExt:
      if (const llvm::fltSemantics *Sem = getFoldSemantics(ToElem)) {
        APFloat V = *C;
        bool LosesInfo;
        std::optional<RoundingMode> RM = I->getRounding();
        V.convert(*Sem,
                  RM == RoundingMode::RTZ ? APFloat::rmTowardZero
                                          : APFloat::rmNearestTiesToEven,
                  &LosesInfo);
        return makeFloat(To, V);
      }
      break;
    case Opcode::FPToUI:
    case Opcode::FPToSI: {
      llvm::APSInt V(ToW, /*isUnsigned=*/Op == Opcode::FPToUI);
      bool IsExact;
      if (C->convertToInteger(V, APFloat::rmTowardZero, &IsExact) &
          APFloat::opInvalidOp)
        break; // out of range or NaN: no defined value to fold to
      return makeInt(To, V);
    }
    case Opcode::Bitcast:
      if (ToElem->isInt())
        return makeInt(To, C->bitcastToAPInt());
      if (const llvm::fltSemantics *Sem = getFoldSemantics(ToElem))
        return makeFloat(To, APFloat(*Sem, C->bitcastToAPInt()));
      break;
    default: break;
    }
  }

  // Chains of casts.
  Instruction *Def = Src->getDefiningInstruction();
  if (Op == Opcode::Bitcast && Src->getType() == To)
    return Src;
  if (!Def || !llvm::isa<CastInst>(Def))
    return nullptr;
  Opcode Inner = Def->getOpcode();
  Value *X = Def->getOperand(0);
  Type *XTy = X->getType();
  unsigned XW = XTy->getScalarSizeInBits();
  if (Op == Opcode::Trunc && (Inner == Opcode::ZExt || Inner == Opcode::SExt)) {
    // The extension added bits that the truncation takes away again.
    if (XTy == To)
      return X;
    if (ToW < XW)
      return makeCast(Opcode::Trunc, X, To);
    return makeCast(Inner, X, To);
  }
  if ((Op == Opcode::ZExt && Inner == Opcode::ZExt) ||
      (Op == Opcode::SExt && (Inner == Opcode::SExt || Inner == Opcode::ZExt)))
    return makeCast(Inner, X, To);
  if (Op == Opcode::FPExt && Inner == Opcode::FPExt)
    return makeCast(Opcode::FPExt, X, To);
  if (Op == Opcode::Bitcast && Inner == Opcode::Bitcast)
    return XTy == To ? X : makeCast(Opcode::Bitcast, X, To);
  return nullptr;
}

Value *Canonicalizer::simplifyShape(Instruction *I) {
  // Reshaping a splat constant gives a splat constant.
  Value *Src = I->getOperand(0);
  Type *T = I->getResult()->getType();
  if (std::optional<int64_t> C = getConstantIntValue(Src))
    return Builder.getIntConstant(T, *C);
  if (std::optional<double> C = getConstantFloatValue(Src))
    return Builder.getFloatConstant(T, *C);
  return nullptr;
}

Value *Canonicalizer::simplifyPhi(PhiInst *I) {
  // A phi whose incoming values are one value V (or the phi itself, around
  // a loop) is V; V dominates every incoming edge, hence the phi's block.
  Value *Self = I->getResult(), *Same = nullptr;
  for (unsigned K = 0; K < I->getNumIncoming(); ++K) {
    Value *V = I->getIncomingValue(K);
    if (V == Self || V == Same)
      continue;
    if (Same)
      return nullptr;
    Same = V;
  }
  return Same;
}

bool Canonicalizer::simplifyCondBr(CondBrInst *I) {
  BasicBlock *B = I->getParent();
  BasicBlock *Taken = nullptr, *NotTaken = nullptr;
  if (I->getTrueDest() == I->getFalseDest()) {
    Taken = NotTaken = I->getTrueDest();
  } else if (std::optional<int64_t> C =
                 getConstantIntValue(I->getCondition())) {
    Taken = *C ? I->getTrueDest() : I->getFalseDest();
    NotTaken = *C ? I->getFalseDest() : I->getTrueDest();
  } else {
    return false;
  }
  Builder.setInsertPoint(B);
  Builder.createBr(Taken);
  erase(I);
  removePhiEntriesForEdge(NotTaken, B);
  for (PhiInst *P : NotTaken->phis())
    Worklist.push(P);
  ChangedCFG = true;
  return true;
}

} // namespace

PreservedAnalyses CanonicalizePass::runOnFunction(Function &F,
                                                  AnalysisManager &) {
  Canonicalizer C(F);
  if (!C.run())
    return PreservedAnalyses::all();
  if (C.changedCFG())
    return PreservedAnalyses::none();
  return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>();
}
