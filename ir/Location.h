//===- Location.h - Source locations of instructions -------------*- C++ -*-===//
#ifndef TRITIUM_IR_LOCATION_H
#define TRITIUM_IR_LOCATION_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace tritium {

/// Where an instruction came from: a file (interned in the Context), a
/// 1-based line and column. A default Loc is unknown.
struct Loc {
  llvm::StringRef File;
  unsigned Line = 0;
  unsigned Col = 0;

  bool isKnown() const { return Line != 0; }
  bool operator==(const Loc &O) const {
    return File == O.File && Line == O.Line && Col == O.Col;
  }
  /// Prints file:line:col.
  void print(llvm::raw_ostream &OS) const {
    OS << File << ':' << Line << ':' << Col;
  }
};

} // namespace tritium

#endif // TRITIUM_IR_LOCATION_H
