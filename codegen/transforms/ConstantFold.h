//===- ConstantFold.h - Folding constant operands ---------------*- C++ -*-===//
//
// The arithmetic behind canonicalize's constant folding, on llvm::APInt and
// llvm::APFloat so that every result has the exact semantics of the IR
// type: integers wrap at their width, floats round once to their own
// precision. Each fold returns nullopt where the IR defines no value
// (division by zero, INT_MIN / -1, shifts by the width or more).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_TRANSFORMS_CONSTANTFOLD_H
#define TRITIUM_CODEGEN_TRANSFORMS_CONSTANTFOLD_H

#include "ir/Attribute.h"
#include "ir/Instruction.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"
#include "llvm/IR/InstrTypes.h"

#include <optional>

namespace tritium {

class Type;
class Value;

/// The semantics floats of element type \p Elem fold in: f16, bf16, f32 and
/// f64. Null for fp8, whose f8e4m3 finite-only encoding is the backend's to
/// define, and for non-floats.
const llvm::fltSemantics *getFoldSemantics(const Type *Elem);

/// The integer a `constant` (scalar or splat) defines, at its type's width.
std::optional<llvm::APInt> getIntConstant(const Value *V);
/// The float a `constant` (scalar or splat) defines, in its type's
/// semantics; nullopt for types getFoldSemantics rejects.
std::optional<llvm::APFloat> getFloatConstant(const Value *V);

/// `L Op R` for an integer binary opcode.
std::optional<llvm::APInt> foldIntBinary(Opcode Op, const llvm::APInt &L,
                                         const llvm::APInt &R);
/// `L Op R` for a float binary opcode, rounded to nearest even.
std::optional<llvm::APFloat> foldFloatBinary(Opcode Op, llvm::APFloat L,
                                             const llvm::APFloat &R);
/// LLVM's predicate of the same comparison, whose ICmpInst::compare and
/// FCmpInst::compare fold it (and the lowering emits).
llvm::CmpInst::Predicate llvmPredicate(ICmpPredicate P);
llvm::CmpInst::Predicate llvmPredicate(FCmpPredicate P);

} // namespace tritium

#endif // TRITIUM_CODEGEN_TRANSFORMS_CONSTANTFOLD_H
