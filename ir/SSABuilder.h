//===- SSABuilder.h - On-the-fly SSA construction ----------------*- C++ -*-===//
//
// Turns assignments to named variables into SSA values while a function is
// being built, following Braun, Buchwald, Hack, Leißa, Mallon and Zwinkau,
// "Simple and Efficient Construction of Static Single Assignment Form"
// (CC 2013): definitions are recorded per block; a read in a block without a
// local definition looks into the predecessors, placing a phi where paths
// join; in blocks whose predecessors are not all known yet ("unsealed") the
// phi stays incomplete until sealBlock(); trivial phis (all operands the same
// value or the phi itself) are removed as soon as they are complete.
//
// How a frontend drives it (Triton v1 does the same, reference §1.5):
//
//   entry:        sealBlock(entry) right away
//   if/else:      sealBlock(then), sealBlock(else) right after the cond_br;
//                 sealBlock(merge) once both arms have branched to it
//   while/for:    sealBlock(header) only after the back edge exists, so that
//                 reads in the loop get loop-carried phis; the body and the
//                 exit are sealed as soon as their predecessors are final
//
// Phis are inserted at the top of their block and named after their
// variable. A removed trivial phi is replaced everywhere (RAUW) and unlinked
// (kept in memory, see takeRemovedPhis), so a frontend must not hold on to a
// Value returned by readVariable across a later sealBlock or readVariable
// other than as an operand of the IR: read the variable again instead.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_SSABUILDER_H
#define TRITIUM_IR_SSABUILDER_H

#include "ir/Instruction.h"
#include "ir/Location.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <memory>
#include <utility>
#include <vector>

namespace tritium {

class BasicBlock;
class Context;
class PhiInst;
class Type;
class Value;

class SSABuilder {
public:
  explicit SSABuilder(Context &Ctx) : Ctx(Ctx) {}
  SSABuilder(const SSABuilder &) = delete;
  SSABuilder &operator=(const SSABuilder &) = delete;

  /// Records that \p Var holds \p V at the end of \p B (so far).
  void writeVariable(llvm::StringRef Var, BasicBlock *B, Value *V);
  /// The value of \p Var at the end of \p B (or at the current end while
  /// \p B is being built), creating phis as needed. On paths to \p B where
  /// \p Var was never written the phis get an `undef`. Returns null if no
  /// definition of \p Var reaches \p B on any path known so far (edges not
  /// created yet, such as a loop's back edge, do not count).
  /// Throws CompileError if definitions of different types would meet in a
  /// phi ("variable 'x' has type i32 on one path and f32 on another").
  Value *readVariable(llvm::StringRef Var, BasicBlock *B);
  /// Whether a definition of \p Var reaches \p B on at least one known path,
  /// that is, whether readVariable would return a value. Creates nothing.
  bool isDefined(llvm::StringRef Var, BasicBlock *B) const;

  /// Declares that all predecessors of \p B are known and completes its
  /// incomplete phis. Throws CompileError like readVariable.
  void sealBlock(BasicBlock *B);
  bool isSealed(BasicBlock *B) const { return Sealed.count(B); }

  /// Location given to the phis and undefs created from now on and to the
  /// errors thrown.
  void setLoc(Loc L) { CurLoc = L; }

  /// The phis removed as trivial: unlinked, without operands, not deleted,
  /// so that a handle a caller kept to one (readVariable returned it before
  /// its block was sealed) is still valid memory whose lack of a parent
  /// block says it is gone.
  std::vector<std::unique_ptr<Instruction>> takeRemovedPhis() {
    return std::move(RemovedPhis);
  }

private:
  /// A variable is numbered when it is first written; VarNames[Id] is its
  /// name (the key stored in VarIds, so it lives as long as the builder).
  using VarId = unsigned;
  using DefKey = std::pair<VarId, BasicBlock *>;

  Value *lookupDef(VarId Var, BasicBlock *B) const;
  void setDef(VarId Var, BasicBlock *B, Value *V);
  /// Searches backwards from the predecessors of \p B for the definitions of
  /// \p Var that reach it. Returns the type of the first one found (null if
  /// none) and the type of the first one that differs from it (or null).
  std::pair<Type *, Type *> findReachingTypes(VarId Var,
                                              BasicBlock *B) const;
  [[noreturn]] void reportTypeClash(VarId Var, Type *A, Type *B) const;

  Value *readRecursive(VarId Var, BasicBlock *B, Type *T);
  PhiInst *createPhi(VarId Var, BasicBlock *B, Type *T);
  Value *createUndef(BasicBlock *B, Type *T);
  void addPhiOperands(VarId Var, PhiInst *Phi);
  void tryRemoveTrivialPhi(PhiInst *Phi);

  Context &Ctx;
  Loc CurLoc;
  llvm::StringMap<VarId> VarIds;
  llvm::SmallVector<llvm::StringRef, 16> VarNames;
  /// The current definition of each variable at the end of each block.
  llvm::DenseMap<DefKey, Value *> CurrentDef;
  /// The slots of CurrentDef that have held each live phi of ours, so that
  /// a removed phi can be replaced there. Entries may be stale (the slot was
  /// overwritten since); CurrentDef is checked before one is used.
  llvm::DenseMap<PhiInst *, llvm::SmallVector<DefKey, 2>> PhiSlots;
  /// The live phis this builder created, with their variables.
  llvm::DenseMap<PhiInst *, VarId> PhiVars;
  /// The undefs this builder created. A block whose definition is one of
  /// them has no definition of the variable reaching it.
  llvm::DenseSet<Value *> Undefs;
  /// Phis placed in unsealed blocks, completed by sealBlock in this order.
  llvm::DenseMap<BasicBlock *, llvm::SmallVector<std::pair<VarId, PhiInst *>, 4>>
      IncompletePhis;
  llvm::DenseSet<BasicBlock *> Sealed;
  /// The blocks readRecursive is walking through by single predecessors.
  llvm::SmallPtrSet<BasicBlock *, 8> OnSinglePredChain;
  std::vector<std::unique_ptr<Instruction>> RemovedPhis;
};

} // namespace tritium

#endif // TRITIUM_IR_SSABUILDER_H
