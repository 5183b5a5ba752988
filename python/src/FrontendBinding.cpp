//===- FrontendBinding.cpp - tritium._C.frontend ---------------------------===//
//
// The semantic layer (frontend/Semantic.h) for the Python code generator, the language layer and
// the interpreter (which also reads the instructions it emits: FragmentBinding.cpp), and the few
// type rules the interpreter asks on its own. Thin: every rule and message is C++'s; this file
// converts arguments and owns nothing but handles.
//
//   m = _C.ir.Module()
//   s = _C.frontend.Semantic(m)
//   f = s.begin_function("k", [DType.from_name("fp32")], ["x"], True)
//   y = s.binary(_C.frontend.BinOp.Mul, s.read_var("x"), 2.0)
//   s.ret([]); s.end_function(); print(m)
//
// Lifetime: values, functions and blocks live in the module. Every handle (TValue, Function, Block)
// keeps its Semantic alive, and the Semantic keeps its Module (and the Module's Context) alive, so
// a handle never outlives what it points to. One exception, from SSA construction: a phi read from
// a variable before its block was sealed may be deleted by sealing (a trivial phi); read the
// variable again after seal() instead of keeping such a TValue. DTypes are global and immortal.
//
// Operands (where Semantic takes an Operand) are a TValue or a Python bool, int or float; ints must
// lie in [-2**63, 2**64) (those >= 2**63 are uint64 literals). Enums: BinOp, CmpOp, UnaryOp, Hint;
// cache, eviction, ordering, scope and rounding are Triton's strings. CompileError becomes
// tritium.CompilationError (the translator is registered in Binding.cpp).
//
//===----------------------------------------------------------------------===//

#include "FrontendHandles.h"

#include "frontend/DType.h"
#include "frontend/Promotion.h"
#include "ir/Function.h"

#include <pybind11/stl.h>

#include <string>
#include <vector>

using namespace tritium;
using namespace tritium::pybind;

Operand tritium::pybind::toOperand(py::handle H) {
  if (py::isinstance<PyTValue>(H))
    return Operand(live(H.cast<PyTValue &>().V));
  if (py::isinstance<py::bool_>(H))
    return Operand::boolean(H.cast<bool>());
  if (py::isinstance<py::int_>(H)) {
    int Overflow = 0;
    long long V = PyLong_AsLongLongAndOverflow(H.ptr(), &Overflow);
    if (!Overflow)
      return Operand::integer(V);
    if (Overflow > 0) {
      unsigned long long U = PyLong_AsUnsignedLongLong(H.ptr());
      if (!PyErr_Occurred())
        return Operand::integer(int64_t(U), /*IsUnsigned64=*/true);
      PyErr_Clear();
    }
    throw py::value_error("integer " + py::str(H).cast<std::string>() +
                          " is out of range: literals must lie in "
                          "[-2**63, 2**64)");
  }
  if (py::isinstance<py::float_>(H))
    return Operand::floating(H.cast<double>());
  throw py::type_error("unsupported operand of type " +
                       py::str(py::type::of(H).attr("__name__")).cast<std::string>() +
                       ": expected a value, bool, int or float");
}

std::vector<Operand> tritium::pybind::toOperands(py::handle Seq) {
  std::vector<Operand> Out;
  for (py::handle H : Seq)
    Out.push_back(toOperand(H));
  return Out;
}

std::optional<Operand> tritium::pybind::toOptOperand(const py::object &H) {
  if (H.is_none())
    return std::nullopt;
  return toOperand(H);
}

namespace {

void bindDType(py::module_ &M) {
  // Uniqued and immortal: Python never deletes one.
  py::class_<DType, std::unique_ptr<DType, py::nodelete>> D(
      M, "DType", "A type of the kernel language (tl.dtype)");
  D.def_static(
       "from_name", [](const std::string &Name) { return DType::fromName(Name); }, Ref,
       py::arg("name"),
       "A scalar type by Triton's name or alias (\"fp32\", "
       "\"float32\", \"uint8\", \"bool\"...); None if unknown")
      .def_static("get_void", &DType::getVoid, Ref)
      .def_static(
          "get_int",
          [](unsigned Width, bool Signed) {
            if (Width != 1 && Width != 8 && Width != 16 && Width != 32 && Width != 64)
              throw py::value_error("integer width must be 1, 8, 16, 32 or 64, got " +
                                    std::to_string(Width));
            return DType::getInt(Width, Signed);
          },
          Ref, py::arg("width"), py::arg("signed") = true)
      .def_static(
          "get_pointer",
          [](DType *Elem, int64_t AS, bool Const) {
            if (!Elem->isScalar())
              throw py::type_error("pointers point to scalars, not " + Elem->getName());
            std::string Err = PointerType::checkAddressSpace(AS);
            if (!Err.empty())
              throw py::value_error(Err);
            return DType::getPointer(Elem, unsigned(AS), Const);
          },
          Ref, py::arg("element_ty"), py::arg("address_space") = 1, py::arg("const") = false)
      .def_static(
          "get_block",
          [](DType *Elem, std::vector<int64_t> Shape) {
            if (!Elem->isScalar())
              throw py::type_error("blocks hold scalars, not " + Elem->getName());
            std::string Err = checkBlockShape(Shape);
            if (!Err.empty())
              throw py::value_error(Err);
            return DType::getBlock(Elem, Shape);
          },
          Ref, py::arg("element_ty"), py::arg("shape"));
  D.def_static(
      "get_tensor_desc",
      [](DType *Elem, std::vector<int64_t> Block) {
        if (!Elem->isInt() && !Elem->isFloat())
          throw py::type_error("a tensor descriptor holds numbers, not " + Elem->getName());
        std::string Err = Block.empty() || Block.size() > 5
                              ? "a tensor descriptor's block has 1 to 5 dimensions"
                              : checkBlockShape(Block);
        if (!Err.empty())
          throw py::value_error(Err);
        return DType::getTensorDesc(Elem, Block);
      },
      Ref, py::arg("element_ty"), py::arg("block_shape"));
  // Triton's spellings of the constructors.
  D.attr("pointer_type") = D.attr("get_pointer");
  D.attr("block_type") = D.attr("get_block");

  D.def_property_readonly("name", &DType::getName)
      .def("is_void", &DType::isVoid)
      .def("is_int", &DType::isInt)
      .def("is_bool", &DType::isBool)
      .def("is_signed", &DType::isSigned)
      .def("is_unsigned", &DType::isUnsigned)
      .def("is_int_signed", &DType::isSigned)
      .def("is_int_unsigned", &DType::isUnsigned)
      .def("is_float", &DType::isFloat)
      .def("is_floating", &DType::isFloat)
      .def("is_standard_floating", &DType::isStandardFloat)
      .def("is_fp8", &DType::isFP8)
      .def("is_pointer", &DType::isPointer)
      .def("is_ptr", &DType::isPointer)
      .def("is_block", &DType::isBlock)
      .def("is_tensor_desc", &DType::isTensorDesc)
      .def_property_readonly("desc_element", &DType::getDescElement, Ref,
                             "What a tensor descriptor holds (None for others)")
      .def("is_scalar", &DType::isScalar)
      .def("is_const", &DType::isConst)
      .def_property_readonly("bit_width", &DType::getBitWidth)
      .def_property_readonly("primitive_bitwidth", &DType::getBitWidth)
      .def_property_readonly("int_bitwidth", &DType::getBitWidth)
      .def_property_readonly("mantissa_width", &DType::getFPMantissaWidth,
                             "Significand bits with the implicit one (fp32: "
                             "24)")
      .def_property_readonly(
          "fp_mantissa_width",
          [](DType *T) {
            if (!T->getScalar()->isFloat())
              throw py::attribute_error(T->getName() + " is not a float type");
            return T->getFPMantissaWidth() - 1;
          },
          "Triton's: the stored significand bits (fp32: 23)")
      .def_property_readonly("pointee", &DType::getPointee, Ref)
      .def_property_readonly("address_space", &DType::getAddressSpace)
      .def_property_readonly("scalar", &DType::getScalar, Ref)
      .def_property_readonly(
          "element_ty", [](DType *T) { return T->isPointer() ? T->getPointee() : T->getScalar(); },
          Ref, "The pointee of a pointer, the element of a block")
      .def_property_readonly("shape",
                             [](DType *T) {
                               llvm::ArrayRef<int64_t> S = T->getShape();
                               return std::vector<int64_t>(S.begin(), S.end());
                             })
      .def_property_readonly("num_elements", &DType::getNumElements)
      .def_property_readonly("numel", &DType::getNumElements)
      .def(
          "with_scalar",
          [](const DType &Self, DType *Scalar) {
            if (!Scalar->isScalar())
              throw py::type_error("with_scalar needs a scalar type, got " + Scalar->getName());
            return Self.withScalar(Scalar);
          },
          Ref, py::arg("scalar"))
      .def("with_element_ty", &DType::withScalar, Ref, py::arg("scalar"))
      .def(
          "__eq__",
          [](DType *A, py::object B) { return py::isinstance<DType>(B) && A == B.cast<DType *>(); })
      .def("__hash__", [](DType *T) { return std::hash<const void *>()(T); })
      .def("__str__", &DType::getName)
      .def("__repr__", [](DType *T) -> std::string {
        if (!T->isScalar() || T->isPointer())
          return T->getName();
        // Triton's repr: an evaluable expression.
        std::string N = T->getName();
        if (llvm::StringRef(N).startswith("fp"))
          N = "float" + N.substr(2);
        else if (llvm::StringRef(N).startswith("bf"))
          N = "bfloat" + N.substr(2);
        // Triton's spelling: code written for Triton evaluates it.
        return "triton.language." + N;
      });
}

void bindHandles(py::module_ &M) {
  py::class_<PyTValue>(M, "TValue", "A value of the kernel being built and its dtype")
      .def_property_readonly(
          "type", [](const PyTValue &V) { return V.V.Ty; }, Ref)
      .def_property_readonly(
          "dtype", [](const PyTValue &V) { return V.V.Ty->getScalar(); }, Ref)
      .def_property_readonly("shape",
                             [](const PyTValue &V) {
                               auto S = V.V.Ty->getShape();
                               return std::vector<int64_t>(S.begin(), S.end());
                             })
      .def("__eq__",
           [](const PyTValue &A, py::object B) {
             if (!py::isinstance<PyTValue>(B))
               return false;
             const TValue &O = B.cast<PyTValue &>().V;
             return A.V.V == O.V && A.V.Ty == O.Ty;
           })
      .def("__hash__", [](const PyTValue &V) { return std::hash<const void *>()(V.V.V); })
      .def("__repr__", [](const PyTValue &V) { return "<TValue " + V.V.Ty->getName() + ">"; });

  py::class_<PyFunction>(M, "Function", "A function of the module")
      .def_property_readonly("name", [](const PyFunction &F) { return F.F->getName().str(); })
      .def_property_readonly("is_kernel", [](const PyFunction &F) { return F.F->isKernel(); })
      .def_property_readonly("num_args", [](const PyFunction &F) { return F.F->getNumArgs(); })
      .def_property_readonly("noinline", [](const PyFunction &F) { return F.F->isNoInline(); })
      .def(
          "set_noinline", [](const PyFunction &F, bool N) { F.F->setNoInline(N); },
          py::arg("noinline") = true, "Keep calls to this function as calls (@jit(noinline=True))")
      .def("__str__", [](const PyFunction &F) { return F.F->str(); })
      .def("__repr__",
           [](const PyFunction &F) { return "<tritium Function @" + F.F->getName().str() + ">"; });

  py::class_<PyBlock>(M, "Block", "A basic block of the function being built")
      .def_property_readonly("name", [](const PyBlock &B) { return B.B->getName().str(); })
      .def("__eq__",
           [](const PyBlock &A, py::object B) {
             return py::isinstance<PyBlock>(B) && A.B == B.cast<PyBlock &>().B;
           })
      .def("__hash__", [](const PyBlock &B) { return std::hash<const void *>()(B.B); });
}

void bindEnums(py::module_ &M) {
  using B = Semantic::BinOp;
  py::enum_<B>(M, "BinOp")
      .value("Add", B::Add)
      .value("Sub", B::Sub)
      .value("Mul", B::Mul)
      .value("TrueDiv", B::TrueDiv)
      .value("FloorDiv", B::FloorDiv)
      .value("Mod", B::Mod)
      .value("BitAnd", B::BitAnd)
      .value("BitOr", B::BitOr)
      .value("BitXor", B::BitXor)
      .value("Shl", B::Shl)
      .value("Shr", B::Shr)
      .value("LogicalAnd", B::LogicalAnd)
      .value("LogicalOr", B::LogicalOr)
      .value("FDiv", B::FDiv)
      .value("DivRn", B::DivRn)
      .value("UMulHi", B::UMulHi);
  using C = Semantic::CmpOp;
  py::enum_<C>(M, "CmpOp")
      .value("EQ", C::EQ)
      .value("NE", C::NE)
      .value("LT", C::LT)
      .value("LE", C::LE)
      .value("GT", C::GT)
      .value("GE", C::GE);
  using U = Semantic::UnaryOp;
  py::enum_<U>(M, "UnaryOp")
      .value("Neg", U::Neg)
      .value("Plus", U::Plus)
      .value("Invert", U::Invert)
      .value("Not", U::Not)
      .value("Exp", U::Exp)
      .value("Exp2", U::Exp2)
      .value("Log", U::Log)
      .value("Log2", U::Log2)
      .value("Sqrt", U::Sqrt)
      .value("SqrtRn", U::SqrtRn)
      .value("Rsqrt", U::Rsqrt)
      .value("Sin", U::Sin)
      .value("Cos", U::Cos)
      .value("Abs", U::Abs)
      .value("Floor", U::Floor)
      .value("Ceil", U::Ceil)
      .value("Erf", U::Erf);
  py::enum_<Hint>(M, "Hint")
      .value("MultipleOf", Hint::MultipleOf)
      .value("MaxContiguous", Hint::MaxContiguous)
      .value("MaxConstancy", Hint::MaxConstancy);
}

/// The checks the interpreter makes itself, around the Python code of a
/// combine function (semantic.py), and the descriptor type of a host-side
/// TensorDescriptor argument: the Semantic's messages, as CompilationError.
void bindTypeRules(py::module_ &M) {
  auto Check = [](const std::string &Why) {
    if (!Why.empty())
      throw CompileError(Why);
  };
  M.def(
      "tensor_descriptor_typing",
      [](DType *Base, size_t NumShape, size_t NumStrides, std::vector<int64_t> Block,
         std::optional<int64_t> LastStride) {
        TypeResult R = typeTensorDescriptor(Base, NumShape, NumStrides, Block, LastStride);
        if (!R)
          throw CompileError(R.Error);
        return R.Ty;
      },
      Ref, py::arg("base"), py::arg("num_shape"), py::arg("num_strides"), py::arg("block_shape"),
      py::arg("last_stride"));
  M.def(
      "check_axis", [Check](int64_t Axis, int64_t Rank) { Check(checkAxis(Axis, Rank)); },
      py::arg("axis"), py::arg("rank"));
  M.def(
      "check_reduction_inputs",
      [Check](std::vector<DType *> Xs, const std::string &What) {
        Check(checkReductionInputs(Xs, What));
      },
      py::arg("inputs"), py::arg("what"));
}

} // namespace

void bindFrontend(py::module_ &Parent) {
  py::module_ M =
      Parent.def_submodule("frontend", "The kernel language's types and semantic layer");
  bindDType(M);
  bindHandles(M);
  bindEnums(M);
  bindTypeRules(M);
  bindSemantic(M);
  bindFragments(M);
}
