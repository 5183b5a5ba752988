//===- RematerializeAfterLoops.h - Short live ranges across loops -*- C++ -*-===//
//
// An LLVM IR step the NVPTX backend runs after LLVM's pipeline: values
// computed from a thread's special registers and the kernel's arguments
// before a loop, and used only after it, are computed again there.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_NVPTX_REMATERIALIZEAFTERLOOPS_H
#define TRITIUM_CODEGEN_NVPTX_REMATERIALIZEAFTERLOOPS_H

namespace llvm {
class Module;
} // namespace llvm

namespace tritium {

/// Recomputes in \p M, after each loop, the cheap values made before it
/// and used after it but not in it.
void rematerializeAfterLoops(llvm::Module &M);

} // namespace tritium

#endif // TRITIUM_CODEGEN_NVPTX_REMATERIALIZEAFTERLOOPS_H
