//===- SemanticTestUtil.h - A kernel under construction for tests -*- C++ -*-===//
//
// The fixture of the Semantic*Test.cpp files: a module with one kernel whose
// parameters are given as (name, dtype) pairs and are read back as
// variables; body() prints what the semantic layer has emitted so far, one
// instruction per line, and errorOf() returns the message of the
// CompileError an operation throws.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TESTS_UNIT_SEMANTICTESTUTIL_H
#define TRITIUM_TESTS_UNIT_SEMANTICTESTUTIL_H

#include "frontend/DType.h"
#include "frontend/Semantic.h"
#include "ir/Context.h"
#include "ir/Diagnostics.h"
#include "ir/Function.h"
#include "ir/Module.h"

#include "llvm/ADT/StringExtras.h"

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace tritium {
namespace test {

/// A scalar dtype by name ("fp32", "uint8", ...).
inline DType *dt(const char *Name) {
  DType *T = DType::fromName(Name);
  assert(T && "unknown dtype name");
  return T;
}
inline DType *ptr(const char *Elem, bool Const = false) {
  return DType::getPointer(dt(Elem), 1, Const);
}
inline DType *blk(DType *Elem, std::initializer_list<int64_t> Shape) {
  return DType::getBlock(Elem, Shape);
}
inline DType *blk(const char *Elem, std::initializer_list<int64_t> Shape) {
  return blk(dt(Elem), Shape);
}

inline Operand lit(int64_t V) { return Operand::integer(V); }
inline Operand litf(double V) { return Operand::floating(V); }
inline Operand litb(bool V) { return Operand::boolean(V); }

struct SemFixture {
  Context Ctx;
  Module M{Ctx};
  Semantic S{M};
  Function *F = nullptr;

  explicit SemFixture(
      std::initializer_list<std::pair<const char *, DType *>> Params = {}) {
    std::vector<DType *> Types;
    std::vector<std::string> Names;
    for (auto &[N, T] : Params) {
      Names.push_back(N);
      Types.push_back(T);
    }
    S.setLoc(Loc{Ctx.intern("k.py"), 3, 5});
    F = S.beginFunction("k", Types, Names, /*IsKernel=*/true);
  }

  /// A parameter (or any variable) by name.
  TValue v(const char *Name) {
    std::optional<TValue> V = S.readVar(Name);
    assert(V && "undefined variable");
    return *V;
  }

  /// The instructions of every block, one per line without indentation;
  /// block labels end in ':'.
  std::string body() const {
    std::string Text = F->str();
    std::string Out;
    llvm::SmallVector<llvm::StringRef, 32> Lines;
    llvm::StringRef(Text).split(Lines, '\n');
    bool First = true;
    for (llvm::StringRef L : Lines) {
      L = L.trim();
      if (L.empty() || L.startswith("kernel ") || L.startswith("func ") ||
          L == "}")
        continue;
      if (L == "entry:" && First) {
        First = false;
        continue;
      }
      Out += L.str() + "\n";
    }
    return Out;
  }

  /// The message of the CompileError \p Build throws ("<no error>" if none).
  template <typename Fn> static std::string errorOf(Fn Build) {
    try {
      Build();
    } catch (const CompileError &E) {
      return E.what();
    }
    return "<no error>";
  }
};

} // namespace test
} // namespace tritium

#endif // TRITIUM_TESTS_UNIT_SEMANTICTESTUTIL_H
