//===- WidenOffsets.cpp - 64-bit offset arithmetic ----------------------===//
//
// `widen-offsets` recomputes in i64 the 32-bit integer arithmetic that
// addresses memory, for kernels launched on tensors of 2^31 elements or
// more: there `pid * BLOCK + arange(0, BLOCK)` or `row * stride + col`
// wraps in i32 (Triton's behaviour) and reads or writes the wrong place.
//
// The roots are the i32 offsets of getelementptr and the i32 values sext'ed
// to i64 on their way to an address or a comparison (a mask `offs < n` with
// an i64 `n` compares sext(offs); a hash made i64 keeps its wrapping). From
// a root, each value is rebuilt in i64 by what it is:
//
//   add, sub, mul, shl, sdiv, srem, smin, smax   the same op on the widened
//       operands (true values where i32 wrapped; srem/sdiv agree on values
//       that fit)
//   splat, broadcast, expand_dims, reshape, trans, select, constant
//       the same op with i64 elements
//   phi   a new i64 phi of the widened incoming values (loop-carried
//         offsets: `offs += BLOCK`)
//   anything else (arguments, program ids, loads, and/or/xor, casts, ...)
//         sext of the value, right after its definition
//
// then the root's use takes the i64 value. The i32 values stay for their
// other uses; dce removes those left unused. Kernels whose tensors fit in
// 2^31 elements never run this pass (the launch specializes on it).
//
// Requires: verified IR. Preserves: the CFG.
//
//===----------------------------------------------------------------------===//

#include "codegen/transforms/Transforms.h"
#include "ir/Builder.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace tritium;

namespace {

bool isI32(const Value *V) {
  auto *Int = llvm::dyn_cast<IntType>(V->getType()->getScalarType());
  return Int && Int->getWidth() == 32;
}

/// Ops whose i64 form on sign-extended operands gives the true value.
bool widensAsIs(Opcode Op) {
  switch (Op) {
  case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Shl:
  case Opcode::SDiv: case Opcode::SRem: case Opcode::SMin: case Opcode::SMax:
  case Opcode::Splat: case Opcode::Broadcast: case Opcode::ExpandDims:
  case Opcode::Reshape: case Opcode::Trans: case Opcode::Select: case Opcode::Constant:
    return true;
  default:
    return false;
  }
}

/// Whether \p V, through i64 arithmetic and shape ops, reaches an address
/// or a comparison (a mask against an i64 bound). An i32 value made i64 for
/// other ends (a hash that means to wrap) keeps its i32 arithmetic.
bool addressesOrCompares(Value *V) {
  llvm::SmallVector<Value *, 8> Work{V};
  llvm::SmallPtrSet<Value *, 16> Seen{V};
  while (!Work.empty())
    for (const Use &U : Work.pop_back_val()->uses()) {
      Instruction *User = U.getUser();
      Opcode Op = User->getOpcode();
      if (Op == Opcode::ICmp || Op == Opcode::GetElementPtr)
        return true;
      if (widensAsIs(Op) && Op != Opcode::Constant && Seen.insert(User->getResult(0)).second)
        Work.push_back(User->getResult(0));
    }
  return false;
}

class OffsetWidener {
public:
  explicit OffsetWidener(Function &F) : F(F), B(F.getContext()) {}

  bool run() {
    llvm::SmallVector<std::pair<Instruction *, unsigned>, 16> Roots;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        if (I.getOpcode() == Opcode::GetElementPtr && isI32(I.getOperand(1)))
          Roots.push_back({&I, 1});
        else if (I.getOpcode() == Opcode::SExt && isI32(I.getOperand(0)) &&
                 I.getResult(0)->getType()->getScalarSizeInBytes() == 8 &&
                 addressesOrCompares(I.getResult(0)))
          Roots.push_back({&I, 0});
      }
    for (auto [I, K] : Roots) {
      Value *Wide = widen(I->getOperand(K));
      if (I->getOpcode() == Opcode::SExt)
        I->getResult(0)->replaceAllUsesWith(Wide);
      else
        I->setOperand(K, Wide);
    }
    return !Roots.empty();
  }

private:
  /// `%offs` widens to `%offs.i64`.
  static void nameAfter(Value *W, const Value *V) {
    W->setName(V->getName().empty() ? "" : V->getName().str() + ".i64");
  }

  Type *wideType(const Value *V) { return V->getType()->withElement(Type::getI64(F.getContext())); }

  Value *widen(Value *V) {
    if (Value *W = Widened.lookup(V))
      return W;
    Instruction *I = V->getDefiningInstruction();
    Value *W;
    if (I && I->getOpcode() == Opcode::Phi) {
      auto *P = llvm::cast<PhiInst>(I);
      B.setInsertPoint(P);
      PhiInst *New = B.createPhi(wideType(V));
      nameAfter(New->getResult(0), V);
      Widened[V] = New->getResult(0); // before the incoming values: a cycle ends here
      for (unsigned K = 0; K < P->getNumIncoming(); ++K)
        New->addIncoming(widen(P->getIncomingValue(K)), P->getIncomingBlock(K));
      return New->getResult(0);
    }
    if (I && widensAsIs(I->getOpcode())) {
      Instruction *C = I->clone();
      for (unsigned K = 0; K < C->getNumOperands(); ++K) // not a select's i1
        if (isI32(C->getOperand(K)))
          C->setOperand(K, widen(C->getOperand(K)));
      C->getResult(0)->mutateType(wideType(V));
      nameAfter(C->getResult(0), V);
      C->insertAfter(I);
      W = C->getResult(0);
    } else {
      // A leaf: sign-extended right after its definition; an argument at
      // the entry, after the arguments widened before it.
      if (I) {
        B.setInsertPoint(I->getNextNode());
        B.setLoc(I->getLoc());
      } else if (LastArgument) {
        B.setInsertPoint(LastArgument->getNextNode());
      } else {
        B.setInsertPoint(F.getEntryBlock(), F.getEntryBlock()->getFirstNonPhi());
      }
      W = B.createCast(Opcode::SExt, V, wideType(V));
      nameAfter(W, V);
      if (!I)
        LastArgument = W->getDefiningInstruction();
    }
    Widened[V] = W;
    return W;
  }

  Function &F;
  IRBuilder B;
  llvm::DenseMap<Value *, Value *> Widened;
  Instruction *LastArgument = nullptr;
};

} // namespace

PreservedAnalyses WidenOffsetsPass::runOnFunction(Function &F, AnalysisManager &) {
  if (F.empty() || !OffsetWidener(F).run())
    return PreservedAnalyses::all();
  return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>();
}
