//===- ParserFuzzer.cpp - libFuzzer target of the IR parser ---------------===//
//
// Feeds arbitrary bytes to parseModule and parseType. Rejecting them with a
// CompileError is fine; crashing, leaking, hanging or tripping a sanitizer is
// not, in the parser or in the verifier that tritium-opt runs next. Whatever
// parses must print as text that parses again and prints the same (with
// locations, so loc(...) round-trips too); a mismatch traps.
//
//===----------------------------------------------------------------------===//

#include "ir/Context.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

using namespace tritium;

namespace {

std::string print(const Module &M) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  PrintOptions Opts;
  Opts.PrintLocs = true;
  printModule(M, OS, Opts);
  return S;
}

[[noreturn]] void fail(const char *What, llvm::StringRef A, llvm::StringRef B) {
  llvm::errs() << "round trip failed: " << What << "\n--- first\n"
               << A << "\n--- second\n"
               << B << "\n";
  llvm::errs().flush();
  __builtin_trap();
}

void checkModule(llvm::StringRef Text) {
  Context Ctx;
  std::string First;
  try {
    std::unique_ptr<Module> M = parseModule(Text, Ctx, "fuzz");
    // tritium-opt verifies what it parsed: that must not crash either.
    (void)verifyModule(*M);
    First = print(*M);
  } catch (const CompileError &E) {
    (void)formatError(E, Text, "fuzz");
    return;
  }
  try {
    std::string Second = print(*parseModule(First, Ctx, "printed"));
    if (Second != First)
      fail("printing the reparsed module differs", First, Second);
  } catch (const CompileError &E) {
    fail("printed text does not parse", First, formatError(E, First));
  }
}

void checkType(llvm::StringRef Text) {
  Context Ctx;
  Type *T;
  try {
    T = parseType(Text, Ctx);
  } catch (const CompileError &) {
    return;
  }
  try {
    if (parseType(T->str(), Ctx) != T)
      fail("type reparses differently", T->str(), "");
  } catch (const CompileError &E) {
    fail("printed type does not parse", T->str(), E.what());
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  llvm::StringRef Text(reinterpret_cast<const char *>(Data), Size);
  checkModule(Text);
  checkType(Text);
  return 0;
}
