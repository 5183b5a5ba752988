//===- Parser.h - Reading the text form of the IR ----------------*- C++ -*-===//
//
// Parses what Printer.h prints (grammar in docs/ir.md) into a Module. Each
// instruction's types are checked as it is created. Any error throws a
// CompileError whose location is the buffer name, line and column of the
// offending token and whose message says what was expected; the parser never
// crashes or aborts on malformed input (a libFuzzer target checks this).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_PARSER_H
#define TRITIUM_IR_PARSER_H

#include "ir/Diagnostics.h"
#include "ir/Module.h"

#include "llvm/ADT/StringRef.h"

#include <memory>

namespace tritium {

/// Parses \p Text into a new module in \p Ctx. Throws CompileError.
std::unique_ptr<Module> parseModule(llvm::StringRef Text, Context &Ctx,
                                    llvm::StringRef BufferName = "<input>");

/// Parses a type such as "<128 x ptr<f16>>". Throws CompileError.
Type *parseType(llvm::StringRef Text, Context &Ctx);

/// Formats \p E for a terminal: "file:line:col: error: message", then the
/// source line from \p Text and a caret under the column. Given the name
/// \p Text was parsed under, the source line is left out for errors located
/// in other files (instructions carrying the loc() of a Python source).
std::string formatError(const CompileError &E, llvm::StringRef Text,
                        llvm::StringRef BufferName = "");

} // namespace tritium

#endif // TRITIUM_IR_PARSER_H
