//===- AMDGPUDeviceLibs.h - The ROCm device libraries ------------*- C++ -*-===//
//
// AMD's math (ocml) and kernel helpers (ockl) come as LLVM bitcode with
// small control libraries (oclc_*) that fix their answers for one target.
// The llir stage links what a kernel calls; nothing is downloaded, the
// folder is Debian's rocm-device-libs or ROCm's.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_AMDGPU_AMDGPUDEVICELIBS_H
#define TRITIUM_CODEGEN_AMDGPU_AMDGPUDEVICELIBS_H

#include "ir/Target.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace tritium {

/// Links into \p M the parts of the device libraries in \p Dir (empty:
/// findDeviceLibs()) that it calls, with the control libraries for \p GPU,
/// and internalizes everything but the kernels. Returns "" or why it could
/// not (no libraries, one missing for this target, a bad file).
std::string linkDeviceLibs(llvm::Module &M, const Target &GPU, llvm::StringRef Dir);

/// Replaces \p M's calls of NVIDIA libdevice functions (tl.extra.libdevice)
/// by ocml's or LLVM's equivalents (AMDGPULibdevice.cpp). Returns "" or the
/// first that has none.
std::string replaceLibdeviceCalls(llvm::Module &M);

/// "" if everything \p M calls is defined, else the first undefined function.
std::string undefinedFunction(const llvm::Module &M);

/// Where the ROCm device libraries are: TRITIUM_ROCM_DEVICE_LIBS_PATH, then
/// $ROCM_PATH/amdgcn/bitcode, Debian's /usr/lib/x86_64-linux-gnu/amdgcn/bitcode
/// and ROCm's /opt/rocm/amdgcn/bitcode; empty if none holds ocml.bc.
std::string findDeviceLibs();

} // namespace tritium

#endif // TRITIUM_CODEGEN_AMDGPU_AMDGPUDEVICELIBS_H
