//===- Memory.cpp - Loads, stores and atomics ------------------------------===//
//
// tl.load, tl.store and the atomics, with Triton's rules:
//  * load broadcasts the pointer, mask and other to their common shape;
//    store may not grow the pointer's shape; atomics broadcast the value and
//    mask to the pointer's shape without rank padding.
//  * Pointers to int1 are accessed as int8: loads compare the byte with 0,
//    stores zero-extend.
//  * Stored values and `other` are cast to the pointee type; storing (or an
//    atomic) through a const pointer is an error.
//  * Cache and eviction hints and atomic orderings are spelled as in Triton
//    (".ca", "evict_last", "acq_rel", "gpu"); anything else is an error.
//  * atomic_max/min on fp32/fp64 are built from integer atomics, as Triton
//    does: a non-negative float orders like its bits as a signed integer, a
//    negative one inversely to its bits as an unsigned integer, so max is a
//    signed max where the value is >= 0 and an unsigned min where it is < 0.
//
//===----------------------------------------------------------------------===//

#include "frontend/Promotion.h"
#include "frontend/Semantic.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tritium;

std::string tritium::checkMemoryHints(llvm::StringRef Cache, llvm::StringRef Evict,
                                      bool IsLoad) {
  static const llvm::StringRef Loads[] = {".ca", ".cg", ".cv"};
  static const llvm::StringRef Stores[] = {".wb", ".cg", ".cs", ".wt"};
  bool CacheOK = Cache.empty() || (IsLoad ? llvm::is_contained(Loads, Cache)
                                          : llvm::is_contained(Stores, Cache));
  if (!CacheOK)
    return ("cache modifier '" + Cache + "' is not supported by " +
            (IsLoad ? "load; use '.ca', '.cg' or '.cv'"
                    : "store; use '.wb', '.cg', '.cs' or '.wt'"))
        .str();
  if (!Evict.empty() && Evict != "evict_first" && Evict != "evict_last")
    return ("eviction policy '" + Evict +
            "' is not supported; use 'evict_first' or 'evict_last'")
        .str();
  return "";
}

std::string tritium::checkAtomicOrder(llvm::StringRef Sem, llvm::StringRef Scope) {
  if (!Sem.empty() && !lookupEnumValue(EnumTable::MemSem, Sem))
    return ("memory semantic '" + Sem +
            "' is not supported; use 'acquire', 'release', 'acq_rel' or 'relaxed'")
        .str();
  if (!Scope.empty() && !lookupEnumValue(EnumTable::MemScope, Scope))
    return ("memory scope '" + Scope + "' is not supported; use 'gpu', 'cta' or 'sys'")
        .str();
  return "";
}

namespace {
// The parsers below read spellings checkMemoryHints / checkAtomicOrder
// accepted.
std::optional<CacheModifier> parseCache(llvm::StringRef C) {
  return llvm::StringSwitch<std::optional<CacheModifier>>(C)
      .Case(".ca", CacheModifier::CA)
      .Case(".cg", CacheModifier::CG)
      .Case(".cv", CacheModifier::CV)
      .Case(".wb", CacheModifier::WB)
      .Case(".cs", CacheModifier::CS)
      .Case(".wt", CacheModifier::WT)
      .Default(std::nullopt);
}

std::optional<EvictionPolicy> parseEvict(llvm::StringRef E) {
  if (E.empty())
    return std::nullopt;
  return E == "evict_first" ? EvictionPolicy::EvictFirst : EvictionPolicy::EvictLast;
}

MemSem parseSem(llvm::StringRef Sem) {
  return Sem.empty() ? MemSem::AcqRel : MemSem(*lookupEnumValue(EnumTable::MemSem, Sem));
}

MemScope parseScope(llvm::StringRef Scope) {
  return Scope.empty() ? MemScope::GPU : MemScope(*lookupEnumValue(EnumTable::MemScope, Scope));
}

llvm::ArrayRef<int64_t> shapeOf(const Operand &O) {
  return O.isValue() ? O.getValue().Ty->getShape() : llvm::ArrayRef<int64_t>();
}

DType *int8Pointer(DType *P) {
  return DType::getPointer(DType::getInt(8), P->getAddressSpace(),
                           P->isConst());
}
} // namespace

namespace {
enum class RMW { Add, Max, Min, And, Or, Xor, Xchg };

std::optional<RMW> parseRMW(llvm::StringRef Op) {
  return llvm::StringSwitch<std::optional<RMW>>(Op)
      .Case("add", RMW::Add)
      .Case("max", RMW::Max)
      .Case("min", RMW::Min)
      .Case("and", RMW::And)
      .Case("or", RMW::Or)
      .Case("xor", RMW::Xor)
      .Case("xchg", RMW::Xchg)
      .Default(std::nullopt);
}

/// The type of an operand (a literal's own type); null for none.
DType *operandType(const Operand &O) {
  return O.isValue() ? O.getValue().Ty : O.getLiteralType();
}
DType *operandType(const std::optional<Operand> &O) { return O ? operandType(*O) : nullptr; }

/// Scalar pointers take only scalar masks, values and others.
std::string scalarOperandError(DType *Ptr, DType *O, llvm::StringRef What) {
  if (O && !Ptr->isBlock() && O->isBlock())
    return (What + " argument cannot be block type if pointer argument is not a block").str();
  return "";
}

std::string maskError(DType *Mask) {
  if (Mask && !Mask->getScalar()->isBool())
    return "Mask must have boolean scalar type, got " + Mask->getName();
  return "";
}

/// The first non-empty message.
std::string firstOf(std::initializer_list<std::string> Errors) {
  for (const std::string &E : Errors)
    if (!E.empty())
      return E;
  return "";
}
} // namespace

std::string tritium::checkLoad(DType *Ptr, DType *Mask, DType *Other) {
  if (!Ptr->getScalar()->isPointer())
    return "Unsupported ptr type " + Ptr->getName() + " in `tl.load`";
  if (Other && !Mask)
    return "`other` cannot be provided without `mask`";
  std::string Err = firstOf({scalarOperandError(Ptr, Mask, "Mask"),
                             scalarOperandError(Ptr, Other, "Other"), maskError(Mask)});
  if (!Err.empty())
    return Err;
  Shape S(Ptr->getShape().begin(), Ptr->getShape().end());
  for (DType *O : {Mask, Other}) {
    if (!O)
      continue;
    if (!(Err = checkCommonShape(S, O->getShape(), "load")).empty())
      return Err;
    S = *broadcastShapes(S, O->getShape());
  }
  return "";
}

std::string tritium::checkStore(DType *Ptr, DType *Value, DType *Mask) {
  if (!Ptr->getScalar()->isPointer())
    return "Unsupported ptr type " + Ptr->getName() + " in `tl.store`";
  if (Ptr->getScalar()->isConst())
    return "Cannot store to a constant pointer";
  std::string Err = firstOf(
      {scalarOperandError(Ptr, Value, "Value"), scalarOperandError(Ptr, Mask, "Mask")});
  if (!Err.empty())
    return Err;
  llvm::ArrayRef<int64_t> PS = Ptr->getShape();
  Shape S(PS.begin(), PS.end());
  for (DType *O : {Value, Mask}) {
    if (!O)
      continue;
    if (!(Err = checkCommonShape(S, O->getShape(), "store")).empty())
      return Err;
    S = *broadcastShapes(S, O->getShape());
  }
  if (llvm::ArrayRef<int64_t>(S) != PS)
    return "cannot store a value (and mask) of shape " + formatShape(S) +
           " through pointers of shape " + formatShape(PS);
  return maskError(Mask);
}

std::string tritium::checkAtomicRMW(llvm::StringRef Op, DType *Ptr, DType *Value, DType *Mask,
                                    llvm::StringRef Sem, llvm::StringRef Scope) {
  if (!parseRMW(Op))
    return ("unknown atomic operation '" + Op + "'; use add, max, min, and, or, xor or xchg")
        .str();
  std::string Name = ("atomic_" + Op).str();
  std::string Err = checkAtomicOrder(Sem, Scope);
  if (!Err.empty())
    return Err;
  DType *PT = Ptr->getScalar();
  if (!PT->isPointer())
    return Name + " expects a pointer, got " + Ptr->getName();
  if (PT->isConst())
    return "Cannot store to a constant pointer";
  DType *Elem = PT->getPointee();
  bool Half = Elem->getName() == "fp16" || Elem->getName() == "bf16";
  bool Bitwise = Op == "and" || Op == "or" || Op == "xor";
  if ((Half && Op != "add") || Elem->isPointer() || Elem->getBitWidth() < 16 ||
      (Elem->isInt() && Elem->getBitWidth() == 16) || (Bitwise && !Elem->isInt()))
    return Name + " does not support " + Elem->getName();
  if ((Op == "max" || Op == "min") && Elem->isFloat() && Elem->getBitWidth() < 32)
    return Name + " not supported for dtype " + Elem->getName();
  return firstOf({scalarOperandError(Ptr, Value, "Value"), scalarOperandError(Ptr, Mask, "Mask"),
                  maskError(Mask)});
}

std::string tritium::checkAtomicCAS(DType *Ptr, DType *Cmp, DType *Value, llvm::StringRef Sem,
                                    llvm::StringRef Scope) {
  std::string Err = checkAtomicOrder(Sem, Scope);
  if (!Err.empty())
    return Err;
  DType *PT = Ptr->getScalar();
  if (!PT->isPointer())
    return "atomic_cas expects a pointer, got " + Ptr->getName();
  if (PT->isConst())
    return "Cannot store to a constant pointer";
  DType *Elem = PT->getPointee();
  unsigned W = Elem->getBitWidth();
  if (Elem->isPointer() || (W != 16 && W != 32 && W != 64))
    return "atomic_cas only supports elements with width {16, 32, 64}, got " + Elem->getName();
  return firstOf({scalarOperandError(Ptr, Cmp, "Cmp"), scalarOperandError(Ptr, Value, "Value")});
}

//===----------------------------------------------------------------------===//
// load and store
//===----------------------------------------------------------------------===//

LoadOptions Semantic::loadOptions(llvm::StringRef Cache, llvm::StringRef Evict,
                                  bool Volatile) const {
  std::string Err = checkMemoryHints(Cache, Evict, /*IsLoad=*/true);
  if (!Err.empty())
    error(Err);
  LoadOptions Opts;
  Opts.Cache = parseCache(Cache);
  Opts.Evict = parseEvict(Evict);
  Opts.Volatile = Volatile;
  return Opts;
}

StoreOptions Semantic::storeOptions(llvm::StringRef Cache, llvm::StringRef Evict) const {
  std::string Err = checkMemoryHints(Cache, Evict, /*IsLoad=*/false);
  if (!Err.empty())
    error(Err);
  StoreOptions Opts;
  Opts.Cache = parseCache(Cache);
  Opts.Evict = parseEvict(Evict);
  return Opts;
}

TValue Semantic::load(TValue Ptr, std::optional<Operand> Mask,
                      std::optional<Operand> Other, llvm::StringRef Cache,
                      llvm::StringRef Evict, bool Volatile) {
  LoadOptions Opts = loadOptions(Cache, Evict, Volatile);
  std::string Err = checkLoad(Ptr.Ty, operandType(Mask), operandType(Other));
  if (!Err.empty())
    error(Err);
  DType *PT = Ptr.Ty->getScalar();

  Shape S(Ptr.Ty->getShape().begin(), Ptr.Ty->getShape().end());
  if (Mask)
    S = commonShape(S, shapeOf(*Mask), "load");
  if (Other)
    S = commonShape(S, shapeOf(*Other), "load");
  Ptr = expandToShape(Ptr, S);

  DType *Elem = PT->getPointee();
  bool IsBool = Elem->isBool();
  if (IsBool) {
    Elem = DType::getInt(8);
    Ptr = castTo(Ptr, int8Pointer(PT));
  }
  Value *M = Mask ? conform(*Mask, nullptr, S).V : nullptr;
  Value *O = Other ? conform(*Other, Elem, S).V : nullptr;
  TValue R = make(B.createLoad(Ptr.V, M, O, Opts), Ptr.Ty->withScalar(Elem));
  return IsBool ? toBool(R) : R;
}

void Semantic::store(TValue Ptr, Operand Val, std::optional<Operand> Mask,
                     llvm::StringRef Cache, llvm::StringRef Evict) {
  StoreOptions Opts = storeOptions(Cache, Evict);
  std::string Err = checkStore(Ptr.Ty, operandType(Val), operandType(Mask));
  if (!Err.empty())
    error(Err);
  DType *PT = Ptr.Ty->getScalar();
  llvm::ArrayRef<int64_t> S = Ptr.Ty->getShape();

  DType *Elem = PT->getPointee();
  if (Elem->isBool()) {
    Elem = DType::getInt(8);
    Ptr = castTo(Ptr, int8Pointer(PT));
  }
  TValue V = conform(Val, Elem, S);
  Value *M = Mask ? conform(*Mask, nullptr, S).V : nullptr;
  B.createStore(Ptr.V, V.V, M, Opts);
}

//===----------------------------------------------------------------------===//
// Atomics
//===----------------------------------------------------------------------===//


TValue Semantic::atomicRMW(llvm::StringRef OpName, TValue Ptr, Operand Val,
                           std::optional<Operand> Mask, llvm::StringRef Sem,
                           llvm::StringRef Scope) {
  std::string Err = checkAtomicRMW(OpName, Ptr.Ty, operandType(Val), operandType(Mask), Sem, Scope);
  if (!Err.empty())
    error(Err);
  std::optional<RMW> Op = parseRMW(OpName);
  MemSem Order = parseSem(Sem);
  MemScope Where = parseScope(Scope);
  DType *PT = Ptr.Ty->getScalar();
  DType *Elem = PT->getPointee();

  llvm::ArrayRef<int64_t> PS = Ptr.Ty->getShape();
  TValue V = Val.isLiteral() ? literal(Val, Elem, PS)
                             : broadcastToShape(castTo(Val.getValue(), Elem), PS);
  std::optional<TValue> M;
  if (Mask)
    M = broadcastToShape(toValue(*Mask), PS);
  auto Emit = [&](AtomicKind K, TValue P, TValue X, std::optional<TValue> Msk,
                  DType *Ty) {
    return make(B.createAtomicRMW(K, P.V, X.V, Msk ? Msk->V : nullptr, Order,
                                  Where),
                Ty);
  };

  switch (*Op) {
  case RMW::Add:
    return Emit(Elem->isFloat() ? AtomicKind::FAdd : AtomicKind::Add, Ptr, V,
                M, V.Ty);
  case RMW::And: return Emit(AtomicKind::And, Ptr, V, M, V.Ty);
  case RMW::Or: return Emit(AtomicKind::Or, Ptr, V, M, V.Ty);
  case RMW::Xor: return Emit(AtomicKind::Xor, Ptr, V, M, V.Ty);
  case RMW::Xchg: return Emit(AtomicKind::Xchg, Ptr, V, M, V.Ty);
  case RMW::Max:
  case RMW::Min: break;
  }
  bool IsMax = *Op == RMW::Max;
  if (Elem->isInt()) {
    AtomicKind K = Elem->isSigned() ? (IsMax ? AtomicKind::Max : AtomicKind::Min)
                                    : (IsMax ? AtomicKind::UMax : AtomicKind::UMin);
    return Emit(K, Ptr, V, M, V.Ty);
  }

  // Floats: see the file comment.
  unsigned W = Elem->getBitWidth();
  DType *IT = DType::getInt(W, true), *UT = DType::getInt(W, false);
  TValue IPtr = castTo(Ptr, DType::getPointer(IT, PT->getAddressSpace()));
  TValue IVal = bitcastTo(V, IT);
  TValue Zero = literal(Operand::integer(0), IT, PS);
  DType *BoolTy = V.Ty->withScalar(DType::getBool());
  TValue Neg = make(B.createICmp(ICmpPredicate::SLT, IVal.V, Zero.V), BoolTy);
  TValue True = literal(Operand::boolean(true), DType::getBool(), PS);
  TValue Pos = emit(Opcode::Xor, Neg, True, BoolTy);
  TValue PosMask = M ? emit(Opcode::And, *M, Pos, BoolTy) : Pos;
  TValue NegMask = M ? emit(Opcode::And, *M, Neg, BoolTy) : Neg;
  TValue PosOld = Emit(IsMax ? AtomicKind::Max : AtomicKind::Min, IPtr, IVal,
                       PosMask, IVal.Ty);
  TValue NegOld = Emit(IsMax ? AtomicKind::UMin : AtomicKind::UMax, IPtr, IVal,
                       NegMask, V.Ty->withScalar(UT));
  // Both halves are the same bits; the select's dtype is the signed one.
  TValue Old =
      make(B.createSelect(Pos.V, PosOld.V, NegOld.V), IVal.Ty);
  return bitcastTo(Old, Elem);
}

TValue Semantic::atomicCAS(TValue Ptr, Operand Cmp, Operand Val,
                           llvm::StringRef Sem, llvm::StringRef Scope) {
  std::string Err = checkAtomicCAS(Ptr.Ty, operandType(Cmp), operandType(Val), Sem, Scope);
  if (!Err.empty())
    error(Err);
  MemSem Order = parseSem(Sem);
  MemScope Where = parseScope(Scope);
  DType *Elem = Ptr.Ty->getScalar()->getPointee();
  llvm::ArrayRef<int64_t> PS = Ptr.Ty->getShape();
  auto ToElem = [&](const Operand &O) {
    return O.isLiteral() ? literal(O, Elem, PS)
                         : broadcastToShape(castTo(O.getValue(), Elem), PS);
  };
  TValue C = ToElem(Cmp), V = ToElem(Val);
  return make(B.createAtomicCAS(Ptr.V, C.V, V.V, nullptr, Order, Where), V.Ty);
}
