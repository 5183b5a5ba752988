//===- Module.cpp - Functions compiled together ---------------------------===//

#include "ir/Module.h"
#include "ir/Printer.h"

using namespace tritium;

Module::~Module() = default;

Function *Module::createFunction(llvm::StringRef Name, FunctionType *Ty) {
  if (ByName.count(Name))
    return nullptr;
  Funcs.push_back(std::make_unique<Function>(this, Name, Ty));
  ByName[Name] = Funcs.back().get();
  return Funcs.back().get();
}

Function *Module::getFunction(llvm::StringRef Name) const {
  return ByName.lookup(Name);
}

void Module::eraseFunction(Function *F) {
  ByName.erase(F->getName());
  llvm::erase_if(Funcs, [F](auto &P) { return P.get() == F; });
}

llvm::SmallVector<Function *, 4> Module::functions() const {
  llvm::SmallVector<Function *, 4> Fs;
  for (auto &F : Funcs)
    Fs.push_back(F.get());
  return Fs;
}

void Module::print(llvm::raw_ostream &OS) const { printModule(*this, OS); }

std::string Module::str() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  print(OS);
  return S;
}
