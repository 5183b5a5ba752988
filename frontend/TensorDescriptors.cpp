//===- TensorDescriptors.cpp - tl.make_tensor_descriptor, desc.load/store -===//
//
// Triton 3.6's device-side descriptors: make_tensor_descriptor(base, shape,
// strides, block_shape) names a strided tensor in global memory, and
// load/store move one block of block_shape at element offsets, zeros read
// outside the tensor and nothing written there. The rules (and messages)
// are Triton's; shapes and offsets are int32, strides int64, as Triton
// converts them. The type rules are free functions so that the
// interpreter asks them too (_C.frontend.tensor_descriptor_typing).
//
//===----------------------------------------------------------------------===//

#include "frontend/Promotion.h"
#include "frontend/Semantic.h"
#include "ir/Instructions.h"

using namespace tritium;

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
      DType *T = typeOf(X);
      if (!T->isInt())
        error(llvm::Twine("tensor descriptor ") + What + " must be integers, got " + T->getName());
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
    DType *T = typeOf(O);
    if (!T->isInt())
      error("descriptor offsets must be integers, got " + T->getName());
    Out.push_back(castTo(toValue(O), DType::getInt(32)).V);
  }
  return Out;
}

TValue Semantic::descriptorLoad(TValue Desc, llvm::ArrayRef<Operand> Offsets) {
  llvm::SmallVector<Value *, 5> Offs = descriptorOffsets(Desc, Offsets, nullptr);
  DType *Block = DType::getBlock(Desc.Ty->getDescElement(), Desc.Ty->getShape());
  return make(B.createDescriptorLoad(Desc.V, Offs), Block);
}

void Semantic::descriptorStore(TValue Desc, llvm::ArrayRef<Operand> Offsets, Operand Val) {
  DType *ValTy = typeOf(Val);
  llvm::SmallVector<Value *, 5> Offs = descriptorOffsets(Desc, Offsets, ValTy);
  B.createDescriptorStore(Desc.V, Offs, castTo(toValue(Val), Desc.Ty->getDescElement()).V);
}
