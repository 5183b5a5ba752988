//===- Semantic.h - The meaning of the kernel language -----------*- C++ -*-===//
//
// The semantic layer the Python AST walker calls: it types every operation
// the way Triton does (promotion, broadcasting, implicit splats, pointer
// arithmetic, C-like integer division), reports misuse in the user's terms
// ("incompatible shapes [128] and [64] for +") as a CompileError at the
// current source location, and emits IR through an IRBuilder. It also owns
// the SSA construction of one function at a time (variables of the Python
// source become SSA values) and a stack of functions under construction, so
// the walker can build a called @jit function or a reduce combine function
// while the caller is half-built.
//
// Values cross this interface as TValue (an IR value and its language type)
// and operands as Operand (a TValue or a Python literal, which takes part in
// promotion "weakly", as in NumPy 2 and Triton).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FRONTEND_SEMANTIC_H
#define TRITIUM_FRONTEND_SEMANTIC_H

#include "frontend/DType.h"
#include "ir/Builder.h"
#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/SSABuilder.h"

#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tritium {

/// A value of the language: an IR value and its language type.
struct TValue {
  Value *V = nullptr;
  DType *Ty = nullptr;
  explicit operator bool() const { return V != nullptr; }
};

/// What the user wrote as an operand: a value or a Python literal.
class Operand {
public:
  enum class Kind : uint8_t { Value, Bool, Int, Float };

  Operand(TValue V) : K(Kind::Value), Val(V) {}
  static Operand boolean(bool B);
  /// \p Bits is the value's two's complement; \p IsUnsigned64 marks a Python
  /// int in [2^63, 2^64), which only uint64 can hold.
  static Operand integer(int64_t Bits, bool IsUnsigned64 = false);
  static Operand floating(double F);

  Kind getKind() const { return K; }
  bool isValue() const { return K == Kind::Value; }
  bool isLiteral() const { return K != Kind::Value; }
  TValue getValue() const { return Val; }
  /// The integer's two's complement bits (0 or 1 for a bool).
  int64_t getInt() const { return I; }
  /// True for an int in [2^63, 2^64): getInt() is then negative.
  bool isUnsigned64() const { return U64; }
  double getFloat() const { return F; }
  /// The literal's own type (Triton's to_tensor): int32, uint32, int64 or
  /// uint64 by magnitude; fp32 (fp64 if it does not fit); int1.
  DType *getLiteralType() const;
  /// The literal as Python prints it ("-1", "1.5", "True"), for messages.
  std::string str() const;

private:
  Operand() = default;
  Kind K = Kind::Bool;
  TValue Val;
  int64_t I = 0;
  bool U64 = false;
  double F = 0;
};

class Semantic {
public:
  explicit Semantic(Module &M);
  ~Semantic();

  Module &getModule() const { return M; }
  Context &getContext() const { return M.getContext(); }
  IRBuilder &getBuilder() { return B; }
  /// Location of what is built next (and of the errors thrown).
  void setLoc(Loc L);
  Loc getLoc() const { return B.getLoc(); }
  /// Throws CompileError at the current location.
  [[noreturn]] void error(const llvm::Twine &Msg) const;

  /// The language type of a value this layer built. A phi placed by SSA
  /// construction has the type of what flows into it (all incoming values
  /// must agree); while its block is unsealed and nothing flows in yet, the
  /// type of the variable it stands for. Values built elsewhere get
  /// DType::fromIR (integers signed).
  DType *getDType(Value *V);

  //===--------------------------------------------------------------------===//
  // Functions, blocks and variables
  //===--------------------------------------------------------------------===//

  /// Starts building a new function and makes it current (the previous one
  /// is resumed by endFunction). Its result types are set by setResultTypes
  /// once the walker has seen the returns. The entry block is created,
  /// sealed and made the insertion point, and each parameter is written to
  /// the variable of its name (arguments are named after them).
  Function *beginFunction(llvm::StringRef Name, llvm::ArrayRef<DType *> Params,
                          llvm::ArrayRef<std::string> ParamNames,
                          bool IsKernel);
  /// Sets the current function's result types.
  void setResultTypes(llvm::ArrayRef<DType *> Results);
  /// Finishes the current function: seals every block and returns to the
  /// function that was current before (and to its insertion point). It adds
  /// no `ret`: the walker ends every path itself.
  void endFunction();
  Function *getFunction() const;
  TValue getArg(unsigned I) const;

  BasicBlock *createBlock(llvm::StringRef Name = "");
  void setInsertBlock(BasicBlock *BB);
  BasicBlock *getInsertBlock() const { return B.getInsertBlock(); }
  /// Whether the insertion block already ends in a terminator (code after a
  /// return is dead and is not built).
  bool isTerminated() const;
  void br(BasicBlock *Dest);
  /// \p Cond is converted to int1 (a scalar; != 0 for ints and floats).
  /// \p NumStages: the cond_br controls a loop that asked for that many
  /// pipeline stages (`tl.range(..., num_stages=)`); \p DisableLicm: its
  /// invariant code stays in it.
  void condBr(Operand Cond, BasicBlock *T, BasicBlock *F,
              std::optional<int64_t> NumStages = std::nullopt, bool DisableLicm = false);
  /// Declares that all predecessors of \p BB are known: completes its phis
  /// and checks that each variable has one type on every path into it.
  /// A TValue read from a phi of \p BB before sealing may be replaced by
  /// sealing (a trivial phi is removed): read variables again afterwards.
  void seal(BasicBlock *BB);
  void ret(llvm::ArrayRef<TValue> Vals);

  void writeVar(llvm::StringRef Name, TValue V);
  /// The variable's value in the insertion block; nullopt if undefined.
  std::optional<TValue> readVar(llvm::StringRef Name);

  /// Calls \p Callee (which must be complete enough to have its result
  /// types). Results are typed by the callee's setResultTypes when this layer
  /// built it, else by DType::fromIR.
  std::vector<TValue> call(Function *Callee, llvm::ArrayRef<TValue> Args);

  //===--------------------------------------------------------------------===//
  // Creation
  //===--------------------------------------------------------------------===//

  /// A scalar constant of the literal's own type, or of \p Ty if given.
  TValue constant(Operand Lit, DType *Ty = nullptr);
  /// tl.full(shape, value, dtype); tl.zeros is full(shape, 0, dtype).
  TValue full(llvm::ArrayRef<int64_t> Shape, Operand Value, DType *Ty);
  /// tl.arange(start, end): int32 block; end - start a power of two.
  TValue arange(int64_t Start, int64_t End);
  TValue programId(int64_t Axis);
  TValue numPrograms(int64_t Axis);

  //===--------------------------------------------------------------------===//
  // Arithmetic (types promoted and shapes broadcast as Triton does)
  //===--------------------------------------------------------------------===//

  enum class BinOp : uint8_t {
    Add,
    Sub,
    Mul,
    TrueDiv,   ///< `/`: always float
    FloorDiv,  ///< `//`: integers, truncating like C
    Mod,       ///< `%`: srem/urem/frem, sign of the dividend
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,       ///< arithmetic for signed, logical for unsigned
    LogicalAnd,
    LogicalOr,
    FDiv,      ///< tl.fdiv (approximate allowed)
    DivRn,     ///< tl.div_rn (IEEE round-to-nearest)
    UMulHi,    ///< tl.umulhi
  };
  TValue binary(BinOp Op, Operand L, Operand R);
  /// tl.minimum / tl.maximum.
  TValue minMax(bool IsMax, Operand L, Operand R, bool PropagateNan);

  enum class CmpOp : uint8_t { EQ, NE, LT, LE, GT, GE };
  TValue compare(CmpOp Op, Operand L, Operand R);

  enum class UnaryOp : uint8_t {
    Neg,
    Plus,
    Invert, ///< ~x
    Not,    ///< not x (x == 0)
    Exp,
    Exp2,
    Log,
    Log2,
    Sqrt,
    SqrtRn,
    Rsqrt,
    Sin,
    Cos,
    Abs,
    Floor,
    Ceil,
    Erf,
  };
  TValue unary(UnaryOp Op, Operand X);
  TValue fma(Operand A, Operand B, Operand C);
  /// tl.where(c, x, y): c converted to int1, x and y promoted together.
  TValue where(Operand C, Operand X, Operand Y);
  TValue clamp(Operand X, Operand Lo, Operand Hi, bool PropagateNan);
  /// x.to(dtype, bitcast=..., fp_downcast_rounding=...).
  TValue cast(Operand X, DType *To, bool Bitcast = false,
              std::optional<RoundingMode> Rounding = std::nullopt);

  //===--------------------------------------------------------------------===//
  // Memory (cache/eviction/semantics/scope spelled as in Triton:
  // ".ca", "evict_last", "acq_rel", "gpu"; "" for the default)
  //===--------------------------------------------------------------------===//

  TValue load(TValue Ptr, std::optional<Operand> Mask,
              std::optional<Operand> Other, llvm::StringRef Cache = "",
              llvm::StringRef Evict = "", bool Volatile = false);
  void store(TValue Ptr, Operand Val, std::optional<Operand> Mask,
             llvm::StringRef Cache = "", llvm::StringRef Evict = "");
  /// \p Op: "add", "max", "min", "and", "or", "xor", "xchg" (floats and
  /// signedness pick the IR kind; float max/min are built from int atomics).
  TValue atomicRMW(llvm::StringRef Op, TValue Ptr, Operand Val,
                   std::optional<Operand> Mask, llvm::StringRef Sem = "",
                   llvm::StringRef Scope = "");
  TValue atomicCAS(TValue Ptr, Operand Cmp, Operand Val,
                   llvm::StringRef Sem = "", llvm::StringRef Scope = "");

  /// tl.make_tensor_descriptor (TensorDescriptors.cpp): shapes become
  /// int32, strides int64; the last stride must be a literal or constant 1.
  /// \p TensorMap: the kernel argument that receives a host-side
  /// descriptor's CUtensorMap (it gets the tensormap attribute).
  TValue makeTensorDescriptor(TValue Base, llvm::ArrayRef<Operand> Shape,
                              llvm::ArrayRef<Operand> Strides,
                              llvm::ArrayRef<int64_t> BlockShape, Argument *TensorMap = nullptr);
  /// tl.make_block_ptr without its offsets (TensorDescriptors.cpp): the
  /// descriptor of the tensor, shapes and strides int64; \p NumOffsets and
  /// \p Order are checked here, the offsets stay with the caller's block
  /// pointer (tl.advance moves them).
  TValue makeBlockPointer(TValue Base, llvm::ArrayRef<Operand> Shape,
                          llvm::ArrayRef<Operand> Strides, size_t NumOffsets,
                          llvm::ArrayRef<int64_t> BlockShape, llvm::ArrayRef<int64_t> Order);
  /// desc.load(offsets): the block at \p Offsets (int32), zeros outside.
  /// With \p Boundary (a block pointer's load) only those dimensions are
  /// checked, and \p Padding "nan" fills them with NaN.
  /// \p Cache, \p Evict and \p Volatile are tl.load's.
  TValue descriptorLoad(TValue Desc, llvm::ArrayRef<Operand> Offsets,
                        std::optional<llvm::ArrayRef<int64_t>> Boundary = std::nullopt,
                        llvm::StringRef Padding = "", llvm::StringRef Cache = "",
                        llvm::StringRef Evict = "", bool Volatile = false);
  /// desc.store(offsets, value): \p Val of the block's shape, cast to the
  /// element type, written where it is inside the tensor (along the
  /// dimensions in \p Boundary, when given).
  void descriptorStore(TValue Desc, llvm::ArrayRef<Operand> Offsets, Operand Val,
                       std::optional<llvm::ArrayRef<int64_t>> Boundary = std::nullopt,
                       llvm::StringRef Cache = "", llvm::StringRef Evict = "");

  //===--------------------------------------------------------------------===//
  // Shapes
  //===--------------------------------------------------------------------===//

  /// tl.broadcast_to (splats scalars).
  TValue broadcastTo(Operand X, llvm::ArrayRef<int64_t> Shape);
  /// tl.broadcast(a, b): both to their common shape.
  std::pair<TValue, TValue> broadcast(Operand A, Operand B);
  TValue reshape(TValue X, llvm::ArrayRef<int64_t> Shape, bool CanReorder = false);
  /// The element of a one-element block (x.item()); scalars pass.
  TValue unsplat(TValue X);
  TValue expandDims(TValue X, int64_t Axis);
  TValue permute(TValue X, llvm::ArrayRef<int64_t> Dims);
  TValue join(Operand A, Operand B);
  std::pair<TValue, TValue> split(TValue X);
  TValue cat(TValue A, TValue B, bool CanReorder = false);
  /// tl.gather: \p Src's elements along \p Axis (may be negative) at the
  /// positions \p Index holds.
  TValue gather(TValue Src, TValue Index, int64_t Axis);
  /// tl.map_elementwise: the scalar function \p Fn (built with \p Pack
  /// parameters per argument, in order) on each \p Pack elements of the
  /// broadcast \p Args; its results, \p Pack per output, make the outputs.
  std::vector<TValue> mapElementwise(Function *Fn, llvm::ArrayRef<Operand> Args, int64_t Pack);

  //===--------------------------------------------------------------------===//
  // Block computations
  //===--------------------------------------------------------------------===//

  /// tl.dot. \p InputPrecision: "tf32", "tf32x3", "ieee" or "" (the default
  /// for the operand types).
  TValue dot(TValue A, TValue Bv, std::optional<TValue> Acc,
             llvm::StringRef InputPrecision, int64_t MaxNumImpreciseAcc,
             DType *OutDType);
  /// tl.sum/max/min/xor_sum/reduce_or...: \p Kind is "sum", "max", "min",
  /// "xor_sum", "and", "or", "prod". \p Axis may be negative (counted from
  /// the end, as in Python); nullopt (Python's axis=None) reduces all
  /// dimensions. \p AccDType (sum's dtype=) is what X is cast to first.
  TValue reduce(TValue X, llvm::StringRef Kind, std::optional<int64_t> Axis,
                bool KeepDims, DType *AccDType = nullptr);
  /// tl.reduce with a combine function already built by the walker (2N
  /// scalar parameters, N results for N inputs).
  std::vector<TValue> reduce(llvm::ArrayRef<TValue> Xs,
                             std::optional<int64_t> Axis, Function *Combine,
                             bool KeepDims);
  /// tl.argmin / tl.argmax: an int32 index; \p Axis may be negative.
  TValue argMinMax(TValue X, bool IsMax, int64_t Axis, bool TieBreakLeft,
                   bool KeepDims);
  /// tl.cumsum / tl.cumprod: \p Kind is "sum" or "prod"; \p Axis may be
  /// negative.
  TValue scan(TValue X, llvm::StringRef Kind, int64_t Axis, bool Reverse,
              DType *AccDType = nullptr);
  std::vector<TValue> scan(llvm::ArrayRef<TValue> Xs, int64_t Axis,
                           Function *Combine, bool Reverse);

  //===--------------------------------------------------------------------===//
  // Hints, debugging, external functions
  //===--------------------------------------------------------------------===//

  /// \p Op is Opcode::MultipleOf, MaxContiguous or MaxConstancy.
  TValue hint(Opcode Op, TValue X, llvm::ArrayRef<int64_t> Values);
  void debugBarrier();
  /// tl.extra.cuda.gdc_wait() (\p Wait) / gdc_launch_dependents().
  void gridDepControl(bool Wait);
  void devicePrint(llvm::StringRef Prefix, llvm::ArrayRef<TValue> Vals, bool Hex);
  /// tl.device_assert(cond, msg, mask): lanes where \p Mask is false pass.
  /// Whether assertions are enabled (debug) is the caller's decision.
  void deviceAssert(Operand Cond, llvm::StringRef Message,
                    std::optional<Operand> Mask = std::nullopt);
  /// tl.inline_asm_elementwise: \p Asm with \p Constraints once per element
  /// of the broadcast arguments, one result per type of \p Results.
  std::vector<TValue> inlineAsm(llvm::StringRef Asm, llvm::StringRef Constraints,
                                llvm::ArrayRef<Operand> Args, llvm::ArrayRef<DType *> Results,
                                bool Pure, int64_t Pack);
  /// An elementwise call of a device-library function; operands are
  /// broadcast together; \p Result is the result's scalar type.
  TValue externElementwise(llvm::StringRef Symbol, llvm::ArrayRef<Operand> Args,
                           DType *Result, bool Pure = true);

private:
  struct FunctionState;
  FunctionState &cur() const;

  //===--------------------------------------------------------------------===//
  // Helpers the op families share
  //===--------------------------------------------------------------------===//

  /// tl.load's and tl.store's cache and eviction hints, checked
  /// (Memory.cpp).
  LoadOptions loadOptions(llvm::StringRef Cache, llvm::StringRef Evict, bool Volatile) const;
  StoreOptions storeOptions(llvm::StringRef Cache, llvm::StringRef Evict) const;
  /// A descriptor access's checked offsets as int32 values.
  llvm::SmallVector<Value *, 5> descriptorOffsets(TValue Desc, llvm::ArrayRef<Operand> Offsets,
                                                  DType *Stored);
  /// Records \p Ty as the language type of \p V (every value built here).
  TValue make(Value *V, DType *Ty);
  /// The literal type of a literal, the dtype of a value.
  DType *typeOf(const Operand &O) const;
  /// Triton's to_tensor: a literal becomes a scalar constant of its own type.
  TValue toValue(const Operand &O);
  /// The literal \p O as a constant of scalar type \p Ty shaped \p Dims,
  /// its value converted as a cast would (wrapped, truncated, != 0).
  TValue literal(const Operand &O, DType *Ty, llvm::ArrayRef<int64_t> Dims = {});
  /// Casts \p X's elements to the scalar type \p Ty (Casts.cpp).
  TValue castTo(TValue X, DType *Ty,
                std::optional<RoundingMode> Rounding = std::nullopt);
  /// Reinterprets \p X's elements as the scalar type \p Ty of equal width.
  TValue bitcastTo(TValue X, DType *Ty);
  /// Converts \p X to int1 (!= 0 unless it already is one).
  TValue toBool(TValue X);
  /// Triton's broadcast_impl_shape: splats a scalar; a block must have the
  /// rank of \p Dims and may only grow its 1-sized dimensions.
  TValue broadcastToShape(TValue X, llvm::ArrayRef<int64_t> Dims);
  /// Pads \p X's rank with leading 1s and broadcasts it to \p Dims, which
  /// must be compatible (see commonShape).
  TValue expandToShape(TValue X, llvm::ArrayRef<int64_t> Dims);
  /// \p Args as values broadcast to their common shape (\p What names the
  /// operation in the error), which \p S receives: the operands of an
  /// elementwise snippet or function.
  llvm::SmallVector<TValue, 4> broadcastAll(llvm::ArrayRef<Operand> Args, llvm::StringRef What,
                                            Shape &S);
  /// Checks \p Pack, the elements per run of a snippet or function.
  void checkPack(llvm::StringRef What, int64_t Pack) const;
  /// The results of \p I, typed \p Types.
  std::vector<TValue> makeResults(Instruction *I, llvm::ArrayRef<DType *> Types);
  /// The broadcast shape of \p A and \p B; throws "incompatible shapes
  /// [128] and [64] for \p What".
  Shape commonShape(llvm::ArrayRef<int64_t> A, llvm::ArrayRef<int64_t> B,
                    llvm::StringRef What) const;
  /// \p O converted to the scalar type \p Ty (null keeps its type; a literal
  /// then takes its literal type) and broadcast to \p Dims, which its shape
  /// must be compatible with.
  TValue conform(const Operand &O, DType *Ty, llvm::ArrayRef<int64_t> Dims);
  /// Converts \p L and \p R to the scalar types \p LTy and \p RTy (null
  /// keeps the operand's type) and to their common shape.
  std::pair<TValue, TValue> coerce(const Operand &L, DType *LTy,
                                   const Operand &R, DType *RTy,
                                   llvm::StringRef What);
  /// Emits \p Op on two values of one IR type; the result has \p Ty.
  TValue emit(Opcode Op, TValue L, TValue R, DType *Ty);
  /// Checks the phis of \p BB once it is sealed: every incoming value of one
  /// dtype.
  void checkPhis(BasicBlock *BB);
  /// The dtype flowing into \p Phi, through other phis; null while nothing
  /// flows in. Throws if two incoming dtypes differ (\p Var names the
  /// variable in the message).
  DType *inferPhi(PhiInst *Phi, llvm::StringRef Var);
  /// The dtype assumed for a phi read while nothing flowed into it, or null.
  DType *assumedType(Value *Phi) const;

  Module &M;
  IRBuilder B;
  std::vector<std::unique_ptr<FunctionState>> Stack;
  /// The trivial phis SSA construction removed, kept so that a handle still
  /// pointing at one stays valid memory (the binding refuses to use it).
  std::vector<std::unique_ptr<Instruction>> RemovedPhis;
  /// Language types of the non-phi values built here (phis are typed from
  /// their incoming values: SSA construction may delete them, and a new
  /// value could then reuse the address).
  llvm::DenseMap<Value *, DType *> DTypes;
  /// Parameter and result dtypes of every function built here, for calls.
  struct Signature {
    std::vector<DType *> Params, Results;
  };
  llvm::DenseMap<const Function *, Signature> Signatures;
};

} // namespace tritium

#endif // TRITIUM_FRONTEND_SEMANTIC_H
