//===- Instruction.h - The Tritium IR instruction ----------------*- C++ -*-===//
//
// An Instruction is an opcode with operands (values), results (values it
// defines), block operands (branch targets, phi incoming blocks), attributes
// and a source location. All instructions share this one representation, so
// generic code (printer, parser, cloner, CSE, DCE) needs no per-opcode cases;
// the per-family subclasses in Instructions.h add typed accessors and the
// type rules of their family.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_INSTRUCTION_H
#define TRITIUM_IR_INSTRUCTION_H

#include "ir/Attribute.h"
#include "ir/Location.h"
#include "ir/Value.h"

#include "llvm/ADT/ilist.h"
#include "llvm/ADT/ilist_node.h"
#include "llvm/ADT/iterator_range.h"
#include "llvm/ADT/STLExtras.h"

#include <memory>
#include <optional>

namespace tritium {

class BasicBlock;
class Context;
class Function;
class Module;

enum class Opcode : uint16_t {
#define OP(Enum, Name, Family) Enum,
#include "ir/Ops.def"
};

/// Every opcode family (opcodes that share operand rules and syntax), once:
/// the OpFamily enum and Instruction::create expand it.
#define TRITIUM_OP_FAMILIES(X)                                                 \
  X(Constant) X(Undef) X(Binary) X(Unary) X(Fma) X(Cmp) X(Select) X(Cast)      \
  X(GetElementPtr) X(Load) X(Store) X(AtomicRMW) X(AtomicCAS) X(LocalAlloc)    \
  X(LocalLoad) X(LocalStore) X(MemDescIndex) X(MemDescTrans) X(LocalDealloc)   \
  X(AsyncCopy) X(AsyncCommitGroup) X(AsyncWait) X(MakeTensorDesc)              \
  X(DescriptorLoad) X(DescriptorStore) X(MBarrier) X(AsyncTMACopy)             \
  X(AsyncTMAStore) X(MakeRange) X(Splat) X(Broadcast) X(Reshape)               \
  X(ExpandDims) X(Trans) X(Join) X(Split) X(Cat) X(Dot) X(Reduce) X(Scan)      \
  X(ArgMinMax) X(Gather) X(ProgramInfo) X(Call) X(Ret) X(Br) X(CondBr) X(Phi)  \
  X(Barrier) X(Print) X(Assert) X(ExternElementwise) X(InlineAsm)              \
  X(MapElementwise) X(Hint) X(ConvertLayout)

enum class OpFamily : uint8_t {
#define FAMILY(Name) Name,
  TRITIUM_OP_FAMILIES(FAMILY)
#undef FAMILY
};

/// What element types a binary or unary opcode accepts.
enum class OperandClass : uint8_t { None, IntOperands, FloatOperands, AnyOperands };

llvm::StringRef getOpcodeName(Opcode Op);
OpFamily getOpFamily(Opcode Op);
OperandClass getOperandClass(Opcode Op);
std::optional<Opcode> lookupOpcode(llvm::StringRef Name);
/// Number of opcodes.
unsigned getNumOpcodes();

class Instruction : public llvm::ilist_node_with_parent<Instruction, BasicBlock> {
public:
  /// Creates an unattached instruction of the subclass of \p Op's family.
  /// Creation never fails; checkTypes() and the verifier judge the result.
  static Instruction *create(Context &Ctx, Opcode Op,
                             llvm::ArrayRef<Type *> ResultTypes,
                             llvm::ArrayRef<Value *> Operands,
                             AttrList Attrs = {},
                             llvm::ArrayRef<BasicBlock *> Blocks = {},
                             Loc L = {});
  virtual ~Instruction();
  Instruction(const Instruction &) = delete;
  Instruction &operator=(const Instruction &) = delete;

  Opcode getOpcode() const { return Op; }
  OpFamily getFamily() const { return getOpFamily(Op); }
  llvm::StringRef getOpcodeName() const { return tritium::getOpcodeName(Op); }
  Context &getContext() const { return Ctx; }

  BasicBlock *getParent() const { return Parent; }
  Function *getFunction() const;
  Module *getModule() const;

  // Operands.
  unsigned getNumOperands() const { return NumOperands; }
  Value *getOperand(unsigned I) const {
    assert(I < NumOperands && "operand index out of range");
    return Operands[I].get();
  }
  void setOperand(unsigned I, Value *V) {
    assert(I < NumOperands && "operand index out of range");
    Operands[I].set(V);
  }
  Use &getOperandUse(unsigned I) { return Operands[I]; }
  llvm::SmallVector<Value *, 4> getOperands() const;
  llvm::MutableArrayRef<Use> operandUses() {
    return {Operands.get(), NumOperands};
  }
  void addOperand(Value *V);
  void removeOperand(unsigned I);

  // Results.
  unsigned getNumResults() const { return Results.size(); }
  Result *getResult(unsigned I) const { return Results[I].get(); }
  /// The only result of a single-result instruction.
  Result *getResult() const {
    assert(Results.size() == 1 && "instruction does not have one result");
    return Results[0].get();
  }
  llvm::SmallVector<Value *, 2> getResults() const;
  llvm::SmallVector<Type *, 2> getResultTypes() const;
  /// True if no result has a use.
  bool use_empty() const;

  // Block operands: successors of a terminator, incoming blocks of a phi.
  llvm::ArrayRef<BasicBlock *> getBlockOperands() const { return Blocks; }
  unsigned getNumBlockOperands() const { return Blocks.size(); }
  BasicBlock *getBlockOperand(unsigned I) const { return Blocks[I]; }
  void setBlockOperand(unsigned I, BasicBlock *B);
  void addBlockOperand(BasicBlock *B);
  void removeBlockOperand(unsigned I);

  // Attributes.
  const AttrList &getAttrs() const { return Attrs; }
  const AttrValue *getAttr(AttrKey K) const;
  bool hasAttr(AttrKey K) const { return getAttr(K) != nullptr; }
  void setAttr(AttrKey K, AttrValue V);
  void removeAttr(AttrKey K);
  int64_t getIntAttr(AttrKey K, int64_t Default = 0) const;
  unsigned getEnumAttr(AttrKey K, unsigned Default = 0) const;
  llvm::StringRef getStringAttr(AttrKey K) const;
  llvm::ArrayRef<int64_t> getIntListAttr(AttrKey K) const;
  /// getIntAttr and getEnumAttr (as \p EnumT) of an optional attribute: none
  /// where it is absent.
  std::optional<int64_t> getOptionalIntAttr(AttrKey K) const {
    return hasAttr(K) ? std::optional<int64_t>(getIntAttr(K)) : std::nullopt;
  }
  template <typename EnumT> std::optional<EnumT> getOptionalEnumAttr(AttrKey K) const {
    return hasAttr(K) ? std::optional<EnumT>(EnumT(getEnumAttr(K))) : std::nullopt;
  }
  /// The `layout` attribute (layout-level IR), or null.
  const LinearLayout *getLayout() const;
  void setLayout(LinearLayout L);

  Loc getLoc() const { return Location; }
  void setLoc(Loc L) { Location = L; }

  unsigned getId() const { return Id; }
  void setId(unsigned I) { Id = I; }

  // Properties.
  bool isTerminator() const;
  /// Writes memory, synchronizes, prints, traps or calls: must not be
  /// removed even if its results are unused.
  bool hasSideEffects() const;
  bool mayReadMemory() const;
  bool mayWriteMemory() const;

  // Placement.
  void insertBefore(Instruction *Pos);
  void insertAfter(Instruction *Pos);
  void moveBefore(Instruction *Pos);
  /// Unlinks from the parent block without deleting.
  Instruction *removeFromParent();
  /// Unlinks and deletes. Results must be unused.
  void eraseFromParent();
  /// Clears operands and block operands, so that the instruction no longer
  /// keeps other values alive.
  void dropAllReferences();

  /// A copy with the same operands, attributes, blocks and location, not
  /// inserted anywhere.
  Instruction *clone() const;

  /// Checks operand, result and attribute types against the rules of the
  /// opcode's family. Returns a message, or an empty string when they hold.
  std::string checkTypes() const;

  void print(llvm::raw_ostream &OS) const;
  std::string str() const;

protected:
  Instruction(Context &Ctx, Opcode Op, llvm::ArrayRef<Type *> ResultTypes,
              llvm::ArrayRef<Value *> Operands, AttrList Attrs,
              llvm::ArrayRef<BasicBlock *> Blocks, Loc L);
  /// Family-specific type rules; the base checks the attribute kinds.
  virtual std::string checkFamilyTypes() const = 0;

private:
  friend class BasicBlock;
  friend class Use;
  void setParent(BasicBlock *B) { Parent = B; }
  void reserveOperands(unsigned N);

  Context &Ctx;
  Opcode Op;
  BasicBlock *Parent = nullptr;
  std::unique_ptr<Use[]> Operands;
  unsigned NumOperands = 0;
  unsigned OperandCapacity = 0;
  llvm::SmallVector<std::unique_ptr<Result>, 1> Results;
  llvm::SmallVector<BasicBlock *, 2> Blocks;
  AttrList Attrs;
  Loc Location;
  unsigned Id = 0;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &OS,
                                     const Instruction &I) {
  I.print(OS);
  return OS;
}

} // namespace tritium

#endif // TRITIUM_IR_INSTRUCTION_H
