# lit configuration of the IR-text tests: every .tir file under tests/lit is a
# test whose RUN lines pipe tritium tools into FileCheck.
import os
import shutil

import lit.formats

config.name = "tritium"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".tir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(os.path.dirname(config.tritium_tools_dir), "tests", "lit")
config.excludes = ["Inputs"]

config.substitutions.append(("tritium-opt", os.path.join(config.tritium_tools_dir, "tritium-opt")))
config.substitutions.append(("tritium-translate", os.path.join(config.tritium_tools_dir, "tritium-translate")))
config.substitutions.append(("FileCheck", config.filecheck))
config.substitutions.append((r"\bnot\b", config.llvm_not))
# Every pass of tritium-translate's pipelines is followed by the verifier.
config.environment["TRITIUM_VERIFY_EACH"] = "1"

# ptxas, found the way tritium-translate finds it (codegen/nvptx/PTXEmitter.cpp):
# tests that assemble to a cubin say `REQUIRES: ptxas`.
for var in ("TRITIUM_PTXAS_PATH", "CUDA_HOME", "CUDA_PATH"):
    if os.environ.get(var):
        config.environment[var] = os.environ[var]
_ptxas_candidates = [os.environ.get("TRITIUM_PTXAS_PATH")] + [
    os.path.join(os.environ[v], "bin", "ptxas") for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)
] + ["/usr/local/cuda/bin/ptxas", shutil.which("ptxas")]
if any(p and os.access(p, os.X_OK) for p in _ptxas_candidates):
    config.available_features.add("ptxas")

# llvm-readelf beside FileCheck reads AMD code objects; tests that need it
# say `REQUIRES: llvm-readelf`.
_readelf = os.path.join(os.path.dirname(config.filecheck), "llvm-readelf")
if os.access(_readelf, os.X_OK):
    config.substitutions.append((r"\bllvm-readelf\b", _readelf))
    config.available_features.add("llvm-readelf")

# The ROCm device libraries, found the way the AMDGPU backend finds them
# (codegen/amdgpu/AMDGPUDeviceLibs.cpp): tests of kernels that call ocml or
# ockl say `REQUIRES: rocm-device-libs`.
for var in ("TRITIUM_ROCM_DEVICE_LIBS_PATH", "ROCM_PATH"):
    if os.environ.get(var):
        config.environment[var] = os.environ[var]
_rocm_candidates = [os.environ.get("TRITIUM_ROCM_DEVICE_LIBS_PATH"),
                    os.environ.get("ROCM_PATH") and os.path.join(os.environ["ROCM_PATH"], "amdgcn", "bitcode"),
                    "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode", "/opt/rocm/amdgcn/bitcode"]
if any(d and os.path.exists(os.path.join(d, "ocml.bc")) for d in _rocm_candidates):
    config.available_features.add("rocm-device-libs")
