//===- FrontendHandles.h - What _C.frontend hands to Python ------*- C++ -*-===//
//
// The handles of tritium._C.frontend and the conversions its two files share: FrontendBinding.cpp
// (dtypes, handles, enums, type rules) and SemanticBinding.cpp (the Semantic class). See
// FrontendBinding.cpp for the lifetime rule.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_PYTHON_FRONTENDHANDLES_H
#define TRITIUM_PYTHON_FRONTENDHANDLES_H

#include "frontend/Semantic.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <vector>

namespace tritium {
namespace pybind {

namespace py = pybind11;

/// What every handle keeps alive: the Semantic and the Python module object that owns the IR. The
/// members are destroyed in reverse order: the Semantic before the module it refers to.
struct SemanticState {
  py::object ModuleObj;
  std::unique_ptr<Semantic> S;
};
using StatePtr = std::shared_ptr<SemanticState>;

struct PyTValue {
  TValue V;
  StatePtr Owner;
};
struct PyFunction {
  Function *F;
  StatePtr Owner;
};
struct PyBlock {
  BasicBlock *B;
  StatePtr Owner;
};

/// \p V, if it is still in the IR: a value read before its block was sealed
/// may have been a trivial phi that sealing removed (ir/SSABuilder.h);
/// ValueError then, instead of an operand outside the function.
inline const TValue &live(const TValue &V) {
  const Instruction *Def = V.V->getDefiningInstruction();
  if (Def && !Def->getParent())
    throw py::value_error("the value is gone from the IR (a phi removed when its block was "
                          "sealed): read the variable again");
  return V;
}

/// A Python operand as the semantic takes it: a TValue, or a Python bool,
/// int (in [-2**63, 2**64)) or float; anything else raises.
Operand toOperand(py::handle H);
/// toOperand of each element of a Python sequence.
std::vector<Operand> toOperands(py::handle Seq);
/// None, or toOperand(H).
std::optional<Operand> toOptOperand(const py::object &H);

/// Hints as the language spells them.
enum class Hint { MultipleOf, MaxContiguous, MaxConstancy };
inline Opcode hintOpcode(Hint H) {
  switch (H) {
  case Hint::MultipleOf: return Opcode::MultipleOf;
  case Hint::MaxContiguous: return Opcode::MaxContiguous;
  case Hint::MaxConstancy: return Opcode::MaxConstancy;
  }
  return Opcode::MultipleOf;
}

constexpr auto Ref = py::return_value_policy::reference;

/// _C.frontend.Semantic (SemanticBinding.cpp).
void bindSemantic(py::module_ &M);
/// _C.frontend.describe_function (FragmentBinding.cpp).
void bindFragments(py::module_ &M);

} // namespace pybind
} // namespace tritium

#endif // TRITIUM_PYTHON_FRONTENDHANDLES_H
