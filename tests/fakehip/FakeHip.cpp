//===- FakeHip.cpp - A libamdhip64.so for tests on machines without one ---===//
//
// Implements the HIP runtime entry points that runtime/HipDriver.cpp uses
// (runtime/HipEntryPoints.def, with those signatures), so that the whole
// AMD launch path runs in CI: kernel[grid](...) on a hip target -> the C++
// launcher -> hipModuleLaunchKernel here, which records the launch instead
// of running it. No HIP header exists here: the ABI is Tritium's own copy
// (runtime/HipDriver.h), which this file shares.
//
// Modules are real code objects (the hip backend's hsaco stage): their
// metadata note gives each kernel's name, arguments (offset, size),
// registers, LDS, scratch and workgroup size, read with the backend's own
// readHsacoMetadata. Like the real runtime, a launch checks the workgroup
// size against the kernel's and reads each explicit argument's bytes
// through kernelParams. "Device memory" is host memory, events a virtual
// clock that each launch advances by `launch_ns`.
//
// Tests drive it through the fakehip_* functions at the end (ctypes; see
// tests/fakehip/fakehip.py).
//
//===----------------------------------------------------------------------===//

#include "codegen/amdgpu/AMDGPUBackend.h"
#include "runtime/HipDriver.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using namespace tritium::hip;

namespace {

// hipError_t values (hip_runtime_api.h).
constexpr hipError_t InvalidValue = 1, OutOfMemory = 2, InvalidDevice = 101,
                     InvalidImage = 200, NotFound = 500, InvalidHandle = 400,
                     InvalidConfiguration = 9, NoDevice = 100;

const char *errorName(hipError_t E) {
  switch (E) {
  case 0: return "hipSuccess";
  case InvalidValue: return "hipErrorInvalidValue";
  case OutOfMemory: return "hipErrorOutOfMemory";
  case InvalidConfiguration: return "hipErrorInvalidConfiguration";
  case NoDevice: return "hipErrorNoDevice";
  case InvalidDevice: return "hipErrorInvalidDevice";
  case InvalidImage: return "hipErrorInvalidImage";
  case InvalidHandle: return "hipErrorInvalidHandle";
  case NotFound: return "hipErrorNotFound";
  case 719: return "hipErrorLaunchFailure";
  default: return "hipErrorUnknown";
  }
}

struct Kernel {
  tritium::HsacoResult Meta;
};

struct Module {
  std::vector<std::unique_ptr<Kernel>> Kernels;
};

struct Launch {
  std::string Kernel;
  unsigned Grid[3], Block[3], Shared;
  uintptr_t Stream;
  int Device;
  std::vector<std::string> Params; // each explicit argument's bytes, as hex
  bool Cooperative = false;        // through hipModuleLaunchCooperativeKernel
};

struct State {
  std::mutex Lock;
  std::map<std::string, long long> Settings;
  std::map<std::string, int> Injected, Calls;
  std::vector<Launch> Launches;
  std::vector<Module *> Modules;
  int Device = 0;
  long long Clock = 0;
  std::string Arch = "gfx90a:sramecc+:xnack-";

  long long get(const std::string &Key, long long Default) {
    auto It = Settings.find(Key);
    return It == Settings.end() ? Default : It->second;
  }
};

State &state() {
  static State *S = new State;
  return *S;
}

/// Counts the call and returns an injected error for it (0 if none).
hipError_t enter(const char *Symbol) {
  State &S = state();
  std::lock_guard<std::mutex> G(S.Lock);
  ++S.Calls[Symbol];
  auto It = S.Injected.find(Symbol);
  if (It == S.Injected.end())
    return 0;
  hipError_t E = It->second;
  S.Injected.erase(It);
  return E;
}

#define ENTER(Symbol)                                                                              \
  if (hipError_t Injected = enter(Symbol))                                                         \
  return Injected

std::string hex(const void *P, size_t N) {
  static const char *Digits = "0123456789abcdef";
  std::string Out;
  for (size_t I = 0; I < N; ++I) {
    unsigned char C = static_cast<const unsigned char *>(P)[I];
    Out += Digits[C >> 4];
    Out += Digits[C & 15];
  }
  return Out;
}

struct FakeEvent {
  long long Time = -1;
};

} // namespace

extern "C" {

hipError_t hipInit(unsigned Flags) {
  ENTER("hipInit");
  return Flags == 0 ? 0 : InvalidValue;
}

hipError_t hipDriverGetVersion(int *V) {
  ENTER("hipDriverGetVersion");
  *V = 60243120; // what ROCm 6.2 reports
  return 0;
}

const char *hipGetErrorName(hipError_t E) { return errorName(E); }
const char *hipGetErrorString(hipError_t E) { return E == 0 ? "no error" : "a fake HIP error"; }

hipError_t hipGetDeviceCount(int *N) {
  ENTER("hipGetDeviceCount");
  *N = static_cast<int>(state().get("devices", 1));
  return *N == 0 ? NoDevice : 0;
}

hipError_t hipGetDevice(int *D) {
  ENTER("hipGetDevice");
  *D = state().Device;
  return 0;
}

hipError_t hipSetDevice(int D) {
  ENTER("hipSetDevice");
  if (D < 0 || D >= state().get("devices", 1))
    return InvalidDevice;
  state().Device = D;
  return 0;
}

hipError_t hipDeviceGetAttribute(int *V, int Attr, int Device) {
  ENTER("hipDeviceGetAttribute");
  State &S = state();
  if (Device < 0 || Device >= S.get("devices", 1))
    return InvalidDevice;
  switch (Attr) {
  case DevMaxThreadsPerBlock: *V = static_cast<int>(S.get("max_threads", 1024)); return 0;
  case DevMaxGridDimX: *V = 0x7fffffff; return 0;
  case DevMaxSharedMemoryPerBlock: *V = static_cast<int>(S.get("lds", 65536)); return 0;
  case DevWarpSize: *V = static_cast<int>(S.get("warp_size", 64)); return 0;
  case DevMultiprocessorCount: *V = static_cast<int>(S.get("cus", 104)); return 0;
  case DevL2CacheSize: *V = 8 << 20; return 0;
  case DevClockRate: *V = 1700000; return 0; // an MI210's
  case DevMemoryClockRate: *V = 1600000; return 0;
  case DevMemoryBusWidth: *V = 4096; return 0;
  case DevMaxRegistersPerBlock: *V = 65536; return 0;
  case DevComputeCapabilityMajor: *V = 9; return 0;
  case DevComputeCapabilityMinor: *V = 0; return 0;
  default: return InvalidValue;
  }
}

hipError_t hipDeviceGetName(char *Name, int Len, int Device) {
  ENTER("hipDeviceGetName");
  std::snprintf(Name, Len, "Fake AMD Instinct %d", Device);
  return 0;
}

hipError_t hipGetDevicePropertiesR0600(void *Props, int Device) {
  ENTER("hipGetDevicePropertiesR0600");
  // The marketing name first, the architecture far in, as in ROCm's layout.
  char *P = static_cast<char *>(Props);
  std::snprintf(P, 256, "Fake AMD Instinct %d", Device);
  std::snprintf(P + 1160, 256, "%s", state().Arch.c_str());
  return 0;
}

hipError_t hipDeviceSynchronize() {
  ENTER("hipDeviceSynchronize");
  return 0;
}

hipError_t hipModuleLoadData(hipModule_t *M, const void *Image) {
  ENTER("hipModuleLoadData");
  // The image's size is not passed (as with the real runtime): read the
  // ELF header's section table end, the last thing LLD writes.
  const unsigned char *B = static_cast<const unsigned char *>(Image);
  if (std::memcmp(B, "\x7f" "ELF", 4) != 0)
    return InvalidImage;
  uint64_t ShOff;
  uint16_t ShEntSize, ShNum;
  std::memcpy(&ShOff, B + 0x28, 8);
  std::memcpy(&ShEntSize, B + 0x3a, 2);
  std::memcpy(&ShNum, B + 0x3c, 2);
  size_t Size = ShOff + size_t(ShEntSize) * ShNum;
  auto K = std::make_unique<Kernel>();
  std::string Err =
      tritium::readHsacoMetadata(std::string(reinterpret_cast<const char *>(B), Size), K->Meta);
  if (!Err.empty())
    return InvalidImage;
  auto *Mod = new Module;
  Mod->Kernels.push_back(std::move(K));
  std::lock_guard<std::mutex> G(state().Lock);
  state().Modules.push_back(Mod);
  *M = reinterpret_cast<hipModule_t>(Mod);
  return 0;
}

hipError_t hipModuleUnload(hipModule_t M) {
  ENTER("hipModuleUnload");
  State &S = state();
  std::lock_guard<std::mutex> G(S.Lock);
  for (size_t I = 0; I < S.Modules.size(); ++I)
    if (S.Modules[I] == reinterpret_cast<Module *>(M)) {
      delete S.Modules[I];
      S.Modules.erase(S.Modules.begin() + I);
      return 0;
    }
  return InvalidHandle;
}

hipError_t hipModuleGetFunction(hipFunction_t *F, hipModule_t M, const char *Name) {
  ENTER("hipModuleGetFunction");
  for (auto &K : reinterpret_cast<Module *>(M)->Kernels)
    if (K->Meta.KernelName == Name) {
      *F = reinterpret_cast<hipFunction_t>(K.get());
      return 0;
    }
  return NotFound;
}

hipError_t hipFuncGetAttribute(int *V, int Attr, hipFunction_t F) {
  ENTER("hipFuncGetAttribute");
  const tritium::HsacoResult &M = reinterpret_cast<Kernel *>(F)->Meta;
  switch (Attr) {
  case FuncMaxThreadsPerBlock: *V = M.MaxFlatWorkgroupSize; return 0;
  case FuncSharedSizeBytes: *V = M.LDSBytes; return 0;
  case FuncLocalSizeBytes: *V = M.ScratchBytes; return 0;
  case FuncNumRegs: *V = M.VGPRs; return 0;
  default: return InvalidValue;
  }
}

namespace {
hipError_t recordLaunch(hipFunction_t F, unsigned GX, unsigned GY, unsigned GZ, unsigned BX,
                        unsigned BY, unsigned BZ, unsigned Shared, hipStream_t Stream,
                        void **Params, void **Extra, bool Cooperative) {
  const tritium::HsacoResult &M = reinterpret_cast<Kernel *>(F)->Meta;
  if (Extra || BX * BY * BZ > unsigned(M.MaxFlatWorkgroupSize) || GX == 0 || GY == 0 || GZ == 0)
    return InvalidConfiguration;
  if (M.LDSBytes + Shared > state().get("lds", 65536))
    return InvalidValue;
  Launch L{M.KernelName, {GX, GY, GZ}, {BX, BY, BZ}, Shared,
           reinterpret_cast<uintptr_t>(Stream), state().Device, {}, Cooperative};
  size_t I = 0;
  for (const tritium::HsacoArg &A : M.Args)
    if (A.Kind.compare(0, 7, "hidden_") != 0)
      L.Params.push_back(hex(Params[I++], A.Size));
  std::lock_guard<std::mutex> G(state().Lock);
  state().Launches.push_back(std::move(L));
  state().Clock += state().get("launch_ns", 1000);
  return 0;
}
} // namespace

hipError_t hipModuleLaunchKernel(hipFunction_t F, unsigned GX, unsigned GY, unsigned GZ,
                                 unsigned BX, unsigned BY, unsigned BZ, unsigned Shared,
                                 hipStream_t Stream, void **Params, void **Extra) {
  ENTER("hipModuleLaunchKernel");
  return recordLaunch(F, GX, GY, GZ, BX, BY, BZ, Shared, Stream, Params, Extra, false);
}

hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t F, unsigned GX, unsigned GY,
                                            unsigned GZ, unsigned BX, unsigned BY, unsigned BZ,
                                            unsigned Shared, hipStream_t Stream, void **Params) {
  ENTER("hipModuleLaunchCooperativeKernel");
  return recordLaunch(F, GX, GY, GZ, BX, BY, BZ, Shared, Stream, Params, nullptr, true);
}

hipError_t hipMalloc(void **P, size_t N) {
  ENTER("hipMalloc");
  *P = std::calloc(N ? N : 1, 1);
  return *P ? 0 : OutOfMemory;
}

hipError_t hipFree(void *P) {
  ENTER("hipFree");
  std::free(P);
  return 0;
}

hipError_t hipMemcpyHtoD(hipDeviceptr_t Dst, const void *Src, size_t N) {
  ENTER("hipMemcpyHtoD");
  std::memcpy(Dst, Src, N);
  return 0;
}

hipError_t hipMemcpyDtoH(void *Dst, hipDeviceptr_t Src, size_t N) {
  ENTER("hipMemcpyDtoH");
  std::memcpy(Dst, Src, N);
  return 0;
}

hipError_t hipMemsetD8Async(hipDeviceptr_t Dst, unsigned char V, size_t N, hipStream_t) {
  ENTER("hipMemsetD8Async");
  std::memset(Dst, V, N);
  return 0;
}

hipError_t hipStreamSynchronize(hipStream_t) {
  ENTER("hipStreamSynchronize");
  return 0;
}

hipError_t hipEventCreate(hipEvent_t *E) {
  ENTER("hipEventCreate");
  *E = reinterpret_cast<hipEvent_t>(new FakeEvent);
  return 0;
}

hipError_t hipEventRecord(hipEvent_t E, hipStream_t) {
  ENTER("hipEventRecord");
  std::lock_guard<std::mutex> G(state().Lock);
  reinterpret_cast<FakeEvent *>(E)->Time = state().Clock;
  return 0;
}

hipError_t hipEventSynchronize(hipEvent_t) {
  ENTER("hipEventSynchronize");
  return 0;
}

hipError_t hipEventElapsedTime(float *Ms, hipEvent_t Start, hipEvent_t End) {
  ENTER("hipEventElapsedTime");
  auto *S = reinterpret_cast<FakeEvent *>(Start), *E = reinterpret_cast<FakeEvent *>(End);
  if (S->Time < 0 || E->Time < 0)
    return InvalidHandle;
  *Ms = static_cast<float>(E->Time - S->Time) / 1e6f;
  return 0;
}

hipError_t hipEventDestroy(hipEvent_t E) {
  ENTER("hipEventDestroy");
  delete reinterpret_cast<FakeEvent *>(E);
  return 0;
}

// --- For the tests (ctypes) ----------------------------------------------------

void fakehip_set(const char *Key, long long Value) {
  std::lock_guard<std::mutex> G(state().Lock);
  state().Settings[Key] = Value;
}

void fakehip_set_arch(const char *Arch) {
  std::lock_guard<std::mutex> G(state().Lock);
  state().Arch = Arch;
}

void fakehip_inject(const char *Symbol, int Code) {
  std::lock_guard<std::mutex> G(state().Lock);
  state().Injected[Symbol] = Code;
}

void fakehip_reset(void) {
  State &S = state();
  std::lock_guard<std::mutex> G(S.Lock);
  S.Settings.clear();
  S.Injected.clear();
  S.Calls.clear();
  S.Launches.clear();
  S.Device = 0;
  S.Arch = "gfx90a:sramecc+:xnack-";
}

int fakehip_calls(const char *Symbol) {
  std::lock_guard<std::mutex> G(state().Lock);
  auto It = state().Calls.find(Symbol);
  return It == state().Calls.end() ? 0 : It->second;
}

int fakehip_loaded_modules(void) {
  std::lock_guard<std::mutex> G(state().Lock);
  return static_cast<int>(state().Modules.size());
}

int fakehip_launch_count(void) {
  std::lock_guard<std::mutex> G(state().Lock);
  return static_cast<int>(state().Launches.size());
}

/// Launch \p I as JSON into \p Buffer (of \p Size bytes); returns the
/// length it needs (without the NUL).
int fakehip_launch_record(int I, char *Buffer, int Size) {
  std::lock_guard<std::mutex> G(state().Lock);
  if (I < 0 || I >= static_cast<int>(state().Launches.size()))
    return -1;
  const Launch &L = state().Launches[I];
  std::string Params;
  for (const std::string &P : L.Params)
    Params += (Params.empty() ? "\"" : ", \"") + P + "\"";
  char Head[512];
  std::snprintf(Head, sizeof(Head),
                "{\"kernel\": \"%s\", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], "
                "\"shared\": %u, \"stream\": %llu, \"device\": %d, \"cooperative\": %s, "
                "\"params\": [",
                L.Kernel.c_str(), L.Grid[0], L.Grid[1], L.Grid[2], L.Block[0], L.Block[1],
                L.Block[2], L.Shared, static_cast<unsigned long long>(L.Stream), L.Device,
                L.Cooperative ? "true" : "false");
  std::string Out = std::string(Head) + Params + "]}";
  if (Buffer && Size > 0)
    std::snprintf(Buffer, Size, "%s", Out.c_str());
  return static_cast<int>(Out.size());
}

} // extern "C"
