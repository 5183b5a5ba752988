//===- SemanticBinding.cpp - _C.frontend.Semantic -------------------------===//
//
// Every method of frontend/Semantic.h under its snake_case name, taking
// handles and Python operands, returning handles that keep the Semantic
// alive (FrontendBinding.cpp has the lifetime rule).
//
//===----------------------------------------------------------------------===//

#include "FrontendHandles.h"
#include "PyModule.h"

#include "ir/Function.h"

#include <pybind11/stl.h>

#include <string>
#include <vector>

using namespace tritium;
using namespace tritium::pybind;

namespace {

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
    return live(V.V);
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

} // namespace

void tritium::pybind::bindSemantic(py::module_ &M) {
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
            Self.s().setLoc(Loc{Self.module().getContext().intern(File), Line, Col});
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
       py::arg("name"), py::arg("params"), py::arg("param_names"), py::arg("is_kernel"))
      .def("set_result_types",
           [](S &Self, std::vector<DType *> R) { Self.s().setResultTypes(R); }, py::arg("types"))
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
           [](S &Self, unsigned I, int64_t D) { Self.arg(I)->getAttrs().Divisibility = D; },
           py::arg("index"), py::arg("divisibility"))
      .def("set_arg_equal_to_1",
           [](S &Self, unsigned I) { Self.arg(I)->getAttrs().EqualTo1 = true; }, py::arg("index"))
      .def("create_block",
           [](S &Self, const std::string &Name) { return Self.wrap(Self.s().createBlock(Name)); },
           py::arg("name") = "")
      .def("set_insert_block",
           [](S &Self, const PyBlock &B) { Self.s().setInsertBlock(B.B); }, py::arg("block"))
      .def("get_insert_block",
           [](S &Self) -> std::optional<PyBlock> {
             if (BasicBlock *B = Self.s().getInsertBlock())
               return Self.wrap(B);
             return std::nullopt;
           })
      .def("is_terminated", [](S &Self) { return Self.s().isTerminated(); })
      .def("br", [](S &Self, const PyBlock &B) { Self.s().br(B.B); }, py::arg("dest"))
      .def("cond_br",
           [](S &Self, py::object Cond, const PyBlock &T, const PyBlock &F,
              std::optional<int64_t> NumStages, bool DisableLicm) {
             Self.s().condBr(toOperand(Cond), T.B, F.B, NumStages, DisableLicm);
           },
           py::arg("cond"), py::arg("true_dest"), py::arg("false_dest"),
           py::arg("num_stages") = py::none(), py::arg("disable_licm") = false)
      .def("seal", [](S &Self, const PyBlock &B) { Self.s().seal(B.B); }, py::arg("block"))
      .def("ret",
           [](S &Self, std::vector<PyTValue> Vs) { Self.s().ret(Self.unwrapAll(Vs)); },
           py::arg("values") = std::vector<PyTValue>())
      .def("write_var",
           [](S &Self, const std::string &Name, const PyTValue &V) {
             Self.s().writeVar(Name, Self.unwrap(V));
           },
           py::arg("name"), py::arg("value"))
      .def("read_var",
           [](S &Self, const std::string &Name) { return Self.wrapOpt(Self.s().readVar(Name)); },
           py::arg("name"), "The variable's value, or None if undefined")
      .def("call",
           [](S &Self, const PyFunction &F, std::vector<PyTValue> Args) {
             return Self.wrapAll(Self.s().call(F.F, Self.unwrapAll(Args)));
           },
           py::arg("callee"), py::arg("args"))
      .def("map_elementwise",
           [](S &Self, const PyFunction &F, py::list Args, int64_t Pack) {
             py::list Out;
             for (const TValue &V : Self.s().mapElementwise(F.F, toOperands(Args), Pack))
               Out.append(Self.wrap(V));
             return Out;
           },
           py::arg("fn"), py::arg("args"), py::arg("pack"));

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
           [](S &Self, int64_t A) { return Self.wrap(Self.s().programId(A)); }, py::arg("axis"))
      .def("num_programs",
           [](S &Self, int64_t A) { return Self.wrap(Self.s().numPrograms(A)); }, py::arg("axis"));

  // Arithmetic.
  C.def("binary",
        [](S &Self, Semantic::BinOp Op, py::object L, py::object R) {
          return Self.wrap(Self.s().binary(Op, toOperand(L), toOperand(R)));
        },
        py::arg("op"), py::arg("lhs"), py::arg("rhs"))
      .def("min_max",
           [](S &Self, bool IsMax, py::object L, py::object R, bool Nan) {
             return Self.wrap(Self.s().minMax(IsMax, toOperand(L), toOperand(R), Nan));
           },
           py::arg("is_max"), py::arg("lhs"), py::arg("rhs"), py::arg("propagate_nan") = false)
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
             return Self.wrap(Self.s().fma(toOperand(A), toOperand(B), toOperand(Cv)));
           },
           py::arg("a"), py::arg("b"), py::arg("c"))
      .def("where",
           [](S &Self, py::object Cv, py::object X, py::object Y) {
             return Self.wrap(Self.s().where(toOperand(Cv), toOperand(X), toOperand(Y)));
           },
           py::arg("cond"), py::arg("x"), py::arg("y"))
      .def("clamp",
           [](S &Self, py::object X, py::object Lo, py::object Hi, bool Nan) {
             return Self.wrap(Self.s().clamp(toOperand(X), toOperand(Lo), toOperand(Hi), Nan));
           },
           py::arg("x"), py::arg("lo"), py::arg("hi"), py::arg("propagate_nan") = false)
      .def("cast",
           [](S &Self, py::object X, DType *To, bool Bitcast, std::optional<std::string> Rounding) {
             return Self.wrap(Self.s().cast(toOperand(X), To, Bitcast, Self.rounding(Rounding)));
           },
           py::arg("x"), py::arg("dtype"), py::arg("bitcast") = false,
           py::arg("fp_downcast_rounding") = py::none());

  // Memory.
  C.def("load",
        [](S &Self, const PyTValue &P, py::object Mask, py::object Other,
           const std::string &Cache, const std::string &Evict, bool Volatile) {
          return Self.wrap(Self.s().load(Self.unwrap(P), toOptOperand(Mask),
                                         toOptOperand(Other), Cache, Evict, Volatile));
        },
        py::arg("ptr"), py::arg("mask") = py::none(),
        py::arg("other") = py::none(), py::arg("cache") = "",
        py::arg("evict") = "", py::arg("volatile") = false)
      .def("store",
           [](S &Self, const PyTValue &P, py::object V, py::object Mask,
              const std::string &Cache, const std::string &Evict) {
             Self.s().store(Self.unwrap(P), toOperand(V), toOptOperand(Mask), Cache, Evict);
           },
           py::arg("ptr"), py::arg("value"), py::arg("mask") = py::none(),
           py::arg("cache") = "", py::arg("evict") = "")
      .def("make_tensor_descriptor",
           [](S &Self, const PyTValue &Base, py::sequence Shape, py::sequence Strides,
              std::vector<int64_t> Block, int TensorMap) {
             return Self.wrap(Self.s().makeTensorDescriptor(
                 Self.unwrap(Base), toOperands(Shape), toOperands(Strides), Block,
                 TensorMap < 0 ? nullptr : Self.arg(unsigned(TensorMap))));
           },
           py::arg("base"), py::arg("shape"), py::arg("strides"), py::arg("block_shape"),
           py::arg("tensormap_arg") = -1)
      .def("make_block_pointer",
           [](S &Self, const PyTValue &Base, py::sequence Shape, py::sequence Strides,
              size_t NumOffsets, std::vector<int64_t> Block, std::vector<int64_t> Order) {
             return Self.wrap(Self.s().makeBlockPointer(Self.unwrap(Base), toOperands(Shape),
                                                        toOperands(Strides), NumOffsets, Block,
                                                        Order));
           },
           py::arg("base"), py::arg("shape"), py::arg("strides"), py::arg("num_offsets"),
           py::arg("block_shape"), py::arg("order"))
      .def("descriptor_load",
           [](S &Self, const PyTValue &D, py::sequence Offsets,
              std::optional<std::vector<int64_t>> Boundary, const std::string &Padding,
              const std::string &Cache, const std::string &Evict, bool Volatile) {
             std::optional<llvm::ArrayRef<int64_t>> Dims;
             if (Boundary)
               Dims = llvm::ArrayRef<int64_t>(*Boundary);
             return Self.wrap(Self.s().descriptorLoad(Self.unwrap(D), toOperands(Offsets), Dims,
                                                      Padding, Cache, Evict, Volatile));
           },
           py::arg("desc"), py::arg("offsets"), py::arg("boundary") = py::none(),
           py::arg("padding") = "", py::arg("cache") = "", py::arg("evict") = "",
           py::arg("volatile") = false)
      .def("descriptor_store",
           [](S &Self, const PyTValue &D, py::sequence Offsets, py::object V,
              std::optional<std::vector<int64_t>> Boundary, const std::string &Cache,
              const std::string &Evict) {
             std::optional<llvm::ArrayRef<int64_t>> Dims;
             if (Boundary)
               Dims = llvm::ArrayRef<int64_t>(*Boundary);
             Self.s().descriptorStore(Self.unwrap(D), toOperands(Offsets), toOperand(V), Dims,
                                      Cache, Evict);
           },
           py::arg("desc"), py::arg("offsets"), py::arg("value"), py::arg("boundary") = py::none(),
           py::arg("cache") = "", py::arg("evict") = "")
      .def("atomic_rmw",
           [](S &Self, const std::string &Op, const PyTValue &P, py::object V,
              py::object Mask, const std::string &Sem, const std::string &Scope) {
             return Self.wrap(Self.s().atomicRMW(Op, Self.unwrap(P), toOperand(V),
                                                 toOptOperand(Mask), Sem, Scope));
           },
           py::arg("op"), py::arg("ptr"), py::arg("value"),
           py::arg("mask") = py::none(), py::arg("sem") = "", py::arg("scope") = "")
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
           [](S &Self, const PyTValue &X, std::vector<int64_t> Shape, bool CanReorder) {
             return Self.wrap(Self.s().reshape(Self.unwrap(X), Shape, CanReorder));
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
      .def("join",
           [](S &Self, py::object A, py::object B) {
             return Self.wrap(Self.s().join(toOperand(A), toOperand(B)));
           },
           py::arg("a"), py::arg("b"))
      .def("split",
           [](S &Self, const PyTValue &X) { return Self.wrapPair(Self.s().split(Self.unwrap(X))); },
           py::arg("x"))
      .def("cat",
           [](S &Self, const PyTValue &A, const PyTValue &B, bool CanReorder) {
             return Self.wrap(Self.s().cat(Self.unwrap(A), Self.unwrap(B), CanReorder));
           },
           py::arg("a"), py::arg("b"), py::arg("can_reorder") = false)
      .def("gather",
           [](S &Self, const PyTValue &Src, const PyTValue &Index, int64_t Axis) {
             return Self.wrap(Self.s().gather(Self.unwrap(Src), Self.unwrap(Index), Axis));
           },
           py::arg("src"), py::arg("index"), py::arg("axis"));

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
        py::arg("a"), py::arg("b"), py::arg("acc") = py::none(), py::arg("input_precision") = "",
        py::arg("max_num_imprecise_acc") = -1, py::arg("out_dtype") = nullptr)
      .def("reduce",
           [](S &Self, const PyTValue &X, const std::string &Kind,
              std::optional<int64_t> Axis, bool KeepDims, DType *Acc) {
             return Self.wrap(Self.s().reduce(Self.unwrap(X), Kind, Axis, KeepDims, Acc));
           },
           py::arg("x"), py::arg("kind"), py::arg("axis"),
           py::arg("keep_dims") = false, py::arg("acc_dtype") = nullptr)
      .def("reduce",
           [](S &Self, std::vector<PyTValue> Xs, std::optional<int64_t> Axis,
              const PyFunction &Combine, bool KeepDims) {
             return Self.wrapAll(Self.s().reduce(Self.unwrapAll(Xs), Axis, Combine.F, KeepDims));
           },
           py::arg("xs"), py::arg("axis"), py::arg("combine"), py::arg("keep_dims") = false)
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
             return Self.wrap(Self.s().scan(Self.unwrap(X), Kind, Axis, Reverse, Acc));
           },
           py::arg("x"), py::arg("kind"), py::arg("axis"),
           py::arg("reverse") = false, py::arg("acc_dtype") = nullptr)
      .def("scan",
           [](S &Self, std::vector<PyTValue> Xs, int64_t Axis,
              const PyFunction &Combine, bool Reverse) {
             return Self.wrapAll(Self.s().scan(Self.unwrapAll(Xs), Axis, Combine.F, Reverse));
           },
           py::arg("xs"), py::arg("axis"), py::arg("combine"), py::arg("reverse") = false);

  // Hints, debugging, external functions.
  C.def("hint",
        [](S &Self, Hint H, const PyTValue &X, std::vector<int64_t> Values) {
          return Self.wrap(Self.s().hint(hintOpcode(H), Self.unwrap(X), Values));
        },
        py::arg("op"), py::arg("x"), py::arg("values"))
      .def("debug_barrier", [](S &Self) { Self.s().debugBarrier(); })
      .def("gdc_wait", [](S &Self) { Self.s().gridDepControl(true); })
      .def("gdc_launch_dependents", [](S &Self) { Self.s().gridDepControl(false); })
      .def("device_print",
           [](S &Self, const std::string &Prefix, std::vector<PyTValue> Vs, bool Hex) {
             Self.s().devicePrint(Prefix, Self.unwrapAll(Vs), Hex);
           },
           py::arg("prefix"), py::arg("values"), py::arg("hex") = false)
      .def("device_assert",
           [](S &Self, py::object Cond, const std::string &Msg, py::object Mask) {
             Self.s().deviceAssert(toOperand(Cond), Msg, toOptOperand(Mask));
           },
           py::arg("cond"), py::arg("msg"), py::arg("mask") = py::none())
      .def("inline_asm",
           [](S &Self, const std::string &Asm, const std::string &Constraints, py::list Args,
              std::vector<DType *> Results, bool Pure, int64_t Pack) {
             py::list Out;
             for (const TValue &V :
                  Self.s().inlineAsm(Asm, Constraints, toOperands(Args), Results, Pure, Pack))
               Out.append(Self.wrap(V));
             return Out;
           },
           py::arg("asm"), py::arg("constraints"), py::arg("args"), py::arg("results"),
           py::arg("pure"), py::arg("pack"))
      .def("extern_elementwise",
           [](S &Self, const std::string &Symbol, py::list Args, DType *Result, bool Pure) {
             return Self.wrap(Self.s().externElementwise(Symbol, toOperands(Args), Result, Pure));
           },
           py::arg("symbol"), py::arg("args"), py::arg("result"), py::arg("pure") = true);
}

