//===- Instructions.cpp - Type rules of each opcode family ----------------===//
//
// checkFamilyTypes() of every family: operand, result and block-operand
// counts, the attributes allowed and required, and how operand and result
// types relate. Messages name the opcode and the types involved; the verifier
// adds the function, block and instruction. Rules that need the enclosing
// module (callee signatures, combine functions, ret against the function) are
// the verifier's.
//
//===----------------------------------------------------------------------===//

#include "ir/Instructions.h"
#include "ir/BasicBlock.h"
#include "ir/Function.h"
#include "ir/Module.h"

#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/MathExtras.h"

#include <initializer_list>

using namespace tritium;

#define TRY(X)                                                                 \
  do {                                                                         \
    std::string Err_ = (X);                                                    \
    if (!Err_.empty())                                                         \
      return Err_;                                                             \
  } while (0)

namespace {

std::string ty(const Type *T) { return T->str(); }

std::string shapeStr(llvm::ArrayRef<int64_t> S) {
  std::string R = "[";
  for (size_t I = 0; I < S.size(); ++I)
    R += (I ? ", " : "") + std::to_string(S[I]);
  return R + "]";
}

std::string name(const Instruction &I) {
  return "'" + I.getOpcodeName().str() + "'";
}

std::string plural(unsigned N, const char *What) {
  return std::to_string(N) + " " + What + (N == 1 ? "" : "s");
}

std::string requireAttr(const Instruction &I, AttrKey K) {
  if (!I.hasAttr(K))
    return name(I) + " requires attribute '" + getAttrKeyName(K).str() + "'";
  return "";
}

/// Checks that \p I's attributes are among \p Allowed and \p Required, then
/// that each of \p Required is there.
std::string attributes(const Instruction &I, std::initializer_list<AttrKey> Allowed,
                       std::initializer_list<AttrKey> Required = {}) {
  // Any block result may carry its layout; the base class checks it.
  for (const Attribute &A : I.getAttrs())
    if (A.Key != AttrKey::Layout && !llvm::is_contained(Allowed, A.Key) &&
        !llvm::is_contained(Required, A.Key))
      return "attribute '" + getAttrKeyName(A.Key).str() +
             "' is not valid on " + name(I);
  for (AttrKey K : Required)
    TRY(requireAttr(I, K));
  return "";
}

/// Checks an instruction's form: the numbers of operands (between MinOps and
/// MaxOps), results and block operands, then its attributes (see attributes).
std::string form(const Instruction &I, unsigned MinOps, unsigned MaxOps, unsigned Results,
                 std::initializer_list<AttrKey> Allowed,
                 std::initializer_list<AttrKey> Required = {}, unsigned Blocks = 0) {
  unsigned N = I.getNumOperands();
  if (N < MinOps || N > MaxOps) {
    std::string Want = MinOps == MaxOps
                           ? plural(MinOps, "operand")
                           : std::to_string(MinOps) + " to " +
                                 plural(MaxOps, "operand");
    return name(I) + " expects " + Want + ", got " + std::to_string(N);
  }
  if (I.getNumResults() != Results)
    return name(I) + " defines " + plural(Results, "result") + ", got " +
           std::to_string(I.getNumResults());
  if (I.getNumBlockOperands() != Blocks)
    return name(I) + " expects " + plural(Blocks, "block operand") + ", got " +
           std::to_string(I.getNumBlockOperands());
  return attributes(I, Allowed, Required);
}

std::string sameType(const Instruction &I, Type *A, Type *B, const char *What) {
  if (A != B)
    return name(I) + " " + What + " must have the same type, got " + ty(A) +
           " and " + ty(B);
  return "";
}

/// A scalar or block whose elements satisfy \p Pred.
template <typename P>
std::string elements(const Instruction &I, Type *T, P Pred, const char *What) {
  Type *E = T->getScalarType();
  if ((!T->isScalar() && !T->isBlock()) || !Pred(E))
    return name(I) + " expects " + What + ", got " + ty(T);
  return "";
}

bool isIntElem(Type *E) { return E->isInt(); }
bool isFloatElem(Type *E) { return E->isFloat(); }
bool isNumElem(Type *E) { return E->isInt() || E->isFloat(); }
bool isPtrElem(Type *E) { return E->isPointer(); }
bool isAnyElem(Type *E) { return E->isScalar(); }

std::string sameShape(const Instruction &I, Type *A, Type *B, const char *What) {
  if (A->getShape() != B->getShape())
    return name(I) + " " + What + " must have the same shape, got " + ty(A) +
           " and " + ty(B);
  return "";
}

std::string expectResult(const Instruction &I, Type *Want, unsigned R = 0);

/// expectResult for a block of \p Elem shaped \p Dims, a shape the rule
/// computes and that may be no block's (join and cat double the elements;
/// make_range's length comes from attributes).
std::string expectBlockResult(const Instruction &I, Type *Elem,
                              llvm::ArrayRef<int64_t> Dims) {
  std::string Why = BlockType::checkShape(Dims);
  if (!Why.empty())
    return name(I) + " result cannot be shaped " + shapeStr(Dims) + ": " + Why;
  return expectResult(I, BlockType::get(Elem, Dims));
}

std::string expectResult(const Instruction &I, Type *Want, unsigned R) {
  Type *Got = I.getResult(R)->getType();
  if (Got != Want)
    return name(I) + " result " + (I.getNumResults() > 1 ? std::to_string(R) + " " : "") +
           "must be " + ty(Want) + ", got " + ty(Got);
  return "";
}

std::string validAxis(const Instruction &I, int64_t Axis, unsigned Rank) {
  if (Axis < 0 || Axis >= int64_t(Rank))
    return name(I) + " axis " + std::to_string(Axis) + " is out of range for rank " +
           std::to_string(Rank);
  return "";
}

/// Whether \p Order lists each of the dimensions 0 to \p Rank - 1 once.
bool isPermutation(llvm::ArrayRef<int64_t> Order, size_t Rank) {
  llvm::SmallSet<int64_t, 4> Seen;
  bool Perm = Order.size() == Rank;
  for (int64_t D : Order)
    Perm &= D >= 0 && D < int64_t(Rank) && Seen.insert(D).second;
  return Perm;
}

/// The pointee of a pointer or block of pointers, shaped like it.
Type *loadedType(Type *PtrTy) {
  auto *P = llvm::cast<PointerType>(PtrTy->getScalarType());
  return PtrTy->withElement(P->getPointee());
}

std::string pointerOperand(const Instruction &I, Type *T) {
  return elements(I, T, isPtrElem, "a pointer or a block of pointers");
}

std::string maskOperand(const Instruction &I, Value *Mask, Type *PtrTy) {
  if (!Mask)
    return "";
  Type *M = Mask->getType();
  if (!M->getScalarType()->isBool() || M->getShape() != PtrTy->getShape())
    return name(I) + " mask must be i1 shaped like the pointer " + ty(PtrTy) +
           ", got " + ty(M);
  return "";
}

} // namespace

//===----------------------------------------------------------------------===//
// Values out of nothing
//===----------------------------------------------------------------------===//

bool ConstantInst::isFloat() const {
  const AttrValue *V = getAttr(AttrKey::Value);
  return V && V->K == AttrValue::Kind::Float;
}

double ConstantInst::getFloatValue() const {
  const AttrValue *V = getAttr(AttrKey::Value);
  return V && V->K == AttrValue::Kind::Float ? V->F : 0.0;
}

std::string ConstantInst::checkFamilyTypes() const {
  TRY(form(*this, 0, 0, 1, {}, {AttrKey::Value}));
  Type *T = getResult()->getType();
  TRY(elements(*this, T, isNumElem, "an integer or float type"));
  Type *E = T->getScalarType();
  if (E->isFloat()) {
    if (!isFloat())
      return "'constant' of type " + ty(T) + " needs a float literal";
    return "";
  }
  if (isFloat())
    return "'constant' of type " + ty(T) + " needs an integer literal";
  if (!llvm::cast<IntType>(E)->fits(getIntValue()))
    return "'constant' value " + std::to_string(getIntValue()) + " does not fit in " + ty(E);
  return "";
}

std::string UndefInst::checkFamilyTypes() const {
  TRY(form(*this, 0, 0, 1, {}));
  return elements(*this, getResult()->getType(), isAnyElem,
                  "a scalar or block type");
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

namespace {
std::string elementClass(const Instruction &I, Type *T) {
  switch (getOperandClass(I.getOpcode())) {
  case OperandClass::IntOperands:
    return elements(I, T, isIntElem, "integer operands");
  case OperandClass::FloatOperands:
    return elements(I, T, isFloatElem, "float operands");
  case OperandClass::AnyOperands:
    return elements(I, T, isNumElem, "integer or float operands");
  case OperandClass::None: break;
  }
  return "";
}
} // namespace

std::string BinaryInst::checkFamilyTypes() const {
  if (getOpcode() == Opcode::FDiv)
    TRY(form(*this, 2, 2, 1, {AttrKey::Approx}));
  else
    TRY(form(*this, 2, 2, 1, {}));
  Type *L = getLHS()->getType(), *R = getRHS()->getType();
  TRY(sameType(*this, L, R, "operands"));
  TRY(elementClass(*this, L));
  return expectResult(*this, L);
}

std::string UnaryInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 1, {}));
  Type *T = getSrc()->getType();
  TRY(elementClass(*this, T));
  return expectResult(*this, T);
}

std::string FmaInst::checkFamilyTypes() const {
  TRY(form(*this, 3, 3, 1, {}));
  Type *T = getOperand(0)->getType();
  TRY(sameType(*this, T, getOperand(1)->getType(), "operands"));
  TRY(sameType(*this, T, getOperand(2)->getType(), "operands"));
  TRY(elements(*this, T, isFloatElem, "float operands"));
  return expectResult(*this, T);
}

std::string CmpInst::checkFamilyTypes() const {
  AttrKey Pred = isFloat() ? AttrKey::FPredicate : AttrKey::IPredicate;
  TRY(form(*this, 2, 2, 1, {}, {Pred}));
  Type *L = getLHS()->getType(), *R = getRHS()->getType();
  TRY(sameType(*this, L, R, "operands"));
  if (isFloat())
    TRY(elements(*this, L, isFloatElem, "float operands"));
  else
    TRY(elements(*this, L, [](Type *E) { return E->isInt() || E->isPointer(); },
                 "integer or pointer operands"));
  return expectResult(*this, L->withElement(Type::getI1(getContext())));
}

std::string SelectInst::checkFamilyTypes() const {
  TRY(form(*this, 3, 3, 1, {}));
  Type *C = getCondition()->getType(), *T = getTrueValue()->getType();
  TRY(sameType(*this, T, getFalseValue()->getType(), "values"));
  TRY(elements(*this, T, isAnyElem, "scalar or block values"));
  if (!C->getScalarType()->isBool() ||
      (C->isBlock() && C->getShape() != T->getShape()))
    return "'select' condition must be i1 or an i1 block shaped like " + ty(T) +
           ", got " + ty(C);
  return expectResult(*this, T);
}

std::string CastInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 1,
           getOpcode() == Opcode::FPTrunc ? std::initializer_list<AttrKey>{AttrKey::Rounding}
                                          : std::initializer_list<AttrKey>{}));
  Type *From = getSrc()->getType(), *To = getResult()->getType();
  TRY(elements(*this, From, isAnyElem, "a scalar or block operand"));
  TRY(elements(*this, To, isAnyElem, "a scalar or block result"));
  TRY(sameShape(*this, From, To, "operand and result"));
  Type *F = From->getScalarType(), *T = To->getScalarType();
  unsigned FW = F->getScalarSizeInBits(), TW = T->getScalarSizeInBits();
  bool OK = false;
  const char *Rule = "";
  switch (getOpcode()) {
  case Opcode::Trunc:
    OK = F->isInt() && T->isInt() && FW > TW;
    Rule = "an integer to a narrower integer";
    break;
  case Opcode::ZExt:
  case Opcode::SExt:
    OK = F->isInt() && T->isInt() && FW < TW;
    Rule = "an integer to a wider integer";
    break;
  case Opcode::FPTrunc:
    OK = F->isFloat() && T->isFloat() && FW > TW;
    Rule = "a float to a narrower float";
    break;
  case Opcode::FPExt:
    OK = F->isFloat() && T->isFloat() && FW < TW;
    Rule = "a float to a wider float";
    break;
  case Opcode::FPToUI:
  case Opcode::FPToSI:
    OK = F->isFloat() && T->isInt();
    Rule = "a float to an integer";
    break;
  case Opcode::UIToFP:
  case Opcode::SIToFP:
    OK = F->isInt() && T->isFloat();
    Rule = "an integer to a float";
    break;
  case Opcode::Bitcast:
    OK = FW == TW && F->isPointer() == T->isPointer();
    Rule = "between types of the same width (pointers to pointers)";
    break;
  case Opcode::PtrToInt:
    OK = F->isPointer() && T->isInt();
    Rule = "a pointer to an integer";
    break;
  case Opcode::IntToPtr:
    OK = F->isInt() && T->isPointer();
    Rule = "an integer to a pointer";
    break;
  default: break;
  }
  if (!OK)
    return name(*this) + " casts " + Rule + ", not " + ty(From) + " to " + ty(To);
  // LLVM needs an addrspacecast for that; no Tritium opcode lowers to one.
  if (getOpcode() == Opcode::Bitcast && F->isPointer() &&
      llvm::cast<PointerType>(F)->getAddressSpace() !=
          llvm::cast<PointerType>(T)->getAddressSpace())
    return "'bitcast' cannot change the address space of a pointer, not " +
           ty(From) + " to " + ty(To);
  return "";
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

std::string GetElementPtrInst::checkFamilyTypes() const {
  TRY(form(*this, 2, 2, 1, {}));
  Type *P = getPtr()->getType(), *O = getOffset()->getType();
  TRY(pointerOperand(*this, P));
  TRY(elements(*this, O, isIntElem, "an integer offset"));
  TRY(sameShape(*this, P, O, "pointer and offset"));
  return expectResult(*this, P);
}

std::string LoadInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 3, 1, {AttrKey::Cache, AttrKey::Evict, AttrKey::Volatile}));
  if (auto C = getCache())
    if (*C != CacheModifier::CA && *C != CacheModifier::CG &&
        *C != CacheModifier::CV)
      return "'load' cache modifier must be ca, cg or cv, got " +
             stringify(*C).str();
  Type *P = getPtr()->getType();
  TRY(pointerOperand(*this, P));
  TRY(maskOperand(*this, getMask(), P));
  Type *Want = loadedType(P);
  if (Value *O = getOther())
    if (O->getType() != Want)
      return "'load' other must have the loaded type " + ty(Want) + ", got " +
             ty(O->getType());
  return expectResult(*this, Want);
}

std::string StoreInst::checkFamilyTypes() const {
  TRY(form(*this, 2, 3, 0, {AttrKey::Cache, AttrKey::Evict}));
  if (auto C = getCache())
    if (*C == CacheModifier::CA || *C == CacheModifier::CV)
      return "'store' cache modifier must be wb, cg, cs or wt, got " +
             stringify(*C).str();
  Type *P = getPtr()->getType();
  TRY(pointerOperand(*this, P));
  TRY(maskOperand(*this, getMask(), P));
  Type *Want = loadedType(P);
  if (getValue()->getType() != Want)
    return "'store' value must have the pointee type " + ty(Want) + ", got " +
           ty(getValue()->getType());
  return "";
}

std::string AtomicRMWInst::checkFamilyTypes() const {
  TRY(form(*this, 2, 3, 1, {AttrKey::Sem, AttrKey::Scope}, {AttrKey::RMWKind}));
  Type *P = getPtr()->getType();
  TRY(pointerOperand(*this, P));
  TRY(maskOperand(*this, getMask(), P));
  Type *Want = loadedType(P);
  if (getVal()->getType() != Want)
    return "'atomic_rmw' value must have the pointee type " + ty(Want) +
           ", got " + ty(getVal()->getType());
  Type *E = Want->getScalarType();
  // What the GPUs have atomics for (16-bit exchanges become CAS loops).
  unsigned Bits = E->getScalarSizeInBits();
  switch (getKind()) {
  case AtomicKind::FAdd:
    if (!E->isFloat() || Bits < 16)
      return "'atomic_rmw fadd' needs f16, bf16, f32 or f64 elements, got " + ty(Want);
    break;
  case AtomicKind::Xchg:
    if ((!E->isInt() && !E->isFloat()) || Bits < 16)
      return "'atomic_rmw xchg' needs integer or float elements of 16, 32 or 64 bits, got " +
             ty(Want);
    break;
  default:
    if (!E->isInt() || Bits < 32)
      return "'atomic_rmw " + stringify(getKind()).str() +
             "' needs integer elements of 32 or 64 bits, got " + ty(Want);
  }
  return expectResult(*this, Want);
}

std::string AtomicCASInst::checkFamilyTypes() const {
  TRY(form(*this, 3, 4, 1, {AttrKey::Sem, AttrKey::Scope}));
  Type *P = getPtr()->getType();
  TRY(pointerOperand(*this, P));
  TRY(maskOperand(*this, getMask(), P));
  Type *Want = loadedType(P);
  if (getCmp()->getType() != Want || getVal()->getType() != Want)
    return "'atomic_cas' compare and new values must have the pointee type " +
           ty(Want) + ", got " + ty(getCmp()->getType()) + " and " +
           ty(getVal()->getType());
  Type *E = Want->getScalarType();
  if ((!E->isInt() && !E->isFloat()) || E->getScalarSizeInBits() < 16)
    return "'atomic_cas' needs integer or float elements of 16, 32 or 64 bits, got " +
           ty(Want);
  return expectResult(*this, Want);
}

//===----------------------------------------------------------------------===//
// Shared memory
//===----------------------------------------------------------------------===//

namespace {
/// The memdesc \p V is, or an error naming \p What.
std::string memdescOperand(const Instruction &I, Value *V, MemDescType *&M, const char *What) {
  M = llvm::dyn_cast<MemDescType>(V->getType());
  if (!M)
    return name(I) + " " + What + " must be a memdesc, got " + ty(V->getType());
  return "";
}

/// The block a memdesc of one buffer holds.
Type *heldBlock(MemDescType *M) {
  return BlockType::get(M->getElementType(), M->getBufferShape());
}

std::string oneBuffer(const Instruction &I, MemDescType *M) {
  if (M->hasBufferDim())
    return name(I) + " needs one buffer (select it with memdesc_index), got " + ty(M);
  return "";
}

/// The memdesc \p V a write goes to: one buffer, mutable.
std::string writtenBuffer(const Instruction &I, Value *V, MemDescType *&M) {
  TRY(memdescOperand(I, V, M, "destination"));
  TRY(oneBuffer(I, M));
  if (!M->isMutable())
    return name(I) + " needs a mutable memdesc, got " + ty(M);
  return "";
}
} // namespace

MemDescType *LocalAllocInst::getMemDescType() const {
  return llvm::dyn_cast<MemDescType>(getResult()->getType());
}

std::string LocalAllocInst::checkFamilyTypes() const {
  TRY(form(*this, 0, 1, 1, {}));
  MemDescType *M = getMemDescType();
  if (!M)
    return "'local_alloc' result must be a memdesc, got " + ty(getResult()->getType());
  if (Value *Init = getInit()) {
    TRY(oneBuffer(*this, M));
    if (Init->getType() != heldBlock(M))
      return "'local_alloc' initial value must be " + ty(heldBlock(M)) + ", got " +
             ty(Init->getType());
  } else if (!M->isMutable()) {
    return "'local_alloc' without an initial value must be mutable, got " + ty(M);
  }
  return "";
}

std::string LocalLoadInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 1, {}));
  MemDescType *M;
  TRY(memdescOperand(*this, getMemDesc(), M, "operand"));
  TRY(oneBuffer(*this, M));
  return expectResult(*this, heldBlock(M));
}

std::string LocalStoreInst::checkFamilyTypes() const {
  TRY(form(*this, 2, 2, 0, {}));
  MemDescType *M;
  TRY(writtenBuffer(*this, getMemDesc(), M));
  if (getValue()->getType() != heldBlock(M))
    return "'local_store' value must be " + ty(heldBlock(M)) + ", got " +
           ty(getValue()->getType());
  return "";
}

std::string AsyncCopyInst::checkFamilyTypes() const {
  TRY(form(*this, 2, 3, 0, {}));
  MemDescType *M;
  TRY(writtenBuffer(*this, getMemDesc(), M));
  Type *P = getPtr()->getType();
  TRY(pointerOperand(*this, P));
  if (!P->isBlock())
    return "'async_copy' source must be a block of pointers, got " + ty(P);
  TRY(maskOperand(*this, getMask(), P));
  if (loadedType(P) != heldBlock(M))
    return "'async_copy' source must point at " + ty(heldBlock(M)) + ", got " + ty(P);
  return "";
}

std::string AsyncCommitGroupInst::checkFamilyTypes() const {
  return form(*this, 0, 0, 0, {});
}

std::string AsyncWaitInst::checkFamilyTypes() const {
  TRY(form(*this, 0, 0, 0, {AttrKey::Num}));
  if (!hasAttr(AttrKey::Num) || getNum() < 0 || getNum() > 255)
    return "'async_wait' needs num, from 0 to 255 (the groups left in flight)";
  return "";
}

std::string MemDescIndexInst::checkFamilyTypes() const {
  TRY(form(*this, 2, 2, 1, {}));
  MemDescType *M;
  TRY(memdescOperand(*this, getMemDesc(), M, "operand"));
  if (!M->hasBufferDim())
    return "'memdesc_index' needs a memdesc of several buffers, got " + ty(M);
  if (!getIndex()->getType()->isInt(32))
    return "'memdesc_index' index must be i32, got " + ty(getIndex()->getType());
  return expectResult(*this, M->getBufferType());
}

std::string MemDescTransInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 1, {}, {AttrKey::Order}));
  MemDescType *M;
  TRY(memdescOperand(*this, getMemDesc(), M, "operand"));
  if (M->hasBufferDim())
    return "'memdesc_trans' needs one buffer (memdesc_index it first), got " + ty(M);
  if (!isPermutation(getOrder(), M->getBufferShape().size()))
    return "'memdesc_trans' order " + shapeStr(getOrder()) +
           " is not a permutation of the dimensions of " + ty(M);
  return expectResult(*this, M->getTransposed(getOrder()));
}

std::string LocalDeallocInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 0, {}));
  MemDescType *M;
  return memdescOperand(*this, getMemDesc(), M, "operand");
}

namespace {
/// The descriptor operand of a descriptor_load/_store (a tensordesc;
/// lower-tensor-descriptors needs it made by make_tensor_descriptor and
/// says so), with one i32 offset per block dimension after it.
std::string descriptorOperands(const Instruction &I, unsigned At, unsigned NumOffsets,
                               TensorDescType *&D) {
  D = llvm::dyn_cast<TensorDescType>(I.getOperand(At)->getType());
  if (!D)
    return name(I) + " operand must be a tensordesc, got " + ty(I.getOperand(At)->getType());
  if (NumOffsets != D->getBlockShape().size())
    return name(I) + " needs " + std::to_string(D->getBlockShape().size()) +
           " offsets, got " + std::to_string(NumOffsets);
  for (unsigned K = 0; K < NumOffsets; ++K)
    if (!I.getOperand(At + 1 + K)->getType()->isInt(32))
      return name(I) + " offsets must be i32, got " + ty(I.getOperand(At + 1 + K)->getType());
  return "";
}

/// A descriptor access's `boundary` attribute: dimensions of the block, in
/// increasing order.
std::string boundaryDims(const Instruction &I, unsigned Rank) {
  if (!I.hasAttr(AttrKey::Boundary))
    return "";
  int64_t Last = -1;
  for (int64_t D : I.getIntListAttr(AttrKey::Boundary)) {
    if (D <= Last || D >= int64_t(Rank))
      return name(I) + " boundary must list dimensions of the " + std::to_string(Rank) +
             "-d block in increasing order";
    Last = D;
  }
  return "";
}
} // namespace

std::string MakeTensorDescInst::checkFamilyTypes() const {
  TRY(form(*this, 3, 12, 1, {}));
  auto *D = llvm::dyn_cast<TensorDescType>(getResult()->getType());
  if (!D)
    return "'make_tensor_descriptor' result must be a tensordesc, got " +
           ty(getResult()->getType());
  unsigned Rank = unsigned(D->getBlockShape().size());
  if (getNumOperands() != 1 + 2 * Rank && getNumOperands() != 2 + 2 * Rank)
    return "'make_tensor_descriptor' of a " + std::to_string(Rank) +
           "-d block needs a base, " + std::to_string(Rank) + " shapes and " +
           std::to_string(Rank) + " strides (and optionally a tensormap)";
  if (Value *Map = getTensorMap()) {
    auto *A = llvm::dyn_cast<Argument>(Map);
    if (!A || !A->getAttrs().TensorMap)
      return "'make_tensor_descriptor' tensormap must be a kernel argument with the "
             "tensormap attribute";
  }
  Type *Want = PointerType::get(D->getElementType(), PointerType::Global);
  if (getBase()->getType() != Want)
    return "'make_tensor_descriptor' base must be " + ty(Want) + ", got " +
           ty(getBase()->getType());
  Type *Extent = getShape(0)->getType();
  if (!Extent->isInt(32) && !Extent->isInt(64))
    return "'make_tensor_descriptor' shapes must be i32 or i64, got " + ty(Extent);
  for (unsigned K = 0; K < Rank; ++K) {
    if (getShape(K)->getType() != Extent)
      return "'make_tensor_descriptor' shapes must have one type, got " + ty(Extent) +
             " and " + ty(getShape(K)->getType());
    if (!getStride(K)->getType()->isInt(64))
      return "'make_tensor_descriptor' strides must be i64, got " + ty(getStride(K)->getType());
  }
  return "";
}

std::string DescriptorLoadInst::checkFamilyTypes() const {
  TRY(form(*this, 2, 6, 1, {AttrKey::Boundary, AttrKey::Padding, AttrKey::Cache, AttrKey::Evict,
                            AttrKey::Volatile}));
  TensorDescType *D;
  TRY(descriptorOperands(*this, 0, getNumOperands() - 1, D));
  TRY(boundaryDims(*this, getRank()));
  if (padsWithNaN() && !D->getElementType()->isFloat())
    return "'descriptor_load' padding = nan needs float elements, got " + ty(D->getElementType());
  return expectResult(*this, D->getBlockType());
}

std::string DescriptorStoreInst::checkFamilyTypes() const {
  TRY(form(*this, 3, 7, 0, {AttrKey::Boundary, AttrKey::Cache, AttrKey::Evict}));
  TensorDescType *D;
  TRY(descriptorOperands(*this, 0, getNumOperands() - 2, D));
  TRY(boundaryDims(*this, getRank()));
  if (getValue()->getType() != D->getBlockType())
    return "'descriptor_store' value must be " + ty(D->getBlockType()) + ", got " +
           ty(getValue()->getType());
  return "";
}

namespace {
/// A barrier operand: a mutable memdesc<1 x i64>.
std::string barrierOperand(const Instruction &I, Value *V) {
  auto *M = llvm::dyn_cast<MemDescType>(V->getType());
  if (!M || M->hasBufferDim() || M->getElementType() != Type::getInt(I.getContext(), 64) ||
      M->getBufferShape().size() != 1 || M->getBufferShape()[0] != 1 || !M->isMutable())
    return name(I) + " barrier must be a mutable memdesc<1 x i64>, got " + ty(V->getType());
  return "";
}
std::string i1Operand(const Instruction &I, Value *V, const char *What) {
  if (!V->getType()->isInt(1))
    return name(I) + " " + What + " must be i1, got " + ty(V->getType());
  return "";
}
} // namespace

std::string MBarrierInst::checkFamilyTypes() const {
  bool Init = getOpcode() == Opcode::InitBarrier, Wait = getOpcode() == Opcode::WaitBarrier;
  bool Inval = getOpcode() == Opcode::InvalBarrier;
  unsigned Ops = Init || Inval ? 1 : 2;
  TRY(form(*this, Ops, Ops, 0,
           Wait || Inval ? std::initializer_list<AttrKey>{}
                         : std::initializer_list<AttrKey>{AttrKey::Num}));
  TRY(barrierOperand(*this, getBarrier()));
  if (Inval)
    return "";
  if (Wait)
    return getPhase()->getType()->isInt(32)
               ? ""
               : name(*this) + " phase must be i32, got " + ty(getPhase()->getType());
  // The arrival count and the transaction bytes: mbarrier's 20-bit fields.
  if (!hasAttr(AttrKey::Num) || getNum() < 1 || getNum() >= (int64_t(1) << 20))
    return name(*this) + " needs num, from 1 to 2^20 - 1";
  return Init ? "" : i1Operand(*this, getPred(), "predicate");
}

std::string AsyncTMACopyInst::checkFamilyTypes() const {
  TRY(form(*this, 5, 9, 0, {}));
  MemDescType *M;
  TRY(writtenBuffer(*this, getMemDesc(), M));
  TRY(barrierOperand(*this, getBarrier()));
  TensorDescType *D;
  TRY(descriptorOperands(*this, 2, getRank(), D));
  if (heldBlock(M) != D->getBlockType())
    return "'async_tma_copy' destination must hold " + ty(D->getBlockType()) + ", got " + ty(M);
  return i1Operand(*this, getPred(), "predicate");
}

std::string AsyncTMAStoreInst::checkFamilyTypes() const {
  TRY(form(*this, 3, 7, 0, {}));
  TensorDescType *D;
  TRY(descriptorOperands(*this, 0, getRank(), D));
  MemDescType *M;
  TRY(memdescOperand(*this, getMemDesc(), M, "source"));
  TRY(oneBuffer(*this, M));
  if (heldBlock(M) != D->getBlockType())
    return "'async_tma_store' source must hold " + ty(D->getBlockType()) + ", got " + ty(M);
  return "";
}

//===----------------------------------------------------------------------===//
// Block construction and reshaping
//===----------------------------------------------------------------------===//

std::string MakeRangeInst::checkFamilyTypes() const {
  TRY(form(*this, 0, 0, 1, {}, {AttrKey::Start, AttrKey::End}));
  int64_t S = getStart(), E = getEnd();
  if (S < 0 || E <= S || E > (int64_t(1) << 31))
    return "'make_range' needs 0 <= start < end <= 2^31, got [" +
           std::to_string(S) + ", " + std::to_string(E) + ")";
  if (!llvm::isPowerOf2_64(uint64_t(E - S)))
    return "'make_range' length " + std::to_string(E - S) +
           " is not a power of two";
  return expectBlockResult(*this, Type::getI32(getContext()), {E - S});
}

std::string SplatInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 1, {}));
  Type *S = getSrc()->getType(), *R = getResult()->getType();
  if (!S->isScalar())
    return "'splat' operand must be a scalar, got " + ty(S);
  if (!R->isBlock() || R->getScalarType() != S)
    return "'splat' result must be a block of " + ty(S) + ", got " + ty(R);
  return "";
}

std::string BroadcastInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 1, {}));
  Type *S = getSrc()->getType(), *R = getResult()->getType();
  if (!S->isBlock() || !R->isBlock() || S->getScalarType() != R->getScalarType() ||
      S->getRank() != R->getRank())
    return "'broadcast' needs blocks of the same rank and element type, got " +
           ty(S) + " to " + ty(R);
  for (unsigned D = 0; D < S->getRank(); ++D)
    if (S->getShape()[D] != R->getShape()[D] && S->getShape()[D] != 1)
      return "'broadcast' cannot change dimension " + std::to_string(D) +
             " from " + std::to_string(S->getShape()[D]) + " to " +
             std::to_string(R->getShape()[D]);
  return "";
}

std::string ReshapeInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 1, {AttrKey::AllowReorder}));
  Type *S = getSrc()->getType(), *R = getResult()->getType();
  // A scalar result is the one element of its operand.
  if (!S->isBlock() || (!R->isBlock() && !R->isScalar()) || S->getScalarType() != R->getScalarType())
    return "'reshape' needs blocks of the same element type, got " + ty(S) +
           " to " + ty(R);
  if (S->getNumElements() != R->getNumElements())
    return "'reshape' cannot change the number of elements, got " + ty(S) +
           " to " + ty(R);
  return "";
}

std::string ExpandDimsInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 1, {}, {AttrKey::Axis}));
  Type *S = getSrc()->getType();
  TRY(elements(*this, S, isAnyElem, "a scalar or block operand"));
  TRY(validAxis(*this, getAxis(), S->getRank() + 1));
  Shape Dims(S->getShape().begin(), S->getShape().end());
  Dims.insert(Dims.begin() + getAxis(), 1);
  return expectResult(*this, BlockType::get(S->getScalarType(), Dims));
}

std::string TransInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 1, {}, {AttrKey::Order}));
  Type *S = getSrc()->getType();
  if (!S->isBlock())
    return "'trans' operand must be a block, got " + ty(S);
  llvm::ArrayRef<int64_t> Order = getOrder();
  if (!isPermutation(Order, S->getRank()))
    return "'trans' order " + shapeStr(Order) +
           " is not a permutation of the dimensions of " + ty(S);
  Shape Dims;
  for (int64_t D : Order)
    Dims.push_back(S->getShape()[D]);
  return expectResult(*this, BlockType::get(S->getScalarType(), Dims));
}

std::string JoinInst::checkFamilyTypes() const {
  TRY(form(*this, 2, 2, 1, {}));
  Type *L = getLHS()->getType();
  TRY(sameType(*this, L, getRHS()->getType(), "operands"));
  TRY(elements(*this, L, isAnyElem, "scalar or block operands"));
  Shape Dims(L->getShape().begin(), L->getShape().end());
  Dims.push_back(2);
  return expectBlockResult(*this, L->getScalarType(), Dims);
}

std::string SplitInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 2, {}));
  Type *S = getSrc()->getType();
  if (!S->isBlock() || S->getShape().back() != 2)
    return "'split' operand must be a block whose last dimension is 2, got " +
           ty(S);
  Type *Half = getShapedType(S->getScalarType(), S->getShape().drop_back());
  TRY(expectResult(*this, Half, 0));
  return expectResult(*this, Half, 1);
}

std::string CatInst::checkFamilyTypes() const {
  TRY(form(*this, 2, 2, 1, {}));
  Type *L = getLHS()->getType();
  TRY(sameType(*this, L, getRHS()->getType(), "operands"));
  if (!L->isBlock())
    return "'cat' operands must be blocks, got " + ty(L);
  Shape Dims(L->getShape().begin(), L->getShape().end());
  Dims[0] *= 2;
  return expectBlockResult(*this, L->getScalarType(), Dims);
}

//===----------------------------------------------------------------------===//
// Block computations
//===----------------------------------------------------------------------===//

std::string GatherInst::checkFamilyTypes() const {
  TRY(form(*this, 2, 2, 1, {}, {AttrKey::Axis}));
  Type *S = getSrc()->getType(), *X = getIndex()->getType();
  if (!S->isBlock() || !X->isBlock())
    return "'gather' operands must be blocks, got " + ty(S) + " and " + ty(X);
  if (!X->getScalarType()->isInt() || X->getScalarType()->isBool())
    return "'gather' indices must be integers, got " + ty(X);
  if (S->getRank() != X->getRank())
    return "'gather' source and indices must have one rank, got " + ty(S) + " and " + ty(X);
  int64_t Axis = getIntAttr(AttrKey::Axis);
  if (Axis < 0 || Axis >= int64_t(S->getRank()))
    return "'gather' axis " + std::to_string(Axis) + " is out of range for " + ty(S);
  for (unsigned D = 0; D < S->getRank(); ++D)
    if (int64_t(D) != Axis && S->getShape()[D] != X->getShape()[D])
      return "'gather' source and indices must have the same extents but along the axis, got " +
             ty(S) + " and " + ty(X);
  return expectBlockResult(*this, S->getScalarType(), X->getShape());
}

std::string DotInst::checkFamilyTypes() const {
  TRY(form(*this, 3, 3, 1, {AttrKey::Precision, AttrKey::MaxNumImpreciseAcc}));
  Type *A = getA()->getType(), *B = getB()->getType(), *C = getAcc()->getType();
  if (!A->isBlock() || !B->isBlock() || !C->isBlock())
    return "'dot' operands must be blocks, got " + ty(A) + ", " + ty(B) +
           " and " + ty(C);
  unsigned R = A->getRank();
  if ((R != 2 && R != 3) || B->getRank() != R || C->getRank() != R)
    return "'dot' operands must all be 2-d (or 3-d, batched), got " + ty(A) +
           ", " + ty(B) + " and " + ty(C);
  auto SA = A->getShape(), SB = B->getShape(), SC = C->getShape();
  unsigned M = R - 2, N = R - 1;
  bool BatchOK = R == 2 || (SA[0] == SB[0] && SA[0] == SC[0]);
  if (SA[N] != SB[M] || SA[M] != SC[M] || SB[N] != SC[N] || !BatchOK)
    return "'dot' shapes do not agree: " + ty(A) + " @ " + ty(B) + " + " + ty(C);
  Type *EA = A->getScalarType(), *EB = B->getScalarType(), *EC = C->getScalarType();
  bool Floats = EA->isFloat() && EB->isFloat() && EC->isFloat() &&
                (EA == EB || (EA->isFP8() && EB->isFP8()));
  bool Ints = EA->isInt(8) && EB->isInt(8) && EC->isInt(32);
  if (!Floats && !Ints)
    return "'dot' needs float operands of one type (or two fp8 types) with a "
           "float accumulator, or i8 operands with an i32 accumulator; got " +
           ty(EA) + ", " + ty(EB) + " and " + ty(EC);
  return expectResult(*this, C);
}

std::string CombineInstBase::checkCombine() const {
  if (getNumOperands() == 0)
    return name(*this) + " needs at least one operand";
  if (getNumResults() != getNumOperands())
    return name(*this) + " defines one result per operand, got " +
           plural(getNumResults(), "result") + " for " +
           plural(getNumOperands(), "operand");
  if (getNumBlockOperands())
    return name(*this) + " takes no block operands";
  TRY(requireAttr(*this, AttrKey::Axis));
  Type *T0 = getOperand(0)->getType();
  if (!T0->isBlock())
    return name(*this) + " operands must be blocks, got " + ty(T0);
  for (unsigned I = 1; I < getNumOperands(); ++I)
    TRY(sameShape(*this, T0, getOperand(I)->getType(), "operands"));
  TRY(validAxis(*this, getAxis(), T0->getRank()));
  bool HasKind = hasAttr(AttrKey::Kind), HasFn = hasAttr(AttrKey::Combine);
  if (HasKind == HasFn)
    return name(*this) + " needs exactly one of 'kind' and 'combine'";
  if (HasKind) {
    if (getNumOperands() != 1)
      return name(*this) + " with a built-in kind takes one operand";
    Type *E = T0->getScalarType();
    CombineKind K = *getKind();
    bool FloatKind = K == CombineKind::FAdd || K == CombineKind::FMul ||
                     K == CombineKind::FMin || K == CombineKind::FMax;
    if (FloatKind ? !E->isFloat() : !E->isInt())
      return name(*this) + " kind '" + stringify(K).str() + "' needs " +
             (FloatKind ? "float" : "integer") + " elements, got " + ty(T0);
  }
  return "";
}

std::string ReduceInst::checkFamilyTypes() const {
  TRY(checkCombine());
  TRY(attributes(*this, {AttrKey::Axis, AttrKey::Kind, AttrKey::Combine}));
  for (unsigned I = 0; I < getNumOperands(); ++I) {
    Type *T = getOperand(I)->getType();
    Shape Dims(T->getShape().begin(), T->getShape().end());
    Dims.erase(Dims.begin() + getAxis());
    TRY(expectResult(*this, getShapedType(T->getScalarType(), Dims), I));
  }
  return "";
}

std::string ScanInst::checkFamilyTypes() const {
  TRY(checkCombine());
  TRY(attributes(*this, {AttrKey::Axis, AttrKey::Kind, AttrKey::Combine,
                         AttrKey::Reverse}));
  for (unsigned I = 0; I < getNumOperands(); ++I)
    TRY(expectResult(*this, getOperand(I)->getType(), I));
  return "";
}

std::string ArgMinMaxInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 1, {AttrKey::TieBreakLeft, AttrKey::Unsigned}, {AttrKey::Axis}));
  Type *S = getSrc()->getType();
  if (!S->isBlock() || !isNumElem(S->getScalarType()))
    return name(*this) + " operand must be a block of integers or floats, got " +
           ty(S);
  if (isUnsigned() && !S->getScalarType()->isInt())
    return name(*this) + " 'unsigned' needs integer operands, got " + ty(S);
  TRY(validAxis(*this, getAxis(), S->getRank()));
  Shape Dims(S->getShape().begin(), S->getShape().end());
  Dims.erase(Dims.begin() + getAxis());
  return expectResult(*this, getShapedType(Type::getI32(getContext()), Dims));
}

std::string ProgramInfoInst::checkFamilyTypes() const {
  TRY(form(*this, 0, 0, 1, {}, {AttrKey::Axis}));
  if (getAxis() < 0 || getAxis() > 2)
    return name(*this) + " axis must be 0, 1 or 2, got " +
           std::to_string(getAxis());
  return expectResult(*this, Type::getI32(getContext()));
}

//===----------------------------------------------------------------------===//
// Control flow
//===----------------------------------------------------------------------===//

Function *CallInst::getCalledFunction() const {
  Module *M = getModule();
  return M ? M->getFunction(getCallee()) : nullptr;
}

std::string CallInst::checkFamilyTypes() const {
  TRY(attributes(*this, {}, {AttrKey::Callee}));
  if (getNumBlockOperands())
    return "'call' takes no block operands";
  return "";
}

std::string RetInst::checkFamilyTypes() const {
  TRY(attributes(*this, {}));
  if (getNumResults() || getNumBlockOperands())
    return "'ret' defines no results and takes no block operands";
  return "";
}

std::string BrInst::checkFamilyTypes() const {
  return form(*this, 0, 0, 0, {}, {}, 1);
}

std::string tritium::checkNumStages(int64_t N) {
  if (N >= 0 && N <= kMaxNumStages)
    return "";
  return "num_stages must be from 0 to " + std::to_string(kMaxNumStages) + ", got " +
         std::to_string(N);
}

std::string CondBrInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 0, {AttrKey::NumStages, AttrKey::DisableLicm}, {}, 2));
  if (hasAttr(AttrKey::NumStages))
    if (std::string Why = checkNumStages(getIntAttr(AttrKey::NumStages)); !Why.empty())
      return "'cond_br' " + Why;
  if (!getCondition()->getType()->isBool())
    return "'cond_br' condition must be i1, got " +
           ty(getCondition()->getType());
  return "";
}

Value *PhiInst::getIncomingValueForBlock(const BasicBlock *B) const {
  for (unsigned I = 0; I < getNumIncoming(); ++I)
    if (getIncomingBlock(I) == B)
      return getIncomingValue(I);
  return nullptr;
}

std::string PhiInst::checkFamilyTypes() const {
  TRY(attributes(*this, {}));
  if (getNumResults() != 1)
    return "'phi' defines 1 result, got " + std::to_string(getNumResults());
  if (getNumOperands() != getNumBlockOperands())
    return "'phi' needs one block per incoming value";
  Type *T = getResult()->getType();
  // A memdesc too: which buffer of a pipelined loop is current; and a
  // tensordesc, while SSA construction has not yet found the phi trivial
  // (lower-tensor-descriptors rejects one that stays).
  if (!T->isMemDesc() && !T->isTensorDesc())
    TRY(elements(*this, T, isAnyElem, "a scalar, block, memdesc or tensordesc type"));
  for (unsigned I = 0; I < getNumOperands(); ++I)
    if (getOperand(I)->getType() != T)
      return "'phi' incoming value " + std::to_string(I) + " has type " +
             ty(getOperand(I)->getType()) + ", expected " + ty(T);
  return "";
}

//===----------------------------------------------------------------------===//
// Synchronization, debugging, external code and hints
//===----------------------------------------------------------------------===//

std::string BarrierInst::checkFamilyTypes() const {
  return form(*this, 0, 0, 0, {});
}

std::string PrintInst::checkFamilyTypes() const {
  TRY(form(*this, 0, ~0u, 0, {AttrKey::Prefix, AttrKey::Hex, AttrKey::UnsignedOperands}));
  Type *Block = nullptr;
  for (Value *V : getOperands()) {
    TRY(elements(*this, V->getType(), isAnyElem, "scalar or block operands"));
    // One element per line prints one value of each block operand.
    if (!V->getType()->isBlock())
      continue;
    if (Block && Block->getShape() != V->getType()->getShape())
      return name(*this) + " block operands must have one shape, got " + ty(Block) +
             " and " + ty(V->getType());
    Block = V->getType();
  }
  if (hasAttr(AttrKey::UnsignedOperands))
    for (int64_t I : getIntListAttr(AttrKey::UnsignedOperands))
      if (I < 0 || I >= int64_t(getNumOperands()) ||
          !getOperand(unsigned(I))->getType()->getScalarType()->isInt())
        return name(*this) + " 'unsigned_operands' names operand " + std::to_string(I) +
               ", which is not an integer operand";
  return "";
}

std::string AssertInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 0, {AttrKey::Message}));
  return elements(*this, getCondition()->getType(),
                  [](Type *E) { return E->isBool(); },
                  "an i1 or i1 block condition");
}

std::string ExternElementwiseInst::checkFamilyTypes() const {
  TRY(form(*this, 0, ~0u, 1, {AttrKey::Pure}, {AttrKey::Symbol}));
  Type *R = getResult()->getType();
  TRY(elements(*this, R, isNumElem, "an integer or float result"));
  for (Value *V : getOperands()) {
    TRY(elements(*this, V->getType(), isNumElem, "integer or float operands"));
    TRY(sameShape(*this, V->getType(), R, "operands and result"));
  }
  return "";
}

/// The rules inline_asm and map_elementwise share: one result or more, no
/// block operands, a pack that is a power of two, operands and results of
/// one shape; where \p Results / \p Operands are given, of the elements
/// they accept (\p ResultsAre / \p OperandsAre in the messages).
static std::string checkElementRuns(const Instruction &I, llvm::StringRef Name, int64_t Pack,
                                    bool (*Results)(Type *) = nullptr,
                                    const char *ResultsAre = nullptr,
                                    bool (*Operands)(Type *) = nullptr,
                                    const char *OperandsAre = nullptr) {
  if (I.getNumResults() == 0 || I.getNumBlockOperands() != 0)
    return "'" + Name.str() + "' defines one result or more and has no block operands";
  if (Pack < 1 || !llvm::isPowerOf2_64(uint64_t(Pack)))
    return "'" + Name.str() + "' pack must be a power of two";
  Type *R = I.getResult(0)->getType();
  for (Value *V : I.getResults()) {
    if (Results)
      TRY(elements(I, V->getType(), Results, ResultsAre));
    TRY(sameShape(I, V->getType(), R, "results"));
  }
  for (Value *V : I.getOperands()) {
    if (Operands)
      TRY(elements(I, V->getType(), Operands, OperandsAre));
    TRY(sameShape(I, V->getType(), R, "operands and results"));
  }
  return "";
}

std::string InlineAsmInst::checkFamilyTypes() const {
  TRY(attributes(*this, {AttrKey::Pure, AttrKey::Pack}, {AttrKey::Asm, AttrKey::Constraints}));
  return checkElementRuns(
      *this, "inline_asm", getPack(), isNumElem, "integer or float results",
      [](Type *E) { return isNumElem(E) || E->isPointer(); }, "integer, float or pointer operands");
}

std::string MapElementwiseInst::checkFamilyTypes() const {
  TRY(attributes(*this, {AttrKey::Pack}, {AttrKey::Callee}));
  return checkElementRuns(*this, "map_elementwise", getPack());
}

std::string HintInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 1, {}, {AttrKey::Values}));
  Type *T = getSrc()->getType();
  TRY(elements(*this, T, [](Type *E) { return E->isInt() || E->isPointer(); },
               "an integer or pointer operand"));
  size_t Want = std::max<size_t>(1, T->getRank());
  if (getValues().size() != Want)
    return name(*this) + " needs " + plural(Want, "value") + " (one per dimension), got " +
           std::to_string(getValues().size());
  for (int64_t V : getValues())
    if (V <= 0)
      return name(*this) + " values must be positive, got " + std::to_string(V);
  return expectResult(*this, T);
}

//===----------------------------------------------------------------------===//
// Layout-level IR
//===----------------------------------------------------------------------===//

std::string ConvertLayoutInst::checkFamilyTypes() const {
  TRY(form(*this, 1, 1, 1, {}, {AttrKey::Layout}));
  Type *T = getSrc()->getType();
  if (!T->isBlock())
    return "'convert_layout' operand must be a block, got " + ty(T);
  return expectResult(*this, T);
}

//===----------------------------------------------------------------------===//
// Constant queries
//===----------------------------------------------------------------------===//

std::optional<int64_t> tritium::getConstantIntValue(const Value *V) {
  auto *C = llvm::dyn_cast_or_null<ConstantInst>(V->getDefiningInstruction());
  if (!C || C->isFloat() || !C->hasAttr(AttrKey::Value))
    return std::nullopt;
  return C->getIntValue();
}

std::optional<double> tritium::getConstantFloatValue(const Value *V) {
  auto *C = llvm::dyn_cast_or_null<ConstantInst>(V->getDefiningInstruction());
  if (!C || !C->isFloat())
    return std::nullopt;
  return C->getFloatValue();
}

ICmpPredicate tritium::getSwappedPredicate(ICmpPredicate P) {
  switch (P) {
  case ICmpPredicate::SLT: return ICmpPredicate::SGT;
  case ICmpPredicate::SLE: return ICmpPredicate::SGE;
  case ICmpPredicate::SGT: return ICmpPredicate::SLT;
  case ICmpPredicate::SGE: return ICmpPredicate::SLE;
  case ICmpPredicate::ULT: return ICmpPredicate::UGT;
  case ICmpPredicate::ULE: return ICmpPredicate::UGE;
  case ICmpPredicate::UGT: return ICmpPredicate::ULT;
  case ICmpPredicate::UGE: return ICmpPredicate::ULE;
  default: return P; // eq, ne
  }
}
