//===- Shapes.cpp - Broadcasting and shape manipulation --------------------===//
//
// Two kinds of broadcasting, as in Triton:
//  * between operands (broadcast_impl_value): the lower rank is padded with
//    leading 1s (expand_dims at 0), then 1-sized dimensions repeat; scalars
//    splat;
//  * to a given shape (broadcast_impl_shape, tl.broadcast_to, atomics): no
//    rank padding, only 1-sized dimensions grow.
// And tl.reshape, expand_dims, permute, trans, join, split and cat.
//
//===----------------------------------------------------------------------===//

#include "frontend/Promotion.h"
#include "frontend/Semantic.h"

#include "llvm/ADT/SmallSet.h"

using namespace tritium;

namespace {
std::string shapeOf(DType *T) { return formatShape(T->getShape()); }

/// Numbers printed as Python prints a list: "[1, 0]".
std::string formatList(llvm::ArrayRef<int64_t> L) { return formatShape(L); }
} // namespace

//===----------------------------------------------------------------------===//
// Broadcasting helpers
//===----------------------------------------------------------------------===//

Shape Semantic::commonShape(llvm::ArrayRef<int64_t> A,
                            llvm::ArrayRef<int64_t> B,
                            llvm::StringRef What) const {
  std::optional<Shape> S = broadcastShapes(A, B);
  if (!S)
    error("incompatible shapes " + formatShape(A) + " and " + formatShape(B) +
          " for " + What);
  // [1024, 1] and [1, 2048] broadcast to more elements than a block holds.
  if (!S->empty()) {
    std::string Err = checkBlockShape(*S);
    if (!Err.empty())
      error(Err);
  }
  return *S;
}

TValue Semantic::expandToShape(TValue X, llvm::ArrayRef<int64_t> Dims) {
  if (Dims.empty() || X.Ty->getShape() == Dims)
    return X;
  DType *Elem = X.Ty->getScalar();
  if (!X.Ty->isBlock())
    return make(B.createSplat(X.V, Dims), DType::getBlock(Elem, Dims));
  while (X.Ty->getShape().size() < Dims.size()) {
    Shape Padded = {1};
    Padded.append(X.Ty->getShape().begin(), X.Ty->getShape().end());
    X = make(B.createExpandDims(X.V, 0), DType::getBlock(Elem, Padded));
  }
  if (X.Ty->getShape() == Dims)
    return X;
  return make(B.createBroadcast(X.V, Dims), DType::getBlock(Elem, Dims));
}

TValue Semantic::broadcastToShape(TValue X, llvm::ArrayRef<int64_t> Dims) {
  llvm::ArrayRef<int64_t> Src = X.Ty->getShape();
  if (Src == Dims)
    return X;
  std::string Prefix =
      "cannot broadcast " + formatShape(Src) + " to " + formatShape(Dims);
  if (Dims.empty())
    error(Prefix + ": a block does not fit a scalar");
  if (!X.Ty->isBlock())
    return expandToShape(X, Dims);
  if (Src.size() != Dims.size())
    error(Prefix + ": the ranks differ");
  for (size_t I = 0; I < Src.size(); ++I)
    if (Src[I] != Dims[I] && Src[I] != 1)
      error(Prefix + ": dimension " + llvm::Twine(I) + " has size " +
            llvm::Twine(Src[I]) + ", not 1 or " + llvm::Twine(Dims[I]));
  return expandToShape(X, Dims);
}

//===----------------------------------------------------------------------===//
// tl.broadcast, tl.broadcast_to
//===----------------------------------------------------------------------===//

TValue Semantic::broadcastTo(Operand X, llvm::ArrayRef<int64_t> Dims) {
  if (!Dims.empty()) {
    std::string Err = checkBlockShape(Dims);
    if (!Err.empty())
      error(Err);
  }
  return broadcastToShape(toValue(X), Dims);
}

std::pair<TValue, TValue> Semantic::broadcast(Operand A, Operand Bv) {
  TValue X = toValue(A), Y = toValue(Bv);
  Shape S = commonShape(X.Ty->getShape(), Y.Ty->getShape(), "broadcast");
  return {expandToShape(X, S), expandToShape(Y, S)};
}

//===----------------------------------------------------------------------===//
// Reshaping
//===----------------------------------------------------------------------===//

TValue Semantic::reshape(TValue X, llvm::ArrayRef<int64_t> Dims,
                         bool CanReorder) {
  if (Dims.empty()) // x.item(), tl.reshape(x, ()): a one-element block's element
    return unsplat(X);
  std::string Err = checkBlockShape(Dims);
  if (!Err.empty())
    error(Err);
  int64_t N = 1;
  for (int64_t D : Dims)
    N *= D;
  if (X.Ty->getNumElements() != N)
    error("cannot reshape " + shapeOf(X.Ty) + " (" +
          llvm::Twine(X.Ty->getNumElements()) + " elements) to " +
          formatShape(Dims) + " (" + llvm::Twine(N) +
          " elements): reshape cannot change the number of elements");
  if (X.Ty->getShape() == Dims)
    return X;
  DType *Result = DType::getBlock(X.Ty->getScalar(), Dims);
  if (!X.Ty->isBlock())
    return make(B.createSplat(X.V, Dims), Result);
  return make(B.createReshape(X.V, Dims, CanReorder), Result);
}

TValue Semantic::unsplat(TValue X) {
  if (!X.Ty->isBlock())
    return X;
  if (X.Ty->getNumElements() != 1)
    error("cannot reshape " + shapeOf(X.Ty) + " (" + llvm::Twine(X.Ty->getNumElements()) +
          " elements) to a scalar: only a block of one element has one value");
  return make(B.createReshape(X.V, {}, false), X.Ty->getScalar());
}

TValue Semantic::expandDims(TValue X, int64_t Axis) {
  int64_t Rank = X.Ty->getShape().size();
  std::optional<int64_t> A = wrapAxis(Axis, Rank + 1);
  if (!A)
    error("invalid axis " + llvm::Twine(Axis) + ". Expected " +
          llvm::Twine(-(Rank + 1)) + " <= axis < " + llvm::Twine(Rank + 1));
  Shape Dims(X.Ty->getShape().begin(), X.Ty->getShape().end());
  Dims.insert(Dims.begin() + *A, 1);
  DType *Result = DType::getBlock(X.Ty->getScalar(), Dims);
  if (!X.Ty->isBlock())
    return make(B.createSplat(X.V, Dims), Result);
  return make(B.createExpandDims(X.V, *A), Result);
}

TValue Semantic::permute(TValue X, llvm::ArrayRef<int64_t> Dims) {
  llvm::ArrayRef<int64_t> Src = X.Ty->getShape();
  if (!X.Ty->isBlock())
    error("permute expects a block, got a scalar " + X.Ty->getName());
  if (Dims.size() != Src.size())
    error("permute dims " + formatList(Dims) +
          " must have the same length as the input shape " + shapeOf(X.Ty));
  llvm::SmallSet<int64_t, 4> Seen;
  for (int64_t D : Dims)
    if (D < 0 || D >= int64_t(Src.size()) || !Seen.insert(D).second)
      error("permute dims must be a permutation of 0, 1, ..., n-1, but were " +
            formatList(Dims));
  Shape Out;
  for (int64_t D : Dims)
    Out.push_back(Src[D]);
  return make(B.createTrans(X.V, Dims),
              DType::getBlock(X.Ty->getScalar(), Out));
}

TValue Semantic::trans(TValue X) { return permute(X, {1, 0}); }

//===----------------------------------------------------------------------===//
// join, split, cat
//===----------------------------------------------------------------------===//

TValue Semantic::join(Operand A, Operand Bv) {
  TValue X = toValue(A), Y = toValue(Bv);
  if (X.Ty->getScalar() != Y.Ty->getScalar())
    error("join expects operands of one type, got " +
          X.Ty->getScalar()->getName() + " and " +
          Y.Ty->getScalar()->getName());
  Shape S = commonShape(X.Ty->getShape(), Y.Ty->getShape(), "join");
  X = expandToShape(X, S);
  Y = expandToShape(Y, S);
  S.push_back(2);
  std::string Err = checkBlockShape(S);
  if (!Err.empty())
    error(Err);
  return make(B.createJoin(X.V, Y.V), DType::getBlock(X.Ty->getScalar(), S));
}

std::pair<TValue, TValue> Semantic::split(TValue X) {
  if (!X.Ty->isBlock() || X.Ty->getShape().back() != 2)
    error("split expects a block whose last dimension is 2, got " +
          (X.Ty->isBlock() ? shapeOf(X.Ty) : "a scalar " + X.Ty->getName()));
  auto [L, R] = B.createSplit(X.V);
  DType *Half =
      DType::getShaped(X.Ty->getScalar(), X.Ty->getShape().drop_back());
  return {make(L, Half), make(R, Half)};
}

TValue Semantic::cat(TValue A, TValue Bv, bool CanReorder) {
  // The IR's cat keeps the order, which satisfies can_reorder either way.
  (void)CanReorder;
  if (!A.Ty->isBlock() || !Bv.Ty->isBlock())
    error("cat expects two blocks, got " + A.Ty->getName() + " and " +
          Bv.Ty->getName());
  if (A.Ty != Bv.Ty)
    error("cat expects two blocks of one type and shape, got " +
          A.Ty->getName() + " and " + Bv.Ty->getName());
  Shape S(A.Ty->getShape().begin(), A.Ty->getShape().end());
  S[0] *= 2;
  std::string Err = checkBlockShape(S);
  if (!Err.empty())
    error(Err);
  return make(B.createCat(A.V, Bv.V), DType::getBlock(A.Ty->getScalar(), S));
}
