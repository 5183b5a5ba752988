//===- AMDGPUTargetMachine.h - LLVM's AMDGPU target for a Target -*- C++ -*-===//
//
// What the AMDGPU stages share: LLVM's AMDGPU target (initialized once),
// the triple, and a target machine for an AMD Target (ir/Target.h).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_AMDGPU_AMDGPUTARGETMACHINE_H
#define TRITIUM_CODEGEN_AMDGPU_AMDGPUTARGETMACHINE_H

#include "ir/Target.h"

#include <memory>
#include <string>

namespace llvm {
class Target;
class TargetMachine;
} // namespace llvm

namespace tritium {

/// The triple of every AMD code object Tritium makes (HSA, code object v4).
inline constexpr const char *AMDGPUTriple = "amdgcn-amd-amdhsa";

/// LLVM's AMDGPU target, its MC layer and assembly parser initialized.
const llvm::Target &amdgpuTarget();

/// The subtarget features \p GPU implies: its wavefront size.
std::string amdgpuFeatures(const Target &GPU);

/// A target machine for \p GPU, contracting a*b+c into fma where
/// \p FPFusion (Triton's enable_fp_fusion).
std::unique_ptr<llvm::TargetMachine> createAMDGPUTargetMachine(const Target &GPU,
                                                               bool FPFusion = true);

} // namespace tritium

#endif // TRITIUM_CODEGEN_AMDGPU_AMDGPUTARGETMACHINE_H
