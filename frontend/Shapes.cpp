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
// The rules (Promotion.h): each returns why the operation is wrong, or "".
//===----------------------------------------------------------------------===//

std::string tritium::checkCommonShape(llvm::ArrayRef<int64_t> A, llvm::ArrayRef<int64_t> B,
                                      llvm::StringRef What) {
  std::optional<Shape> S = broadcastShapes(A, B);
  if (!S)
    return "incompatible shapes " + formatShape(A) + " and " + formatShape(B) + " for " +
           What.str();
  // [1024, 1] and [1, 2048] broadcast to more elements than a block holds.
  return S->empty() ? "" : checkBlockShape(*S);
}

std::string tritium::checkBroadcastTo(llvm::ArrayRef<int64_t> Src, bool SrcIsBlock,
                                      llvm::ArrayRef<int64_t> Dims) {
  if (Src == Dims)
    return "";
  std::string Prefix = "cannot broadcast " + formatShape(Src) + " to " + formatShape(Dims);
  if (Dims.empty())
    return Prefix + ": a block does not fit a scalar";
  if (!SrcIsBlock)
    return "";
  if (Src.size() != Dims.size())
    return Prefix + ": the ranks differ";
  for (size_t I = 0; I < Src.size(); ++I)
    if (Src[I] != Dims[I] && Src[I] != 1)
      return (Prefix + ": dimension " + llvm::Twine(I) + " has size " + llvm::Twine(Src[I]) +
              ", not 1 or " + llvm::Twine(Dims[I]))
          .str();
  return "";
}

std::string tritium::checkReshape(DType *X, llvm::ArrayRef<int64_t> Dims) {
  int64_t Have = X->getNumElements();
  if (Dims.empty()) // x.item(), tl.reshape(x, ()): a one-element block's element
    return Have == 1 || !X->isBlock()
               ? ""
               : "cannot reshape " + shapeOf(X) + " (" + std::to_string(Have) +
                     " elements) to a scalar: only a block of one element has one value";
  std::string Err = checkBlockShape(Dims);
  if (!Err.empty())
    return Err;
  int64_t N = 1;
  for (int64_t D : Dims)
    N *= D;
  if (Have != N)
    return "cannot reshape " + shapeOf(X) + " (" + std::to_string(Have) + " elements) to " +
           formatShape(Dims) + " (" + std::to_string(N) +
           " elements): reshape cannot change the number of elements";
  return "";
}

std::string tritium::checkAxis(int64_t Axis, int64_t Rank) {
  if (wrapAxis(Axis, Rank))
    return "";
  return ("invalid axis " + llvm::Twine(Axis) + ". Expected " + llvm::Twine(-Rank) +
          " <= axis < " + llvm::Twine(Rank))
      .str();
}

std::string tritium::checkPermute(DType *X, llvm::ArrayRef<int64_t> Dims) {
  llvm::ArrayRef<int64_t> Src = X->getShape();
  if (!X->isBlock())
    return "permute expects a block, got a scalar " + X->getName();
  if (Dims.size() != Src.size())
    return "permute dims " + formatList(Dims) +
           " must have the same length as the input shape " + shapeOf(X);
  llvm::SmallSet<int64_t, 4> Seen;
  for (int64_t D : Dims)
    if (D < 0 || D >= int64_t(Src.size()) || !Seen.insert(D).second)
      return "permute dims must be a permutation of 0, 1, ..., n-1, but were " +
             formatList(Dims);
  return "";
}

std::string tritium::checkJoin(DType *X, DType *Y) {
  if (X->getScalar() != Y->getScalar())
    return "join expects operands of one type, got " + X->getScalar()->getName() + " and " +
           Y->getScalar()->getName();
  std::string Err = checkCommonShape(X->getShape(), Y->getShape(), "join");
  if (!Err.empty())
    return Err;
  Shape S = *broadcastShapes(X->getShape(), Y->getShape());
  S.push_back(2);
  return checkBlockShape(S);
}

std::string tritium::checkSplit(DType *X) {
  if (!X->isBlock() || X->getShape().back() != 2)
    return "split expects a block whose last dimension is 2, got " +
           (X->isBlock() ? shapeOf(X) : "a scalar " + X->getName());
  return "";
}

std::string tritium::checkCat(DType *A, DType *B) {
  if (!A->isBlock() || !B->isBlock())
    return "cat expects two blocks, got " + A->getName() + " and " + B->getName();
  if (A != B)
    return "cat expects two blocks of one type and shape, got " + A->getName() + " and " +
           B->getName();
  Shape S(A->getShape().begin(), A->getShape().end());
  S[0] *= 2;
  return checkBlockShape(S);
}

std::string tritium::checkGather(DType *Src, DType *Index, int64_t Axis) {
  if (!Src->isBlock() || !Index->isBlock())
    return "gather expects blocks, got " + Src->getName() + " and " + Index->getName();
  if (!Index->getScalar()->isInt() || Index->getScalar()->isBool())
    return "index must be an integer tensor, got " + Index->getName();
  int64_t Rank = int64_t(Src->getShape().size());
  if (int64_t(Index->getShape().size()) != Rank)
    return "source and index tensors must have the same rank";
  if (Axis < -Rank || Axis >= Rank)
    return "gather axis " + std::to_string(Axis) + " must be < source rank (" +
           std::to_string(Rank) + ")";
  if (Axis < 0)
    Axis += Rank;
  for (int64_t D = 0; D < Rank; ++D)
    if (D != Axis && Index->getShape()[D] != Src->getShape()[D])
      return "index dim " + std::to_string(D) + " must match the corresponding source dim";
  return "";
}

//===----------------------------------------------------------------------===//
// Broadcasting helpers
//===----------------------------------------------------------------------===//

Shape Semantic::commonShape(llvm::ArrayRef<int64_t> A,
                            llvm::ArrayRef<int64_t> B,
                            llvm::StringRef What) const {
  std::string Err = checkCommonShape(A, B, What);
  if (!Err.empty())
    error(Err);
  return *broadcastShapes(A, B);
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
  std::string Err = checkBroadcastTo(X.Ty->getShape(), X.Ty->isBlock(), Dims);
  if (!Err.empty())
    error(Err);
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
  std::string Err = checkReshape(X.Ty, Dims);
  if (!Err.empty())
    error(Err);
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
  std::string Err = checkReshape(X.Ty, {});
  if (!Err.empty())
    error(Err);
  return make(B.createReshape(X.V, {}, false), X.Ty->getScalar());
}

TValue Semantic::expandDims(TValue X, int64_t Axis) {
  int64_t Rank = X.Ty->getShape().size();
  std::string Err = checkAxis(Axis, Rank + 1);
  if (!Err.empty())
    error(Err);
  std::optional<int64_t> A = wrapAxis(Axis, Rank + 1);
  Shape Dims(X.Ty->getShape().begin(), X.Ty->getShape().end());
  Dims.insert(Dims.begin() + *A, 1);
  DType *Result = DType::getBlock(X.Ty->getScalar(), Dims);
  if (!X.Ty->isBlock())
    return make(B.createSplat(X.V, Dims), Result);
  return make(B.createExpandDims(X.V, *A), Result);
}

TValue Semantic::permute(TValue X, llvm::ArrayRef<int64_t> Dims) {
  std::string Err = checkPermute(X.Ty, Dims);
  if (!Err.empty())
    error(Err);
  llvm::ArrayRef<int64_t> Src = X.Ty->getShape();
  Shape Out;
  for (int64_t D : Dims)
    Out.push_back(Src[D]);
  return make(B.createTrans(X.V, Dims),
              DType::getBlock(X.Ty->getScalar(), Out));
}

//===----------------------------------------------------------------------===//
// join, split, cat
//===----------------------------------------------------------------------===//

TValue Semantic::join(Operand A, Operand Bv) {
  TValue X = toValue(A), Y = toValue(Bv);
  std::string Err = checkJoin(X.Ty, Y.Ty);
  if (!Err.empty())
    error(Err);
  Shape S = *broadcastShapes(X.Ty->getShape(), Y.Ty->getShape());
  X = expandToShape(X, S);
  Y = expandToShape(Y, S);
  S.push_back(2);
  return make(B.createJoin(X.V, Y.V), DType::getBlock(X.Ty->getScalar(), S));
}

std::pair<TValue, TValue> Semantic::split(TValue X) {
  std::string Err = checkSplit(X.Ty);
  if (!Err.empty())
    error(Err);
  auto [L, R] = B.createSplit(X.V);
  DType *Half =
      DType::getShaped(X.Ty->getScalar(), X.Ty->getShape().drop_back());
  return {make(L, Half), make(R, Half)};
}

TValue Semantic::gather(TValue Src, TValue Index, int64_t Axis) {
  std::string Err = checkGather(Src.Ty, Index.Ty, Axis);
  if (!Err.empty())
    error(Err);
  if (Axis < 0)
    Axis += int64_t(Src.Ty->getShape().size());
  return make(B.createGather(Src.V, Index.V, unsigned(Axis)),
              DType::getBlock(Src.Ty->getScalar(), Index.Ty->getShape()));
}

TValue Semantic::cat(TValue A, TValue Bv, bool CanReorder) {
  // The IR's cat keeps the order, which satisfies can_reorder either way.
  (void)CanReorder;
  std::string Err = checkCat(A.Ty, Bv.Ty);
  if (!Err.empty())
    error(Err);
  Shape S(A.Ty->getShape().begin(), A.Ty->getShape().end());
  S[0] *= 2;
  return make(B.createCat(A.V, Bv.V), DType::getBlock(A.Ty->getScalar(), S));
}
