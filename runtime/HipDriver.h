//===- HipDriver.h - libamdhip64, loaded at run time -------------*- C++ -*-===//
//
// The HIP runtime without linking it: libamdhip64.so is dlopen'ed on first
// use (TRITIUM_LIBHIP_PATH, or libamdhip64.so on the loader's search path)
// and each entry point is looked up with dlsym the first time it is called
// (runtime/HipEntryPoints.def), so Tritium builds, imports and compiles for
// AMD GPUs on machines without ROCm.
//
// Every failing call throws HipError with HIP's name of the error
// (hipErrorInvalidValue), its description and what was being done. HIP has
// no contexts to manage: a load or launch sets the calling thread's device
// when it is another one. AMD kernels keep their LDS static (the code
// object's group segment), so launches pass no dynamic shared memory.
//
// No AMD GPU has run this code: it is checked against tests/fakehip, which
// implements the same entry points with the signatures below (ROCm 6's
// hip_runtime_api.h; the enum values are ROCm 6's).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_HIPDRIVER_H
#define TRITIUM_RUNTIME_HIPDRIVER_H

#include "runtime/GPUDriver.h"

#include <atomic>
#include <cstddef>
#include <mutex>
#include <string>

namespace tritium {
namespace hip {

// --- The runtime's types (hip_runtime_api.h) ----------------------------------
using hipError_t = int;
using hipModule_t = struct ihipModule_t *;
using hipFunction_t = struct ihipModuleSymbol_t *;
using hipStream_t = struct ihipStream_t *;
using hipEvent_t = struct ihipEvent_t *;
using hipDeviceptr_t = void *;

constexpr hipError_t Success = 0;

/// hipDeviceAttribute_t values Tritium reads (ROCm 6).
enum DeviceAttribute : int {
  DevClockRate = 5,
  DevL2CacheSize = 19,
  DevComputeCapabilityMajor = 23,
  DevMaxGridDimX = 29,
  DevMaxThreadsPerBlock = 56,
  DevMemoryBusWidth = 59,
  DevMemoryClockRate = 60,
  DevComputeCapabilityMinor = 61,
  DevMultiprocessorCount = 63,
  DevMaxRegistersPerBlock = 71,
  DevMaxSharedMemoryPerBlock = 74,
  DevWarpSize = 87,
};

/// hipFunction_attribute values Tritium reads.
enum FunctionAttribute : int {
  FuncMaxThreadsPerBlock = 0,
  FuncSharedSizeBytes = 1,
  FuncLocalSizeBytes = 3,
  FuncNumRegs = 4,
};

/// hipGetDeviceProperties writes a structure whose layout changes between
/// ROCm releases; Tritium gives it this much room and finds the
/// architecture name ("gfx90a:sramecc+:xnack-") in it by its text.
constexpr size_t DevicePropertiesBytes = 16384;

/// A HIP runtime call that failed, or a runtime that cannot be loaded
/// (code -1, no name): a DriverError of the "HIP" API.
class HipError : public gpu::DriverError {
public:
  HipError(hipError_t Code, std::string Name, std::string Description, std::string Action)
      : DriverError("HIP", Code, std::move(Name), std::move(Description), std::move(Action)) {}
};

/// "gfx90a" from the bytes of a device-properties structure: the first
/// "gfx" followed by hex digits, up to a ':' (target features) or the end
/// of the name; "" when there is none.
std::string findArchName(const char *Bytes, size_t Size);

/// libamdhip64 at one path, loaded once per process and never unloaded.
class Driver final : public gpu::Driver {
public:
  /// The runtime at \p Path: a file, a directory holding libamdhip64.so, or
  /// "" for libamdhip64.so on the loader's search path. Nothing is loaded
  /// yet.
  static Driver &get(const std::string &Path);

  const char *api() const override { return "HIP"; }
  const std::string &path() const override { return Path; }
  /// Loads the library and runs hipInit(0) (once).
  bool load(std::string *Why = nullptr) override;
  /// Devices the runtime reports; 0 when it cannot be loaded or reports
  /// hipErrorNoDevice.
  int deviceCount() override;
  int deviceAttribute(DeviceAttribute Attr, int Device);
  std::string deviceName(int Device);
  /// The device's architecture, e.g. "gfx90a" (without target features).
  std::string archName(int Device);
  int driverVersion();
  int currentDevice() override;
  void setCurrentDevice(int Device) override { use(Device); }

  /// Loads a code object on \p Device: OutOfResources when its workgroup
  /// is larger than the kernel allows or its LDS more than the device has.
  gpu::LoadedKernel loadKernel(const gpu::KernelImage &Img, int Device) override;
  void unload(const gpu::LoadedKernel &K) noexcept override;
  void launch(const gpu::LoadedKernel &K, unsigned GridX, unsigned GridY, unsigned GridZ,
              gpu::Stream S, void **Params) override;
  /// HIP has no pointer query Tritium relies on: \p Ptr as it is.
  gpu::DevicePtr devicePointer(gpu::DevicePtr Ptr, const std::string &Action) override;

  gpu::DevicePtr memAlloc(size_t Bytes, int Device) override;
  void memFree(gpu::DevicePtr Ptr) override;
  void memcpyHtoD(gpu::DevicePtr Dst, const void *Src, size_t Bytes) override;
  void memcpyDtoH(void *Dst, gpu::DevicePtr Src, size_t Bytes) override;
  void memsetD8Async(gpu::DevicePtr Dst, unsigned char Value, size_t Bytes, gpu::Stream S) override;
  void synchronize(int Device) override;
  void *eventCreate() override;
  void eventRecord(void *Event, gpu::Stream S) override;
  float eventElapsed(void *Start, void *End) override;
  void eventDestroy(void *Event) noexcept override;

  /// Throws HipError for \p R (not Success) with HIP's name and description.
  [[noreturn]] void fail(hipError_t R, const std::string &Action);

  // The entry points, resolved on first use (HipEntryPoints.def).
#define HIP_ENTRY(Member, Symbol, Fallback, Signature)                                             \
  using Member##Fn = Signature;                                                                    \
  Member##Fn *hip##Member() {                                                                      \
    void *P = Slots[Entry##Member].load(std::memory_order_relaxed);                                \
    return reinterpret_cast<Member##Fn *>(P ? P : resolve(Entry##Member));                         \
  }
#include "runtime/HipEntryPoints.def"

private:
  enum EntryIndex : unsigned {
#define HIP_ENTRY(Member, Symbol, Fallback, Signature) Entry##Member,
#include "runtime/HipEntryPoints.def"
    NumEntries
  };

  explicit Driver(std::string Path) : Path(std::move(Path)) {}
  void *resolve(unsigned Index);
  void check(hipError_t R, const char *Action) {
    if (R != Success)
      fail(R, Action);
  }
  /// Makes \p Device the calling thread's device if it is not.
  void use(int Device);
  [[noreturn]] void unavailable();

  std::string Path;
  std::once_flag Loaded;
  void *Handle = nullptr;
  std::string LoadError;
  std::atomic<void *> Slots[NumEntries] = {};
};

} // namespace hip
} // namespace tritium

#endif // TRITIUM_RUNTIME_HIPDRIVER_H
