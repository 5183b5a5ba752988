//===- LineTable.cpp - Source lines of the lowered code -------------------===//

#include "codegen/lowering/LineTable.h"
#include "ir/Function.h"

#include "llvm/IR/Module.h"
#include "llvm/Support/Path.h"

using namespace tritium;

llvm::DIFile *LineTable::file(llvm::StringRef Path) {
  llvm::DIFile *&F = Files[Path];
  if (!F)
    F = DIB.createFile(llvm::sys::path::filename(Path), llvm::sys::path::parent_path(Path));
  return F;
}

llvm::DISubprogram *LineTable::addFunction(llvm::Function &LLF, const Function &F) {
  llvm::DIFile *File = file(F.getLoc().File);
  if (!Unit)
    Unit = DIB.createCompileUnit(llvm::dwarf::DW_LANG_C, File, "tritium", /*isOptimized=*/true,
                                 "", 0, "", llvm::DICompileUnit::DebugDirectivesOnly);
  llvm::DISubprogram *SP = DIB.createFunction(
      File, LLF.getName(), LLF.getName(), File, F.getLoc().Line,
      DIB.createSubroutineType(DIB.getOrCreateTypeArray({})), F.getLoc().Line,
      llvm::DINode::FlagZero,
      llvm::DISubprogram::SPFlagDefinition | llvm::DISubprogram::SPFlagOptimized);
  LLF.setSubprogram(SP);
  return SP;
}

llvm::DILocation *LineTable::at(const Loc &L, llvm::DISubprogram *SP) {
  llvm::DIScope *Scope = SP;
  llvm::DIFile *Other = L.File.empty() ? SP->getFile() : file(L.File);
  if (Other != SP->getFile()) {
    llvm::DILexicalBlockFile *&Block = Blocks[{SP, Other}];
    if (!Block)
      Block = DIB.createLexicalBlockFile(SP, Other);
    Scope = Block;
  }
  return llvm::DILocation::get(M.getContext(), L.Line, L.Col, Scope);
}

void LineTable::finish() {
  DIB.finalize();
  M.addModuleFlag(llvm::Module::Warning, "Debug Info Version", llvm::DEBUG_METADATA_VERSION);
  M.addModuleFlag(llvm::Module::Warning, "Dwarf Version", 2);
}
