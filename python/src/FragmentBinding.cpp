//===- FragmentBinding.cpp - _C.frontend.describe_function ----------------===//
//
// The interpreter runs each `tl` operation through the Semantic: it builds the operation into a
// scratch function whose parameters stand for the operands, and evaluates the instructions that
// come out on numpy arrays (python/tritium/interpreter/semantic.py). This file hands those
// instructions to Python as plain tuples, so the evaluator needs no IR objects:
//
//   describe_function(fn, results) -> (steps, outs)
//   step = (opcode name, operand numbers, {attribute: value}, result types, operand types)
//   type = (element, shape, bytes): element "i32", "f16", "bf16", "f8e4m3",
//          "ptr" (bytes: the pointee's), "desc" (bytes: an element's), ...
//
// Values are numbered in order: the parameters first, then every result of
// every instruction. `outs` are the numbers of \p results.
//
//===----------------------------------------------------------------------===//

#include "FrontendHandles.h"

#include "ir/Function.h"

#include "llvm/ADT/DenseMap.h"

#include <pybind11/stl.h>

using namespace tritium;
using namespace tritium::pybind;

namespace {

py::object describeType(Type *T) {
  if (T->isVoid())
    return py::none();
  py::tuple Shape;
  if (auto *B = llvm::dyn_cast<BlockType>(T)) {
    Shape = py::cast(std::vector<int64_t>(B->getBlockShape().begin(), B->getBlockShape().end()));
    T = B->getElementType();
  }
  if (auto *P = llvm::dyn_cast<PointerType>(T))
    return py::make_tuple("ptr", Shape, P->getPointee()->getScalarSizeInBytes());
  if (auto *D = llvm::dyn_cast<TensorDescType>(T))
    return py::make_tuple("desc", py::tuple(), D->getElementType()->getScalarSizeInBytes());
  return py::make_tuple(T->str(), Shape, T->getScalarSizeInBytes());
}

py::object attrValue(const Attribute &A) {
  const AttrValue &V = A.Val;
  switch (V.K) {
  case AttrValue::Kind::Unit: return py::bool_(true);
  case AttrValue::Kind::Int: return py::int_(V.I);
  case AttrValue::Kind::Float: return py::float_(V.F);
  case AttrValue::Kind::String:
  case AttrValue::Kind::Symbol: return py::str(V.S);
  case AttrValue::Kind::IntList: return py::cast(std::vector<int64_t>(V.List.begin(), V.List.end()));
  case AttrValue::Kind::Enum:
    return py::str(getEnumNames(getAttrKeyEnumTable(A.Key))[V.I]);
  case AttrValue::Kind::Layout: break;
  }
  return py::none();
}

py::tuple describeFunction(const PyFunction &Fn, const std::vector<PyTValue> &Results) {
  llvm::DenseMap<const Value *, unsigned> Number;
  for (unsigned I = 0; I < Fn.F->getNumArgs(); ++I)
    Number[Fn.F->getArg(I)] = I;
  py::list Steps;
  for (BasicBlock &BB : *Fn.F)
    for (Instruction &I : BB) {
      py::list Operands, OperandTypes, ResultTypes;
      for (unsigned K = 0; K < I.getNumOperands(); ++K) {
        Value *Op = I.getOperand(K);
        auto It = Number.find(Op);
        if (It == Number.end())
          throw py::value_error("an operand defined outside the fragment");
        Operands.append(It->second);
        OperandTypes.append(describeType(Op->getType()));
      }
      for (unsigned K = 0; K < I.getNumResults(); ++K) {
        Number[I.getResult(K)] = Number.size();
        ResultTypes.append(describeType(I.getResult(K)->getType()));
      }
      py::dict Attrs;
      for (const Attribute &A : I.getAttrs())
        Attrs[py::str(getAttrKeyName(A.Key).str())] = attrValue(A);
      Steps.append(py::make_tuple(I.getOpcodeName().str(), py::tuple(Operands), Attrs,
                                  py::tuple(ResultTypes), py::tuple(OperandTypes)));
    }
  py::list Outs;
  for (const PyTValue &R : Results) {
    auto It = Number.find(R.V.V);
    if (It == Number.end())
      throw py::value_error("a result defined outside the fragment");
    Outs.append(It->second);
  }
  return py::make_tuple(Steps, Outs);
}

} // namespace

void tritium::pybind::bindFragments(py::module_ &M) {
  M.def("describe_function", &describeFunction, py::arg("function"), py::arg("results"),
        "The instructions of a function as tuples, for the interpreter "
        "(python/src/FragmentBinding.cpp)");
}
