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
      : std::runtime_error(Msg), Location(L) {}
  explicit CompileError(const std::string &Msg) : std::runtime_error(Msg) {}

  const Loc &getLoc() const { return Location; }
  /// "file:line:col: message" (or just the message without a location).
  std::string describe() const {
    std::string S;
    llvm::raw_string_ostream OS(S);
    if (Location.isKnown()) {
      Location.print(OS);
      OS << ": ";
    }
    OS << what();
    return S;
  }

private:
  Loc Location;
};

/// Throws a CompileError at \p L.
[[noreturn]] inline void reportError(Loc L, const llvm::Twine &Msg) {
  throw CompileError(L, Msg.str());
}

} // namespace tritium

#endif // TRITIUM_IR_DIAGNOSTICS_H
