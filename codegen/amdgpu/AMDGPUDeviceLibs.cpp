//===- AMDGPUDeviceLibs.cpp - The ROCm device libraries -------------------===//

#include "codegen/amdgpu/AMDGPUDeviceLibs.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <cstdlib>

using namespace tritium;

std::string tritium::findDeviceLibs() {
  const char *Env = std::getenv("TRITIUM_ROCM_DEVICE_LIBS_PATH");
  const char *Rocm = std::getenv("ROCM_PATH");
  std::string RocmDir = Rocm && *Rocm ? std::string(Rocm) + "/amdgcn/bitcode" : "";
  for (const std::string &Dir : {std::string(Env ? Env : ""), RocmDir,
                                 std::string("/usr/lib/x86_64-linux-gnu/amdgcn/bitcode"),
                                 std::string("/opt/rocm/amdgcn/bitcode")}) {
    if (Dir.empty())
      continue;
    llvm::SmallString<256> F(Dir);
    llvm::sys::path::append(F, "ocml.bc");
    if (llvm::sys::fs::exists(F))
      return Dir;
  }
  return "";
}

/// The ROCm device libraries \p M needs, linked and internalized: ocml and
/// ockl for what it calls, and the oclc control libraries that answer their
/// questions for \p GPU (its ISA version, wavefront size; no denormal
/// flushing, no finite-only math, correctly rounded sqrt, safe math).
std::string tritium::linkDeviceLibs(llvm::Module &M, const Target &GPU, llvm::StringRef Dir) {
  bool Needed = llvm::any_of(M.functions(), [](llvm::Function &F) {
    return F.isDeclaration() &&
           (F.getName().startswith("__ocml_") || F.getName().startswith("__ockl_"));
  });
  if (!Needed)
    return "";
  std::string Path = Dir.empty() ? findDeviceLibs() : Dir.str();
  if (Path.empty())
    return "the ROCm device libraries (ocml.bc) were not found (install rocm-device-libs or set "
           "TRITIUM_ROCM_DEVICE_LIBS_PATH)";
  std::string ISA = llvm::StringRef(GPU.getArchName()).drop_front(3).str();
  const std::string Libs[] = {
      "ocml.bc",
      "ockl.bc",
      "oclc_isa_version_" + ISA + ".bc",
      std::string("oclc_wavefrontsize64_") + (GPU.getWarpSize() == 64 ? "on" : "off") + ".bc",
      "oclc_daz_opt_off.bc",
      "oclc_finite_only_off.bc",
      "oclc_correctly_rounded_sqrt_on.bc",
      "oclc_unsafe_math_off.bc",
      "oclc_abi_version_400.bc",
  };
  for (const std::string &Lib : Libs) {
    llvm::SmallString<256> File(Path);
    llvm::sys::path::append(File, Lib);
    if (!llvm::sys::fs::exists(File))
      return "the ROCm device libraries in " + Path + " have no " + Lib +
             (llvm::StringRef(Lib).startswith("oclc_isa_version_")
                  ? " (they predate " + GPU.getArchName() + ")"
                  : std::string()) +
             ": install a newer rocm-device-libs or set TRITIUM_ROCM_DEVICE_LIBS_PATH";
    llvm::SMDiagnostic Diag;
    std::unique_ptr<llvm::Module> L = llvm::parseIRFile(File, Diag, M.getContext());
    if (!L)
      return "cannot read " + std::string(File) + ": " + Diag.getMessage().str();
    L->setTargetTriple(M.getTargetTriple());
    L->setDataLayout(M.getDataLayout());
    if (llvm::Linker::linkModules(M, std::move(L), llvm::Linker::LinkOnlyNeeded))
      return "linking " + std::string(File) + " failed";
  }
  // Only the kernels stay visible; the libraries' bodies become internal and
  // always inlined (ocml's are small, and a call would cost the kernel its
  // registers' worth of spills at each site), then dropped.
  auto IsKernel = [](const llvm::Function &F) {
    return F.getCallingConv() == llvm::CallingConv::AMDGPU_KERNEL;
  };
  llvm::internalizeModule(M, [&](const llvm::GlobalValue &G) {
    auto *F = llvm::dyn_cast<llvm::Function>(&G);
    return F && !F->isDeclaration() && IsKernel(*F);
  });
  for (llvm::Function &F : M)
    if (!F.isDeclaration() && !IsKernel(F)) {
      F.removeFnAttr(llvm::Attribute::NoInline);
      F.removeFnAttr(llvm::Attribute::OptimizeNone);
      F.addFnAttr(llvm::Attribute::AlwaysInline);
    }
  // Each library function brought its copy of these; the kernels need none.
  for (const char *Name : {"opencl.ocl.version", "llvm.ident"})
    if (llvm::NamedMDNode *N = M.getNamedMetadata(Name))
      M.eraseNamedMetadata(N);
  return "";
}

/// A function \p M calls that nothing defines, as an error.
std::string tritium::undefinedFunction(const llvm::Module &M) {
  for (const llvm::Function &F : M.functions())
    if (F.isDeclaration() && !F.isIntrinsic() && !F.use_empty())
      return "undefined function '" + F.getName().str() + "': " +
             (F.getName().startswith("__ocml_") || F.getName().startswith("__ockl_")
                  ? "the ROCm device libraries have no such function"
                  : "no library linked here defines it");
  return "";
}
