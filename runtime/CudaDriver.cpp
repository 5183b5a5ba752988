//===- CudaDriver.cpp - libcuda, loaded at run time -----------------------===//
//
// dlopen/dlsym, error reporting, contexts, and loading kernels: the shared
// memory opt-in above 48 KB follows the CUDA Programming Guide (a kernel may
// use up to MAX_SHARED_MEMORY_PER_BLOCK_OPTIN minus its static shared memory
// once MAX_DYNAMIC_SHARED_SIZE_BYTES is raised), as Triton's loader does.
//
//===----------------------------------------------------------------------===//

#include "runtime/CudaDriver.h"

#include <dlfcn.h>
#include <sys/stat.h>

#include <map>
#include <memory>

namespace tritium {
namespace cuda {

namespace {

struct EntryName {
  const char *Symbol;
  const char *Fallback;
};

const EntryName EntryNames[] = {
#define CUDA_ENTRY(Member, Symbol, Fallback, Signature) {Symbol, Fallback},
#include "runtime/CudaEntryPoints.def"
};

std::string quoted(const std::string &Name) { return "'" + Name + "'"; }

CUmodule moduleOf(const LoadedKernel &K) { return static_cast<CUmodule>(K.Module); }
CUfunction functionOf(const LoadedKernel &K) { return static_cast<CUfunction>(K.Function); }
CUstream streamOf(gpu::Stream S) { return static_cast<CUstream>(S); }
CUevent eventOf(void *E) { return static_cast<CUevent>(E); }

} // namespace

// --- Loading the library -------------------------------------------------

Driver &Driver::get(const std::string &Path) {
  // Drivers live for the whole process: launchers keep raw pointers to them.
  static std::mutex Lock;
  static std::map<std::string, std::unique_ptr<Driver>> *Drivers =
      new std::map<std::string, std::unique_ptr<Driver>>();
  std::lock_guard<std::mutex> Guard(Lock);
  std::unique_ptr<Driver> &D = (*Drivers)[Path];
  if (!D)
    D.reset(new Driver(Path));
  return *D;
}

bool Driver::load(std::string *Why) {
  std::call_once(Loaded, [this] {
    std::string File = Path.empty() ? "libcuda.so.1" : Path;
    struct stat St;
    if (!Path.empty() && stat(Path.c_str(), &St) == 0 && S_ISDIR(St.st_mode))
      File = Path + "/libcuda.so.1";
    // RTLD_LOCAL: a test's fake driver must not interpose on the real one.
    Handle = dlopen(File.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!Handle) {
      const char *E = dlerror();
      LoadError = "cannot load the CUDA driver " + File + ": " + (E ? E : "unknown error");
      return;
    }
    auto *Init = reinterpret_cast<InitFn *>(dlsym(Handle, "cuInit"));
    if (!Init) {
      LoadError = File + " has no cuInit: not a CUDA driver";
      return;
    }
    CUresult R = Init(0);
    if (R != Success) {
      const char *Name = nullptr;
      auto *NameFn = reinterpret_cast<GetErrorNameFn *>(dlsym(Handle, "cuGetErrorName"));
      if (NameFn)
        NameFn(R, &Name);
      LoadError = "cuInit failed with " + (Name ? std::string(Name) : std::to_string(R)) + " (" +
                  File + ")";
    }
  });
  if (Why)
    *Why = LoadError;
  return LoadError.empty();
}

void Driver::unavailable() {
  std::string Why;
  load(&Why);
  throw CudaError(-1, "", Why, "");
}

void *Driver::lookup(unsigned Index) noexcept {
  if (void *P = Slots[Index].load(std::memory_order_relaxed))
    return P;
  if (!load())
    return nullptr;
  const EntryName &E = EntryNames[Index];
  void *P = dlsym(Handle, E.Symbol);
  if (!P && E.Fallback)
    P = dlsym(Handle, E.Fallback);
  if (P)
    Slots[Index].store(P, std::memory_order_relaxed);
  return P;
}

void *Driver::resolve(unsigned Index) {
  if (!load())
    unavailable();
  void *P = lookup(Index);
  if (!P)
    throw CudaError(-1, "",
                    std::string("the CUDA driver ") + (Path.empty() ? "libcuda.so.1" : Path) +
                        " has no " + EntryNames[Index].Symbol + " (too old?)",
                    "");
  return P;
}

// --- Errors --------------------------------------------------------------

std::string Driver::errorName(CUresult R) {
  const char *Name = nullptr;
  if (cuGetErrorName()(R, &Name) != Success || !Name)
    return "";
  return Name;
}

void Driver::fail(CUresult R, const std::string &Action) {
  const char *Description = nullptr;
  if (cuGetErrorString()(R, &Description) != Success)
    Description = nullptr;
  throw CudaError(R, errorName(R), Description ? Description : "", Action);
}

// --- Devices and contexts -----------------------------------------------

int Driver::deviceCount() {
  if (!load())
    return 0;
  int N = 0;
  check(cuDeviceGetCount()(&N), "counting devices");
  return N;
}

int Driver::deviceAttribute(DeviceAttribute Attr, int Device) {
  CUdevice Dev;
  check(cuDeviceGet()(&Dev, Device), "getting a device");
  int V = 0;
  CUresult R = cuDeviceGetAttribute()(&V, Attr, Dev);
  if (R != Success)
    fail(R, "reading attribute " + std::to_string(Attr) + " of device " + std::to_string(Device));
  return V;
}

std::string Driver::deviceName(int Device) {
  CUdevice Dev;
  check(cuDeviceGet()(&Dev, Device), "getting a device");
  char Name[256] = {};
  check(cuDeviceGetName()(Name, sizeof(Name) - 1, Dev), "reading a device's name");
  return Name;
}

int Driver::driverVersion() {
  int V = 0;
  check(cuDriverGetVersion()(&V), "reading the driver's version");
  return V;
}

namespace {
/// The calling thread's last current context, when it is a primary context
/// this driver retained (those live as long as the process), and its device.
thread_local CUcontext LastPrimary = nullptr;
thread_local int LastPrimaryDevice = 0;
} // namespace

int Driver::currentDevice() {
  CUcontext Ctx = nullptr;
  check(cuCtxGetCurrent()(&Ctx), "reading the current context");
  if (!Ctx)
    return 0;
  if (Ctx == LastPrimary)
    return LastPrimaryDevice;
  CUdevice Dev = 0;
  check(cuCtxGetDevice()(&Dev), "reading the current context's device");
  std::lock_guard<std::mutex> Guard(ContextsLock);
  if (static_cast<size_t>(Dev) < Contexts.size() && Contexts[Dev] == Ctx) {
    LastPrimary = Ctx;
    LastPrimaryDevice = Dev;
  }
  return Dev;
}

CUcontext Driver::activate(int Device) {
  CUcontext Ctx;
  {
    std::lock_guard<std::mutex> Guard(ContextsLock);
    if (Device < 0)
      throw CudaError(-1, "", "no device " + std::to_string(Device), "");
    if (static_cast<size_t>(Device) >= Contexts.size())
      Contexts.resize(Device + 1, nullptr);
    if (!Contexts[Device]) {
      CUdevice Dev;
      check(cuDeviceGet()(&Dev, Device), "getting a device");
      CUcontext New = nullptr;
      CUresult R = cuDevicePrimaryCtxRetain()(&New, Dev);
      if (R != Success)
        fail(R, "retaining the primary context of device " + std::to_string(Device));
      Contexts[Device] = New;
    }
    Ctx = Contexts[Device];
  }
  CUcontext Cur = nullptr;
  check(cuCtxGetCurrent()(&Cur), "reading the current context");
  if (Cur != Ctx)
    check(cuCtxSetCurrent()(Ctx), "making a context current");
  return Ctx;
}

// --- Kernels ---------------------------------------------------------------

namespace {

bool isElf(const std::string &Image) {
  return Image.size() >= 4 && Image.compare(0, 4,
                                            "\x7f"
                                            "ELF") == 0;
}

} // namespace

LoadedKernel Driver::loadKernel(const KernelImage &Img, int Device) {
  LoadedKernel K;
  K.Name = Img.Name;
  K.Device = Device;
  K.SharedBytes = Img.SharedBytes;
  K.NumThreads = Img.NumThreads;
  K.Flags = Img.Flags;
  K.Context = activate(Device);
  const std::string Action = "loading kernel " + quoted(Img.Name);

  // PTX goes through the driver's JIT: keep its error log for the message.
  CUresult R;
  std::string Log;
  CUmodule Module = nullptr;
  if (isElf(Img.Image)) {
    R = cuModuleLoadData()(&Module, Img.Image.data());
  } else {
    std::string Text = Img.Image; // NUL-terminated for the JIT
    std::vector<char> ErrorLog(16384, '\0');
    // PTX with source lines (.loc) keeps them in the SASS, as ptxas -lineinfo.
    bool Lines = Text.find("\t.loc\t") != std::string::npos;
    int Options[] = {JitErrorLogBuffer, JitErrorLogBufferSizeBytes, JitGenerateLineInfo};
    void *Values[] = {ErrorLog.data(), reinterpret_cast<void *>(ErrorLog.size() - 1),
                      reinterpret_cast<void *>(uintptr_t(Lines))};
    R = cuModuleLoadDataEx()(&Module, Text.c_str(), 3, Options, Values);
    Log = ErrorLog.data();
  }
  K.Module = Module;
  if (R != Success)
    fail(R, Log.empty() ? Action : Action + "; the PTX JIT said: " + Log);

  // From here on a failure must not leak the module.
  try {
    CUfunction Function = nullptr;
    R = cuModuleGetFunction()(&Function, Module, Img.Name.c_str());
    K.Function = Function;
    if (R != Success)
      fail(R, "finding kernel " + quoted(Img.Name) + " in its binary");
    auto Attr = [&](FunctionAttribute A) {
      int V = 0;
      CUresult RA = cuFuncGetAttribute()(&V, A, Function);
      if (RA != Success)
        fail(RA, "reading attribute " + std::to_string(A) + " of kernel " + quoted(Img.Name));
      return V;
    };
    K.NumRegs = Attr(FuncNumRegs);
    K.NumSpills = Attr(FuncLocalSizeBytes) / 4;
    K.MaxThreads = Attr(FuncMaxThreadsPerBlock);
    K.StaticShared = Attr(FuncSharedSizeBytes);

    if (Img.NumThreads > static_cast<unsigned>(K.MaxThreads)) {
      // The driver lowers a kernel's thread limit when its registers times
      // the threads exceed the block's register file: say so.
      uint64_t Regs = uint64_t(K.NumRegs) * Img.NumThreads;
      int RegsPerBlock = deviceAttribute(DevMaxRegistersPerBlock, Device);
      if (Regs > static_cast<uint64_t>(RegsPerBlock))
        throw OutOfResources("registers", Regs, RegsPerBlock, Img.Name);
      throw OutOfResources("threads", Img.NumThreads, K.MaxThreads, Img.Name);
    }

    uint64_t Needed = uint64_t(Img.SharedBytes) + K.StaticShared;
    if (Needed > DefaultSharedMemoryLimit) {
      int OptIn = deviceAttribute(DevMaxSharedMemoryPerBlockOptin, Device);
      if (Needed > static_cast<uint64_t>(OptIn))
        throw OutOfResources("shared memory", Needed, OptIn, Img.Name);
      // Prefer shared memory over L1, then allow this much dynamic shared
      // memory (the default limit is 48 KB minus the static part).
      check(cuFuncSetCacheConfig()(Function, FuncCachePreferShared), Action.c_str());
      R = cuFuncSetAttribute()(Function, FuncMaxDynamicSharedSizeBytes,
                               static_cast<int>(Img.SharedBytes));
      if (R != Success)
        fail(R, "allowing kernel " + quoted(Img.Name) + " " + std::to_string(Img.SharedBytes) +
                    " bytes of dynamic shared memory");
    }
  } catch (...) {
    unload(K);
    throw;
  }
  return K;
}

void Driver::unload(const LoadedKernel &K) noexcept {
  if (!K.Module)
    return;
  try {
    cuModuleUnload()(moduleOf(K));
  } catch (...) {
  }
}

void Driver::launch(const LoadedKernel &K, unsigned GridX, unsigned GridY, unsigned GridZ,
                    gpu::Stream S, void **Params) {
  CUcontext Cur = nullptr;
  cuCtxGetCurrent()(&Cur);
  if (Cur != K.Context)
    check(cuCtxSetCurrent()(static_cast<CUcontext>(K.Context)), "making a context current");
  // The launch options are the kernel's (they select the compiled kernel),
  // so a plain kernel pays one well-predicted branch for them.
  CUresult R = K.Flags ? launchEx(K, GridX, GridY, GridZ, S, Params)
                       : cuLaunchKernel()(functionOf(K), GridX, GridY, GridZ, K.NumThreads, 1, 1,
                                          K.SharedBytes, streamOf(S), Params, nullptr);
  if (R != Success)
    fail(R, "launching kernel " + quoted(K.Name) + " on grid (" + std::to_string(GridX) + ", " +
                std::to_string(GridY) + ", " + std::to_string(GridZ) + ") with " +
                std::to_string(K.NumThreads) + " threads and " + std::to_string(K.SharedBytes) +
                " bytes of shared memory" +
                (K.Flags & gpu::LaunchCooperative ? ", cooperative" : "") +
                (K.Flags & gpu::LaunchPDL ? ", programmatic dependent launch" : ""));
}

CUresult Driver::launchEx(const LoadedKernel &K, unsigned GridX, unsigned GridY, unsigned GridZ,
                          gpu::Stream S, void **Params) {
  LaunchAttribute Attrs[2];
  unsigned N = 0;
  if (K.Flags & gpu::LaunchPDL) {
    Attrs[N].Id = LaunchAttributeProgrammaticStreamSerialization;
    Attrs[N++].Value.Int = 1;
  }
  if (K.Flags & gpu::LaunchCooperative) {
    Attrs[N].Id = LaunchAttributeCooperative;
    Attrs[N++].Value.Int = 1;
  }
  LaunchConfig Config = {GridX,         GridY,       GridZ, K.NumThreads, 1, 1,
                         K.SharedBytes, streamOf(S), Attrs, N};
  return cuLaunchKernelEx()(&Config, functionOf(K), Params, nullptr);
}

// --- Memory, streams, events ----------------------------------------------

CUdeviceptr Driver::memAlloc(size_t Bytes, int Device) {
  activate(Device);
  CUdeviceptr P = 0;
  CUresult R = cuMemAlloc()(&P, Bytes);
  if (R != Success)
    fail(R, "allocating " + std::to_string(Bytes) + " bytes");
  return P;
}

void Driver::memFree(CUdeviceptr Ptr) { check(cuMemFree()(Ptr), "freeing device memory"); }

void Driver::memcpyHtoD(CUdeviceptr Dst, const void *Src, size_t Bytes) {
  check(cuMemcpyHtoD()(Dst, Src, Bytes), "copying to the device");
}

void Driver::memcpyDtoH(void *Dst, CUdeviceptr Src, size_t Bytes) {
  check(cuMemcpyDtoH()(Dst, Src, Bytes), "copying from the device");
}

void Driver::memsetD8Async(CUdeviceptr Dst, unsigned char Value, size_t Bytes, gpu::Stream S) {
  check(cuMemsetD8Async()(Dst, Value, Bytes, streamOf(S)), "filling device memory");
}

void Driver::synchronize(int Device) {
  activate(Device);
  check(cuCtxSynchronize()(), "waiting for the device");
}

void *Driver::eventCreate() {
  CUevent E = nullptr;
  check(cuEventCreate()(&E, 0), "creating an event");
  return E;
}

void Driver::eventRecord(void *Event, gpu::Stream S) {
  check(cuEventRecord()(eventOf(Event), streamOf(S)), "recording an event");
}

float Driver::eventElapsed(void *Start, void *End) {
  check(cuEventSynchronize()(eventOf(End)), "waiting for an event");
  float Ms = 0;
  check(cuEventElapsedTime()(&Ms, eventOf(Start), eventOf(End)), "timing events");
  return Ms;
}

void Driver::eventDestroy(void *Event) noexcept {
  try {
    cuEventDestroy()(eventOf(Event));
  } catch (...) {
  }
}

CUdeviceptr Driver::devicePointer(CUdeviceptr Ptr, const std::string &Action) {
  CUdeviceptr Dev = 0;
  CUresult R = cuPointerGetAttribute()(&Dev, PointerAttributeDevicePointer, Ptr);
  if (R != Success)
    fail(R, Action);
  return Dev;
}

// --- Tensor maps --------------------------------------------------------------

bool Driver::hasTensorMaps(int Device) noexcept {
  // Tensor maps are Hopper's (compute capability 9.0) and CUDA 12's.
  if (!lookup(EntryTensorMapEncodeTiled))
    return false;
  try {
    return deviceAttribute(DevComputeCapabilityMajor, Device) >= 9;
  } catch (...) {
    return false;
  }
}

bool Driver::encodeTensorMap(const gpu::TensorMapSpec &Spec, gpu::TensorMap &Out) noexcept {
  auto *Encode = reinterpret_cast<TensorMapEncodeTiledFn *>(lookup(EntryTensorMapEncodeTiled));
  if (!Encode)
    return false;
  const uint32_t ElementStrides[gpu::TensorMapSpec::MaxRank] = {1, 1, 1, 1, 1};
  return Encode(&Out, static_cast<int>(Spec.Element), Spec.Rank,
                reinterpret_cast<void *>(static_cast<uintptr_t>(Spec.Base)), Spec.Dims,
                Spec.ByteStrides, Spec.Box, ElementStrides, TensorMapInterleaveNone,
                TensorMapSwizzle128B, TensorMapL2Promotion256B, TensorMapOOBFillNone) == Success;
}

} // namespace cuda
} // namespace tritium
