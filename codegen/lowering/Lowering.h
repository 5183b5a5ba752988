//===- Lowering.h - Layout-level Tritium IR to LLVM IR ----------*- C++ -*-===//
#ifndef TRITIUM_CODEGEN_LOWERING_LOWERING_H
#define TRITIUM_CODEGEN_LOWERING_LOWERING_H

#include "codegen/lowering/LoweringContext.h"

#include "llvm/IR/LLVMContext.h"

#include <memory>

namespace tritium {

class Module;

/// Lowers every function of \p M (layout-level IR: after assign-layouts)
/// into a new LLVM module for \p Target. Kernels become LLVM kernels of
/// NumWarps * WarpSize threads. \p SharedBytes receives the dynamic shared
/// memory the kernels need. Throws CompileError for what the backend cannot
/// lower.
std::unique_ptr<llvm::Module> lowerToLLVM(Module &M, llvm::LLVMContext &Ctx,
                                          const LoweringOptions &Opts,
                                          const TargetInfo &Target,
                                          unsigned &SharedBytes);

} // namespace tritium

#endif // TRITIUM_CODEGEN_LOWERING_LOWERING_H
