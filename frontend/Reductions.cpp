//===- Reductions.cpp - Reductions, arg-min/max and scans ------------------===//
//
// tl.sum/max/min/xor_sum/reduce_or, tl.reduce, tl.argmin/argmax, tl.cumsum,
// tl.cumprod and tl.associative_scan, with the input promotions of Triton's
// standard library:
//  * sum and cumsum accumulate integers narrower than 32 bits in int32 or
//    uint32 by signedness (int1 is unsigned, so bools sum as uint32), unless
//    a dtype is given;
//  * max and min compute narrower types in int32 / fp32 (and bf16 in fp32);
//  * cumsum and cumprod compute bf16 in fp32.
// axis=None flattens first (a reshape that may reorder) and reduces axis 0;
// negative axes count from the end; keep_dims puts the reduced dimensions
// back with size 1.
//
//===----------------------------------------------------------------------===//

#include "frontend/Promotion.h"
#include "frontend/Semantic.h"

#include "ir/Function.h"

#include "llvm/ADT/StringSwitch.h"

using namespace tritium;

namespace {
enum class Red { Sum, Max, Min, XorSum, And, Or, Prod };

std::optional<Red> parseReduction(llvm::StringRef Kind) {
  return llvm::StringSwitch<std::optional<Red>>(Kind)
      .Case("sum", Red::Sum)
      .Case("max", Red::Max)
      .Case("min", Red::Min)
      .Case("xor_sum", Red::XorSum)
      .Case("and", Red::And)
      .Case("or", Red::Or)
      .Case("prod", Red::Prod)
      .Default(std::nullopt);
}

bool isBF16(DType *T) { return T->getName() == "bf16"; }

/// The axis to reduce after Triton's normalization: axis=None flattens the
/// inputs and reduces axis 0; a negative axis counts from the end.
int64_t reductionAxis(Semantic &S, llvm::MutableArrayRef<TValue> Xs,
                      std::optional<int64_t> Axis) {
  int64_t Rank = Xs[0].Ty->getShape().size();
  if (!Axis) {
    if (Rank != 1)
      for (TValue &X : Xs)
        X = S.reshape(X, {X.Ty->getNumElements()}, /*CanReorder=*/true);
    return 0;
  }
  std::optional<int64_t> A = wrapAxis(*Axis, Rank);
  if (!A)
    S.error("invalid axis " + llvm::Twine(*Axis) + ". Expected " +
            llvm::Twine(-Rank) + " <= axis < " + llvm::Twine(Rank));
  return *A;
}

/// keep_dims: the reduced dimension back with size 1; all of them for
/// axis=None.
TValue keepDims(Semantic &S, TValue R, std::optional<int64_t> Axis,
                int64_t Reduced, size_t Rank) {
  if (Axis)
    return S.expandDims(R, Reduced);
  for (size_t I = 0; I < Rank; ++I)
    R = S.expandDims(R, 0);
  return R;
}

void checkBlocks(const Semantic &S, llvm::ArrayRef<TValue> Xs,
                 llvm::StringRef What) {
  llvm::SmallVector<DType *, 4> Types;
  for (const TValue &X : Xs)
    Types.push_back(X.Ty);
  std::string Err = checkReductionInputs(Types, What);
  if (!Err.empty())
    S.error(Err);
}

/// A combine function for N inputs takes N left and N right scalars and
/// returns N scalars of the inputs' element types.
void checkCombine(const Semantic &S, Function *F, llvm::ArrayRef<TValue> Xs,
                  llvm::StringRef What) {
  Context &Ctx = F->getContext();
  llvm::SmallVector<Type *, 4> Elems;
  for (const TValue &X : Xs)
    Elems.push_back(X.Ty->getScalar()->toIR(Ctx));
  llvm::SmallVector<Type *, 8> Params(Elems.begin(), Elems.end());
  Params.append(Elems.begin(), Elems.end());
  FunctionType *Want = FunctionType::get(Ctx, Params, Elems);
  if (F->getFunctionType() != Want)
    S.error("the combine function '" + F->getName() + "' of " + What +
            " has type " + F->getFunctionType()->str() + ", expected " +
            Want->str());
}
} // namespace

std::string tritium::checkReductionInputs(llvm::ArrayRef<DType *> Xs, llvm::StringRef What) {
  if (Xs.empty())
    return (What + " needs at least one input").str();
  for (DType *X : Xs) {
    if (!X->isBlock())
      return (What + " expects a block, got a scalar " + X->getName()).str();
    if (X->getShape() != Xs[0]->getShape())
      return ("all " + What + " inputs must have the same shape, got " +
              formatShape(Xs[0]->getShape()) + " and " + formatShape(X->getShape()))
          .str();
  }
  return "";
}

TypeResult tritium::typeReduction(llvm::StringRef Kind, bool Scan, DType *X, DType *AccDType) {
  auto Fail = [](const llvm::Twine &Msg) { return TypeResult::fail(Msg.str()); };
  bool Arg = !Scan && (Kind == "argmax" || Kind == "argmin");
  if (Scan && Kind != "sum" && Kind != "prod")
    return Fail("unknown scan '" + Kind + "'; use sum or prod");
  if (!Scan && !Arg && !parseReduction(Kind))
    return Fail("unknown reduction '" + Kind + "'; use sum, max, min, xor_sum, and, or or prod");
  std::string Name = Scan ? (Kind == "sum" ? "cumsum" : "cumprod") : Kind.str();
  std::string Err = checkReductionInputs({X}, Name);
  if (!Err.empty())
    return TypeResult::fail(Err);
  DType *E = X->getScalar();
  if (E->isPointer())
    return Fail(Name + " does not support " + E->getName());
  if (Arg)
    return TypeResult::ok(E);
  bool Bitwise = Kind == "xor_sum" || Kind == "and" || Kind == "or";
  if (Bitwise && !E->isInt())
    return Fail(Kind + " only supported for integers, got " + E->getName());
  // The type it computes in: the scans compute bf16 in fp32 first.
  if (Scan && isBF16(E))
    E = DType::getFloat(Type::Kind::F32);
  if (AccDType)
    return TypeResult::ok(AccDType->getScalar());
  if (Kind == "sum" && E->isInt() && E->getBitWidth() < 32)
    return TypeResult::ok(DType::getInt(32, E->isSigned()));
  if (!Scan && (Kind == "max" || Kind == "min")) {
    if (isBF16(E) || (E->isFloat() && E->getBitWidth() < 32))
      return TypeResult::ok(DType::getFloat(Type::Kind::F32));
    if (E->isInt() && E->getBitWidth() < 32)
      return TypeResult::ok(DType::getInt(32));
  }
  return TypeResult::ok(E);
}

TValue Semantic::reduce(TValue X, llvm::StringRef Kind,
                        std::optional<int64_t> Axis, bool KeepDims,
                        DType *AccDType) {
  std::optional<Red> K = parseReduction(Kind);
  TypeResult T = typeReduction(Kind, /*Scan=*/false, X.Ty, AccDType);
  if (!T)
    error(T.Error);
  X = castTo(X, T.Ty);
  DType *E = X.Ty->getScalar();

  CombineKind CK = CombineKind::Add;
  bool F = E->isFloat(), Sg = E->isSigned();
  switch (*K) {
  case Red::Sum: CK = F ? CombineKind::FAdd : CombineKind::Add; break;
  case Red::Prod: CK = F ? CombineKind::FMul : CombineKind::Mul; break;
  case Red::Max:
    CK = F ? CombineKind::FMax : Sg ? CombineKind::SMax : CombineKind::UMax;
    break;
  case Red::Min:
    CK = F ? CombineKind::FMin : Sg ? CombineKind::SMin : CombineKind::UMin;
    break;
  case Red::XorSum: CK = CombineKind::Xor; break;
  case Red::And: CK = CombineKind::And; break;
  case Red::Or: CK = CombineKind::Or; break;
  }

  size_t Rank = X.Ty->getShape().size();
  TValue Xs[] = {X};
  int64_t A = reductionAxis(*this, Xs, Axis);
  X = Xs[0];
  Shape Dims(X.Ty->getShape().begin(), X.Ty->getShape().end());
  Dims.erase(Dims.begin() + A);
  TValue R = make(B.createReduce(X.V, A, CK), DType::getShaped(E, Dims));
  return KeepDims ? keepDims(*this, R, Axis, A, Rank) : R;
}

std::vector<TValue> Semantic::reduce(llvm::ArrayRef<TValue> Inputs,
                                     std::optional<int64_t> Axis,
                                     Function *Combine, bool KeepDims) {
  checkBlocks(*this, Inputs, "reduce");
  checkCombine(*this, Combine, Inputs, "reduce");
  llvm::SmallVector<TValue, 2> Xs(Inputs.begin(), Inputs.end());
  size_t Rank = Xs[0].Ty->getShape().size();
  int64_t A = reductionAxis(*this, Xs, Axis);
  llvm::SmallVector<Value *, 2> Vs;
  for (const TValue &X : Xs)
    Vs.push_back(X.V);
  llvm::SmallVector<Value *, 2> Rs = B.createReduce(Vs, A, Combine->getName());
  Shape Dims(Xs[0].Ty->getShape().begin(), Xs[0].Ty->getShape().end());
  Dims.erase(Dims.begin() + A);
  std::vector<TValue> Out;
  for (unsigned I = 0; I < Rs.size(); ++I) {
    TValue R = make(Rs[I], DType::getShaped(Xs[I].Ty->getScalar(), Dims));
    Out.push_back(KeepDims ? keepDims(*this, R, Axis, A, Rank) : R);
  }
  return Out;
}

TValue Semantic::argMinMax(TValue X, bool IsMax, int64_t Axis,
                           bool TieBreakLeft, bool KeepDims) {
  TypeResult T = typeReduction(IsMax ? "argmax" : "argmin", /*Scan=*/false, X.Ty, nullptr);
  if (!T)
    error(T.Error);
  DType *E = X.Ty->getScalar();
  TValue Xs[] = {X};
  int64_t A = reductionAxis(*this, Xs, Axis);
  Shape Dims(X.Ty->getShape().begin(), X.Ty->getShape().end());
  Dims.erase(Dims.begin() + A);
  bool Unsigned = E->isInt() && !E->isSigned(); // int1 counts as unsigned
  TValue R = make(B.createArgMinMax(IsMax, X.V, A, TieBreakLeft, Unsigned),
                  DType::getShaped(DType::getInt(32), Dims));
  return KeepDims ? expandDims(R, A) : R;
}

TValue Semantic::scan(TValue X, llvm::StringRef Kind, int64_t Axis,
                      bool Reverse, DType *AccDType) {
  TypeResult T = typeReduction(Kind, /*Scan=*/true, X.Ty, AccDType);
  if (!T)
    error(T.Error);
  // bf16 goes through fp32 on its way to an accumulator type.
  if (isBF16(X.Ty->getScalar()))
    X = castTo(X, DType::getFloat(Type::Kind::F32));
  X = castTo(X, T.Ty);
  DType *E = X.Ty->getScalar();
  TValue Xs[] = {X};
  int64_t A = reductionAxis(*this, Xs, Axis);
  bool F = E->isFloat();
  CombineKind CK = Kind == "sum" ? (F ? CombineKind::FAdd : CombineKind::Add)
                                 : (F ? CombineKind::FMul : CombineKind::Mul);
  return make(B.createScan(X.V, A, CK, Reverse), X.Ty);
}

std::vector<TValue> Semantic::scan(llvm::ArrayRef<TValue> Xs, int64_t Axis,
                                   Function *Combine, bool Reverse) {
  checkBlocks(*this, Xs, "associative_scan");
  checkCombine(*this, Combine, Xs, "associative_scan");
  llvm::SmallVector<TValue, 2> Ins(Xs.begin(), Xs.end());
  int64_t A = reductionAxis(*this, Ins, Axis);
  llvm::SmallVector<Value *, 2> Vs;
  for (const TValue &X : Xs)
    Vs.push_back(X.V);
  llvm::SmallVector<Value *, 2> Rs =
      B.createScan(Vs, A, Combine->getName(), Reverse);
  std::vector<TValue> Out;
  for (unsigned I = 0; I < Rs.size(); ++I)
    Out.push_back(make(Rs[I], Xs[I].Ty));
  return Out;
}
