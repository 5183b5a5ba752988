//===- Value.h - SSA values and their uses -----------------------*- C++ -*-===//
//
// A Value is something an instruction can use as an operand: a function
// Argument or an instruction Result. Every Value keeps the list of its Uses
// (intrusive, as in LLVM), so replaceAllUsesWith is linear in the number of
// uses and a value knows whether it is dead.
//
// Values carry a dense id assigned by Function::renumber(); analyses index
// side tables by it and the printer prints unnamed values as %<id>.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_VALUE_H
#define TRITIUM_IR_VALUE_H

#include "ir/Types.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/iterator.h"
#include "llvm/ADT/iterator_range.h"

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>

namespace tritium {

class Function;
class Instruction;
class Value;

/// One operand slot of an instruction: which value it uses. Uses of the same
/// value are chained in a doubly linked list headed in the value.
class Use {
public:
  Value *get() const { return Val; }
  Instruction *getUser() const { return User; }
  unsigned getOperandNo() const;
  Use *getNext() const { return Next; }

  /// Points this operand at \p V (which may be null), updating use lists.
  void set(Value *V);

private:
  friend class Instruction;
  friend class Value;
  void addToList(Use **List);
  void removeFromList();

  Value *Val = nullptr;
  Use *Next = nullptr;
  Use **Prev = nullptr;
  Instruction *User = nullptr;
};

class Value {
public:
  enum class Kind : uint8_t { Argument, Result };

  Kind getValueKind() const { return VK; }
  Type *getType() const { return Ty; }
  /// Changes the type in place; for passes that refine types (layouts).
  void mutateType(Type *T) { Ty = T; }

  llvm::StringRef getName() const { return Name; }
  void setName(llvm::StringRef N) { Name = N.str(); }
  bool hasName() const { return !Name.empty(); }

  unsigned getId() const { return Id; }
  void setId(unsigned I) { Id = I; }

  /// The instruction that defines this value, or null for an argument.
  Instruction *getDefiningInstruction() const;
  /// The function this value belongs to (may be null while unattached).
  Function *getFunction() const;

  // Use list.
  /// The facade adds ->, postfix ++ and != to these.
  class use_iterator
      : public llvm::iterator_facade_base<use_iterator, std::forward_iterator_tag, Use> {
  public:
    explicit use_iterator(Use *U = nullptr) : U(U) {}
    Use &operator*() const { return *U; }
    use_iterator &operator++() {
      U = U->getNext();
      return *this;
    }
    using iterator_facade_base::operator++;
    bool operator==(const use_iterator &O) const { return U == O.U; }

  private:
    Use *U;
  };
  llvm::iterator_range<use_iterator> uses() const {
    return {use_iterator(FirstUse), use_iterator()};
  }
  bool use_empty() const { return FirstUse == nullptr; }
  bool hasOneUse() const { return FirstUse && !FirstUse->getNext(); }
  unsigned getNumUses() const;
  /// The instructions using this value (one entry per use).
  llvm::SmallVector<Instruction *, 4> getUsers() const;

  /// Makes every use of this value use \p New instead.
  void replaceAllUsesWith(Value *New);

  void print(llvm::raw_ostream &OS) const;
  /// Prints "%name" or "%id" as the printer would.
  void printAsOperand(llvm::raw_ostream &OS) const;

  virtual ~Value();

protected:
  Value(Kind K, Type *T) : VK(K), Ty(T) {}

private:
  friend class Use;
  Kind VK;
  Type *Ty;
  Use *FirstUse = nullptr;
  unsigned Id = 0;
  std::string Name;
};

/// Facts about a kernel argument that the specializer proved and the axis
/// analysis consumes.
struct ArgAttrs {
  /// The value (for pointers, the address in bytes) is a multiple of this;
  /// 0 means unknown.
  int64_t Divisibility = 0;
  /// The integer argument is known to be 1.
  bool EqualTo1 = false;
  /// The argument always has this value.
  std::optional<int64_t> ConstantValue;
  /// The pointer aliases no other pointer argument.
  bool NoAlias = false;
  /// The kernel parameter is a 128-byte CUtensorMap passed by value (TMA's
  /// descriptor of a host-side tensor descriptor); the ptr<i8> names it.
  bool TensorMap = false;

  bool empty() const {
    return !Divisibility && !EqualTo1 && !ConstantValue && !NoAlias && !TensorMap;
  }
  bool operator==(const ArgAttrs &O) const {
    return Divisibility == O.Divisibility && EqualTo1 == O.EqualTo1 &&
           ConstantValue == O.ConstantValue && NoAlias == O.NoAlias && TensorMap == O.TensorMap;
  }
};

class Argument : public Value {
public:
  Argument(Type *T, Function *F, unsigned ArgNo)
      : Value(Kind::Argument, T), Parent(F), ArgNo(ArgNo) {}

  Function *getParent() const { return Parent; }
  unsigned getArgNo() const { return ArgNo; }
  ArgAttrs &getAttrs() { return Attrs; }
  const ArgAttrs &getAttrs() const { return Attrs; }

  static bool classof(const Value *V) {
    return V->getValueKind() == Kind::Argument;
  }

private:
  Function *Parent;
  unsigned ArgNo;
  ArgAttrs Attrs;
};

/// The I-th value an instruction defines.
class Result : public Value {
public:
  Result(Type *T, Instruction *Owner, unsigned Index)
      : Value(Kind::Result, T), Owner(Owner), Index(Index) {}

  Instruction *getOwner() const { return Owner; }
  unsigned getIndex() const { return Index; }

  static bool classof(const Value *V) {
    return V->getValueKind() == Kind::Result;
  }

private:
  Instruction *Owner;
  unsigned Index;
};

} // namespace tritium

#endif // TRITIUM_IR_VALUE_H
