//===- Function.h - Kernels and device functions -----------------*- C++ -*-===//
//
// A Function has typed arguments (with specialization attributes), zero or
// more results, and a list of basic blocks whose first is the entry. Kernels
// return nothing; device functions may return values and be called.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_FUNCTION_H
#define TRITIUM_IR_FUNCTION_H

#include "ir/BasicBlock.h"
#include "ir/Location.h"
#include "ir/Value.h"

#include "llvm/ADT/ilist.h"

#include <memory>
#include <string>
#include <vector>

namespace tritium {

class Module;

class Function {
public:
  using BlockListType = llvm::iplist<BasicBlock>;
  using iterator = BlockListType::iterator;
  using const_iterator = BlockListType::const_iterator;

  Function(Module *Parent, llvm::StringRef Name, FunctionType *Ty);
  ~Function();
  Function(const Function &) = delete;
  Function &operator=(const Function &) = delete;

  Module *getParent() const { return Parent; }
  Context &getContext() const { return Ty->getContext(); }
  llvm::StringRef getName() const { return Name; }
  FunctionType *getFunctionType() const { return Ty; }
  llvm::ArrayRef<Type *> getResultTypes() const { return Ty->getResults(); }
  /// Changes the result types; the frontend knows them only after it has
  /// seen the function's returns.
  void setResultTypes(llvm::ArrayRef<Type *> Results) {
    Ty = FunctionType::get(getContext(), Ty->getParams(), Results);
  }

  /// A kernel is launched from the host; it returns nothing.
  bool isKernel() const { return Kernel; }
  void setKernel(bool K) { Kernel = K; }
  /// Keep calls to this function as calls (the inliner skips it).
  bool isNoInline() const { return NoInline; }
  void setNoInline(bool N) { NoInline = N; }
  /// Where the function is defined (its `func`/`kernel` in IR text, its
  /// `def` in Python), for errors about it as a whole.
  Loc getLoc() const { return Location; }
  void setLoc(Loc L) { Location = L; }

  // Arguments.
  unsigned getNumArgs() const { return Args.size(); }
  Argument *getArg(unsigned I) const { return Args[I].get(); }
  llvm::SmallVector<Argument *, 8> args() const;
  /// Appends an argument of type \p T (a pass's hidden parameter: the
  /// function's type changes with it).
  Argument *addArgument(Type *T, llvm::StringRef Name);

  // Blocks.
  iterator begin() { return Blocks.begin(); }
  iterator end() { return Blocks.end(); }
  const_iterator begin() const { return Blocks.begin(); }
  const_iterator end() const { return Blocks.end(); }
  bool empty() const { return Blocks.empty(); }
  size_t size() const { return Blocks.size(); }
  BasicBlock &front() { return Blocks.front(); }
  const BasicBlock &front() const { return Blocks.front(); }
  BasicBlock *getEntryBlock() { return empty() ? nullptr : &Blocks.front(); }

  /// Appends a new empty block.
  BasicBlock *createBlock(llvm::StringRef Name = "");
  /// Inserts \p B (unattached) before \p Pos and takes ownership.
  iterator insert(iterator Pos, BasicBlock *B);
  void push_back(BasicBlock *B) { insert(end(), B); }
  /// Unlinks \p B without deleting it.
  BasicBlock *remove(BasicBlock *B);
  /// Unlinks and deletes \p B; its instructions must be unused elsewhere.
  void erase(BasicBlock *B);

  /// Assigns dense ids: arguments then results (in block order) share one
  /// numbering, instructions and blocks each have their own.
  void renumber();
  unsigned getNumValueIds() const { return NumValueIds; }
  unsigned getNumInstIds() const { return NumInstIds; }
  unsigned getNumBlockIds() const { return NumBlockIds; }

  void print(llvm::raw_ostream &OS) const;
  std::string str() const;

  // Needed by ilist_node_with_parent.
  static BlockListType Function::*getSublistAccess(BasicBlock *) {
    return &Function::Blocks;
  }

private:
  Module *Parent;
  std::string Name;
  FunctionType *Ty;
  bool Kernel = false;
  bool NoInline = false;
  Loc Location;
  std::vector<std::unique_ptr<Argument>> Args;
  BlockListType Blocks;
  unsigned NumValueIds = 0, NumInstIds = 0, NumBlockIds = 0;
};

} // namespace tritium

#endif // TRITIUM_IR_FUNCTION_H
