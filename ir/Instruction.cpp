//===- Instruction.cpp - Generic instruction mechanics --------------------===//

#include "ir/Instruction.h"
#include "ir/BasicBlock.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/Module.h"
#include "ir/Printer.h"

#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/ScopedPrinter.h"

using namespace tritium;

//===----------------------------------------------------------------------===//
// Opcode tables
//===----------------------------------------------------------------------===//

namespace {
struct OpInfo {
  const char *Name;
  OpFamily Family;
  OperandClass Operands;
};

const OpInfo Ops[] = {
#define OP(Enum, Name, Family) {Name, OpFamily::Family, OperandClass::None},
#define BINARY_OP(Enum, Name, Operands)                                        \
  {Name, OpFamily::Binary, OperandClass::Operands},
#define UNARY_OP(Enum, Name, Operands)                                         \
  {Name, OpFamily::Unary, OperandClass::Operands},
#include "ir/Ops.def"
};
} // namespace

llvm::StringRef tritium::getOpcodeName(Opcode Op) { return Ops[unsigned(Op)].Name; }
OpFamily tritium::getOpFamily(Opcode Op) { return Ops[unsigned(Op)].Family; }
OperandClass tritium::getOperandClass(Opcode Op) {
  return Ops[unsigned(Op)].Operands;
}
unsigned tritium::getNumOpcodes() { return std::size(Ops); }

std::optional<Opcode> tritium::lookupOpcode(llvm::StringRef Name) {
  for (unsigned I = 0; I < std::size(Ops); ++I)
    if (Name == Ops[I].Name)
      return Opcode(I);
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

Instruction::Instruction(Context &Ctx, Opcode Op,
                         llvm::ArrayRef<Type *> ResultTypes,
                         llvm::ArrayRef<Value *> Operands, AttrList Attrs,
                         llvm::ArrayRef<BasicBlock *> Blocks, Loc L)
    : Ctx(Ctx), Op(Op), Attrs(std::move(Attrs)), Location(L) {
  // Attributes are kept sorted by key: one canonical order for printing and
  // for comparing instructions.
  llvm::stable_sort(this->Attrs, [](const Attribute &A, const Attribute &B) {
    return A.Key < B.Key;
  });
  reserveOperands(Operands.size());
  for (Value *V : Operands)
    addOperand(V);
  for (unsigned I = 0; I < ResultTypes.size(); ++I)
    Results.push_back(std::make_unique<Result>(ResultTypes[I], this, I));
  for (BasicBlock *B : Blocks)
    addBlockOperand(B);
}

Instruction *Instruction::create(Context &Ctx, Opcode Op,
                                 llvm::ArrayRef<Type *> ResultTypes,
                                 llvm::ArrayRef<Value *> Operands,
                                 AttrList Attrs,
                                 llvm::ArrayRef<BasicBlock *> Blocks, Loc L) {
  switch (getOpFamily(Op)) {
#define FAMILY(F)                                                              \
  case OpFamily::F:                                                            \
    return new F##Inst(Ctx, Op, ResultTypes, Operands, std::move(Attrs),       \
                       Blocks, L);
    TRITIUM_OP_FAMILIES(FAMILY)
#undef FAMILY
  }
  return nullptr;
}

Instruction::~Instruction() {
  assert(!Parent && "deleting an instruction still in a block");
  for (unsigned I = 0; I < NumOperands; ++I)
    Operands[I].set(nullptr);
  // Results assert in their destructor that nothing uses them any more.
}

Instruction *Instruction::clone() const {
  llvm::SmallVector<Type *, 2> Types = getResultTypes();
  llvm::SmallVector<Value *, 4> Ops = getOperands();
  Instruction *I = create(Ctx, Op, Types, Ops, Attrs, Blocks, Location);
  for (unsigned R = 0; R < getNumResults(); ++R)
    I->getResult(R)->setName(getResult(R)->getName());
  return I;
}

//===----------------------------------------------------------------------===//
// Operands, results, blocks, attributes
//===----------------------------------------------------------------------===//

void Instruction::reserveOperands(unsigned N) {
  if (N <= OperandCapacity)
    return;
  std::unique_ptr<Use[]> New(new Use[N]);
  for (unsigned I = 0; I < NumOperands; ++I) {
    Value *V = Operands[I].get();
    Operands[I].set(nullptr);
    New[I].User = this;
    New[I].set(V);
  }
  for (unsigned I = NumOperands; I < N; ++I)
    New[I].User = this;
  Operands = std::move(New);
  OperandCapacity = N;
}

void Instruction::addOperand(Value *V) {
  if (NumOperands == OperandCapacity)
    reserveOperands(std::max(2u, OperandCapacity * 2));
  Operands[NumOperands++].set(V);
}

void Instruction::removeOperand(unsigned I) {
  assert(I < NumOperands && "operand index out of range");
  for (unsigned J = I; J + 1 < NumOperands; ++J)
    Operands[J].set(Operands[J + 1].get());
  Operands[--NumOperands].set(nullptr);
}

llvm::SmallVector<Value *, 4> Instruction::getOperands() const {
  return llvm::to_vector<4>(llvm::map_range(llvm::ArrayRef<Use>(Operands.get(), NumOperands),
                                            [](const Use &U) { return U.get(); }));
}

llvm::SmallVector<Value *, 2> Instruction::getResults() const {
  return llvm::to_vector<2>(llvm::map_range(Results, [](auto &R) -> Value * { return R.get(); }));
}

llvm::SmallVector<Type *, 2> Instruction::getResultTypes() const {
  return llvm::to_vector<2>(llvm::map_range(Results, [](auto &R) { return R->getType(); }));
}

bool Instruction::use_empty() const {
  return llvm::all_of(Results, [](auto &R) { return R->use_empty(); });
}

void Instruction::setBlockOperand(unsigned I, BasicBlock *B) {
  bool Edge = Parent && isTerminator();
  if (Edge && Blocks[I])
    Blocks[I]->removePredecessor(Parent);
  Blocks[I] = B;
  if (Edge && B)
    B->addPredecessor(Parent);
}

void Instruction::addBlockOperand(BasicBlock *B) {
  Blocks.push_back(nullptr);
  setBlockOperand(Blocks.size() - 1, B);
}

void Instruction::removeBlockOperand(unsigned I) {
  setBlockOperand(I, nullptr);
  Blocks.erase(Blocks.begin() + I);
}

const AttrValue *Instruction::getAttr(AttrKey K) const {
  for (const Attribute &A : Attrs)
    if (A.Key == K)
      return &A.Val;
  return nullptr;
}

void Instruction::setAttr(AttrKey K, AttrValue V) {
  for (Attribute &A : Attrs)
    if (A.Key == K) {
      A.Val = std::move(V);
      return;
    }
  auto Pos = llvm::find_if(Attrs, [K](const Attribute &A) { return K < A.Key; });
  Attrs.insert(Pos, {K, std::move(V)});
}

void Instruction::removeAttr(AttrKey K) {
  llvm::erase_if(Attrs, [K](const Attribute &A) { return A.Key == K; });
}

int64_t Instruction::getIntAttr(AttrKey K, int64_t Default) const {
  const AttrValue *V = getAttr(K);
  return V && V->K == AttrValue::Kind::Int ? V->I : Default;
}

unsigned Instruction::getEnumAttr(AttrKey K, unsigned Default) const {
  const AttrValue *V = getAttr(K);
  return V && V->K == AttrValue::Kind::Enum ? unsigned(V->I) : Default;
}

llvm::StringRef Instruction::getStringAttr(AttrKey K) const {
  const AttrValue *V = getAttr(K);
  return V && (V->K == AttrValue::Kind::String ||
               V->K == AttrValue::Kind::Symbol)
             ? llvm::StringRef(V->S)
             : llvm::StringRef();
}

const LinearLayout *Instruction::getLayout() const {
  const AttrValue *V = getAttr(AttrKey::Layout);
  return V && V->K == AttrValue::Kind::Layout ? V->Layout.get() : nullptr;
}

void Instruction::setLayout(LinearLayout L) {
  setAttr(AttrKey::Layout, AttrValue::layout(std::move(L)));
}

llvm::ArrayRef<int64_t> Instruction::getIntListAttr(AttrKey K) const {
  const AttrValue *V = getAttr(K);
  return V && V->K == AttrValue::Kind::IntList ? llvm::ArrayRef<int64_t>(V->List)
                                               : llvm::ArrayRef<int64_t>();
}

//===----------------------------------------------------------------------===//
// Properties
//===----------------------------------------------------------------------===//

Function *Instruction::getFunction() const {
  return Parent ? Parent->getParent() : nullptr;
}

Module *Instruction::getModule() const {
  Function *F = getFunction();
  return F ? F->getParent() : nullptr;
}

bool Instruction::isTerminator() const {
  return Op == Opcode::Ret || Op == Opcode::Br || Op == Opcode::CondBr;
}

bool Instruction::hasSideEffects() const {
  switch (Op) {
  case Opcode::LocalAlloc: // its write is seen only through its result
    return false;
  case Opcode::AsyncCommitGroup:
  case Opcode::GdcLaunchDependents:
  case Opcode::Print:
  case Opcode::Assert:
    return true;
  case Opcode::Load:
    return hasAttr(AttrKey::Volatile);
  default:
    return isTerminator() || mayWriteMemory();
  }
}

namespace {
/// Whether \p I may read and write memory alike: accesses that do both,
/// waits and barriers that order others' writes before later reads, calls.
bool readsAndWrites(const Instruction &I) {
  switch (I.getOpcode()) {
  case Opcode::BarrierExpect:
  case Opcode::WaitBarrier: // its copies land, before later reads
  case Opcode::AsyncTMACopy:
  case Opcode::AsyncTMAStore:
  case Opcode::AsyncCopy:
  case Opcode::AsyncWait: // its copies land, before later reads
  case Opcode::AtomicRMW:
  case Opcode::AtomicCAS:
  case Opcode::Call:
  case Opcode::Barrier:
  case Opcode::GdcWait: // the other grids' writes become visible
    return true;
  case Opcode::ExternElementwise:
  case Opcode::InlineAsm:
    return !I.hasAttr(AttrKey::Pure);
  default:
    return false;
  }
}
} // namespace

bool Instruction::mayReadMemory() const {
  return Op == Opcode::LocalLoad || Op == Opcode::Load || Op == Opcode::DescriptorLoad ||
         readsAndWrites(*this);
}

bool Instruction::mayWriteMemory() const {
  switch (Op) {
  // An allocation writes its initial value, and two are never one.
  case Opcode::LocalAlloc:
  case Opcode::LocalStore:
  case Opcode::LocalDealloc:
  case Opcode::InitBarrier:
  case Opcode::InvalBarrier:
  case Opcode::DescriptorStore:
  case Opcode::Store:
    return true;
  default:
    return readsAndWrites(*this);
  }
}

//===----------------------------------------------------------------------===//
// Placement
//===----------------------------------------------------------------------===//

void Instruction::insertBefore(Instruction *Pos) {
  assert(!Parent && "instruction already in a block");
  Pos->getParent()->insert(Pos->getIterator(), this);
}

void Instruction::insertAfter(Instruction *Pos) {
  assert(!Parent && "instruction already in a block");
  Pos->getParent()->insert(std::next(Pos->getIterator()), this);
}

void Instruction::moveBefore(Instruction *Pos) {
  removeFromParent();
  insertBefore(Pos);
}

Instruction *Instruction::removeFromParent() {
  assert(Parent && "instruction is not in a block");
  return Parent->remove(this);
}

void Instruction::eraseFromParent() {
  assert(Parent && "instruction is not in a block");
  Parent->erase(this);
}

void Instruction::dropAllReferences() {
  for (unsigned I = 0; I < NumOperands; ++I)
    Operands[I].set(nullptr);
  for (unsigned I = 0; I < Blocks.size(); ++I)
    setBlockOperand(I, nullptr);
}

//===----------------------------------------------------------------------===//
// Type checking and printing
//===----------------------------------------------------------------------===//

std::string Instruction::checkTypes() const {
  // Attribute keys are checked here; everything else by the family.
  llvm::SmallSet<unsigned, 8> Seen;
  for (const Attribute &A : Attrs) {
    llvm::StringRef Name = getAttrKeyName(A.Key);
    if (!Seen.insert(unsigned(A.Key)).second)
      return "attribute '" + Name.str() + "' appears twice";
    AttrValue::Kind K = A.Val.K;
    bool OK = false;
    switch (getAttrKeyKind(A.Key)) {
    case AttrKeyKind::Unit: OK = K == AttrValue::Kind::Unit; break;
    case AttrKeyKind::Int: OK = K == AttrValue::Kind::Int; break;
    case AttrKeyKind::Number:
      OK = K == AttrValue::Kind::Int || K == AttrValue::Kind::Float;
      break;
    case AttrKeyKind::String: OK = K == AttrValue::Kind::String; break;
    case AttrKeyKind::Symbol: OK = K == AttrValue::Kind::Symbol; break;
    case AttrKeyKind::IntList: OK = K == AttrValue::Kind::IntList; break;
    case AttrKeyKind::Layout: OK = K == AttrValue::Kind::Layout; break;
    case AttrKeyKind::Enum:
      OK = K == AttrValue::Kind::Enum && A.Val.I >= 0 &&
           uint64_t(A.Val.I) < getEnumNames(getAttrKeyEnumTable(A.Key)).size();
      break;
    }
    if (!OK)
      return "attribute '" + Name.str() + "' has a value of the wrong kind";
  }
  for (unsigned I = 0; I < NumOperands; ++I)
    if (!Operands[I].get())
      return "operand " + std::to_string(I) + " is missing";
  for (BasicBlock *B : Blocks)
    if (!B)
      return "a block operand is missing";
  if (const LinearLayout *L = getLayout()) {
    // A distributed layout: every element of each (equally shaped) block
    // result is held by some register of some lane of some warp.
    auto Sizes = llvm::to_vector<4>(
        llvm::map_range(L->getOutDims(), [](const auto &O) { return int64_t(O.Size); }));
    for (unsigned R = 0; R < getNumResults(); ++R) {
      Type *T = getResult(R)->getType();
      if (!T->isBlock() || llvm::ArrayRef<int64_t>(Sizes) != T->getShape())
        return "'layout' does not fit result type " + T->str();
    }
    for (const LinearLayout::InDim &In : L->getInDims())
      if (In.Name != "register" && In.Name != "lane" && In.Name != "warp")
        return "'layout' input dimension '" + In.Name +
               "' is not register, lane or warp";
    if (!getNumResults() || !L->isSurjective())
      return "'layout' must map onto every element of the result";
  }
  return checkFamilyTypes();
}

void Instruction::print(llvm::raw_ostream &OS) const {
  printInstruction(*this, OS);
}

std::string Instruction::str() const { return llvm::to_string(*this); }
