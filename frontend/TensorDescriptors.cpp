//===- TensorDescriptors.cpp - tl.make_tensor_descriptor, desc.load/store -===//
//
// Triton 3.6's device-side descriptors: make_tensor_descriptor(base, shape,
// strides, block_shape) names a strided tensor in global memory, and
// load/store move one block of block_shape at element offsets, zeros read
// outside the tensor and nothing written there. The rules (and messages)
// are Triton's; shapes and offsets are int32, strides int64, as Triton
// converts them. Block pointers (tl.make_block_ptr) are descriptors too:
// the tensor's with int64 shapes, arbitrary strides and no 16-byte rule,
// whose loads and stores carry the boundary_check dimensions (`boundary`)
// and padding_option (`padding = nan`); the offsets and tl.advance stay in
// the Python block_ptr, which holds the descriptor. The type rules are
// free functions; the interpreter asks typeTensorDescriptor for a host-side
// descriptor argument (_C.frontend.tensor_descriptor_typing).
//
//===----------------------------------------------------------------------===//

#include "frontend/Promotion.h"
#include "frontend/Semantic.h"
#include "ir/Instructions.h"

using namespace tritium;

std::string tritium::checkIntegers(llvm::StringRef What, DType *T) {
  if (T->isInt())
    return "";
  return (What + " must be integers, got " + T->getName()).str();
}

TypeResult tritium::typeTensorDescriptor(DType *Base, size_t NumShape, size_t NumStrides,
                                         llvm::ArrayRef<int64_t> Block,
                                         std::optional<int64_t> LastStride) {
  if (!Base->isPointer())
    return TypeResult::fail("Expected base to be a pointer, got " + Base->getName());
  DType *Elem = Base->getPointee();
  if (!(Elem->isInt() || Elem->isFloat()) || Elem->isBool())
    return TypeResult::fail("A tensor descriptor holds numbers, not " + Elem->getName());
  size_t Rank = Block.size();
  if (Rank < 1 || Rank > 5)
    return TypeResult::fail("Expected 1 <= ndim <= 5 but got " + std::to_string(Rank) +
                            " dimensions");
  if (NumShape != Rank || NumStrides != Rank)
    return TypeResult::fail("Expected shape, strides and block_shape of one length, got " +
                            std::to_string(NumShape) + ", " + std::to_string(NumStrides) +
                            " and " + std::to_string(Rank));
  std::string Why = BlockType::checkShape(Block);
  if (!Why.empty())
    return TypeResult::fail("block_shape " + formatShape(Block) + ": " + Why);
  unsigned Bytes = Elem->getBitWidth() / 8;
  if (Block.back() * Bytes < 16)
    return TypeResult::fail("Descriptor block shape must have at least 16 bytes in the last "
                            "dimension, but got " + std::to_string(Block.back()) + " * " +
                            std::to_string(Bytes) + " = " +
                            std::to_string(Block.back() * Bytes) + " bytes");
  if (LastStride != 1)
    return TypeResult::fail("Tensor descriptor last dim must be 1 but got " +
                            (LastStride ? std::to_string(*LastStride) : "a runtime value"));
  return TypeResult::ok(DType::getTensorDesc(Elem, Block));
}

TypeResult tritium::typeBlockPointer(DType *Base, size_t NumShape, size_t NumStrides,
                                     size_t NumOffsets, llvm::ArrayRef<int64_t> Block,
                                     llvm::ArrayRef<int64_t> Order) {
  if (!Base->isPointer() || Base->isBlock())
    return TypeResult::fail("make_block_ptr's base must be a scalar pointer, got " +
                            Base->getName());
  DType *Elem = Base->getPointee();
  if (!Elem->isInt() && !Elem->isFloat())
    return TypeResult::fail("make_block_ptr: a block pointer points to numbers, not " +
                            Elem->getName());
  size_t Rank = Block.size();
  if (NumShape != Rank || NumStrides != Rank || NumOffsets != Rank || Order.size() != Rank)
    return TypeResult::fail("make_block_ptr: shape, strides, offsets, block_shape and order must "
                            "have the same length (got " + std::to_string(NumShape) + ", " +
                            std::to_string(NumStrides) + ", " + std::to_string(NumOffsets) +
                            ", " + std::to_string(Rank) + ", " + std::to_string(Order.size()) +
                            ")");
  llvm::SmallVector<int64_t, 5> Sorted(Order.begin(), Order.end());
  llvm::sort(Sorted);
  for (size_t D = 0; D < Rank; ++D)
    if (Sorted[D] != int64_t(D))
      return TypeResult::fail("make_block_ptr: order must be a permutation of 0.." +
                              std::to_string(int64_t(Rank) - 1) + ", got " + formatShape(Order));
  if (Rank < 1 || Rank > 5)
    return TypeResult::fail("make_block_ptr: a block pointer has 1 to 5 dimensions, got " +
                            std::to_string(Rank));
  std::string Why = BlockType::checkShape(Block);
  if (!Why.empty())
    return TypeResult::fail("make_block_ptr: block_shape " + formatShape(Block) + ": " + Why);
  return TypeResult::ok(DType::getTensorDesc(Elem, Block));
}

std::string tritium::checkBlockAccess(DType *Desc, llvm::ArrayRef<int64_t> Boundary,
                                      llvm::StringRef Padding) {
  size_t Rank = Desc->getShape().size();
  for (int64_t D : Boundary)
    if (D < 0 || D >= int64_t(Rank))
      return "boundary_check dimension " + std::to_string(D) + " is out of range for a " +
             std::to_string(Rank) + "-D block pointer";
  if (Padding != "" && Padding != "zero" && Padding != "nan")
    return "padding_option must be '', 'zero' or 'nan', got '" + Padding.str() + "'";
  if (Padding == "nan" && !Desc->getDescElement()->isFloat())
    return "padding_option 'nan' needs a floating-point block pointer";
  return "";
}

std::string tritium::checkDescriptorAccess(DType *Desc, size_t NumOffsets, DType *Value) {
  const char *What = Value ? "descriptor store" : "descriptor load";
  if (!Desc->isTensorDesc())
    return std::string(What) + " expects a tensor descriptor, got " + Desc->getName();
  if (NumOffsets != Desc->getShape().size())
    return std::string(What) + ": expected " + std::to_string(Desc->getShape().size()) +
           " offsets, got " + std::to_string(NumOffsets);
  if (Value && Value->getShape() != Desc->getShape())
    return "Descriptor block shape " + formatShape(Desc->getShape()) + " and value shape " +
           formatShape(Value->getShape()) + " mismatch";
  return "";
}

TValue Semantic::makeTensorDescriptor(TValue Base, llvm::ArrayRef<Operand> Shape,
                                      llvm::ArrayRef<Operand> Strides,
                                      llvm::ArrayRef<int64_t> BlockShape,
                                      Argument *TensorMap) {
  std::optional<int64_t> Last;
  if (!Strides.empty()) {
    const Operand &S = Strides.back();
    if (S.getKind() == Operand::Kind::Int)
      Last = S.getInt();
    else if (S.isValue())
      if (auto *C = llvm::dyn_cast_or_null<ConstantInst>(
              S.getValue().V->getDefiningInstruction()))
        if (!C->isFloat())
          Last = C->getIntValue();
  }
  TypeResult R = typeTensorDescriptor(Base.Ty, Shape.size(), Strides.size(), BlockShape, Last);
  if (!R)
    error(R.Error);
  auto Ints = [&](llvm::ArrayRef<Operand> Xs, DType *To, const char *What) {
    llvm::SmallVector<Value *, 5> Out;
    for (const Operand &X : Xs) {
      std::string Err = checkIntegers(std::string("tensor descriptor ") + What, typeOf(X));
      if (!Err.empty())
        error(Err);
      Out.push_back(castTo(toValue(X), To).V);
    }
    return Out;
  };
  llvm::SmallVector<Value *, 5> Dims = Ints(Shape, DType::getInt(32), "shapes");
  llvm::SmallVector<Value *, 5> Steps = Ints(Strides, DType::getInt(64), "strides");
  auto *Ty = llvm::cast<TensorDescType>(R.Ty->toIR(getContext()));
  if (TensorMap)
    TensorMap->getAttrs().TensorMap = true;
  return make(B.createMakeTensorDesc(Ty, Base.V, Dims, Steps, TensorMap), R.Ty);
}

llvm::SmallVector<Value *, 5> Semantic::descriptorOffsets(TValue Desc,
                                                          llvm::ArrayRef<Operand> Offsets,
                                                          DType *Stored) {
  std::string Why = checkDescriptorAccess(Desc.Ty, Offsets.size(), Stored);
  if (!Why.empty())
    error(Why);
  llvm::SmallVector<Value *, 5> Out;
  for (const Operand &O : Offsets) {
    std::string Err = checkIntegers("descriptor offsets", typeOf(O));
    if (!Err.empty())
      error(Err);
    Out.push_back(castTo(toValue(O), DType::getInt(32)).V);
  }
  return Out;
}

TValue Semantic::makeBlockPointer(TValue Base, llvm::ArrayRef<Operand> Shape,
                                  llvm::ArrayRef<Operand> Strides, size_t NumOffsets,
                                  llvm::ArrayRef<int64_t> BlockShape,
                                  llvm::ArrayRef<int64_t> Order) {
  TypeResult R =
      typeBlockPointer(Base.Ty, Shape.size(), Strides.size(), NumOffsets, BlockShape, Order);
  if (!R)
    error(R.Error);
  auto Ints = [&](llvm::ArrayRef<Operand> Xs, const char *What) {
    llvm::SmallVector<Value *, 5> Out;
    for (const Operand &X : Xs) {
      std::string Err = checkIntegers(std::string(What) + " of a block pointer", typeOf(X));
      if (!Err.empty())
        error(Err);
      Out.push_back(castTo(toValue(X), DType::getInt(64)).V);
    }
    return Out;
  };
  llvm::SmallVector<Value *, 5> Dims = Ints(Shape, "the shape");
  llvm::SmallVector<Value *, 5> Steps = Ints(Strides, "the strides");
  auto *Ty = llvm::cast<TensorDescType>(R.Ty->toIR(getContext()));
  return make(B.createMakeTensorDesc(Ty, Base.V, Dims, Steps, nullptr), R.Ty);
}

namespace {
/// A block pointer access's `boundary` attribute: its dimensions, sorted
/// and without repeats.
void setBoundary(Instruction &Access, llvm::ArrayRef<int64_t> Boundary) {
  llvm::SmallVector<int64_t, 5> Dims(Boundary.begin(), Boundary.end());
  llvm::sort(Dims);
  Dims.erase(std::unique(Dims.begin(), Dims.end()), Dims.end());
  Access.setAttr(AttrKey::Boundary, AttrValue::intList(Dims));
}

/// tl.load's and tl.store's hints on a descriptor access, which its
/// lowering passes on.
void setHints(Instruction &Access, std::optional<CacheModifier> Cache,
              std::optional<EvictionPolicy> Evict, bool Volatile) {
  if (Cache)
    Access.setAttr(AttrKey::Cache, AttrValue::enumerator(unsigned(*Cache)));
  if (Evict)
    Access.setAttr(AttrKey::Evict, AttrValue::enumerator(unsigned(*Evict)));
  if (Volatile)
    Access.setAttr(AttrKey::Volatile, AttrValue::unit());
}
} // namespace

TValue Semantic::descriptorLoad(TValue Desc, llvm::ArrayRef<Operand> Offsets,
                                std::optional<llvm::ArrayRef<int64_t>> Boundary,
                                llvm::StringRef Padding, llvm::StringRef Cache,
                                llvm::StringRef Evict, bool Volatile) {
  llvm::SmallVector<Value *, 5> Offs = descriptorOffsets(Desc, Offsets, nullptr);
  LoadOptions Opts = loadOptions(Cache, Evict, Volatile);
  if (Boundary) {
    std::string Why = checkBlockAccess(Desc.Ty, *Boundary, Padding);
    if (!Why.empty())
      error(Why);
  }
  DType *Block = DType::getBlock(Desc.Ty->getDescElement(), Desc.Ty->getShape());
  Value *Loaded = B.createDescriptorLoad(Desc.V, Offs);
  Instruction &Load = *Loaded->getDefiningInstruction();
  if (Boundary)
    setBoundary(Load, *Boundary);
  if (Padding == "nan")
    Load.setAttr(AttrKey::Padding, AttrValue::enumerator(unsigned(PaddingOption::NaN)));
  setHints(Load, Opts.Cache, Opts.Evict, Opts.Volatile);
  return make(Loaded, Block);
}

void Semantic::descriptorStore(TValue Desc, llvm::ArrayRef<Operand> Offsets, Operand Val,
                               std::optional<llvm::ArrayRef<int64_t>> Boundary,
                               llvm::StringRef Cache, llvm::StringRef Evict) {
  DType *ValTy = typeOf(Val);
  llvm::SmallVector<Value *, 5> Offs = descriptorOffsets(Desc, Offsets, ValTy);
  StoreOptions Opts = storeOptions(Cache, Evict);
  if (Boundary) {
    std::string Why = checkBlockAccess(Desc.Ty, *Boundary, "");
    if (!Why.empty())
      error(Why);
  }
  Instruction *Store = B.createDescriptorStore(
      Desc.V, Offs, castTo(toValue(Val), Desc.Ty->getDescElement()).V);
  if (Boundary)
    setBoundary(*Store, *Boundary);
  setHints(*Store, Opts.Cache, Opts.Evict, false);
}
