//===- TensorCopies.cpp - The registry of the targets' tensor copies ------===//

#include "analysis/TensorCopies.h"

#include "llvm/ADT/STLExtras.h"

using namespace tritium;

namespace {
llvm::StringMap<TensorCopies> &registry() {
  static llvm::StringMap<TensorCopies> R;
  return R;
}
} // namespace

void tritium::registerTensorCopies(llvm::StringRef Name, TensorCopies C) { registry()[Name] = C; }

const llvm::StringMap<TensorCopies> &tritium::allTensorCopies() { return registry(); }

bool tritium::tensorCopiesFill(const MemDescType &M) {
  return llvm::any_of(registry(), [&](const auto &C) { return C.second.Fills(M); });
}
