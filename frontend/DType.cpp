//===- DType.cpp - Types of the kernel language ---------------------------===//

#include "frontend/DType.h"
#include "ir/Context.h"

#include "llvm/ADT/StringSwitch.h"

#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

using namespace tritium;

namespace tritium {
/// Owns every DType. Lookups take a lock: the frontend may compile on
/// several Python threads.
struct DTypeTable {
  std::mutex Lock;
  std::map<std::tuple<int, unsigned, bool, int, DType *, unsigned, bool,
                      std::vector<int64_t>>,
           std::unique_ptr<DType>>
      Types;

  static DTypeTable &get() {
    static DTypeTable T;
    return T;
  }

  DType *intern(DType::Kind K, unsigned Width, bool Signed, Type::Kind FK,
                DType *Elem, unsigned AS, bool Const,
                llvm::ArrayRef<int64_t> Dims) {
    std::lock_guard<std::mutex> G(Lock);
    auto Key = std::make_tuple(int(K), Width, Signed, int(FK), Elem, AS, Const,
                               std::vector<int64_t>(Dims.begin(), Dims.end()));
    auto &Slot = Types[Key];
    if (!Slot) {
      Slot.reset(new DType());
      DType &D = *Slot;
      D.K = K;
      D.Width = Width;
      D.Signed = Signed;
      D.FK = FK;
      D.Elem = Elem;
      D.AddrSpace = AS;
      D.Const = Const;
      D.Dims.assign(Dims.begin(), Dims.end());
      D.Name = spell(D);
    }
    return Slot.get();
  }

  static std::string spell(const DType &D) {
    switch (D.getKind()) {
    case DType::Kind::Void: return "void";
    case DType::Kind::Int:
      if (D.getBitWidth() == 1)
        return "int1";
      return (D.isSigned() ? "int" : "uint") + std::to_string(D.getBitWidth());
    case DType::Kind::Float:
      switch (D.getFloatKind()) {
      case Type::Kind::F8E4M3: return "fp8e4nv";
      case Type::Kind::F8E5M2: return "fp8e5";
      case Type::Kind::F8E4M3B15: return "fp8e4b15";
      case Type::Kind::F16: return "fp16";
      case Type::Kind::BF16: return "bf16";
      case Type::Kind::F32: return "fp32";
      case Type::Kind::F64: return "fp64";
      default: return "?";
      }
    case DType::Kind::Pointer: {
      std::string S = (D.isConst() ? "const_pointer<" : "pointer<") +
                      D.getPointee()->getName();
      if (D.getAddressSpace() != 1)
        S += ", " + std::to_string(D.getAddressSpace());
      return S + ">";
    }
    case DType::Kind::Block: {
      std::string S = "<";
      for (int64_t X : D.getShape())
        S += std::to_string(X) + "x";
      return S + D.getScalar()->getName() + ">";
    }
    case DType::Kind::TensorDesc: { // Triton's signature spelling
      std::string S = "tensordesc<" + D.getDescElement()->getName() + "[";
      for (size_t I = 0; I < D.getShape().size(); ++I)
        S += (I ? ", " : "") + std::to_string(D.getShape()[I]);
      return S + "]>";
    }
    }
    return "?";
  }
};
} // namespace tritium

unsigned DType::getBitWidth() const {
  switch (K) {
  case Kind::Int: return Width;
  case Kind::Float:
    switch (FK) {
    case Type::Kind::F8E4M3:
    case Type::Kind::F8E5M2:
    case Type::Kind::F8E4M3B15: return 8;
    case Type::Kind::F16:
    case Type::Kind::BF16: return 16;
    case Type::Kind::F32: return 32;
    default: return 64;
    }
  case Kind::Pointer: return 64;
  case Kind::Block: return Elem->getBitWidth();
  case Kind::TensorDesc:
  case Kind::Void: return 0;
  }
  return 0;
}

unsigned DType::getFPMantissaWidth() const {
  if (K == Kind::Block)
    return Elem->getFPMantissaWidth();
  switch (FK) {
  case Type::Kind::F8E4M3:
  case Type::Kind::F8E4M3B15: return 4;
  case Type::Kind::F8E5M2: return 3;
  case Type::Kind::F16: return 11;
  case Type::Kind::BF16: return 8;
  case Type::Kind::F32: return 24;
  case Type::Kind::F64: return 53;
  default: return 0;
  }
}

DType *DType::getScalar() const {
  return K == Kind::Block ? Elem : const_cast<DType *>(this);
}

int64_t DType::getNumElements() const {
  int64_t N = 1;
  for (int64_t D : Dims)
    N *= D;
  return N;
}

DType *DType::withScalar(DType *S) const { return getShaped(S, Dims); }

Type *DType::toIR(Context &C) const {
  switch (K) {
  case Kind::Void: return Type::getVoid(C);
  case Kind::Int: return Type::getInt(C, Width);
  case Kind::Float: return Type::getFloat(C, FK);
  case Kind::Pointer:
    return PointerType::get(Elem->toIR(C), AddrSpace);
  case Kind::Block: return BlockType::get(Elem->toIR(C), Dims);
  case Kind::TensorDesc: return TensorDescType::get(Elem->toIR(C), Dims);
  }
  return nullptr;
}

DType *DType::getVoid() {
  return DTypeTable::get().intern(Kind::Void, 0, true, Type::Kind::Void,
                                  nullptr, 0, false, {});
}

DType *DType::getInt(unsigned Width, bool Signed) {
  assert((Width == 1 || Width == 8 || Width == 16 || Width == 32 ||
          Width == 64) &&
         "integer width must be 1, 8, 16, 32 or 64");
  // int1 has no signedness.
  return DTypeTable::get().intern(Kind::Int, Width, Width == 1 || Signed,
                                  Type::Kind::Void, nullptr, 0, false, {});
}

DType *DType::getFloat(Type::Kind FK) {
  assert(FK >= Type::Kind::F8E4M3 && FK <= Type::Kind::F64 && "not a float");
  return DTypeTable::get().intern(Kind::Float, 0, true, FK, nullptr, 0, false,
                                  {});
}

DType *DType::getPointer(DType *Pointee, unsigned AddrSpace, bool Const) {
  assert(Pointee->isScalar() && "pointers point to scalars");
  return DTypeTable::get().intern(Kind::Pointer, 0, true, Type::Kind::Void,
                                  Pointee, AddrSpace, Const, {});
}

DType *DType::getBlock(DType *Elem, llvm::ArrayRef<int64_t> Shape) {
  assert(Elem->isScalar() && "blocks hold scalars");
  assert(BlockType::checkShape(Shape).empty() && "invalid block shape");
  return DTypeTable::get().intern(Kind::Block, 0, true, Type::Kind::Void, Elem,
                                  0, false, Shape);
}

DType *DType::getTensorDesc(DType *Elem, llvm::ArrayRef<int64_t> Block) {
  assert((Elem->isInt() || Elem->isFloat()) && "descriptors hold numbers");
  return DTypeTable::get().intern(Kind::TensorDesc, 0, true, Type::Kind::Void, Elem, 0, false,
                                  Block);
}

DType *DType::getShaped(DType *Elem, llvm::ArrayRef<int64_t> Shape) {
  return Shape.empty() ? Elem : getBlock(Elem, Shape);
}

DType *DType::fromName(llvm::StringRef Name) {
  auto Int = [](unsigned W, bool S) { return getInt(W, S); };
  auto Fp = [](Type::Kind K) { return getFloat(K); };
  return llvm::StringSwitch<DType *>(Name)
      .Cases("int1", "bool", Int(1, true))
      .Case("int8", Int(8, true))
      .Case("int16", Int(16, true))
      .Case("int32", Int(32, true))
      .Case("int64", Int(64, true))
      .Case("uint8", Int(8, false))
      .Case("uint16", Int(16, false))
      .Case("uint32", Int(32, false))
      .Case("uint64", Int(64, false))
      .Cases("fp8e4nv", "float8e4nv", Fp(Type::Kind::F8E4M3))
      .Cases("fp8e5", "float8e5", Fp(Type::Kind::F8E5M2))
      .Cases("fp8e4b15", "float8e4b15", Fp(Type::Kind::F8E4M3B15))
      .Cases("fp16", "float16", Fp(Type::Kind::F16))
      .Cases("bf16", "bfloat16", Fp(Type::Kind::BF16))
      .Cases("fp32", "float32", Fp(Type::Kind::F32))
      .Cases("fp64", "float64", Fp(Type::Kind::F64))
      .Case("void", getVoid())
      .Default(nullptr);
}

DType *DType::fromIR(Type *T) {
  switch (T->getKind()) {
  case Type::Kind::Void: return getVoid();
  case Type::Kind::Int: return getInt(T->getScalarSizeInBits(), true);
  case Type::Kind::Pointer: {
    auto *P = llvm::cast<PointerType>(T);
    return getPointer(fromIR(P->getPointee()), P->getAddressSpace());
  }
  case Type::Kind::Block:
    return getBlock(fromIR(T->getScalarType()), T->getShape());
  case Type::Kind::TensorDesc: {
    auto *D = llvm::cast<TensorDescType>(T);
    return getTensorDesc(fromIR(D->getElementType()), D->getBlockShape());
  }
  case Type::Kind::Function:
  case Type::Kind::MemDesc: return nullptr;
  default: return getFloat(T->getKind());
  }
}
