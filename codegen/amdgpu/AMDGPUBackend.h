//===- AMDGPUBackend.h - Tritium IR to an AMD code object --------*- C++ -*-===//
//
// The stages of the AMDGPU backend (registered for "hip" targets, see
// codegen/Backend.h), each usable on its own:
//
//   tgir    runAMDGPUPipeline: the layout pipeline for wavefronts of the
//           target's size (64 on CDNA, 32 on RDNA)
//   llir    lowerAMDGPUToLLVMIR: lowering (AMDGPUTargetInfo), the ROCm device
//           libraries linked (ocml, ockl and the oclc controls), optimized
//   amdgcn  compileToAMDGCN: LLVM's AMDGPU backend, as assembly
//   hsaco   assembleHsaco: the assembly assembled by LLVM's MC layer and
//           linked by LLD, in process, into a code object; its metadata
//           (registers, LDS, scratch, kernel arguments) read back
//
// No AMD GPU is lent to this project: everything here is checked by
// compiling, linking and inspecting the code objects (docs/amdgpu.md).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_AMDGPU_AMDGPUBACKEND_H
#define TRITIUM_CODEGEN_AMDGPU_AMDGPUBACKEND_H

#include "codegen/Backend.h"
#include "ir/Target.h"

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace tritium {

class Module;

/// "" if \p Opts can be compiled for, else why not (a target that is not
/// AMD's, the wavefront count, an option of cuda's).
std::string checkAMDGPUOptions(const CompileOptions &Opts);

/// Runs the tgir pipeline on \p M. Throws CompileError.
void runAMDGPUPipeline(Module &M, const CompileOptions &Opts);

/// Lowers layout-level \p M to optimized LLVM IR for Opts.GPU with the
/// device libraries linked; its shared memory is one LDS array of
/// SharedBytes (static, so the code object's group segment holds it).
/// Throws CompileError.
LLVMIRResult lowerAMDGPUToLLVMIR(Module &M, const CompileOptions &Opts);

/// LLVM IR text to AMDGPU assembly for \p GPU. Throws CompileError.
std::string compileToAMDGCN(llvm::StringRef LLVMIR, const Target &GPU, bool FPFusion = true);

/// One kernel argument in the code object's metadata.
struct HsacoArg {
  int Offset = -1, Size = -1;
  std::string Kind; ///< .value_kind: by_value, global_buffer, hidden_*
};

struct HsacoResult {
  std::string Hsaco; ///< the code object (an ELF shared object)
  /// From the code object's metadata, of its first kernel (-1: absent).
  int VGPRs = -1, SGPRs = -1;
  int LDSBytes = -1, ScratchBytes = -1, KernargBytes = -1, WavefrontSize = -1;
  int MaxFlatWorkgroupSize = -1;
  std::string KernelName;
  std::vector<HsacoArg> Args; ///< in order, the hidden ones last
};

/// Assembles AMDGPU assembly for \p GPU and links it with LLD into a code
/// object. Throws CompileError (with the assembler's or linker's message).
HsacoResult assembleHsaco(llvm::StringRef AMDGCN, const Target &GPU);

/// Reads the metadata of a code object's first kernel into \p R. Returns
/// "" or what is wrong with the image.
std::string readHsacoMetadata(llvm::StringRef Hsaco, HsacoResult &R);


/// The LDS a workgroup of \p GPU may use, in bytes (64 KiB on every AMD
/// target LLVM 16 knows).
inline unsigned maxSharedBytes(const Target &GPU) { return GPU.getMaxSharedBytes(); }

} // namespace tritium

#endif // TRITIUM_CODEGEN_AMDGPU_AMDGPUBACKEND_H
