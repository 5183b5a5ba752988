//===- DType.h - Types of the kernel language -------------------*- C++ -*-===//
//
// The language's types are the IR's types plus what the IR leaves to its
// operations: whether an integer is signed (int32 vs uint32) and whether a
// pointer is const. Promotion, division and comparison rules depend on them,
// so the semantic layer types every value it creates with a DType and lowers
// to the signless IR type only when it emits instructions.
//
// DTypes are uniqued process-wide and immutable (tl.float32 is a global of
// the Python package), and compare by pointer. Names are Triton's: int1,
// int8..int64, uint8..uint64, fp8e4nv, fp8e5, fp8e4b15, fp16, bf16, fp32, fp64,
// pointer<fp32>, <128x64xfp16>, tensordesc<fp16[64, 64]>.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_FRONTEND_DTYPE_H
#define TRITIUM_FRONTEND_DTYPE_H

#include "ir/Types.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tritium {

class Context;

class DType {
public:
  enum class Kind : uint8_t { Void, Int, Float, Pointer, Block, TensorDesc };

  Kind getKind() const { return K; }
  bool isVoid() const { return K == Kind::Void; }
  bool isInt() const { return K == Kind::Int; }
  bool isBool() const { return K == Kind::Int && Width == 1; }
  /// int8..int64. int1 counts as unsigned, as in Triton: bool promotes like
  /// an unsigned integer, compares unsigned and converts with zext/uitofp.
  bool isSigned() const { return K == Kind::Int && Signed && Width != 1; }
  /// uint8..uint64 and int1.
  bool isUnsigned() const { return K == Kind::Int && (!Signed || Width == 1); }
  /// fp16, bf16, fp32 and fp64 (Triton's "standard" floats: not fp8).
  bool isStandardFloat() const { return isFloat() && !isFP8(); }
  bool isFloat() const { return K == Kind::Float; }
  bool isFP8() const {
    return K == Kind::Float && FK >= Type::Kind::F8E4M3 && FK <= Type::Kind::F8E4M3B15;
  }
  bool isPointer() const { return K == Kind::Pointer; }
  bool isBlock() const { return K == Kind::Block; }
  /// A tensor descriptor: getScalar() is itself, getShape() its block's,
  /// getDescElement() what it holds.
  bool isTensorDesc() const { return K == Kind::TensorDesc; }
  DType *getDescElement() const { return K == Kind::TensorDesc ? Elem : nullptr; }
  /// Int, float or pointer.
  bool isScalar() const { return isInt() || isFloat() || isPointer(); }

  /// Bit width of an int (1 for int1) or float; 64 for pointers.
  unsigned getBitWidth() const;
  /// The IR float kind of a float type.
  Type::Kind getFloatKind() const { return FK; }
  /// Significand bits including the implicit one (fp32: 24).
  unsigned getFPMantissaWidth() const;
  /// Pointee of a pointer type.
  DType *getPointee() const { return Elem; }
  unsigned getAddressSpace() const { return AddrSpace; }
  /// A pointer the kernel may not store through (tl.const).
  bool isConst() const { return Const; }
  /// Element type of a block; the type itself for scalars.
  DType *getScalar() const;
  /// Shape of a block; empty for scalars.
  llvm::ArrayRef<int64_t> getShape() const { return Dims; }
  int64_t getNumElements() const;
  /// The same shape as this type with scalar \p S (a scalar if this is one).
  DType *withScalar(DType *S) const;

  /// Triton's spelling: int32, uint8, fp16, pointer<fp32>, <128x64xfp16>.
  const std::string &getName() const { return Name; }
  /// The signless IR type.
  Type *toIR(Context &C) const;

  // Constructors.
  static DType *getVoid();
  static DType *getInt(unsigned Width, bool Signed = true);
  static DType *getBool() { return getInt(1, true); }
  static DType *getFloat(Type::Kind K);
  static DType *getPointer(DType *Pointee, unsigned AddrSpace = 1,
                           bool Const = false);
  /// \p Elem must be a scalar and \p Shape non-empty with power-of-two dims.
  static DType *getBlock(DType *Elem, llvm::ArrayRef<int64_t> Shape);
  /// A descriptor of a tensor of \p Elem (a number type) read by blocks of
  /// \p Block (TensorDescType::check must accept them).
  static DType *getTensorDesc(DType *Elem, llvm::ArrayRef<int64_t> Block);
  /// \p Elem shaped by \p Shape; \p Elem itself when the shape is empty.
  static DType *getShaped(DType *Elem, llvm::ArrayRef<int64_t> Shape);
  /// Looks up a scalar type by its name ("fp32", "uint8", also Triton's
  /// aliases "float32", "bfloat16", "float8e4nv", ...); null if unknown.
  static DType *fromName(llvm::StringRef Name);
  /// The language type of an IR type, integers taken as signed.
  static DType *fromIR(Type *T);

private:
  DType() = default;
  friend struct DTypeTable;
  Kind K = Kind::Void;
  unsigned Width = 0;
  bool Signed = true;
  Type::Kind FK = Type::Kind::Void;
  DType *Elem = nullptr;
  unsigned AddrSpace = 0;
  bool Const = false;
  llvm::SmallVector<int64_t, 4> Dims;
  std::string Name;
};

} // namespace tritium

#endif // TRITIUM_FRONTEND_DTYPE_H
