//===- LineTable.h - Source lines of the lowered code -----------*- C++ -*-===//
//
// The kernel's source lines as LLVM debug locations, so that the machine
// code names the Python line it came from (ptxas -lineinfo keeps them in
// the cubin, where nvdisasm -g, Nsight Compute's source view,
// compute-sanitizer and cuda-gdb read them). Only the line directives are
// asked for (DICompileUnit::DebugDirectivesOnly: `.file` and `.loc` in
// PTX, no DWARF sections), one DISubprogram per function; an instruction
// from another file (a @jit function of another module, inlined by the
// frontend) is scoped by a lexical block of that file.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_LOWERING_LINETABLE_H
#define TRITIUM_CODEGEN_LOWERING_LINETABLE_H

#include "ir/Location.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/IR/DIBuilder.h"

namespace tritium {

class Function;

class LineTable {
public:
  explicit LineTable(llvm::Module &M) : M(M), DIB(M) {}
  /// Gives \p LLF, the lowering of \p F, a subprogram at F's line.
  llvm::DISubprogram *addFunction(llvm::Function &LLF, const Function &F);
  /// The location of \p L in \p SP's function (line 0 where unknown).
  llvm::DILocation *at(const Loc &L, llvm::DISubprogram *SP);
  /// Finalizes the debug info and marks the module as carrying it.
  void finish();

private:
  llvm::DIFile *file(llvm::StringRef Path);

  llvm::Module &M;
  llvm::DIBuilder DIB;
  llvm::DICompileUnit *Unit = nullptr;
  llvm::StringMap<llvm::DIFile *> Files;
  llvm::DenseMap<std::pair<llvm::DISubprogram *, llvm::DIFile *>, llvm::DILexicalBlockFile *>
      Blocks;
};

} // namespace tritium

#endif // TRITIUM_CODEGEN_LOWERING_LINETABLE_H
