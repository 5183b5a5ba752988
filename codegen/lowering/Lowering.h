//===- Lowering.h - Layout-level Tritium IR to LLVM IR ----------*- C++ -*-===//
#ifndef TRITIUM_CODEGEN_LOWERING_LOWERING_H
#define TRITIUM_CODEGEN_LOWERING_LOWERING_H

#include "codegen/lowering/LoweringContext.h"

#include "llvm/IR/LLVMContext.h"

#include <memory>

namespace tritium {

class Module;

/// Lowers every function of \p M (layout-level IR: after assign-layouts)
/// into a new LLVM module for \p Target: a pass run by a pass manager, of
/// which it asks the axis facts and the shared memory allocation. Kernels become LLVM kernels of
/// NumWarps * WarpSize threads. \p SharedBytes receives the dynamic shared
/// memory the kernels need. Throws CompileError for what the backend cannot
/// lower (a module without a kernel), and
/// OutOfResourcesError for a kernel too large for the target or for the
/// lowering.
std::unique_ptr<llvm::Module> lowerToLLVM(Module &M, llvm::LLVMContext &Ctx,
                                          const LoweringOptions &Opts,
                                          const TargetInfo &Target,
                                          unsigned &SharedBytes);

/// Reports \p Err, an error linking the device libraries into the lowered
/// module of \p M, at the first extern_elementwise of \p M whose symbol
/// the message names in quotes ("undefined function '__nv_foo': ..."),
/// where there is one: the user's line that asked for it.
[[noreturn]] void reportLinkError(const Module &M, const std::string &Err);

} // namespace tritium

#endif // TRITIUM_CODEGEN_LOWERING_LOWERING_H
