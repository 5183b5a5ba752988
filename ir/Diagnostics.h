//===- Diagnostics.h - Errors that reach the user ----------------*- C++ -*-===//
//
// Errors caused by the input (a kernel, an IR file) are reported by throwing
// a CompileError that carries the source location; tritium-opt prints it and
// the Python binding turns it into tritium.CompilationError. Tritium's own
// invariants use assert() instead.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_DIAGNOSTICS_H
#define TRITIUM_IR_DIAGNOSTICS_H

#include "ir/Location.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/raw_ostream.h"

#include <stdexcept>
#include <string>

namespace tritium {

class CompileError : public std::runtime_error {
public:
  CompileError(Loc L, const std::string &Msg)
      : std::runtime_error(Msg), File(L.File.str()), Line(L.Line), Col(L.Col) {}
  explicit CompileError(const std::string &Msg) : std::runtime_error(Msg) {}

  /// The location, its file name owned by this error: an error outlives the
  /// Context that interned the name (it is caught after the Context is gone).
  Loc getLoc() const { return Loc{File, Line, Col}; }
  /// "file:line:col: message" (or just the message without a location).
  std::string describe() const {
    std::string S;
    llvm::raw_string_ostream OS(S);
    if (Line != 0) {
      getLoc().print(OS);
      OS << ": ";
    }
    OS << what();
    return S;
  }

private:
  std::string File;
  unsigned Line = 0, Col = 0;
};

/// A kernel needs more of a device resource than the device has: the
/// resource ("shared memory"), what the kernel needs and the limit (in
/// bytes); or more than the compiler handles well (\p LimitKind "Compiler
/// limit"). The Python binding turns it into tritium.OutOfResources, which
/// the autotuner skips.
class OutOfResourcesError : public CompileError {
public:
  OutOfResourcesError(const std::string &Kernel, const std::string &Resource,
                      uint64_t Required, uint64_t Limit,
                      const std::string &LimitKind = "Hardware limit")
      : CompileError("out of resource: " + Resource + " in kernel '" + Kernel +
                     "', Required: " + std::to_string(Required) + ", " + LimitKind + ": " +
                     std::to_string(Limit)),
        Resource(Resource), Required(Required), Limit(Limit) {}

  std::string Resource;
  uint64_t Required, Limit;
};

/// Throws a CompileError at \p L.
[[noreturn]] inline void reportError(Loc L, const llvm::Twine &Msg) {
  throw CompileError(L, Msg.str());
}

} // namespace tritium

#endif // TRITIUM_IR_DIAGNOSTICS_H
