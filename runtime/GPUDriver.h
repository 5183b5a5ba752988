//===- GPUDriver.h - What a launch needs of a GPU driver ---------*- C++ -*-===//
//
// The launcher and the dispatcher (python/src/) load, launch and unload
// kernels through this interface; runtime/CudaDriver.h (libcuda) and
// runtime/HipDriver.h (libamdhip64) implement it. Both load their library
// at run time, so nothing here needs CUDA or HIP to build.
//
// Errors: a failing driver call throws DriverError with the API's name of
// the error (CUDA_ERROR_INVALID_VALUE, hipErrorInvalidValue), its
// description and what was being done; a kernel that needs more of the
// device than it has throws OutOfResources.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_GPUDRIVER_H
#define TRITIUM_RUNTIME_GPUDRIVER_H

#include <cstdint>
#include <stdexcept>
#include <string>

namespace tritium {
namespace gpu {

/// A stream handle of either API (CUstream, hipStream_t); null is the
/// default stream.
using Stream = void *;
/// A device address.
using DevicePtr = unsigned long long;

/// A driver call that failed, or a driver that cannot be loaded (code -1,
/// no name). \p API is "CUDA" or "HIP".
class DriverError : public std::runtime_error {
public:
  DriverError(std::string API, int Code, std::string Name, std::string Description,
              std::string Action);

  const std::string &api() const { return API; }
  int code() const { return Code; }
  /// The error's name, e.g. "CUDA_ERROR_INVALID_VALUE" ("" when unknown).
  const std::string &name() const { return Name; }
  /// The driver's description, e.g. "invalid argument".
  const std::string &description() const { return Description; }
  /// What Tritium was doing, e.g. "loading kernel 'add_kernel'".
  const std::string &action() const { return Action; }

private:
  std::string API;
  int Code;
  std::string Name, Description, Action;
};

/// A kernel that needs more of a device resource than the device has:
/// Triton's OutOfResources (shared memory, threads).
class OutOfResources : public std::runtime_error {
public:
  OutOfResources(std::string Resource, uint64_t Required, uint64_t Limit,
                 const std::string &Kernel);

  const std::string &resource() const { return Resource; }
  uint64_t required() const { return Required; }
  uint64_t limit() const { return Limit; }

private:
  std::string Resource;
  uint64_t Required, Limit;
};

/// How a kernel is launched beyond grid and block (Triton's launch options
/// launch_cooperative_grid and launch_pdl): a bit each. A kernel with none
/// goes through the plain launch call (cuLaunchKernel); one with any goes
/// through the extended one (cuLaunchKernelEx with launch attributes).
enum LaunchFlags : unsigned {
  /// All programs resident at once, so that they may wait for each other
  /// (CU_LAUNCH_ATTRIBUTE_COOPERATIVE; hipModuleLaunchCooperativeKernel).
  LaunchCooperative = 1u << 0,
  /// Programmatic dependent launch (sm_90): the kernel may start before the
  /// previous one on its stream ends and waits for it with griddepcontrol
  /// (CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION).
  LaunchPDL = 1u << 1,
};

/// What loadKernel needs: the binary and the launch configuration the
/// compiler chose.
struct KernelImage {
  std::string Name;          ///< the kernel's symbol in the image
  std::string Image;         ///< cubin or PTX text; an AMD code object
  unsigned SharedBytes = 0;  ///< dynamic shared memory per block
  unsigned NumThreads = 128; ///< warp size * num_warps
  unsigned Flags = 0;        ///< LaunchFlags
};

/// A kernel loaded on a device. The handles are the API's own (CUcontext,
/// CUmodule, CUfunction; HIP has no context).
struct LoadedKernel {
  std::string Name;
  int Device = 0;
  void *Context = nullptr;
  void *Module = nullptr;
  void *Function = nullptr;
  unsigned SharedBytes = 0;
  unsigned NumThreads = 0;
  unsigned Flags = 0;   ///< LaunchFlags: which launch call launch() makes
  int NumRegs = 0;      ///< registers per thread
  int NumSpills = 0;    ///< spilled 32-bit values (local or scratch bytes / 4)
  int MaxThreads = 0;   ///< the most threads a block of it may have
  int StaticShared = 0; ///< bytes of statically declared shared memory
};

/// Element types of a tensor map, numbered as CUDA's CUtensorMapDataType.
enum class TensorMapElement : int {
  U8 = 0, ///< every 1-byte type: TMA copies bytes and converts nothing
  U16 = 1,
  U32 = 2,
  I32 = 3,
  F16 = 6,
  F32 = 7,
  BF16 = 9,
};

/// What a tiled tensor map (Hopper's CUtensorMap, for the TMA unit)
/// describes: a strided global tensor and the box one copy moves. Every
/// array is innermost dimension first, as cuTensorMapEncodeTiled takes it.
struct TensorMapSpec {
  static constexpr unsigned MaxRank = 5;
  TensorMapElement Element = TensorMapElement::U8;
  unsigned Rank = 0;
  DevicePtr Base = 0;
  uint64_t Dims[MaxRank] = {};
  uint64_t ByteStrides[MaxRank - 1] = {}; ///< of dimensions 1 to Rank-1
  uint32_t Box[MaxRank] = {};
};

/// The bytes of an encoded tensor map: a kernel takes it by value, as a
/// 128-byte parameter aligned to 64 bytes.
struct alignas(64) TensorMap {
  unsigned char Bytes[128];
};

/// One GPU driver library, loaded once per process and never unloaded.
class Driver {
public:
  virtual ~Driver();

  /// "CUDA" or "HIP".
  virtual const char *api() const = 0;
  /// The library's path as given ("" for the loader's search path).
  virtual const std::string &path() const = 0;
  /// Loads the library and initializes it (once); false with the reason in
  /// \p Why when either fails.
  virtual bool load(std::string *Why = nullptr) = 0;
  virtual int deviceCount() = 0;
  /// The calling thread's current device (0 without one).
  virtual int currentDevice() = 0;
  /// Makes \p Device the calling thread's current device.
  virtual void setCurrentDevice(int Device) = 0;

  /// Loads \p Img on \p Device and checks that it fits (OutOfResources);
  /// DriverError when the API cannot launch it with \p Img's flags.
  virtual LoadedKernel loadKernel(const KernelImage &Img, int Device) = 0;
  /// Unloads \p K's module; errors are ignored (used by destructors).
  virtual void unload(const LoadedKernel &K) noexcept = 0;
  /// Launches \p K on a grid with \p Params pointing at each parameter's
  /// value (the kernelParams of cuLaunchKernel / hipModuleLaunchKernel).
  virtual void launch(const LoadedKernel &K, unsigned GridX, unsigned GridY, unsigned GridZ,
                      Stream S, void **Params) = 0;
  /// The device address of \p Ptr; DriverError when the device cannot
  /// access it (a host pointer).
  virtual DevicePtr devicePointer(DevicePtr Ptr, const std::string &Action) = 0;

  /// Whether encodeTensorMap can work for kernels on \p Device: CUDA with
  /// cuTensorMapEncodeTiled and compute capability 9.0 or more. Never
  /// throws.
  virtual bool hasTensorMaps(int /*Device*/) noexcept { return false; }
  /// Encodes \p Spec into \p Out, 128-byte swizzled, out-of-bounds elements
  /// read as zero; false when the driver rejects it (an unaligned base or
  /// stride, say) or cannot encode at all. Never throws.
  virtual bool encodeTensorMap(const TensorMapSpec & /*Spec*/, TensorMap & /*Out*/) noexcept {
    return false;
  }

  // Memory, streams and events: for the benchmark and the tests.
  virtual DevicePtr memAlloc(size_t Bytes, int Device) = 0;
  virtual void memFree(DevicePtr Ptr) = 0;
  virtual void memcpyHtoD(DevicePtr Dst, const void *Src, size_t Bytes) = 0;
  virtual void memcpyDtoH(void *Dst, DevicePtr Src, size_t Bytes) = 0;
  virtual void memsetD8Async(DevicePtr Dst, unsigned char Value, size_t Bytes, Stream S) = 0;
  virtual void synchronize(int Device) = 0;
  virtual void *eventCreate() = 0;
  virtual void eventRecord(void *Event, Stream S) = 0;
  /// Milliseconds from \p Start to \p End (waits for \p End).
  virtual float eventElapsed(void *Start, void *End) = 0;
  virtual void eventDestroy(void *Event) noexcept = 0;
};

} // namespace gpu
} // namespace tritium

#endif // TRITIUM_RUNTIME_GPUDRIVER_H
