//===- Printer.h - The text form of the IR -----------------------*- C++ -*-===//
//
// Prints modules, functions, blocks and instructions in the syntax that
// Parser.h reads back (docs/ir.md has the grammar). Values print as %name when
// they have a unique identifier-like name and as %<id> otherwise, blocks as
// their name or bb<id>, with the ids of Function::renumber().
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_PRINTER_H
#define TRITIUM_IR_PRINTER_H

#include "ir/Instruction.h"

#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace tritium {

class BasicBlock;
class Function;
class Instruction;
class Module;

struct PrintOptions {
  /// Append ` loc("file":line:col)` to instructions with a known location.
  bool PrintLocs = false;
};

void printModule(const Module &M, llvm::raw_ostream &OS,
                 const PrintOptions &Opts = {});
void printFunction(const Function &F, llvm::raw_ostream &OS,
                   const PrintOptions &Opts = {});
void printBlock(const BasicBlock &B, llvm::raw_ostream &OS,
                const PrintOptions &Opts = {});
/// The attribute \p Op spells as a bare word or literal right after its name
/// (constant's value, icmp's and fcmp's predicate, atomic_rmw's kind), if
/// any. The parser reads the lead by the same table.
std::optional<AttrKey> getLeadAttr(Opcode Op);
/// Whether \p Label is `bb` and digits, what unnamed blocks print as (a
/// block named so prints as bb<id> instead, and the parser names no block so).
bool looksNumbered(llvm::StringRef Label);

/// One instruction without indentation or newline.
void printInstruction(const Instruction &I, llvm::raw_ostream &OS,
                      const PrintOptions &Opts = {});

} // namespace tritium

#endif // TRITIUM_IR_PRINTER_H
