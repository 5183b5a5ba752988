//===- Types.h - Tritium IR types --------------------------------*- C++ -*-===//
//
// The type system of the Tritium IR. Types are uniqued in a Context and
// compared by pointer:
//
//   void, i1, i8, i16, i32, i64          integers are signless
//   f8e4m3, f8e5m2, f8e4b15, f16, bf16,  floats (f8e4b15: f8e4m3's encoding
//   f32, f64                             with exponent bias 15)
//   ptr<T> / ptr<T, AS>                  pointer to a scalar in address space AS
//   <d0 x d1 x ... x T>                  a block (tile) of scalars; every
//                                        dimension is a static power of two
//   (T0, T1) -> R / -> (R0, R1)          function types
//   memdesc<[S x] d0 x ... x T, L[, mutable]>
//                                        a block of T in shared memory, laid
//                                        out by the shared layout L (offset
//                                        -> coordinates); S buffers of it
//                                        when the leading dimension is there
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_TYPES_H
#define TRITIUM_IR_TYPES_H

#include "ir/LinearLayout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace tritium {

class Context;

/// Shape of a block value: one static extent per dimension.
using Shape = llvm::SmallVector<int64_t, 4>;

class Type {
public:
  enum class Kind : uint8_t {
    Void,
    Int,
    F8E4M3,
    F8E5M2,
    F8E4M3B15,
    F16,
    BF16,
    F32,
    F64,
    Pointer,
    Block,
    Function,
    MemDesc,
    TensorDesc,
  };

  Kind getKind() const { return K; }
  Context &getContext() const { return Ctx; }

  bool isVoid() const { return K == Kind::Void; }
  bool isInt() const { return K == Kind::Int; }
  bool isInt(unsigned Width) const;
  bool isBool() const { return isInt(1); }
  bool isFloat() const { return K >= Kind::F8E4M3 && K <= Kind::F64; }
  bool isFP8() const { return K >= Kind::F8E4M3 && K <= Kind::F8E4M3B15; }
  bool isPointer() const { return K == Kind::Pointer; }
  bool isBlock() const { return K == Kind::Block; }
  bool isFunction() const { return K == Kind::Function; }
  bool isMemDesc() const { return K == Kind::MemDesc; }
  bool isTensorDesc() const { return K == Kind::TensorDesc; }
  /// Int, float or pointer: what a block may hold.
  bool isScalar() const { return isInt() || isFloat() || isPointer(); }

  /// For a block its element type; otherwise the type itself.
  Type *getScalarType();
  /// For a block its shape; for anything else an empty shape.
  llvm::ArrayRef<int64_t> getShape() const;
  unsigned getRank() const { return getShape().size(); }
  /// Number of elements of a block; 1 for scalars.
  int64_t getNumElements() const;
  /// Bit width of an int or float, 64 for pointers, of the element for a
  /// block; 0 for void and functions.
  unsigned getScalarSizeInBits() const;
  /// Bytes one element takes in memory, global or shared: an i1 takes a
  /// byte.
  unsigned getScalarSizeInBytes() const { return std::max(1u, getScalarSizeInBits() / 8); }
  /// Number of significant mantissa bits of a float type (f32: 24).
  unsigned getFPMantissaWidth() const;

  /// The same shape as this type (if a block) with element \p Elem.
  Type *withElement(Type *Elem);

  void print(llvm::raw_ostream &OS) const;
  std::string str() const;

  // Constructors of the scalar types.
  static Type *getVoid(Context &C);
  static Type *getInt(Context &C, unsigned Width);
  static Type *getI1(Context &C) { return getInt(C, 1); }
  static Type *getI8(Context &C) { return getInt(C, 8); }
  static Type *getI16(Context &C) { return getInt(C, 16); }
  static Type *getI32(Context &C) { return getInt(C, 32); }
  static Type *getI64(Context &C) { return getInt(C, 64); }
  static Type *getFloat(Context &C, Kind K);
  static Type *getF16(Context &C) { return getFloat(C, Kind::F16); }
  static Type *getBF16(Context &C) { return getFloat(C, Kind::BF16); }
  static Type *getF32(Context &C) { return getFloat(C, Kind::F32); }
  static Type *getF64(Context &C) { return getFloat(C, Kind::F64); }

  virtual ~Type() = default;

protected:
  Type(Context &C, Kind K) : Ctx(C), K(K) {}

private:
  friend class Context;
  Context &Ctx;
  Kind K;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &OS, const Type &T) {
  T.print(OS);
  return OS;
}

class IntType : public Type {
public:
  unsigned getWidth() const { return Width; }
  /// Whether \p V fits, read as signed or as unsigned (integers are
  /// signless).
  bool fits(int64_t V) const {
    return Width == 64 ||
           (V >= -(int64_t(1) << (Width - 1)) && V < (int64_t(1) << Width));
  }
  static bool classof(const Type *T) { return T->getKind() == Kind::Int; }

private:
  friend class Context;
  IntType(Context &C, unsigned W) : Type(C, Kind::Int), Width(W) {}
  unsigned Width;
};

class PointerType : public Type {
public:
  /// Address spaces as NVPTX and AMDGPU number them.
  enum : unsigned { Generic = 0, Global = 1, Shared = 3 };

  Type *getPointee() const { return Pointee; }
  unsigned getAddressSpace() const { return AddrSpace; }

  /// \p Pointee must be a scalar type, \p AddrSpace one of the above.
  static PointerType *get(Type *Pointee, unsigned AddrSpace = Global);
  /// Why \p AddrSpace cannot be a pointer's, or an empty string if it can.
  static std::string checkAddressSpace(int64_t AddrSpace);
  static bool classof(const Type *T) { return T->getKind() == Kind::Pointer; }

private:
  friend class Context;
  PointerType(Context &C, Type *P, unsigned AS)
      : Type(C, Kind::Pointer), Pointee(P), AddrSpace(AS) {}
  Type *Pointee;
  unsigned AddrSpace;
};

class BlockType : public Type {
public:
  Type *getElementType() const { return Elem; }
  llvm::ArrayRef<int64_t> getBlockShape() const { return Dims; }

  /// log2 of the most elements a block holds: Triton's limit (2^20), which
  /// the frontend enforces too. Everything after the parser and the builder
  /// may assume it (element counts, layouts, unrolled lowering).
  static constexpr unsigned MaxElementsLog2 = 20;

  /// \p Elem must be a scalar and \p Dims valid (see checkShape).
  static BlockType *get(Type *Elem, llvm::ArrayRef<int64_t> Dims);
  /// Why \p Dims cannot be a block shape, or an empty string if it can:
  /// at least one dimension, each a power of two, at most 2^MaxElementsLog2
  /// elements in all.
  static std::string checkShape(llvm::ArrayRef<int64_t> Dims);
  static bool classof(const Type *T) { return T->getKind() == Kind::Block; }

private:
  friend class Context;
  BlockType(Context &C, Type *E, llvm::ArrayRef<int64_t> D)
      : Type(C, Kind::Block), Elem(E), Dims(D.begin(), D.end()) {}
  Type *Elem;
  Shape Dims;
};

/// \p Elem shaped like \p Dims: a scalar for an empty shape.
inline Type *getShapedType(Type *Elem, llvm::ArrayRef<int64_t> Dims) {
  return Dims.empty() ? Elem : BlockType::get(Elem, Dims);
}

class FunctionType : public Type {
public:
  llvm::ArrayRef<Type *> getParams() const { return Params; }
  llvm::ArrayRef<Type *> getResults() const { return Results; }

  static FunctionType *get(Context &C, llvm::ArrayRef<Type *> Params,
                           llvm::ArrayRef<Type *> Results);
  static bool classof(const Type *T) { return T->getKind() == Kind::Function; }

private:
  friend class Context;
  FunctionType(Context &C, llvm::ArrayRef<Type *> P, llvm::ArrayRef<Type *> R)
      : Type(C, Kind::Function), Params(P.begin(), P.end()),
        Results(R.begin(), R.end()) {}
  llvm::SmallVector<Type *, 4> Params;
  llvm::SmallVector<Type *, 1> Results;
};

/// A block in shared memory: what a local_alloc returns and local_load,
/// local_store and memdesc_index take. The shared layout maps an element's
/// offset in one buffer (input "offset", in elements) to its coordinates in
/// the buffer's block shape; it is a bijection (every element at one
/// offset). A leading dimension beyond the layout's counts buffers (the
/// stages of a pipelined loop), which memdesc_index selects. Immutable
/// memory is written once, by the local_alloc that initializes it.
class MemDescType : public Type {
public:
  Type *getElementType() const { return Elem; }
  /// The whole shape, the buffer dimension first when there is one.
  llvm::ArrayRef<int64_t> getAllocShape() const { return Dims; }
  /// The shape of one buffer: the layout's.
  llvm::ArrayRef<int64_t> getBufferShape() const {
    return llvm::ArrayRef<int64_t>(Dims).drop_front(hasBufferDim() ? 1 : 0);
  }
  bool hasBufferDim() const { return Dims.size() == Layout.getOutDims().size() + 1; }
  int64_t getNumBuffers() const { return hasBufferDim() ? Dims[0] : 1; }
  /// Elements of one buffer.
  int64_t getBufferElements() const;
  const LinearLayout &getLayout() const { return Layout; }
  bool isMutable() const { return Mutable; }

  /// \p Elem, \p Dims and \p Layout must pass check().
  static MemDescType *get(Type *Elem, llvm::ArrayRef<int64_t> Dims, const LinearLayout &Layout,
                          bool Mutable);
  /// Why these cannot make a memdesc type, or "": an integer or float
  /// element; powers of two, at most 2^20 elements a buffer and 2^8 buffers;
  /// a layout from one input "offset" onto the buffer shape that is a
  /// bijection.
  static std::string check(Type *Elem, llvm::ArrayRef<int64_t> Dims, const LinearLayout &Layout);
  /// This type with one buffer: the buffer dimension dropped.
  MemDescType *getBufferType() const;
  /// The same bytes with the dimensions permuted: dimension i of the result
  /// is this one's \p Order[i] (one buffer; \p Order a permutation).
  MemDescType *getTransposed(llvm::ArrayRef<int64_t> Order) const;
  static bool classof(const Type *T) { return T->getKind() == Kind::MemDesc; }

private:
  friend class Context;
  MemDescType(Context &C, Type *E, llvm::ArrayRef<int64_t> D, const LinearLayout &L, bool M)
      : Type(C, Kind::MemDesc), Elem(E), Dims(D.begin(), D.end()), Layout(L), Mutable(M) {}
  Type *Elem;
  Shape Dims;
  LinearLayout Layout;
  bool Mutable;
};

/// A tensor descriptor (tl.make_tensor_descriptor): a strided tensor in
/// global memory (base, shape, strides: the descriptor's operands) read and
/// written a block of the one shape at a time, out-of-bounds elements read
/// as zeros and not written. Text: tensordesc<64 x 64 x f16>.
class TensorDescType : public Type {
public:
  Type *getElementType() const { return Elem; }
  llvm::ArrayRef<int64_t> getBlockShape() const { return Dims; }
  /// The type of one block: <d0 x ... x T>.
  BlockType *getBlockType() const;

  /// \p Elem and \p Dims must pass check().
  static TensorDescType *get(Type *Elem, llvm::ArrayRef<int64_t> Dims);
  /// Why these cannot make a descriptor type, or "": an integer or float
  /// element, a block shape of rank 1 to 5 (TMA's limit) that a block
  /// type accepts.
  static std::string check(Type *Elem, llvm::ArrayRef<int64_t> Dims);
  static bool classof(const Type *T) { return T->getKind() == Kind::TensorDesc; }

private:
  friend class Context;
  TensorDescType(Context &C, Type *E, llvm::ArrayRef<int64_t> D)
      : Type(C, Kind::TensorDesc), Elem(E), Dims(D.begin(), D.end()) {}
  Type *Elem;
  Shape Dims;
};

/// Prints a list of types separated by ", ".
void printTypeList(llvm::raw_ostream &OS, llvm::ArrayRef<Type *> Types);
/// Result types as a signature shows them: `T` for one, `(T, U)` otherwise.
void printResultTypes(llvm::raw_ostream &OS, llvm::ArrayRef<Type *> Types);

} // namespace tritium

#endif // TRITIUM_IR_TYPES_H
