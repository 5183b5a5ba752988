//===- HipDriver.cpp - libamdhip64, loaded at run time --------------------===//
//
// dlopen/dlsym, errors, devices, and loading code objects, in the shape of
// CudaDriver.cpp (whose comments say why each step is there).
//
//===----------------------------------------------------------------------===//

#include "runtime/HipDriver.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <cctype>
#include <cstring>
#include <map>
#include <memory>
#include <vector>

namespace tritium {
namespace hip {

namespace {

struct EntryName {
  const char *Symbol;
  const char *Fallback;
};

const EntryName EntryNames[] = {
#define HIP_ENTRY(Member, Symbol, Fallback, Signature) {Symbol, Fallback},
#include "runtime/HipEntryPoints.def"
};

const char *const DefaultLibrary = "libamdhip64.so";

std::string quoted(const std::string &Name) { return "'" + Name + "'"; }

hipModule_t moduleOf(const gpu::LoadedKernel &K) { return static_cast<hipModule_t>(K.Module); }
hipFunction_t functionOf(const gpu::LoadedKernel &K) {
  return static_cast<hipFunction_t>(K.Function);
}
hipStream_t streamOf(gpu::Stream S) { return static_cast<hipStream_t>(S); }
hipEvent_t eventOf(void *E) { return static_cast<hipEvent_t>(E); }
hipDeviceptr_t addressOf(gpu::DevicePtr P) { return reinterpret_cast<hipDeviceptr_t>(P); }

} // namespace

std::string findArchName(const char *Bytes, size_t Size) {
  for (size_t I = 0; I + 4 <= Size; ++I) {
    if (std::memcmp(Bytes + I, "gfx", 3) != 0 || !std::isxdigit(static_cast<unsigned char>(Bytes[I + 3])))
      continue;
    size_t End = I + 3;
    while (End < Size && std::isalnum(static_cast<unsigned char>(Bytes[End])))
      ++End;
    return std::string(Bytes + I, End - I);
  }
  return "";
}

// --- Loading the library -------------------------------------------------

Driver &Driver::get(const std::string &Path) {
  static std::mutex Lock;
  static auto *Drivers = new std::map<std::string, std::unique_ptr<Driver>>();
  std::lock_guard<std::mutex> Guard(Lock);
  std::unique_ptr<Driver> &D = (*Drivers)[Path];
  if (!D)
    D.reset(new Driver(Path));
  return *D;
}

bool Driver::load(std::string *Why) {
  std::call_once(Loaded, [this] {
    std::string File = Path.empty() ? DefaultLibrary : Path;
    struct stat St;
    if (!Path.empty() && stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode))
      File = Path + "/" + DefaultLibrary;
    Handle = dlopen(File.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Handle) {
      const char *E = dlerror();
      LoadError = "cannot load the HIP runtime " + File + ": " + (E ? E : "unknown error");
      return;
    }
    auto *Init = reinterpret_cast<InitFn *>(dlsym(Handle, "hipInit"));
    if (!Init) {
      LoadError = File + " has no hipInit: not a HIP runtime";
      return;
    }
    hipError_t R = Init(0);
    if (R != Success) {
      auto *NameFn = reinterpret_cast<GetErrorNameFn *>(dlsym(Handle, "hipGetErrorName"));
      const char *Name = NameFn ? NameFn(R) : nullptr;
      LoadError = "hipInit failed with " + (Name ? std::string(Name) : std::to_string(R)) +
                  " (" + File + ")";
    }
  });
  if (Why)
    *Why = LoadError;
  return LoadError.empty();
}

void Driver::unavailable() {
  std::string Why;
  load(&Why);
  throw HipError(-1, "", Why, "");
}

void *Driver::resolve(unsigned Index) {
  if (!load())
    unavailable();
  const EntryName &E = EntryNames[Index];
  void *P = dlsym(Handle, E.Symbol);
  if (!P && E.Fallback)
    P = dlsym(Handle, E.Fallback);
  if (!P)
    throw HipError(-1, "",
                   std::string("the HIP runtime ") + (Path.empty() ? DefaultLibrary : Path) +
                       " has no " + E.Symbol + " (too old?)",
                   "");
  Slots[Index].store(P, std::memory_order_relaxed);
  return P;
}

void Driver::fail(hipError_t R, const std::string &Action) {
  const char *Name = hipGetErrorName()(R);
  const char *Description = hipGetErrorString()(R);
  throw HipError(R, Name ? Name : "", Description ? Description : "", Action);
}

// --- Devices -------------------------------------------------------------

int Driver::deviceCount() {
  if (!load())
    return 0;
  int N = 0;
  hipError_t R = hipGetDeviceCount()(&N);
  if (R == 100) // hipErrorNoDevice: a runtime without a GPU
    return 0;
  check(R, "counting devices");
  return N;
}

int Driver::deviceAttribute(DeviceAttribute Attr, int Device) {
  int V = 0;
  hipError_t R = hipDeviceGetAttribute()(&V, Attr, Device);
  if (R != Success)
    fail(R, "reading attribute " + std::to_string(Attr) + " of device " + std::to_string(Device));
  return V;
}

std::string Driver::deviceName(int Device) {
  char Name[256] = {};
  check(hipDeviceGetName()(Name, sizeof(Name) - 1, Device), "reading a device's name");
  return Name;
}

std::string Driver::archName(int Device) {
  std::vector<char> Props(DevicePropertiesBytes, '\0');
  hipError_t R = hipGetDeviceProperties()(Props.data(), Device);
  if (R != Success)
    fail(R, "reading the properties of device " + std::to_string(Device));
  std::string Arch = findArchName(Props.data(), Props.size());
  if (Arch.empty())
    throw HipError(-1, "",
                   "the HIP runtime reports no gfx architecture for device " +
                       std::to_string(Device),
                   "");
  return Arch;
}

int Driver::driverVersion() {
  int V = 0;
  check(hipDriverGetVersion()(&V), "reading the runtime's version");
  return V;
}

int Driver::currentDevice() {
  int D = 0;
  check(hipGetDevice()(&D), "reading the current device");
  return D;
}

void Driver::use(int Device) {
  if (currentDevice() != Device)
    check(hipSetDevice()(Device), "making a device current");
}

// --- Kernels -------------------------------------------------------------

gpu::LoadedKernel Driver::loadKernel(const gpu::KernelImage &Img, int Device) {
  gpu::LoadedKernel K;
  K.Name = Img.Name;
  K.Device = Device;
  K.SharedBytes = Img.SharedBytes;
  K.NumThreads = Img.NumThreads;
  K.Flags = Img.Flags;
  const std::string Action = "loading kernel " + quoted(Img.Name);
  if (Img.Flags & gpu::LaunchPDL)
    throw HipError(-1, "",
                   "launch_pdl=True asks for programmatic dependent launch, which CUDA has "
                   "(sm_90 and later) and HIP has not",
                   Action);
  use(Device);
  hipModule_t Module = nullptr;
  hipError_t R = hipModuleLoadData()(&Module, Img.Image.data());
  if (R != Success)
    fail(R, Action);
  K.Module = Module;
  try {
    hipFunction_t Function = nullptr;
    R = hipModuleGetFunction()(&Function, Module, Img.Name.c_str());
    if (R != Success)
      fail(R, "finding kernel " + quoted(Img.Name) + " in its code object");
    K.Function = Function;
    auto Attr = [&](FunctionAttribute A) {
      int V = 0;
      hipError_t RA = hipFuncGetAttribute()(&V, A, Function);
      if (RA != Success)
        fail(RA, "reading attribute " + std::to_string(A) + " of kernel " + quoted(Img.Name));
      return V;
    };
    K.NumRegs = Attr(FuncNumRegs);
    K.NumSpills = Attr(FuncLocalSizeBytes) / 4;
    K.MaxThreads = Attr(FuncMaxThreadsPerBlock);
    K.StaticShared = Attr(FuncSharedSizeBytes);
    if (Img.NumThreads > static_cast<unsigned>(K.MaxThreads))
      throw gpu::OutOfResources("threads", Img.NumThreads, K.MaxThreads, Img.Name);
    uint64_t Needed = uint64_t(Img.SharedBytes) + K.StaticShared;
    int Limit = deviceAttribute(DevMaxSharedMemoryPerBlock, Device);
    if (Needed > static_cast<uint64_t>(Limit))
      throw gpu::OutOfResources("shared memory", Needed, Limit, Img.Name);
  } catch (...) {
    unload(K);
    throw;
  }
  return K;
}

void Driver::unload(const gpu::LoadedKernel &K) noexcept {
  if (!K.Module)
    return;
  try {
    hipModuleUnload()(moduleOf(K));
  } catch (...) {
  }
}

void Driver::launch(const gpu::LoadedKernel &K, unsigned GridX, unsigned GridY, unsigned GridZ,
                    gpu::Stream S, void **Params) {
  use(K.Device);
  hipError_t R =
      K.Flags & gpu::LaunchCooperative
          ? hipModuleLaunchCooperativeKernel()(functionOf(K), GridX, GridY, GridZ, K.NumThreads, 1,
                                               1, K.SharedBytes, streamOf(S), Params)
          : hipModuleLaunchKernel()(functionOf(K), GridX, GridY, GridZ, K.NumThreads, 1, 1,
                                    K.SharedBytes, streamOf(S), Params, nullptr);
  if (R != Success)
    fail(R, "launching kernel " + quoted(K.Name) + " on grid (" + std::to_string(GridX) + ", " +
                std::to_string(GridY) + ", " + std::to_string(GridZ) + ") with " +
                std::to_string(K.NumThreads) + " threads");
}

gpu::DevicePtr Driver::devicePointer(gpu::DevicePtr Ptr, const std::string &) { return Ptr; }

// --- Memory, streams, events -----------------------------------------------

gpu::DevicePtr Driver::memAlloc(size_t Bytes, int Device) {
  use(Device);
  void *P = nullptr;
  hipError_t R = hipMalloc()(&P, Bytes);
  if (R != Success)
    fail(R, "allocating " + std::to_string(Bytes) + " bytes");
  return reinterpret_cast<gpu::DevicePtr>(P);
}

void Driver::memFree(gpu::DevicePtr Ptr) {
  check(hipFree()(addressOf(Ptr)), "freeing device memory");
}

void Driver::memcpyHtoD(gpu::DevicePtr Dst, const void *Src, size_t Bytes) {
  check(hipMemcpyHtoD()(addressOf(Dst), Src, Bytes), "copying to the device");
}

void Driver::memcpyDtoH(void *Dst, gpu::DevicePtr Src, size_t Bytes) {
  check(hipMemcpyDtoH()(Dst, addressOf(Src), Bytes), "copying from the device");
}

void Driver::memsetD8Async(gpu::DevicePtr Dst, unsigned char Value, size_t Bytes, gpu::Stream S) {
  check(hipMemsetD8Async()(addressOf(Dst), Value, Bytes, streamOf(S)), "filling device memory");
}

void Driver::synchronize(int Device) {
  use(Device);
  check(hipDeviceSynchronize()(), "waiting for the device");
}

void *Driver::eventCreate() {
  hipEvent_t E = nullptr;
  check(hipEventCreate()(&E), "creating an event");
  return E;
}

void Driver::eventRecord(void *Event, gpu::Stream S) {
  check(hipEventRecord()(eventOf(Event), streamOf(S)), "recording an event");
}

float Driver::eventElapsed(void *Start, void *End) {
  check(hipEventSynchronize()(eventOf(End)), "waiting for an event");
  float Ms = 0;
  check(hipEventElapsedTime()(&Ms, eventOf(Start), eventOf(End)), "timing events");
  return Ms;
}

void Driver::eventDestroy(void *Event) noexcept {
  try {
    hipEventDestroy()(eventOf(Event));
  } catch (...) {
  }
}

} // namespace hip
} // namespace tritium
