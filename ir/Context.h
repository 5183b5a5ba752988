//===- Context.h - Owner of uniqued types and strings ------------*- C++ -*-===//
//
// A Context owns every Type (so types compare by pointer) and the file names
// that source locations point into. Modules keep a reference to the Context
// they were built in; it must outlive them.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_CONTEXT_H
#define TRITIUM_IR_CONTEXT_H

#include "ir/Types.h"

#include "llvm/ADT/StringRef.h"

#include <memory>

namespace tritium {

class Context {
public:
  Context();
  ~Context();
  Context(const Context &) = delete;
  Context &operator=(const Context &) = delete;

  /// Returns a copy of \p S that lives as long as the context.
  llvm::StringRef intern(llvm::StringRef S);

private:
  friend class Type;
  friend class PointerType;
  friend class BlockType;
  friend class FunctionType;
  friend class MemDescType;
  friend class TensorDescType;
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace tritium

#endif // TRITIUM_IR_CONTEXT_H
