//===- Backend.h - What the GPU backends' stages share -----------*- C++ -*-===//
//
// Each backend (codegen/nvptx/, codegen/amdgpu/) has the same stages:
// tgir (runGPUPipeline: getLayoutPipeline in codegen/Passes.h), llir
// (lowerToLLVMIR), then its own assembly and binary.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_BACKEND_H
#define TRITIUM_CODEGEN_BACKEND_H

#include <string>

namespace tritium {

/// A lowered, optimized module as LLVM IR text, and the dynamic shared
/// memory its kernels need.
struct LLVMIRResult {
  std::string IR;
  unsigned SharedBytes = 0;
};

} // namespace tritium

#endif // TRITIUM_CODEGEN_BACKEND_H
