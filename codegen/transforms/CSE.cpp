//===- CSE.cpp - Common subexpression elimination -----------------------===//
//
// `cse` replaces a pure instruction by an identical one that dominates it:
// same opcode, same operands (in either order for commutative opcodes), same
// attributes and same result types. It walks the dominator tree in preorder
// with a scoped hash table, as LLVM's EarlyCSE does: entering a block opens
// a scope, so an instruction is only ever replaced by one from a block that
// dominates it, or from earlier in its own block.
//
// Only instructions without side effects that neither read nor write memory
// take part. Loads are never merged (nothing yet proves that no store comes
// between two of them), nor are atomics, calls, phis, undefs or anything
// with a side effect.
//
// Requires: verified IR. Preserves: the CFG and so the dominator tree.
//
//===----------------------------------------------------------------------===//

#include "codegen/transforms/TransformUtils.h"
#include "codegen/transforms/Transforms.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/ScopedHashTable.h"

#include <cstring>
#include <memory>

using namespace tritium;

namespace {

/// Whether \p I may be replaced by an identical instruction that dominates
/// it.
bool canCSE(const Instruction &I) {
  if (I.hasSideEffects() || I.mayReadMemory() || I.mayWriteMemory())
    return false;
  switch (I.getOpcode()) {
  case Opcode::Phi:
  case Opcode::Undef:
    return false;
  default:
    return I.getNumResults() > 0 && I.getNumBlockOperands() == 0;
  }
}

llvm::hash_code hashAttrValue(const AttrValue &V) {
  uint64_t FBits;
  std::memcpy(&FBits, &V.F, sizeof(FBits));
  return llvm::hash_combine(
      unsigned(V.K), V.I, FBits, llvm::hash_value(V.S),
      llvm::hash_combine_range(V.List.begin(), V.List.end()));
}

/// An instruction as a key of the table: equal keys compute equal values.
struct SimpleInst {
  Instruction *I;
  SimpleInst(Instruction *I) : I(I) {}
};

} // namespace

namespace llvm {
template <> struct DenseMapInfo<SimpleInst> {
  static SimpleInst getEmptyKey() {
    return DenseMapInfo<Instruction *>::getEmptyKey();
  }
  static SimpleInst getTombstoneKey() {
    return DenseMapInfo<Instruction *>::getTombstoneKey();
  }
  static bool isSentinel(SimpleInst S) {
    return S.I == getEmptyKey().I || S.I == getTombstoneKey().I;
  }

  static unsigned getHashValue(SimpleInst S) {
    Instruction *I = S.I;
    llvm::SmallVector<Value *, 4> Ops = I->getOperands();
    // Commutative operands hash in a fixed order, so `a + b` and `b + a`
    // land in the same bucket; isEqual then compares both orders.
    if (isCommutative(I->getOpcode()) && Ops.size() == 2 && Ops[1] < Ops[0])
      std::swap(Ops[0], Ops[1]);
    llvm::hash_code H = llvm::hash_combine(
        unsigned(I->getOpcode()),
        llvm::hash_combine_range(Ops.begin(), Ops.end()));
    for (Type *T : I->getResultTypes())
      H = llvm::hash_combine(H, T);
    for (const Attribute &A : I->getAttrs())
      H = llvm::hash_combine(H, unsigned(A.Key), hashAttrValue(A.Val));
    return unsigned(H);
  }

  static bool isEqual(SimpleInst A, SimpleInst B) {
    if (isSentinel(A) || isSentinel(B))
      return A.I == B.I;
    Instruction *X = A.I, *Y = B.I;
    if (X->getOpcode() != Y->getOpcode() ||
        X->getNumOperands() != Y->getNumOperands() ||
        X->getResultTypes() != Y->getResultTypes() ||
        X->getAttrs() != Y->getAttrs())
      return false;
    if (X->getOperands() == Y->getOperands())
      return true;
    return isCommutative(X->getOpcode()) && X->getNumOperands() == 2 &&
           X->getOperand(0) == Y->getOperand(1) &&
           X->getOperand(1) == Y->getOperand(0);
  }
};
} // namespace llvm

namespace {

using ScopedTable = llvm::ScopedHashTable<SimpleInst, Instruction *>;

class CommonSubexpressionElimination {
public:
  CommonSubexpressionElimination(Function &F, const DominatorTree &DT)
      : F(F), DT(DT) {}
  bool run();

private:
  /// Replaces the redundant instructions of \p B by the ones in \p Table.
  bool processBlock(BasicBlock &B);

  Function &F;
  const DominatorTree &DT;
  ScopedTable Table;
};

bool CommonSubexpressionElimination::run() {
  // The dominator tree's children, in reverse post-order for a
  // deterministic walk.
  llvm::DenseMap<BasicBlock *, llvm::SmallVector<BasicBlock *, 4>> Children;
  for (BasicBlock *B : DT.getReversePostOrder())
    if (BasicBlock *IDom = DT.getIDom(B))
      Children[IDom].push_back(B);

  // Preorder walk with an explicit stack; each entry owns the scope of its
  // block, and popping the entry closes the scope (scopes close in LIFO
  // order, as ScopedHashTable requires).
  struct Node {
    BasicBlock *B;
    std::unique_ptr<llvm::ScopedHashTableScope<SimpleInst, Instruction *>>
        Scope;
    unsigned NextChild = 0;
  };
  bool Changed = false;
  llvm::SmallVector<Node, 16> Stack;
  auto Enter = [&](BasicBlock *B) {
    Stack.push_back({B, std::make_unique<llvm::ScopedHashTableScope<
                            SimpleInst, Instruction *>>(Table)});
    Changed |= processBlock(*B);
  };
  Enter(F.getEntryBlock());
  while (!Stack.empty()) {
    Node &N = Stack.back();
    auto &Kids = Children[N.B];
    if (N.NextChild < Kids.size()) {
      Enter(Kids[N.NextChild++]);
      continue;
    }
    Stack.pop_back();
  }
  return Changed;
}

bool CommonSubexpressionElimination::processBlock(BasicBlock &B) {
  llvm::SmallVector<Instruction *, 8> Redundant;
  for (Instruction &I : B) {
    if (!canCSE(I))
      continue;
    if (Instruction *Leader = Table.lookup(&I)) {
      for (unsigned R = 0; R < I.getNumResults(); ++R)
        I.getResult(R)->replaceAllUsesWith(Leader->getResult(R));
      Redundant.push_back(&I);
      continue;
    }
    Table.insert(&I, &I);
  }
  for (Instruction *I : Redundant)
    I->eraseFromParent();
  return !Redundant.empty();
}

} // namespace

PreservedAnalyses CSEPass::runOnFunction(Function &F, AnalysisManager &AM) {
  if (F.empty())
    return PreservedAnalyses::all();
  CommonSubexpressionElimination CSE(F, AM.get<DominatorTreeAnalysis>(F));
  if (!CSE.run())
    return PreservedAnalyses::all();
  return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>();
}
