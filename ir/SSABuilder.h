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
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_SSABUILDER_H
#define TRITIUM_IR_SSABUILDER_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

namespace tritium {

class BasicBlock;
class Context;
class PhiInst;
class Type;
class Value;

class SSABuilder {
public:
  explicit SSABuilder(Context &Ctx) : Ctx(Ctx) {}

  /// Records that \p Var holds \p V at the end of \p B (so far).
  void writeVariable(llvm::StringRef Var, BasicBlock *B, Value *V);
  /// The value of \p Var on entry to the end of \p B, creating phis as needed.
  /// Returns null if \p Var is not defined on every path to \p B.
  Value *readVariable(llvm::StringRef Var, BasicBlock *B);
  /// Whether \p Var has a definition reaching \p B on at least one path.
  bool isDefined(llvm::StringRef Var, BasicBlock *B);

  /// Declares that all predecessors of \p B are known and completes its
  /// incomplete phis.
  void sealBlock(BasicBlock *B);
  bool isSealed(BasicBlock *B) const { return Sealed.count(B); }

private:
  // See SSABuilder.cpp.
  Context &Ctx;
  llvm::DenseSet<BasicBlock *> Sealed;
};

} // namespace tritium

#endif // TRITIUM_IR_SSABUILDER_H
