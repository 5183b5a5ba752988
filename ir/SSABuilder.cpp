//===- SSABuilder.cpp - On-the-fly SSA construction -----------------------===//
//
// Braun et al. 2013, Algorithms 1-3, with three additions:
//
//  * The type of a phi is known before its operands are (it must exist to
//    break cycles), so readVariable first searches backwards from the block
//    for the definitions that reach it and takes their type. The same search
//    answers "is the variable defined here at all" (null, no undef) and finds
//    definitions of different types meeting in the block (CompileError).
//    Taking "the type of the last write" instead would be wrong for
//    `x = 0` / `if c: x = 1.0` / `else: while d: x += 1`, where the loop in
//    the else arm must see the i32.
//  * Paths on which the variable was never written end in a block without
//    predecessors; the read there yields an `undef` at the top of that block,
//    recorded as the block's definition. Such a block (or any block whose
//    definition is one of these undefs) has no definition reaching it.
//  * A removed phi may be recorded as the current definition in other
//    blocks, and of other variables (`y = x`). PhiSlots remembers where each
//    phi was recorded, so removal redirects those slots to the replacement.
//
//===----------------------------------------------------------------------===//

#include "ir/SSABuilder.h"
#include "ir/BasicBlock.h"
#include "ir/Diagnostics.h"
#include "ir/Instructions.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace tritium;

//===----------------------------------------------------------------------===//
// Recorded definitions
//===----------------------------------------------------------------------===//

Value *SSABuilder::lookupDef(VarId Var, BasicBlock *B) const {
  return CurrentDef.lookup({Var, B});
}

void SSABuilder::setDef(VarId Var, BasicBlock *B, Value *V) {
  CurrentDef[{Var, B}] = V;
  if (auto *P = llvm::dyn_cast_or_null<PhiInst>(V->getDefiningInstruction()))
    if (PhiVars.count(P))
      PhiSlots[P].push_back({Var, B});
}

void SSABuilder::writeVariable(llvm::StringRef Var, BasicBlock *B, Value *V) {
  assert(V && B && "writing a null value or into a null block");
  auto [It, Inserted] = VarIds.try_emplace(Var, VarNames.size());
  if (Inserted)
    VarNames.push_back(It->getKey());
  setDef(It->second, B, V);
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

std::pair<Type *, Type *>
SSABuilder::findReachingTypes(VarId Var, BasicBlock *B) const {
  // Breadth-first, so that the first type found is that of the nearest
  // definition along the first predecessor: error messages are stable.
  llvm::SmallVector<BasicBlock *, 16> Worklist(B->predecessors().begin(),
                                               B->predecessors().end());
  llvm::SmallPtrSet<BasicBlock *, 16> Visited;
  Visited.insert(B);
  Type *First = nullptr;
  for (size_t I = 0; I < Worklist.size(); ++I) {
    BasicBlock *P = Worklist[I];
    if (!Visited.insert(P).second)
      continue;
    if (Value *V = lookupDef(Var, P)) {
      if (Undefs.count(V))
        continue;
      if (!First)
        First = V->getType();
      else if (V->getType() != First)
        return {First, V->getType()};
      continue;
    }
    Worklist.append(P->predecessors().begin(), P->predecessors().end());
  }
  return {First, nullptr};
}

void SSABuilder::reportTypeClash(VarId Var, Type *A, Type *B) const {
  reportError(CurLoc, "variable '" + VarNames[Var] + "' has type " + A->str() +
                          " on one path and " + B->str() + " on another");
}

Value *SSABuilder::readVariable(llvm::StringRef Var, BasicBlock *B) {
  auto It = VarIds.find(Var);
  if (It == VarIds.end())
    return nullptr;
  VarId Id = It->second;
  if (Value *V = lookupDef(Id, B))
    return Undefs.count(V) ? nullptr : V;
  auto [T, Clash] = findReachingTypes(Id, B);
  if (!T)
    return nullptr;
  if (Clash)
    reportTypeClash(Id, T, Clash);
  Value *V = readRecursive(Id, B, T);
  assert(!Undefs.count(V) && "a definition reaches the block, yet undef");
  return V;
}

bool SSABuilder::isDefined(llvm::StringRef Var, BasicBlock *B) const {
  auto It = VarIds.find(Var);
  if (It == VarIds.end())
    return false;
  if (Value *V = lookupDef(It->second, B))
    return !Undefs.count(V);
  return findReachingTypes(It->second, B).first != nullptr;
}

/// Algorithm 2 of the paper: readVariableRecursive, with the definitions
/// of \p Var known to have type \p T.
Value *SSABuilder::readRecursive(VarId Var, BasicBlock *B, Type *T) {
  if (Value *V = lookupDef(Var, B))
    return V;

  if (!isSealed(B)) {
    // More predecessors may come: an operandless phi, completed by
    // sealBlock.
    PhiInst *Phi = createPhi(Var, B, T);
    IncompletePhis[B].push_back({Var, Phi});
    setDef(Var, B, Phi->getResult());
    return Phi->getResult();
  }

  llvm::ArrayRef<BasicBlock *> Preds = B->predecessors();
  if (Preds.empty()) {
    // The entry block (or an unreachable one): never written on this path.
    Value *U = createUndef(B, T);
    setDef(Var, B, U);
    return U;
  }
  if (Preds.size() == 1) {
    // No join, no phi. (A block reached twice from one predecessor, by a
    // cond_br with equal targets, still gets a phi; it is then trivial.)
    // Coming back to B along single predecessors means B sits on a cycle
    // nothing enters: unreachable, and without a write of Var on it.
    if (!OnSinglePredChain.insert(B).second) {
      Value *U = createUndef(B, T);
      setDef(Var, B, U);
      return U;
    }
    auto Leave = llvm::make_scope_exit([&] { OnSinglePredChain.erase(B); });
    Value *V = readRecursive(Var, Preds[0], T);
    setDef(Var, B, V);
    return V;
  }
  // Record the phi before reading the predecessors: a cycle through B then
  // ends at the phi instead of recursing forever.
  PhiInst *Phi = createPhi(Var, B, T);
  setDef(Var, B, Phi->getResult());
  addPhiOperands(Var, Phi);
  // The phi may have been removed; its slot then holds the replacement.
  return lookupDef(Var, B);
}

//===----------------------------------------------------------------------===//
// Phis and undefs
//===----------------------------------------------------------------------===//

PhiInst *SSABuilder::createPhi(VarId Var, BasicBlock *B, Type *T) {
  auto *Phi = llvm::cast<PhiInst>(
      Instruction::create(Ctx, Opcode::Phi, {T}, {}, {}, {}, CurLoc));
  Phi->getResult()->setName(VarNames[Var]);
  B->push_front(Phi);
  PhiVars[Phi] = Var;
  return Phi;
}

Value *SSABuilder::createUndef(BasicBlock *B, Type *T) {
  Instruction *U =
      Instruction::create(Ctx, Opcode::Undef, {T}, {}, {}, {}, CurLoc);
  B->insert(B->getFirstNonPhi(), U);
  Undefs.insert(U->getResult());
  return U->getResult();
}

void SSABuilder::addPhiOperands(VarId Var, PhiInst *Phi) {
  BasicBlock *B = Phi->getParent();
  Type *T = Phi->getResult()->getType();
  // Copied: reading cannot add edges, but the list must not change under
  // us if it ever did.
  llvm::SmallVector<BasicBlock *, 4> Preds(B->predecessors().begin(),
                                           B->predecessors().end());
  for (BasicBlock *P : Preds) {
    Value *V = readRecursive(Var, P, T);
    if (V->getType() != T)
      reportTypeClash(Var, T, V->getType());
    Phi->addIncoming(V, P);
  }
  tryRemoveTrivialPhi(Phi);
}

/// Algorithm 3 of the paper. A phi whose operands are all one value (or the
/// phi itself) is replaced by that value; phis that used it may have become
/// trivial in turn.
void SSABuilder::tryRemoveTrivialPhi(PhiInst *Phi) {
  Value *Self = Phi->getResult();
  Value *Same = nullptr;
  for (Value *Op : Phi->getOperands()) {
    if (Op == Same || Op == Self)
      continue;
    if (Same)
      return; // Merges at least two values: not trivial.
    Same = Op;
  }
  if (!Same) // Unreachable, or the entry block: nothing flows in.
    Same = createUndef(Phi->getParent(), Self->getType());

  llvm::SmallVector<PhiInst *, 4> Users;
  for (Use &U : Self->uses())
    if (auto *P = llvm::dyn_cast<PhiInst>(U.getUser()))
      if (P != Phi && PhiVars.count(P))
        Users.push_back(P);

  Self->replaceAllUsesWith(Same);
  auto *SamePhi = llvm::dyn_cast_or_null<PhiInst>(Same->getDefiningInstruction());
  if (SamePhi && !PhiVars.count(SamePhi))
    SamePhi = nullptr;
  for (DefKey K : PhiSlots.lookup(Phi)) {
    auto It = CurrentDef.find(K);
    if (It == CurrentDef.end() || It->second != Self)
      continue;
    It->second = Same;
    if (SamePhi)
      PhiSlots[SamePhi].push_back(K);
  }
  PhiSlots.erase(Phi);
  PhiVars.erase(Phi);
  Phi->dropAllReferences();
  RemovedPhis.emplace_back(Phi->removeFromParent());

  // A user may already have been removed by an earlier user's recursion;
  // PhiVars no longer holds it then.
  for (PhiInst *P : Users)
    if (PhiVars.count(P))
      tryRemoveTrivialPhi(P);
}

//===----------------------------------------------------------------------===//
// Sealing
//===----------------------------------------------------------------------===//

void SSABuilder::sealBlock(BasicBlock *B) {
  assert(!isSealed(B) && "block sealed twice");
  Sealed.insert(B);
  auto It = IncompletePhis.find(B);
  if (It == IncompletePhis.end())
    return;
  // Taken out first: completing a phi may add incomplete phis to other
  // blocks, which would move this entry.
  auto Phis = std::move(It->second);
  IncompletePhis.erase(It);
  for (auto &[Var, Phi] : Phis) {
    // An incomplete phi has no operands, so it uses nothing and cannot have
    // been removed as the user of a removed phi.
    assert(PhiVars.count(Phi) && "incomplete phi removed before sealing");
    addPhiOperands(Var, Phi);
  }
}
