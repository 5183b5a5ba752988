//===- LLVMDiagnostics.h - LLVM's errors as messages, not exits --*- C++ -*-===//
//
// LLVM reports some errors of a valid module through its context's
// diagnostic handler, e.g. AMDGPU's "local memory (N) exceeds limit"; the
// default handler prints them and exits the process. A backend that runs
// LLVM's code generator installs this collector first and turns what it
// caught into a CompileError.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_LOWERING_LLVMDIAGNOSTICS_H
#define TRITIUM_CODEGEN_LOWERING_LLVMDIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace tritium {

/// Collects the error diagnostics of one LLVMContext (warnings and remarks
/// are dropped) for as long as the context lives.
class LLVMErrorCollector {
public:
  explicit LLVMErrorCollector(llvm::LLVMContext &Ctx);
  LLVMErrorCollector(const LLVMErrorCollector &) = delete;
  LLVMErrorCollector &operator=(const LLVMErrorCollector &) = delete;

  /// The errors so far, one per line; empty if none.
  const std::string &errors() const { return Errors; }
  /// Throws a CompileError "<What>: <errors>" if any error was reported.
  void throwIfAny(llvm::StringRef What) const;

private:
  std::string Errors;
};

/// The module of \p IR, a stage's LLVM IR text, in \p Ctx; a CompileError
/// ("cannot parse the LLVM IR: ...") if it does not parse.
std::unique_ptr<llvm::Module> parseLLVMIR(llvm::StringRef IR, llvm::LLVMContext &Ctx);

} // namespace tritium

#endif // TRITIUM_CODEGEN_LOWERING_LLVMDIAGNOSTICS_H
