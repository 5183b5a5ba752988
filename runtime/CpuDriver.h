//===- CpuDriver.h - Kernels of the cpu target on the host's threads -*- C++ -*-===//
//
// The "driver" of the cpu target (codegen/cpu/): loading links a kernel's
// object file into the process with LLVM's ORC JIT (each in a library of
// its own, so that kernels of one name coexist), and a launch runs the
// grid's programs on a pool of the host's threads, one program at a time
// per thread, and returns when all are done (the stream is the caller's
// thread: a launch is synchronous). Device memory is host memory: pointers
// are the host's, an allocation is aligned_alloc, events are clock reads.
//
// What a program asks of its launch goes through the functions
// CPUTargetInfo.h names (program id, grid, its shared memory arena, a
// failed device_assert), answered from the running thread's state. A
// failed assert makes the launch throw DriverError after the grid ends.
//
// TRITIUM_CPU_THREADS caps the threads (default: the host's cores).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_RUNTIME_CPUDRIVER_H
#define TRITIUM_RUNTIME_CPUDRIVER_H

#include "runtime/GPUDriver.h"

#include <memory>

namespace tritium {
namespace cpu {

class Driver : public gpu::Driver {
public:
  /// The process's one cpu driver.
  static Driver &get();

  const char *api() const override { return "CPU"; }
  const std::string &path() const override;
  bool load(std::string *Why = nullptr) override;
  int deviceCount() override { return 1; }
  int currentDevice() override { return 0; }
  void setCurrentDevice(int Device) override;
  gpu::LoadedKernel loadKernel(const gpu::KernelImage &Img, int Device) override;
  void unload(const gpu::LoadedKernel &K) noexcept override;
  void launch(const gpu::LoadedKernel &K, unsigned GridX, unsigned GridY, unsigned GridZ,
              gpu::Stream S, void **Params) override;
  gpu::DevicePtr devicePointer(gpu::DevicePtr Ptr, const std::string &) override { return Ptr; }

  gpu::DevicePtr memAlloc(size_t Bytes, int Device) override;
  void memFree(gpu::DevicePtr Ptr) override;
  void memcpyHtoD(gpu::DevicePtr Dst, const void *Src, size_t Bytes) override;
  void memcpyDtoH(void *Dst, gpu::DevicePtr Src, size_t Bytes) override;
  void memsetD8Async(gpu::DevicePtr Dst, unsigned char Value, size_t Bytes, gpu::Stream S) override;
  void synchronize(int) override {}
  void *eventCreate() override;
  void eventRecord(void *Event, gpu::Stream S) override;
  float eventElapsed(void *Start, void *End) override;
  void eventDestroy(void *Event) noexcept override;

  /// LLVM's name of the host's processor ("skylake-avx512"): a cpu target's
  /// architecture.
  static std::string hostProcessor();
  /// The threads a launch uses.
  unsigned numThreads() const;

private:
  Driver();
  ~Driver() override;
  struct Impl;
  std::unique_ptr<Impl> P;
};

} // namespace cpu
} // namespace tritium

#endif // TRITIUM_RUNTIME_CPUDRIVER_H
