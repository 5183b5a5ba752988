//===- BasicBlock.h - A straight-line sequence of instructions --*- C++ -*-===//
//
// A BasicBlock owns its instructions: phis first, then ordinary instructions,
// then exactly one terminator (checked by the verifier). Predecessor lists
// are kept up to date as terminators are inserted, removed or retargeted, so
// SSA construction can ask for them while a function is being built.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_BASICBLOCK_H
#define TRITIUM_IR_BASICBLOCK_H

#include "ir/Instruction.h"

#include "llvm/ADT/ilist.h"
#include "llvm/ADT/ilist_node.h"

#include <string>

namespace tritium {

class Function;
class PhiInst;

class BasicBlock : public llvm::ilist_node_with_parent<BasicBlock, Function> {
public:
  using InstListType = llvm::iplist<Instruction>;
  using iterator = InstListType::iterator;
  using const_iterator = InstListType::const_iterator;
  using reverse_iterator = InstListType::reverse_iterator;

  explicit BasicBlock(llvm::StringRef Name = "") : Name(Name.str()) {}
  ~BasicBlock();
  BasicBlock(const BasicBlock &) = delete;
  BasicBlock &operator=(const BasicBlock &) = delete;

  Function *getParent() const { return Parent; }
  llvm::StringRef getName() const { return Name; }
  void setName(llvm::StringRef N) { Name = N.str(); }
  bool hasName() const { return !Name.empty(); }
  unsigned getId() const { return Id; }
  void setId(unsigned I) { Id = I; }

  // Instructions.
  iterator begin() { return Insts.begin(); }
  iterator end() { return Insts.end(); }
  const_iterator begin() const { return Insts.begin(); }
  const_iterator end() const { return Insts.end(); }
  reverse_iterator rbegin() { return Insts.rbegin(); }
  reverse_iterator rend() { return Insts.rend(); }
  bool empty() const { return Insts.empty(); }
  size_t size() const { return Insts.size(); }
  Instruction &front() { return Insts.front(); }
  Instruction &back() { return Insts.back(); }
  const Instruction &front() const { return Insts.front(); }
  const Instruction &back() const { return Insts.back(); }

  /// The last instruction if it is a terminator, else null.
  Instruction *getTerminator() const;
  /// The first instruction that is not a phi (or end()).
  iterator getFirstNonPhi();
  /// The phis at the top of the block.
  llvm::SmallVector<PhiInst *, 4> phis();

  /// Inserts \p I (unattached) before \p Pos and takes ownership.
  iterator insert(iterator Pos, Instruction *I);
  void push_back(Instruction *I) { insert(end(), I); }
  void push_front(Instruction *I) { insert(begin(), I); }
  /// Unlinks \p I without deleting it; the caller takes ownership.
  Instruction *remove(Instruction *I);
  /// Unlinks and deletes \p I.
  void erase(Instruction *I);

  // Control flow.
  /// One entry per incoming edge (a block branching here twice is listed
  /// twice), in the order the edges were created.
  llvm::ArrayRef<BasicBlock *> predecessors() const { return Preds; }
  llvm::SmallVector<BasicBlock *, 2> successors() const;
  bool hasNoPredecessors() const { return Preds.empty(); }
  BasicBlock *getSinglePredecessor() const {
    return Preds.size() == 1 ? Preds[0] : nullptr;
  }

  /// Moves this block right after / before \p Other in the function.
  void moveAfter(BasicBlock *Other);
  void moveBefore(BasicBlock *Other);
  /// Unlinks from the function and deletes the block and its instructions.
  void eraseFromParent();

  /// Moves the instructions from \p Pos to the end into a new block that is
  /// inserted after this one; this block is left without a terminator. Phis
  /// in the old successors are retargeted to the new block.
  BasicBlock *splitAt(iterator Pos, llvm::StringRef Name = "");

  void print(llvm::raw_ostream &OS) const;
  /// Prints "bb<id>" or the block's name, as labels and branches show it.
  void printAsOperand(llvm::raw_ostream &OS) const;

  // Needed by ilist_node_with_parent.
  static InstListType BasicBlock::*getSublistAccess(Instruction *) {
    return &BasicBlock::Insts;
  }

private:
  friend class Function;
  friend class Instruction;
  void setParent(Function *F) { Parent = F; }
  void addPredecessor(BasicBlock *B) { Preds.push_back(B); }
  void removePredecessor(BasicBlock *B);

  Function *Parent = nullptr;
  InstListType Insts;
  llvm::SmallVector<BasicBlock *, 2> Preds;
  std::string Name;
  unsigned Id = 0;
};

} // namespace tritium

#endif // TRITIUM_IR_BASICBLOCK_H
