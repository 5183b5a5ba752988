//===- CudaDriver.h - libcuda, loaded at run time ----------------*- C++ -*-===//
//
// The CUDA Driver API without linking libcuda: the library is dlopen'ed on
// first use (TRITIUM_LIBCUDA_PATH or libcuda.so.1) and each entry point is
// looked up with dlsym the first time it is called, so Tritium builds,
// imports and compiles on machines without a GPU driver.
//
// Every failing call throws CudaError carrying the Driver API's error name
// (CUDA_ERROR_INVALID_VALUE), its description and what was being done
// ("loading kernel 'add_kernel'"). Loading a kernel that needs more shared
// memory or threads than the device has throws OutOfResources.
//
// Kernels run in the primary context of their device; a launch makes that
// context current when another one is.
//
// The types and constants below are the ABI of cuda.h (checked against it
// by tests/fakecuda, which includes both); this header needs no CUDA.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_CUDADRIVER_H
#define TRITIUM_RUNTIME_CUDADRIVER_H

#include "runtime/GPUDriver.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace tritium {
namespace cuda {

// --- The Driver API's types (cuda.h) ----------------------------------------
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

constexpr CUresult Success = 0;

/// CUdevice_attribute values Tritium reads.
enum DeviceAttribute : int {
  DevMaxThreadsPerBlock = 1,
  DevMaxGridDimX = 5,
  DevMaxGridDimY = 6,
  DevMaxGridDimZ = 7,
  DevMaxSharedMemoryPerBlock = 8,
  DevWarpSize = 10,
  DevMaxRegistersPerBlock = 12,
  DevClockRate = 13,
  DevMultiprocessorCount = 16,
  DevMemoryClockRate = 36,
  DevGlobalMemoryBusWidth = 37,
  DevL2CacheSize = 38,
  DevComputeCapabilityMajor = 75,
  DevComputeCapabilityMinor = 76,
  DevMaxSharedMemoryPerMultiprocessor = 81,
  DevMaxSharedMemoryPerBlockOptin = 97,
};

/// CUfunction_attribute values Tritium reads or sets.
enum FunctionAttribute : int {
  FuncMaxThreadsPerBlock = 0,
  FuncSharedSizeBytes = 1,
  FuncLocalSizeBytes = 3,
  FuncNumRegs = 4,
  FuncMaxDynamicSharedSizeBytes = 8,
};

/// CUjit_option values for cuModuleLoadDataEx: logs, line info.
enum JitOption : int {
  JitInfoLogBuffer = 3,
  JitInfoLogBufferSizeBytes = 4,
  JitErrorLogBuffer = 5,
  JitErrorLogBufferSizeBytes = 6,
  JitGenerateLineInfo = 13,
};

constexpr int FuncCachePreferShared = 1;         ///< CU_FUNC_CACHE_PREFER_SHARED
constexpr int PointerAttributeDevicePointer = 3; ///< CU_POINTER_ATTRIBUTE_DEVICE_POINTER
/// cuTensorMapEncodeTiled's choices (CUtensorMapInterleave, CUtensorMapSwizzle,
/// CUtensorMapL2promotion, CUtensorMapFloatOOBfill).
constexpr int TensorMapInterleaveNone = 0;
constexpr int TensorMapSwizzle128B = 3;
constexpr int TensorMapL2Promotion256B = 3;
constexpr int TensorMapOOBFillNone = 0; ///< out-of-bounds elements read as zero
/// Dynamic shared memory a kernel may use without opting in (48 KB).
constexpr unsigned DefaultSharedMemoryLimit = 48 * 1024;

/// CUlaunchAttributeID values of the launch options (cuLaunchKernelEx).
constexpr int LaunchAttributeCooperative = 2;
constexpr int LaunchAttributeProgrammaticStreamSerialization = 6;

/// CUlaunchAttribute: an id and a 64-byte value (a union in cuda.h, of
/// pointers among others; the attributes used here are an int at its start).
struct LaunchAttribute {
  int Id = 0;
  char Pad[4] = {};
  union alignas(8) {
    int Int;
    char Bytes[64];
  } Value = {};
};

/// CUlaunchConfig: cuLaunchKernel's arguments plus the attributes.
struct LaunchConfig {
  unsigned GridDimX, GridDimY, GridDimZ;
  unsigned BlockDimX, BlockDimY, BlockDimZ;
  unsigned SharedMemBytes;
  CUstream Stream;
  LaunchAttribute *Attrs;
  unsigned NumAttrs;
};

// --- Errors and kernels (runtime/GPUDriver.h) -----------------------------

/// A Driver API call that failed, or a driver that cannot be loaded (code -1,
/// no name): a DriverError of the "CUDA" API.
class CudaError : public gpu::DriverError {
public:
  CudaError(CUresult Code, std::string Name, std::string Description, std::string Action)
      : DriverError("CUDA", Code, std::move(Name), std::move(Description), std::move(Action)) {}
};

using gpu::KernelImage;
using gpu::LoadedKernel;
using gpu::OutOfResources;

// --- The driver -------------------------------------------------------------

/// libcuda at one path, loaded once per process and never unloaded.
class Driver final : public gpu::Driver {
public:
  /// The driver at \p Path: a file, a directory holding libcuda.so.1, or ""
  /// for libcuda.so.1 on the loader's search path. Nothing is loaded yet.
  static Driver &get(const std::string &Path);

  const char *api() const override { return "CUDA"; }
  /// Loads the library and runs cuInit(0) (once); false with the reason in
  /// \p Why when either fails.
  bool load(std::string *Why = nullptr) override;
  /// Devices the driver reports; 0 when it cannot be loaded.
  int deviceCount() override;
  int deviceAttribute(DeviceAttribute Attr, int Device);
  std::string deviceName(int Device);
  int driverVersion();
  const std::string &path() const override { return Path; }

  /// The device of the calling thread's current context, or 0 without one.
  int currentDevice() override;
  void setCurrentDevice(int Device) override { activate(Device); }
  /// The primary context of \p Device, retained on first use, made current.
  CUcontext activate(int Device);

  /// Loads \p Img into \p Device's primary context and checks that it fits:
  /// OutOfResources when it needs more shared memory (after opting in above
  /// 48 KB) or threads than the device has; CudaError when the driver
  /// rejects it (with the JIT's log for PTX).
  LoadedKernel loadKernel(const KernelImage &Img, int Device) override;
  void unload(const LoadedKernel &K) noexcept override;
  /// Launches \p K on a grid, in \p K's context: cuLaunchKernel, or
  /// cuLaunchKernelEx when \p K has launch flags.
  void launch(const LoadedKernel &K, unsigned GridX, unsigned GridY, unsigned GridZ,
              gpu::Stream S, void **Params) override;

  CUdeviceptr memAlloc(size_t Bytes, int Device) override;
  void memFree(CUdeviceptr Ptr) override;
  void memcpyHtoD(CUdeviceptr Dst, const void *Src, size_t Bytes) override;
  void memcpyDtoH(void *Dst, CUdeviceptr Src, size_t Bytes) override;
  void memsetD8Async(CUdeviceptr Dst, unsigned char Value, size_t Bytes, gpu::Stream S) override;
  void synchronize(int Device) override;
  void *eventCreate() override;
  void eventRecord(void *Event, gpu::Stream S) override;
  float eventElapsed(void *Start, void *End) override;
  void eventDestroy(void *Event) noexcept override;
  CUdeviceptr devicePointer(CUdeviceptr Ptr, const std::string &Action) override;
  bool hasTensorMaps(int Device) noexcept override;
  bool encodeTensorMap(const gpu::TensorMapSpec &Spec, gpu::TensorMap &Out) noexcept override;

  /// Throws CudaError for \p R (not Success) with the driver's name and
  /// description of it.
  [[noreturn]] void fail(CUresult R, const std::string &Action);
  /// "CUDA_ERROR_INVALID_VALUE", or "" when the driver does not know \p R.
  std::string errorName(CUresult R);

  // The entry points, resolved on first use (CudaEntryPoints.def).
#define CUDA_ENTRY(Member, Symbol, Fallback, Signature)                                            \
  using Member##Fn = Signature;                                                                    \
  Member##Fn *cu##Member() {                                                                       \
    void *P = Slots[Entry##Member].load(std::memory_order_relaxed);                                \
    return reinterpret_cast<Member##Fn *>(P ? P : resolve(Entry##Member));                         \
  }
#include "runtime/CudaEntryPoints.def"

private:
  enum EntryIndex : unsigned {
#define CUDA_ENTRY(Member, Symbol, Fallback, Signature) Entry##Member,
#include "runtime/CudaEntryPoints.def"
    NumEntries
  };

  explicit Driver(std::string Path) : Path(std::move(Path)) {}
  /// Looks entry point \p Index up (loading the library first); throws
  /// CudaError naming the symbol when the driver lacks it.
  void *resolve(unsigned Index);
  /// resolve, but null when the library does not load or lacks it (for
  /// the optional entry points); never throws.
  void *lookup(unsigned Index) noexcept;
  void check(CUresult R, const char *Action) {
    if (R != Success)
      fail(R, Action);
  }
  [[noreturn]] void unavailable();
  /// The launch of a kernel with launch flags (cuLaunchKernelEx).
  CUresult launchEx(const LoadedKernel &K, unsigned GridX, unsigned GridY, unsigned GridZ,
                    gpu::Stream S, void **Params);

  std::string Path;
  std::once_flag Loaded;
  void *Handle = nullptr;
  std::string LoadError; ///< why load() failed; empty when it succeeded
  std::atomic<void *> Slots[NumEntries] = {};
  std::mutex ContextsLock;
  std::vector<CUcontext> Contexts; ///< retained primary contexts by device
};

} // namespace cuda
} // namespace tritium

#endif // TRITIUM_RUNTIME_CUDADRIVER_H
