//===- FrontendBinding.cpp - tritium._C.frontend ---------------------------===//
//
// The semantic layer (frontend/Semantic.h) for the Python code generator and
// language layer, and its type rules (frontend/Promotion.h) for the
// interpreter. Thin: every rule and message is C++'s; this file converts
// arguments and owns nothing but handles.
//
//   m = _C.ir.Module()
//   s = _C.frontend.Semantic(m)
//   f = s.begin_function("k", [DType.from_name("fp32")], ["x"], True)
//   y = s.binary(_C.frontend.BinOp.Mul, s.read_var("x"), 2.0)
//   s.ret([]); s.end_function(); print(m)
//
// Lifetime: values, functions and blocks live in the module. Every handle
// (TValue, Function, Block) keeps its Semantic alive, and the Semantic
// keeps its Module (and the Module's Context) alive, so a handle never
// outlives what it points to. One exception, from SSA construction: a phi
// read from a variable before its block was sealed may be deleted by
// sealing (a trivial phi); read the variable again after seal() instead of
// keeping such a TValue. DTypes are global and immortal.
//
// Operands (where Semantic takes an Operand) are a TValue or a Python bool,
// int or float; ints must lie in [-2**63, 2**64) (those >= 2**63 are uint64
// literals). Enums: BinOp, CmpOp, UnaryOp, Hint; cache, eviction, ordering,
// scope and rounding are Triton's strings. CompileError becomes
// tritium.CompilationError (the translator is registered in Binding.cpp).
//
//===----------------------------------------------------------------------===//

#include "PyModule.h"

#include "frontend/DType.h"
#include "frontend/Promotion.h"
#include "frontend/Semantic.h"
#include "ir/Function.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace tritium;

namespace {

/// What every handle keeps alive: the Semantic and the Python module object
/// that owns the IR.
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

/// A Python operand as the semantic takes it.
Operand toOperand(py::handle H) {
  if (py::isinstance<PyTValue>(H))
    return Operand(H.cast<PyTValue &>().V);
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
                       py::str(py::type::of(H).attr("__name__"))
                           .cast<std::string>() +
                       ": expected a value, bool, int or float");
}

std::optional<Operand> toOptOperand(const py::object &H) {
  if (H.is_none())
    return std::nullopt;
  return toOperand(H);
}

/// Literal flags and types for the type-rule functions: a DType stands for
/// a value of that type, a Python bool/int/float for a literal.
std::pair<DType *, bool> typeArg(py::handle H) {
  if (py::isinstance<DType>(H))
    return {H.cast<DType *>(), false};
  Operand O = toOperand(H);
  return {O.isValue() ? O.getValue().Ty : O.getLiteralType(), O.isLiteral()};
}

py::object typingResult(const BinaryTyping &T) {
  if (!T.Error.empty())
    throw CompileError(T.Error);
  py::dict D;
  auto Opt = [](DType *Ty) {
    return Ty ? py::cast(Ty, py::return_value_policy::reference) : py::none();
  };
  D["computation"] = Opt(T.CompTy);
  D["lhs"] = Opt(T.LhsTy);
  D["rhs"] = Opt(T.RhsTy);
  D["result"] = Opt(T.ResultTy);
  return std::move(D);
}

/// The Python class of Semantic: the state plus argument conversions.
class PySemantic {
public:
  explicit PySemantic(py::object ModuleObj) : St(std::make_shared<SemanticState>()) {
    PyModule &M = ModuleObj.cast<PyModule &>();
    St->ModuleObj = std::move(ModuleObj);
    St->S = std::make_unique<Semantic>(M.getModule());
  }

  Semantic &s() { return *St->S; }
  PyModule &module() { return St->ModuleObj.cast<PyModule &>(); }
  py::object moduleObj() { return St->ModuleObj; }

  PyTValue wrap(TValue V) { return {V, St}; }
  std::optional<PyTValue> wrapOpt(std::optional<TValue> V) {
    if (!V)
      return std::nullopt;
    return wrap(*V);
  }
  std::vector<PyTValue> wrapAll(const std::vector<TValue> &Vs) {
    std::vector<PyTValue> Out;
    for (const TValue &V : Vs)
      Out.push_back(wrap(V));
    return Out;
  }
  py::tuple wrapPair(std::pair<TValue, TValue> P) {
    return py::make_tuple(wrap(P.first), wrap(P.second));
  }
  PyFunction wrap(Function *F) { return {F, St}; }
  PyBlock wrap(BasicBlock *B) { return {B, St}; }

  /// The TValue a handle carries, checked to belong to this semantic.
  TValue unwrap(const PyTValue &V) {
    if (V.Owner != St)
      throw py::value_error("the value belongs to another Semantic");
    return V.V;
  }
  std::vector<TValue> unwrapAll(const std::vector<PyTValue> &Vs) {
    std::vector<TValue> Out;
    for (const PyTValue &V : Vs)
      Out.push_back(unwrap(V));
    return Out;
  }

  std::optional<RoundingMode> rounding(const std::optional<std::string> &R) {
    if (!R || R->empty())
      return std::nullopt;
    std::optional<unsigned> V = lookupEnumValue(EnumTable::RoundingMode, *R);
    if (!V)
      s().error("Invalid rounding mode: " + *R +
                ". Supported rounding modes are 'rtne' and 'rtz'.");
    return RoundingMode(*V);
  }

  Argument *arg(unsigned I) {
    Function *F = s().getFunction();
    if (I >= F->getNumArgs())
      throw py::index_error("argument index out of range");
    return F->getArg(I);
  }

private:
  StatePtr St;
};

/// Hints as the language spells them.
enum class Hint { MultipleOf, MaxContiguous, MaxConstancy };
Opcode hintOpcode(Hint H) {
  switch (H) {
  case Hint::MultipleOf: return Opcode::MultipleOf;
  case Hint::MaxContiguous: return Opcode::MaxContiguous;
  case Hint::MaxConstancy: return Opcode::MaxConstancy;
  }
  return Opcode::MultipleOf;
}

constexpr auto Ref = py::return_value_policy::reference;

void bindDType(py::module_ &M) {
  // Uniqued and immortal: Python never deletes one.
  py::class_<DType, std::unique_ptr<DType, py::nodelete>> D(
      M, "DType", "A type of the kernel language (tl.dtype)");
  D.def_static(
       "from_name",
       [](const std::string &Name) { return DType::fromName(Name); }, Ref,
       py::arg("name"),
               "A scalar type by Triton's name or alias (\"fp32\", "
               "\"float32\", \"uint8\", \"bool\"...); None if unknown")
      .def_static("get_void", &DType::getVoid, Ref)
      .def_static("get_int", &DType::getInt, Ref, py::arg("width"),
                  py::arg("signed") = true)
      .def_static(
          "get_pointer",
          [](DType *Elem, unsigned AS, bool Const) {
            if (!Elem->isScalar())
              throw py::type_error("pointers point to scalars, not " +
                                   Elem->getName());
            return DType::getPointer(Elem, AS, Const);
          },
          Ref, py::arg("element_ty"), py::arg("address_space") = 1,
          py::arg("const") = false)
      .def_static(
          "get_block",
          [](DType *Elem, std::vector<int64_t> Shape) {
            if (!Elem->isScalar())
              throw py::type_error("blocks hold scalars, not " +
                                   Elem->getName());
            std::string Err = checkBlockShape(Shape);
            if (!Err.empty())
              throw py::value_error(Err);
            return DType::getBlock(Elem, Shape);
          },
          Ref, py::arg("element_ty"), py::arg("shape"));
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
          "element_ty",
          [](DType *T) { return T->isPointer() ? T->getPointee() : T->getScalar(); },
          Ref, "The pointee of a pointer, the element of a block")
      .def_property_readonly("shape",
                             [](DType *T) {
                               llvm::ArrayRef<int64_t> S = T->getShape();
                               return std::vector<int64_t>(S.begin(), S.end());
                             })
      .def_property_readonly("num_elements", &DType::getNumElements)
      .def_property_readonly("numel", &DType::getNumElements)
      .def("with_scalar", &DType::withScalar, Ref, py::arg("scalar"))
      .def("with_element_ty", &DType::withScalar, Ref, py::arg("scalar"))
      .def("__eq__", [](DType *A, py::object B) {
        return py::isinstance<DType>(B) && A == B.cast<DType *>();
      })
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
        return "tritium.language." + N;
      });
}

void bindHandles(py::module_ &M) {
  py::class_<PyTValue>(M, "TValue",
                       "A value of the kernel being built and its dtype")
      .def_property_readonly("type",
                             [](const PyTValue &V) { return V.V.Ty; }, Ref)
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
      .def("__hash__",
           [](const PyTValue &V) { return std::hash<const void *>()(V.V.V); })
      .def("__repr__", [](const PyTValue &V) {
        return "<TValue " + V.V.Ty->getName() + ">";
      });

  py::class_<PyFunction>(M, "Function", "A function of the module")
      .def_property_readonly("name",
                             [](const PyFunction &F) { return F.F->getName().str(); })
      .def_property_readonly("is_kernel",
                             [](const PyFunction &F) { return F.F->isKernel(); })
      .def_property_readonly("num_args",
                             [](const PyFunction &F) { return F.F->getNumArgs(); })
      .def_property_readonly("noinline",
                             [](const PyFunction &F) { return F.F->isNoInline(); })
      .def(
          "set_noinline",
          [](const PyFunction &F, bool N) { F.F->setNoInline(N); },
          py::arg("noinline") = true,
          "Keep calls to this function as calls (@jit(noinline=True))")
      .def("__str__", [](const PyFunction &F) { return F.F->str(); })
      .def("__repr__", [](const PyFunction &F) {
        return "<tritium Function @" + F.F->getName().str() + ">";
      });

  py::class_<PyBlock>(M, "Block", "A basic block of the function being built")
      .def_property_readonly("name",
                             [](const PyBlock &B) { return B.B->getName().str(); })
      .def("__eq__",
           [](const PyBlock &A, py::object B) {
             return py::isinstance<PyBlock>(B) && A.B == B.cast<PyBlock &>().B;
           })
      .def("__hash__", [](const PyBlock &B) {
        return std::hash<const void *>()(B.B);
      });
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

void bindTypeRules(py::module_ &M) {
  M.def(
      "literal_type",
      [](py::handle X) { return typeArg(X).first; }, Ref, py::arg("x"),
      "The dtype a Python literal takes on its own (Triton's to_tensor)");
  M.def(
      "computation_type",
      [](py::handle A, py::handle B, bool DivOrMod) {
        auto [TA, LA] = typeArg(A);
        auto [TB, LB] = typeArg(B);
        TypeResult R = computationType(TA->getScalar(), LA, TB->getScalar(), LB,
                                       DivOrMod, DivOrMod ? "/" : "+");
        if (!R)
          throw CompileError(R.Error);
        return R.Ty;
      },
      Ref, py::arg("a"), py::arg("b"), py::arg("div_or_mod") = false,
      "The scalar type an arithmetic operator computes in; a DType stands "
      "for a value, a Python bool/int/float for a (weak) literal");
  M.def(
      "binary_typing",
      [](Semantic::BinOp Op, py::handle L, py::handle R) {
        auto [TL, LL] = typeArg(L);
        auto [TR, LR] = typeArg(R);
        return typingResult(
            typeBinary(Op, TL->getScalar(), LL, TR->getScalar(), LR));
      },
      py::arg("op"), py::arg("lhs"), py::arg("rhs"),
      "{computation, lhs, rhs, result}: the scalar types of a binary "
      "operator (None where an operand keeps its type); raises "
      "CompilationError with the semantic's message");
  M.def(
      "compare_typing",
      [](Semantic::CmpOp Op, py::handle L, py::handle R) {
        return typingResult(
            typeCompare(Op, typeArg(L).first->getScalar(),
                        typeArg(R).first->getScalar()));
      },
      py::arg("op"), py::arg("lhs"), py::arg("rhs"));
  M.def(
      "broadcast_shapes",
      [](std::vector<int64_t> A, std::vector<int64_t> B) -> py::object {
        std::optional<Shape> S = broadcastShapes(A, B);
        if (!S)
          return py::none();
        return py::cast(std::vector<int64_t>(S->begin(), S->end()));
      },
      py::arg("a"), py::arg("b"),
      "The common shape (lower rank padded with leading 1s), or None");
}

void bindSemantic(py::module_ &M) {
  using S = PySemantic;
  using OptVal = std::optional<PyTValue>;
  py::class_<S> C(M, "Semantic",
                  "Types and emits the kernel language's operations into a "
                  "module (frontend/Semantic.h)");
  C.def(py::init<py::object>(), py::arg("module"))
      .def_property_readonly("module", &S::moduleObj)
      .def(
          "set_loc",
          [](S &Self, const std::string &File, unsigned Line, unsigned Col) {
            Self.s().setLoc(
                Loc{Self.module().getContext().intern(File), Line, Col});
          },
          py::arg("file"), py::arg("line"), py::arg("col"))
      .def("get_loc",
           [](S &Self) {
             Loc L = Self.s().getLoc();
             return py::make_tuple(L.File.str(), L.Line, L.Col);
           })
      .def(
          "get_dtype",
          [](S &Self, const PyTValue &V) { return Self.s().getDType(Self.unwrap(V).V); },
          Ref, py::arg("value"),
          "The dtype the semantic records for the value (for phis: what "
          "flows in)");

  // Functions, blocks, variables.
  C.def(
       "begin_function",
       [](S &Self, const std::string &Name, std::vector<DType *> Params,
          std::vector<std::string> Names, bool IsKernel) {
         return Self.wrap(Self.s().beginFunction(Name, Params, Names, IsKernel));
       },
       py::arg("name"), py::arg("params"), py::arg("param_names"),
       py::arg("is_kernel"))
      .def("set_result_types",
           [](S &Self, std::vector<DType *> R) { Self.s().setResultTypes(R); },
           py::arg("types"))
      .def("end_function", [](S &Self) { Self.s().endFunction(); })
      .def("get_function",
           [](S &Self) { return Self.wrap(Self.s().getFunction()); })
      .def("get_arg",
           [](S &Self, unsigned I) {
             Self.arg(I);
             return Self.wrap(Self.s().getArg(I));
           },
           py::arg("index"))
      .def("set_arg_divisibility",
           [](S &Self, unsigned I, int64_t D) {
             Self.arg(I)->getAttrs().Divisibility = D;
           },
           py::arg("index"), py::arg("divisibility"))
      .def("set_arg_equal_to_1",
           [](S &Self, unsigned I) { Self.arg(I)->getAttrs().EqualTo1 = true; },
           py::arg("index"))
      .def("set_arg_noalias",
           [](S &Self, unsigned I) { Self.arg(I)->getAttrs().NoAlias = true; },
           py::arg("index"))
      .def("create_block",
           [](S &Self, const std::string &Name) {
             return Self.wrap(Self.s().createBlock(Name));
           },
           py::arg("name") = "")
      .def("set_insert_block",
           [](S &Self, const PyBlock &B) { Self.s().setInsertBlock(B.B); },
           py::arg("block"))
      .def("get_insert_block",
           [](S &Self) -> std::optional<PyBlock> {
             if (BasicBlock *B = Self.s().getInsertBlock())
               return Self.wrap(B);
             return std::nullopt;
           })
      .def("is_terminated", [](S &Self) { return Self.s().isTerminated(); })
      .def("br", [](S &Self, const PyBlock &B) { Self.s().br(B.B); },
           py::arg("dest"))
      .def("cond_br",
           [](S &Self, py::object Cond, const PyBlock &T, const PyBlock &F) {
             Self.s().condBr(toOperand(Cond), T.B, F.B);
           },
           py::arg("cond"), py::arg("true_dest"), py::arg("false_dest"))
      .def("seal", [](S &Self, const PyBlock &B) { Self.s().seal(B.B); },
           py::arg("block"))
      .def("ret",
           [](S &Self, std::vector<PyTValue> Vs) {
             Self.s().ret(Self.unwrapAll(Vs));
           },
           py::arg("values") = std::vector<PyTValue>())
      .def("write_var",
           [](S &Self, const std::string &Name, const PyTValue &V) {
             Self.s().writeVar(Name, Self.unwrap(V));
           },
           py::arg("name"), py::arg("value"))
      .def("read_var",
           [](S &Self, const std::string &Name) {
             return Self.wrapOpt(Self.s().readVar(Name));
           },
           py::arg("name"), "The variable's value, or None if undefined")
      .def("call",
           [](S &Self, const PyFunction &F, std::vector<PyTValue> Args) {
             return Self.wrapAll(Self.s().call(F.F, Self.unwrapAll(Args)));
           },
           py::arg("callee"), py::arg("args"));

  // Creation.
  C.def("constant",
        [](S &Self, py::object Lit, DType *Ty) {
          return Self.wrap(Self.s().constant(toOperand(Lit), Ty));
        },
        py::arg("value"), py::arg("dtype") = nullptr)
      .def("full",
           [](S &Self, std::vector<int64_t> Shape, py::object V, DType *Ty) {
             return Self.wrap(Self.s().full(Shape, toOperand(V), Ty));
           },
           py::arg("shape"), py::arg("value"), py::arg("dtype"))
      .def("arange",
           [](S &Self, int64_t Start, int64_t End) {
             return Self.wrap(Self.s().arange(Start, End));
           },
           py::arg("start"), py::arg("end"))
      .def("program_id",
           [](S &Self, int64_t A) { return Self.wrap(Self.s().programId(A)); },
           py::arg("axis"))
      .def("num_programs",
           [](S &Self, int64_t A) { return Self.wrap(Self.s().numPrograms(A)); },
           py::arg("axis"));

  // Arithmetic.
  C.def("binary",
        [](S &Self, Semantic::BinOp Op, py::object L, py::object R) {
          return Self.wrap(Self.s().binary(Op, toOperand(L), toOperand(R)));
        },
        py::arg("op"), py::arg("lhs"), py::arg("rhs"))
      .def("min_max",
           [](S &Self, bool IsMax, py::object L, py::object R, bool Nan) {
             return Self.wrap(
                 Self.s().minMax(IsMax, toOperand(L), toOperand(R), Nan));
           },
           py::arg("is_max"), py::arg("lhs"), py::arg("rhs"),
           py::arg("propagate_nan") = false)
      .def("compare",
           [](S &Self, Semantic::CmpOp Op, py::object L, py::object R) {
             return Self.wrap(Self.s().compare(Op, toOperand(L), toOperand(R)));
           },
           py::arg("op"), py::arg("lhs"), py::arg("rhs"))
      .def("unary",
           [](S &Self, Semantic::UnaryOp Op, py::object X) {
             return Self.wrap(Self.s().unary(Op, toOperand(X)));
           },
           py::arg("op"), py::arg("x"))
      .def("fma",
           [](S &Self, py::object A, py::object B, py::object Cv) {
             return Self.wrap(
                 Self.s().fma(toOperand(A), toOperand(B), toOperand(Cv)));
           },
           py::arg("a"), py::arg("b"), py::arg("c"))
      .def("where",
           [](S &Self, py::object Cv, py::object X, py::object Y) {
             return Self.wrap(
                 Self.s().where(toOperand(Cv), toOperand(X), toOperand(Y)));
           },
           py::arg("cond"), py::arg("x"), py::arg("y"))
      .def("clamp",
           [](S &Self, py::object X, py::object Lo, py::object Hi, bool Nan) {
             return Self.wrap(Self.s().clamp(toOperand(X), toOperand(Lo),
                                             toOperand(Hi), Nan));
           },
           py::arg("x"), py::arg("lo"), py::arg("hi"),
           py::arg("propagate_nan") = false)
      .def("cast",
           [](S &Self, py::object X, DType *To, bool Bitcast,
              std::optional<std::string> Rounding) {
             return Self.wrap(Self.s().cast(toOperand(X), To, Bitcast,
                                            Self.rounding(Rounding)));
           },
           py::arg("x"), py::arg("dtype"), py::arg("bitcast") = false,
           py::arg("fp_downcast_rounding") = py::none());

  // Memory.
  C.def("load",
        [](S &Self, const PyTValue &P, py::object Mask, py::object Other,
           const std::string &Cache, const std::string &Evict, bool Volatile) {
          return Self.wrap(Self.s().load(Self.unwrap(P), toOptOperand(Mask),
                                         toOptOperand(Other), Cache, Evict,
                                         Volatile));
        },
        py::arg("ptr"), py::arg("mask") = py::none(),
        py::arg("other") = py::none(), py::arg("cache") = "",
        py::arg("evict") = "", py::arg("volatile") = false)
      .def("store",
           [](S &Self, const PyTValue &P, py::object V, py::object Mask,
              const std::string &Cache, const std::string &Evict) {
             Self.s().store(Self.unwrap(P), toOperand(V), toOptOperand(Mask),
                            Cache, Evict);
           },
           py::arg("ptr"), py::arg("value"), py::arg("mask") = py::none(),
           py::arg("cache") = "", py::arg("evict") = "")
      .def("atomic_rmw",
           [](S &Self, const std::string &Op, const PyTValue &P, py::object V,
              py::object Mask, const std::string &Sem,
              const std::string &Scope) {
             return Self.wrap(Self.s().atomicRMW(Op, Self.unwrap(P),
                                                 toOperand(V),
                                                 toOptOperand(Mask), Sem, Scope));
           },
           py::arg("op"), py::arg("ptr"), py::arg("value"),
           py::arg("mask") = py::none(), py::arg("sem") = "",
           py::arg("scope") = "")
      .def("atomic_cas",
           [](S &Self, const PyTValue &P, py::object Cmp, py::object V,
              const std::string &Sem, const std::string &Scope) {
             return Self.wrap(Self.s().atomicCAS(
                 Self.unwrap(P), toOperand(Cmp), toOperand(V), Sem, Scope));
           },
           py::arg("ptr"), py::arg("cmp"), py::arg("value"),
           py::arg("sem") = "", py::arg("scope") = "");

  // Shapes.
  C.def("broadcast_to",
        [](S &Self, py::object X, std::vector<int64_t> Shape) {
          return Self.wrap(Self.s().broadcastTo(toOperand(X), Shape));
        },
        py::arg("x"), py::arg("shape"))
      .def("broadcast",
           [](S &Self, py::object A, py::object B) {
             return Self.wrapPair(Self.s().broadcast(toOperand(A), toOperand(B)));
           },
           py::arg("a"), py::arg("b"))
      .def("reshape",
           [](S &Self, const PyTValue &X, std::vector<int64_t> Shape,
              bool CanReorder) {
             return Self.wrap(
                 Self.s().reshape(Self.unwrap(X), Shape, CanReorder));
           },
           py::arg("x"), py::arg("shape"), py::arg("can_reorder") = false)
      .def("expand_dims",
           [](S &Self, const PyTValue &X, int64_t Axis) {
             return Self.wrap(Self.s().expandDims(Self.unwrap(X), Axis));
           },
           py::arg("x"), py::arg("axis"))
      .def("permute",
           [](S &Self, const PyTValue &X, std::vector<int64_t> Dims) {
             return Self.wrap(Self.s().permute(Self.unwrap(X), Dims));
           },
           py::arg("x"), py::arg("dims"))
      .def("trans",
           [](S &Self, const PyTValue &X) {
             return Self.wrap(Self.s().trans(Self.unwrap(X)));
           },
           py::arg("x"))
      .def("join",
           [](S &Self, py::object A, py::object B) {
             return Self.wrap(Self.s().join(toOperand(A), toOperand(B)));
           },
           py::arg("a"), py::arg("b"))
      .def("split",
           [](S &Self, const PyTValue &X) {
             return Self.wrapPair(Self.s().split(Self.unwrap(X)));
           },
           py::arg("x"))
      .def("cat",
           [](S &Self, const PyTValue &A, const PyTValue &B, bool CanReorder) {
             return Self.wrap(
                 Self.s().cat(Self.unwrap(A), Self.unwrap(B), CanReorder));
           },
           py::arg("a"), py::arg("b"), py::arg("can_reorder") = false);

  // Block computations.
  C.def("dot",
        [](S &Self, const PyTValue &A, const PyTValue &B, OptVal Acc,
           const std::string &Precision, int64_t MaxImprecise, DType *Out) {
          std::optional<TValue> AccV;
          if (Acc)
            AccV = Self.unwrap(*Acc);
          return Self.wrap(Self.s().dot(Self.unwrap(A), Self.unwrap(B), AccV,
                                        Precision, MaxImprecise, Out));
        },
        py::arg("a"), py::arg("b"), py::arg("acc") = py::none(),
        py::arg("input_precision") = "",
        py::arg("max_num_imprecise_acc") = 0, py::arg("out_dtype") = nullptr)
      .def("reduce",
           [](S &Self, const PyTValue &X, const std::string &Kind,
              std::optional<int64_t> Axis, bool KeepDims, DType *Acc) {
             return Self.wrap(
                 Self.s().reduce(Self.unwrap(X), Kind, Axis, KeepDims, Acc));
           },
           py::arg("x"), py::arg("kind"), py::arg("axis"),
           py::arg("keep_dims") = false, py::arg("acc_dtype") = nullptr)
      .def("reduce",
           [](S &Self, std::vector<PyTValue> Xs, std::optional<int64_t> Axis,
              const PyFunction &Combine, bool KeepDims) {
             return Self.wrapAll(Self.s().reduce(Self.unwrapAll(Xs), Axis,
                                                 Combine.F, KeepDims));
           },
           py::arg("xs"), py::arg("axis"), py::arg("combine"),
           py::arg("keep_dims") = false)
      .def("arg_min_max",
           [](S &Self, const PyTValue &X, bool IsMax, int64_t Axis,
              bool TieBreakLeft, bool KeepDims) {
             return Self.wrap(Self.s().argMinMax(Self.unwrap(X), IsMax, Axis,
                                                 TieBreakLeft, KeepDims));
           },
           py::arg("x"), py::arg("is_max"), py::arg("axis"),
           py::arg("tie_break_left") = true, py::arg("keep_dims") = false)
      .def("scan",
           [](S &Self, const PyTValue &X, const std::string &Kind, int64_t Axis,
              bool Reverse, DType *Acc) {
             return Self.wrap(
                 Self.s().scan(Self.unwrap(X), Kind, Axis, Reverse, Acc));
           },
           py::arg("x"), py::arg("kind"), py::arg("axis"),
           py::arg("reverse") = false, py::arg("acc_dtype") = nullptr)
      .def("scan",
           [](S &Self, std::vector<PyTValue> Xs, int64_t Axis,
              const PyFunction &Combine, bool Reverse) {
             return Self.wrapAll(Self.s().scan(Self.unwrapAll(Xs), Axis,
                                               Combine.F, Reverse));
           },
           py::arg("xs"), py::arg("axis"), py::arg("combine"),
           py::arg("reverse") = false);

  // Hints, debugging, external functions.
  C.def("hint",
        [](S &Self, Hint H, const PyTValue &X, std::vector<int64_t> Values) {
          return Self.wrap(
              Self.s().hint(hintOpcode(H), Self.unwrap(X), Values));
        },
        py::arg("op"), py::arg("x"), py::arg("values"))
      .def("debug_barrier", [](S &Self) { Self.s().debugBarrier(); })
      .def("device_print",
           [](S &Self, const std::string &Prefix, std::vector<PyTValue> Vs,
              bool Hex) {
             Self.s().devicePrint(Prefix, Self.unwrapAll(Vs), Hex);
           },
           py::arg("prefix"), py::arg("values"), py::arg("hex") = false)
      .def("device_assert",
           [](S &Self, py::object Cond, const std::string &Msg,
              py::object Mask) {
             Self.s().deviceAssert(toOperand(Cond), Msg, toOptOperand(Mask));
           },
           py::arg("cond"), py::arg("msg"), py::arg("mask") = py::none())
      .def("extern_elementwise",
           [](S &Self, const std::string &Symbol, py::list Args, DType *Result,
              bool Pure) {
             std::vector<Operand> Ops;
             for (py::handle A : Args)
               Ops.push_back(toOperand(A));
             return Self.wrap(
                 Self.s().externElementwise(Symbol, Ops, Result, Pure));
           },
           py::arg("symbol"), py::arg("args"), py::arg("result"),
           py::arg("pure") = true);
}

} // namespace

void bindFrontend(py::module_ &Parent) {
  py::module_ M = Parent.def_submodule(
      "frontend", "The kernel language's types and semantic layer");
  bindDType(M);
  bindHandles(M);
  bindEnums(M);
  bindTypeRules(M);
  bindSemantic(M);
}
