//===- MatrixCores.cpp - The registry of the targets' matrix units --------===//

#include "analysis/MatrixCores.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace tritium;

namespace {
struct Registry {
  llvm::StringMap<std::unique_ptr<MatrixCores>> ByName;
  std::vector<const MatrixCores *> All;
};
Registry &registry() {
  static Registry R;
  return R;
}
} // namespace

void tritium::registerMatrixCores(llvm::StringRef Name, std::unique_ptr<MatrixCores> C) {
  Registry &R = registry();
  if (const MatrixCores *Old = getMatrixCores(Name))
    llvm::erase_value(R.All, Old);
  R.All.push_back(C.get());
  R.ByName[Name] = std::move(C);
}

const MatrixCores *tritium::getMatrixCores(llvm::StringRef Name) {
  auto It = registry().ByName.find(Name);
  return It == registry().ByName.end() ? nullptr : It->second.get();
}

const std::vector<const MatrixCores *> &tritium::allMatrixCores() { return registry().All; }

bool tritium::isMatrixCoreDot(const Instruction &Dot) {
  return llvm::any_of(allMatrixCores(), [&](const MatrixCores *C) { return C->places(Dot); });
}
