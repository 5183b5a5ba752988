//===- Types.cpp - Tritium IR types and their uniquing --------------------===//

#include "ir/Types.h"
#include "ir/Context.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ScopedPrinter.h"

#include <map>
#include <tuple>
#include <vector>

using namespace tritium;

struct Context::Impl {
  std::unique_ptr<Type> Void;
  std::unique_ptr<IntType> Ints[5]; // i1, i8, i16, i32, i64
  std::unique_ptr<Type> Floats[7];  // in Kind order from F8E4M3
  std::map<std::pair<Type *, unsigned>, std::unique_ptr<PointerType>> Ptrs;
  std::map<std::pair<Type *, std::vector<int64_t>>, std::unique_ptr<BlockType>>
      Blocks;
  std::map<std::pair<std::vector<Type *>, std::vector<Type *>>,
           std::unique_ptr<FunctionType>>
      Funcs;
  /// Keyed by element, shape, the layout's text and mutability.
  std::map<std::tuple<Type *, std::vector<int64_t>, std::string, bool>,
           std::unique_ptr<MemDescType>>
      MemDescs;
  std::map<std::pair<Type *, std::vector<int64_t>>, std::unique_ptr<TensorDescType>>
      TensorDescs;
  llvm::StringSet<> Strings;
};

Context::Context() : P(std::make_unique<Impl>()) {
  P->Void.reset(new Type(*this, Type::Kind::Void));
  const unsigned Widths[] = {1, 8, 16, 32, 64};
  for (unsigned I = 0; I < 5; ++I)
    P->Ints[I].reset(new IntType(*this, Widths[I]));
  for (unsigned I = 0; I < 7; ++I)
    P->Floats[I].reset(new Type(
        *this, Type::Kind(unsigned(Type::Kind::F8E4M3) + I)));
}

Context::~Context() = default;

llvm::StringRef Context::intern(llvm::StringRef S) {
  return P->Strings.insert(S).first->getKey();
}

//===----------------------------------------------------------------------===//
// Constructors
//===----------------------------------------------------------------------===//

Type *Type::getVoid(Context &C) { return C.P->Void.get(); }

Type *Type::getInt(Context &C, unsigned Width) {
  switch (Width) {
  case 1: return C.P->Ints[0].get();
  case 8: return C.P->Ints[1].get();
  case 16: return C.P->Ints[2].get();
  case 32: return C.P->Ints[3].get();
  case 64: return C.P->Ints[4].get();
  }
  assert(false && "integer width must be 1, 8, 16, 32 or 64");
  return nullptr;
}

Type *Type::getFloat(Context &C, Kind K) {
  assert(K >= Kind::F8E4M3 && K <= Kind::F64 && "not a float kind");
  return C.P->Floats[unsigned(K) - unsigned(Kind::F8E4M3)].get();
}

PointerType *PointerType::get(Type *Pointee, unsigned AddrSpace) {
  assert(Pointee->isScalar() && "pointers point to scalars");
  assert(checkAddressSpace(AddrSpace).empty() && "invalid address space");
  Context &C = Pointee->getContext();
  auto &Slot = C.P->Ptrs[{Pointee, AddrSpace}];
  if (!Slot)
    Slot.reset(new PointerType(C, Pointee, AddrSpace));
  return Slot.get();
}

std::string PointerType::checkAddressSpace(int64_t AS) {
  if (AS == Generic || AS == Global || AS == Shared)
    return "";
  return "address space " + std::to_string(AS) +
         " is not one of 0 (generic), 1 (global) and 3 (shared)";
}

std::string BlockType::checkShape(llvm::ArrayRef<int64_t> Dims) {
  if (Dims.empty())
    return "a block needs at least one dimension";
  unsigned Log2 = 0;
  for (int64_t D : Dims) {
    if (D <= 0 || !llvm::isPowerOf2_64(uint64_t(D)))
      return "block dimension " + std::to_string(D) +
             " is not a power of two";
    // Dimensions are at most 2^62, so the sum cannot wrap before it is seen.
    Log2 += llvm::Log2_64(uint64_t(D));
    if (Log2 > MaxElementsLog2)
      break;
  }
  if (Log2 > MaxElementsLog2)
    return "a block holds at most 2^" + std::to_string(MaxElementsLog2) +
           " elements";
  return "";
}

BlockType *BlockType::get(Type *Elem, llvm::ArrayRef<int64_t> Dims) {
  assert(Elem->isScalar() && "blocks hold scalars");
  assert(checkShape(Dims).empty() && "invalid block shape");
  Context &C = Elem->getContext();
  auto &Slot = C.P->Blocks[{Elem, std::vector<int64_t>(Dims.begin(), Dims.end())}];
  if (!Slot)
    Slot.reset(new BlockType(C, Elem, Dims));
  return Slot.get();
}

std::string MemDescType::check(Type *Elem, llvm::ArrayRef<int64_t> Dims,
                               const LinearLayout &Layout) {
  if (!Elem->isInt() && !Elem->isFloat())
    return "shared memory holds integers or floats, not " + Elem->str();
  size_t Rank = Layout.getOutDims().size();
  if (Dims.empty() || (Dims.size() != Rank && Dims.size() != Rank + 1))
    return "a memdesc of shape " + std::to_string(Dims.size()) +
           "-d needs a layout of as many dimensions, or one fewer (buffers first); got " +
           std::to_string(Rank);
  bool Buffers = Dims.size() == Rank + 1;
  // Any number of buffers (a pipeline of 3 stages has 3); a buffer's
  // dimensions are a block's, powers of two.
  if (Buffers && (Dims[0] <= 0 || Dims[0] > 256))
    return "a memdesc has 1 to 256 buffers, got " + std::to_string(Dims[0]);
  llvm::ArrayRef<int64_t> Buffer = Dims.drop_front(Buffers ? 1 : 0);
  for (int64_t D : Buffer)
    if (D <= 0 || !llvm::isPowerOf2_64(uint64_t(D)))
      return "memdesc dimension " + std::to_string(D) + " is not a power of two";
  for (size_t K = 0; K < Rank; ++K)
    if (Layout.getOutDims()[K].Size != Buffer[K])
      return "the shared layout's shape does not match the memdesc's";
  std::string Why = BlockType::checkShape(Buffer);
  if (!Why.empty())
    return Why;
  if (Layout.getInDims().size() != 1 || Layout.getInDims()[0].Name != "offset")
    return "a shared layout has one input dimension, 'offset'";
  if (Layout.getTotalInBits() != Layout.getTotalOutBits() || !Layout.isSurjective())
    return "a shared layout puts every element at one offset (a bijection)";
  return "";
}

MemDescType *MemDescType::get(Type *Elem, llvm::ArrayRef<int64_t> Dims,
                              const LinearLayout &Layout, bool Mutable) {
  assert(check(Elem, Dims, Layout).empty() && "invalid memdesc type");
  Context &C = Elem->getContext();
  auto &Slot = C.P->MemDescs[{Elem, std::vector<int64_t>(Dims.begin(), Dims.end()), Layout.str(),
                              Mutable}];
  if (!Slot)
    Slot.reset(new MemDescType(C, Elem, Dims, Layout, Mutable));
  return Slot.get();
}

int64_t MemDescType::getBufferElements() const {
  int64_t N = 1;
  for (int64_t D : getBufferShape())
    N *= D;
  return N;
}

MemDescType *MemDescType::getBufferType() const {
  return get(Elem, getBufferShape(), Layout, Mutable);
}

MemDescType *MemDescType::getTransposed(llvm::ArrayRef<int64_t> Order) const {
  assert(!hasBufferDim() && Order.size() == Dims.size() && "getTransposed: not a permutation");
  // The bases' coordinates and the sizes move; the names stay in place
  // (dim0, dim1, ...), so that equal layouts compare equal.
  llvm::SmallVector<unsigned, 4> Perm(Order.begin(), Order.end());
  LinearLayout Moved = Layout.transposeOuts(Perm);
  llvm::SmallVector<LinearLayout::OutDim, 4> Outs;
  Shape Permuted;
  for (unsigned I = 0; I < Perm.size(); ++I) {
    Outs.push_back({Layout.getOutDims()[I].Name, Moved.getOutDims()[I].Size});
    Permuted.push_back(Dims[Perm[I]]);
  }
  return get(Elem, Permuted, LinearLayout(Moved.getInDims(), Outs), Mutable);
}

std::string TensorDescType::check(Type *Elem, llvm::ArrayRef<int64_t> Dims) {
  if (!Elem->isInt() && !Elem->isFloat())
    return "a tensor descriptor holds integers or floats, not " + Elem->str();
  if (Dims.empty() || Dims.size() > 5)
    return "a tensor descriptor's block has 1 to 5 dimensions, got " +
           std::to_string(Dims.size());
  return BlockType::checkShape(Dims);
}

TensorDescType *TensorDescType::get(Type *Elem, llvm::ArrayRef<int64_t> Dims) {
  assert(check(Elem, Dims).empty() && "invalid tensor descriptor type");
  Context &C = Elem->getContext();
  auto &Slot = C.P->TensorDescs[{Elem, std::vector<int64_t>(Dims.begin(), Dims.end())}];
  if (!Slot)
    Slot.reset(new TensorDescType(C, Elem, Dims));
  return Slot.get();
}

BlockType *TensorDescType::getBlockType() const { return BlockType::get(Elem, Dims); }

FunctionType *FunctionType::get(Context &C, llvm::ArrayRef<Type *> Params,
                                llvm::ArrayRef<Type *> Results) {
  auto &Slot = C.P->Funcs[{std::vector<Type *>(Params.begin(), Params.end()),
                           std::vector<Type *>(Results.begin(), Results.end())}];
  if (!Slot)
    Slot.reset(new FunctionType(C, Params, Results));
  return Slot.get();
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

bool Type::isInt(unsigned Width) const {
  auto *I = llvm::dyn_cast<IntType>(this);
  return I && I->getWidth() == Width;
}

Type *Type::getScalarType() {
  if (auto *B = llvm::dyn_cast<BlockType>(this))
    return B->getElementType();
  return this;
}

llvm::ArrayRef<int64_t> Type::getShape() const {
  if (auto *B = llvm::dyn_cast<BlockType>(this))
    return B->getBlockShape();
  return {};
}

int64_t Type::getNumElements() const {
  int64_t N = 1;
  for (int64_t D : getShape())
    N *= D;
  return N;
}

unsigned Type::getScalarSizeInBits() const {
  switch (K) {
  case Kind::Int: return llvm::cast<IntType>(this)->getWidth();
  case Kind::F8E4M3:
  case Kind::F8E5M2:
  case Kind::F8E4M3B15: return 8;
  case Kind::F16:
  case Kind::BF16: return 16;
  case Kind::F32: return 32;
  case Kind::F64: return 64;
  case Kind::Pointer: return 64;
  case Kind::Block:
    return llvm::cast<BlockType>(this)->getElementType()->getScalarSizeInBits();
  case Kind::MemDesc:
    return llvm::cast<MemDescType>(this)->getElementType()->getScalarSizeInBits();
  case Kind::TensorDesc:
    return 64; // passed as its base pointer
  case Kind::Void:
  case Kind::Function: return 0;
  }
  return 0;
}

unsigned Type::getFPMantissaWidth() const {
  switch (K) {
  case Kind::F8E4M3:
  case Kind::F8E4M3B15: return 4;
  case Kind::F8E5M2: return 3;
  case Kind::F16: return 11;
  case Kind::BF16: return 8;
  case Kind::F32: return 24;
  case Kind::F64: return 53;
  case Kind::Block:
    return llvm::cast<BlockType>(this)->getElementType()->getFPMantissaWidth();
  default: return 0;
  }
}

Type *Type::withElement(Type *Elem) {
  if (auto *B = llvm::dyn_cast<BlockType>(this))
    return BlockType::get(Elem, B->getBlockShape());
  return Elem;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

/// `d0 x d1 x ... x T`, the inside of a block, memdesc or tensordesc type.
static void printDimsAndElement(llvm::raw_ostream &OS, llvm::ArrayRef<int64_t> Dims, Type *Elem) {
  for (int64_t D : Dims)
    OS << D << " x ";
  OS << *Elem;
}

void Type::print(llvm::raw_ostream &OS) const {
  switch (K) {
  case Kind::Void: OS << "void"; return;
  case Kind::Int: OS << 'i' << llvm::cast<IntType>(this)->getWidth(); return;
  case Kind::F8E4M3: OS << "f8e4m3"; return;
  case Kind::F8E5M2: OS << "f8e5m2"; return;
  case Kind::F8E4M3B15: OS << "f8e4b15"; return;
  case Kind::F16: OS << "f16"; return;
  case Kind::BF16: OS << "bf16"; return;
  case Kind::F32: OS << "f32"; return;
  case Kind::F64: OS << "f64"; return;
  case Kind::Pointer: {
    auto *P = llvm::cast<PointerType>(this);
    OS << "ptr<" << *P->getPointee();
    if (P->getAddressSpace() != PointerType::Global)
      OS << ", " << P->getAddressSpace();
    OS << '>';
    return;
  }
  case Kind::Block: {
    auto *B = llvm::cast<BlockType>(this);
    OS << '<';
    printDimsAndElement(OS, B->getBlockShape(), B->getElementType());
    OS << '>';
    return;
  }
  case Kind::MemDesc: {
    auto *M = llvm::cast<MemDescType>(this);
    OS << "memdesc<";
    printDimsAndElement(OS, M->getAllocShape(), M->getElementType());
    OS << ", ";
    printLayout(OS, M->getLayout());
    if (M->isMutable())
      OS << ", mutable";
    OS << '>';
    return;
  }
  case Kind::TensorDesc: {
    auto *T = llvm::cast<TensorDescType>(this);
    OS << "tensordesc<";
    printDimsAndElement(OS, T->getBlockShape(), T->getElementType());
    OS << '>';
    return;
  }
  case Kind::Function: {
    auto *F = llvm::cast<FunctionType>(this);
    OS << '(';
    printTypeList(OS, F->getParams());
    OS << ") -> ";
    if (F->getResults().empty())
      OS << "void";
    else
      printResultTypes(OS, F->getResults());
    return;
  }
  }
}

std::string Type::str() const { return llvm::to_string(*this); }

void tritium::printTypeList(llvm::raw_ostream &OS, llvm::ArrayRef<Type *> Types) {
  llvm::interleaveComma(Types, OS, [&](Type *T) { T->print(OS); });
}

void tritium::printResultTypes(llvm::raw_ostream &OS, llvm::ArrayRef<Type *> Types) {
  if (Types.size() == 1)
    return Types[0]->print(OS);
  OS << '(';
  printTypeList(OS, Types);
  OS << ')';
}
