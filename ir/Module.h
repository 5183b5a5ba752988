//===- Module.h - A unit of compilation --------------------------*- C++ -*-===//
//
// A Module holds the functions compiled together: usually one kernel and the
// device functions it calls. Functions are looked up by name.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_MODULE_H
#define TRITIUM_IR_MODULE_H

#include "ir/Function.h"

#include "llvm/ADT/StringMap.h"

#include <memory>
#include <vector>

namespace tritium {

class Context;

class Module {
public:
  explicit Module(Context &Ctx) : Ctx(Ctx) {}
  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  Context &getContext() const { return Ctx; }

  /// Creates an empty function, or returns null if the name is taken.
  Function *createFunction(llvm::StringRef Name, FunctionType *Ty);
  Function *getFunction(llvm::StringRef Name) const;
  /// Deletes \p F; nothing may call it anymore.
  void eraseFunction(Function *F);
  /// Functions in creation order.
  llvm::SmallVector<Function *, 4> functions() const;

  void print(llvm::raw_ostream &OS) const;
  std::string str() const;

private:
  Context &Ctx;
  std::vector<std::unique_ptr<Function>> Funcs;
  llvm::StringMap<Function *> ByName;
};

} // namespace tritium

#endif // TRITIUM_IR_MODULE_H
