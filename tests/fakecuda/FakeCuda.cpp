//===- FakeCuda.cpp - A libcuda.so.1 for tests on machines without a GPU --===//
//
// Implements the Driver API entry points that runtime/CudaDriver.cpp uses
// (runtime/CudaEntryPoints.def), with cuda.h's own prototypes, so that the
// whole launch path runs in CI: kernel[grid](...) -> the C++ launcher ->
// cuLaunchKernel (or cuLaunchKernelEx, whose launch attributes it logs)
// here, which records the launch instead of running it.
//
// "Device memory" is host memory, contexts and events are plain structs, and
// time is a virtual clock that each launch advances by `launch_ns`. Modules
// are PTX text: the .entry lines give each kernel's parameters and their
// sizes (what a real driver reads from a cubin), and a comment such as
//   // fakecuda: regs=40 local=16 static_shared=1024 max_threads=512
// sets the attributes cuFuncGetAttribute reports. Like the real driver, a
// launch checks its context, grid, block and dynamic shared memory (above
// 48 KB only after cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)).
//
// Tests drive it through the fakecuda_* functions at the end (ctypes; see
// tests/fakecuda/fakecuda.py): settings, injected errors, call counts, the
// launch log with every parameter's bytes, and the log of tensor maps encoded
// (each one's arguments and the recognizable bytes it got).
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include "runtime/CudaDriver.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

// Tritium's own copy of the ABI must agree with cuda.h.
namespace tc = tritium::cuda;
constexpr bool agree(int Ours, int Theirs) { return Ours == Theirs; }
static_assert(sizeof(tc::CUdeviceptr) == sizeof(CUdeviceptr), "CUdeviceptr");
static_assert(sizeof(tc::CUdevice) == sizeof(CUdevice), "CUdevice");
static_assert(sizeof(CUjit_option) == sizeof(int), "CUjit_option is an int");
static_assert(agree(tc::DevMaxThreadsPerBlock, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
              "DevMaxThreadsPerBlock");
static_assert(agree(tc::DevMaxGridDimX, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X), "DevMaxGridDimX");
static_assert(agree(tc::DevMaxGridDimY, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y), "DevMaxGridDimY");
static_assert(agree(tc::DevMaxGridDimZ, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z), "DevMaxGridDimZ");
static_assert(agree(tc::DevMaxSharedMemoryPerBlock,
                    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK),
              "DevMaxSharedMemoryPerBlock");
static_assert(agree(tc::DevWarpSize, CU_DEVICE_ATTRIBUTE_WARP_SIZE), "DevWarpSize");
static_assert(agree(tc::DevMaxRegistersPerBlock, CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK),
              "DevMaxRegistersPerBlock");
static_assert(agree(tc::DevMultiprocessorCount, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT),
              "DevMultiprocessorCount");
static_assert(agree(tc::DevL2CacheSize, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE), "DevL2CacheSize");
static_assert(agree(tc::DevComputeCapabilityMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
              "DevComputeCapabilityMajor");
static_assert(agree(tc::DevComputeCapabilityMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR),
              "DevComputeCapabilityMinor");
static_assert(agree(tc::DevMaxSharedMemoryPerMultiprocessor,
                    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR),
              "DevMaxSharedMemoryPerMultiprocessor");
static_assert(agree(tc::DevMaxSharedMemoryPerBlockOptin,
                    CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN),
              "DevMaxSharedMemoryPerBlockOptin");
static_assert(agree(tc::FuncMaxThreadsPerBlock, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
              "FuncMaxThreadsPerBlock");
static_assert(agree(tc::FuncSharedSizeBytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
              "FuncSharedSizeBytes");
static_assert(agree(tc::FuncLocalSizeBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES),
              "FuncLocalSizeBytes");
static_assert(agree(tc::FuncNumRegs, CU_FUNC_ATTRIBUTE_NUM_REGS), "FuncNumRegs");
static_assert(agree(tc::FuncMaxDynamicSharedSizeBytes,
                    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES),
              "FuncMaxDynamicSharedSizeBytes");
static_assert(agree(tc::JitInfoLogBuffer, CU_JIT_INFO_LOG_BUFFER), "JitInfoLogBuffer");
static_assert(agree(tc::JitInfoLogBufferSizeBytes, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES),
              "JitInfoLogBufferSizeBytes");
static_assert(agree(tc::JitErrorLogBuffer, CU_JIT_ERROR_LOG_BUFFER), "JitErrorLogBuffer");
static_assert(agree(tc::JitErrorLogBufferSizeBytes, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES),
              "JitErrorLogBufferSizeBytes");
static_assert(agree(tc::FuncCachePreferShared, CU_FUNC_CACHE_PREFER_SHARED),
              "FuncCachePreferShared");
static_assert(agree(tc::PointerAttributeDevicePointer, CU_POINTER_ATTRIBUTE_DEVICE_POINTER),
              "PointerAttributeDevicePointer");
static_assert(agree(tc::TensorMapInterleaveNone, CU_TENSOR_MAP_INTERLEAVE_NONE),
              "TensorMapInterleaveNone");
static_assert(agree(tc::TensorMapSwizzle128B, CU_TENSOR_MAP_SWIZZLE_128B), "TensorMapSwizzle128B");
static_assert(agree(tc::TensorMapL2Promotion256B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B),
              "TensorMapL2Promotion256B");
static_assert(agree(tc::TensorMapOOBFillNone, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
              "TensorMapOOBFillNone");
using TME = tritium::gpu::TensorMapElement;
static_assert(agree(int(TME::U8), CU_TENSOR_MAP_DATA_TYPE_UINT8), "TensorMapElement::U8");
static_assert(agree(int(TME::U16), CU_TENSOR_MAP_DATA_TYPE_UINT16), "TensorMapElement::U16");
static_assert(agree(int(TME::U32), CU_TENSOR_MAP_DATA_TYPE_UINT32), "TensorMapElement::U32");
static_assert(agree(int(TME::I32), CU_TENSOR_MAP_DATA_TYPE_INT32), "TensorMapElement::I32");
static_assert(agree(int(TME::F16), CU_TENSOR_MAP_DATA_TYPE_FLOAT16), "TensorMapElement::F16");
static_assert(agree(int(TME::F32), CU_TENSOR_MAP_DATA_TYPE_FLOAT32), "TensorMapElement::F32");
static_assert(agree(int(TME::BF16), CU_TENSOR_MAP_DATA_TYPE_BFLOAT16), "TensorMapElement::BF16");
static_assert(sizeof(tritium::gpu::TensorMap) == sizeof(CUtensorMap), "TensorMap's size");
static_assert(agree(tc::LaunchAttributeCooperative, CU_LAUNCH_ATTRIBUTE_COOPERATIVE),
              "LaunchAttributeCooperative");
static_assert(agree(tc::LaunchAttributeProgrammaticStreamSerialization,
                    CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION),
              "LaunchAttributeProgrammaticStreamSerialization");
static_assert(sizeof(tc::LaunchAttribute) == sizeof(CUlaunchAttribute) &&
                  alignof(tc::LaunchAttribute) == alignof(CUlaunchAttribute) &&
                  offsetof(tc::LaunchAttribute, Value) == offsetof(CUlaunchAttribute, value),
              "LaunchAttribute");
static_assert(sizeof(tc::LaunchConfig) == sizeof(CUlaunchConfig) &&
                  offsetof(tc::LaunchConfig, Stream) == offsetof(CUlaunchConfig, hStream) &&
                  offsetof(tc::LaunchConfig, Attrs) == offsetof(CUlaunchConfig, attrs) &&
                  offsetof(tc::LaunchConfig, NumAttrs) == offsetof(CUlaunchConfig, numAttrs),
              "LaunchConfig");

// The driver's opaque handles, made concrete.
struct CUctx_st {
  int Device = 0;
  int Retains = 0;
};
struct CUfunc_st {
  std::string Name;
  CUmodule Module = nullptr;
  std::vector<unsigned> ParamSizes;
  std::map<int, int> Attrs;
  int CacheConfig = 0;
};
struct CUmod_st {
  CUcontext Context = nullptr;
  unsigned long Serial = 0; ///< load order
  std::vector<std::unique_ptr<CUfunc_st>> Functions;
};
struct CUevent_st {
  bool Recorded = false;
  long long TimeNs = 0;
};

namespace {

struct LaunchRecord {
  std::string Kernel;
  unsigned Grid[3], Block[3], Shared;
  unsigned long long Stream;
  int Device;
  std::vector<std::string> Params; // hex bytes, one string per parameter
  bool Ex = false;                 // through cuLaunchKernelEx
  std::vector<std::pair<int, int>> Attrs; // its attributes: id, int value
};

/// One cuTensorMapEncodeTiled call that succeeded: its arguments, and the
/// 128 bytes it wrote ("FAKETMAP", the call's serial number, the address).
struct EncodeRecord {
  int DataType, Rank, Interleave, Swizzle, L2Promotion, OOBFill;
  unsigned long long Address;
  std::vector<unsigned long long> Dims, Strides;
  std::vector<unsigned> Box, ElementStrides;
  std::string Map; // hex
};

struct State {
  std::mutex Lock;
  std::vector<EncodeRecord> Encodes;
  std::map<std::string, long long, std::less<>> Settings;
  std::map<std::string, std::vector<int>, std::less<>> Injected; // in order
  std::vector<LaunchRecord> Launches;
  std::set<CUfunction> Functions; // of the loaded modules
  std::vector<std::unique_ptr<CUctx_st>> Primary;
  std::map<CUmodule, std::unique_ptr<CUmod_st>> Modules;
  std::map<unsigned long long, size_t> Allocations; // base -> bytes
  long long ClockNs = 0;
  long long LaunchNs = 0; ///< Settings["launch_ns"], read on every launch
  bool Record = true;     ///< Settings["record"]
  unsigned long ModulesLoaded = 0;
  bool Initialized = false;

  State() { setDefaults(); }
  void setDefaults() {
    Settings = {
        {"devices", 1},
        {"cc_major", 9},
        {"cc_minor", 0},
        {"sm_count", 132},
        {"warp_size", 32},
        {"max_threads", 1024},
        {"regs_per_block", 65536},
        {"shared_per_block", 49152},
        {"shared_optin", 232448},
        {"shared_per_sm", 233472},
        {"l2_size", 52428800},
        {"clock_khz", 1980000},   // an H100 SXM's
        {"mem_clock_khz", 2619000},
        {"mem_bus_width", 5120},
        {"launch_ns", 1000},
        {"memset_ns", 0},
        {"host_below", 0x10000},
        {"driver_version", 13000},
        {"init_error", 0},
        {"record", 1}, // 0: launches are counted, not logged (benchmarks)
        {"cooperative_blocks_per_sm", 1}, // a cooperative grid's limit
    };
    refresh();
  }
  void refresh() {
    LaunchNs = get("launch_ns");
    Record = get("record") != 0;
  }
  long long get(const char *Key) {
    auto It = Settings.find(Key);
    return It == Settings.end() ? 0 : It->second;
  }
};

State &state() {
  static State *S = new State(); // never destroyed: calls may come at exit
  return *S;
}

thread_local CUcontext Current = nullptr;

/// How often one entry point was called; each registers itself on first use.
struct Counter {
  const char *Symbol;
  std::atomic<int> Calls{0};
  explicit Counter(const char *Symbol) : Symbol(Symbol) {
    std::lock_guard<std::mutex> Guard(registryLock());
    registry().push_back(this);
  }
  static std::mutex &registryLock() {
    static std::mutex *M = new std::mutex();
    return *M;
  }
  static std::vector<Counter *> &registry() {
    static auto *V = new std::vector<Counter *>();
    return *V;
  }
};

/// An injected error for \p Symbol, if any (State::Lock held).
CUresult injected(const char *Symbol) {
  State &S = state();
  auto It = S.Injected.find(Symbol);
  if (It == S.Injected.end() || It->second.empty())
    return CUDA_SUCCESS;
  int Code = It->second.front();
  It->second.erase(It->second.begin());
  return static_cast<CUresult>(Code);
}

/// Counts the call, locks the state, returns an injected error, and refuses
/// calls before cuInit, as the real driver does.
#define FAKE_ENTER(Symbol)                                                                         \
  static Counter ThisEntry(Symbol);                                                                \
  ThisEntry.Calls.fetch_add(1, std::memory_order_relaxed);                                         \
  std::lock_guard<std::mutex> Guard(state().Lock);                                                 \
  if (!state().Injected.empty())                                                                   \
    if (CUresult Injected = injected(Symbol))                                                      \
      return Injected;                                                                             \
  if (!state().Initialized && std::strcmp(Symbol, "cuInit") != 0)                                  \
    return CUDA_ERROR_NOT_INITIALIZED;

const struct {
  int Code;
  const char *Name, *Text;
} ErrorTable[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"},
    {701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"},
    {720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
     "too many blocks in cooperative launch"},
};

// --- PTX: the entries and their parameters ---------------------------------

void skipSpace(const std::string &T, size_t &I) {
  while (I < T.size()) {
    if (std::isspace(static_cast<unsigned char>(T[I]))) {
      ++I;
    } else if (T.compare(I, 2, "//") == 0) {
      while (I < T.size() && T[I] != '\n')
        ++I;
    } else {
      break;
    }
  }
}

std::string word(const std::string &T, size_t &I) {
  skipSpace(T, I);
  size_t B = I;
  while (I < T.size() && (std::isalnum(static_cast<unsigned char>(T[I])) || T[I] == '_' ||
                          T[I] == '.' || T[I] == '$'))
    ++I;
  return T.substr(B, I - B);
}

/// The size of one `.param` declaration: `.u64 name`, `.align 8 .b8 name[24]`,
/// `.u64 .ptr .global .align 16 name`.
unsigned paramSize(const std::string &Decl) {
  unsigned Elem = 0;
  size_t I = 0;
  while (I < Decl.size()) {
    std::string W = word(Decl, I);
    if (W.empty()) {
      ++I;
      continue;
    }
    if (Elem == 0 && W.size() >= 3 && W[0] == '.' && std::strchr("usbf", W[1]) &&
        std::isdigit(static_cast<unsigned char>(W[2])))
      Elem = std::atoi(W.c_str() + 2) / 8;
  }
  size_t Open = Decl.find('[');
  if (Open != std::string::npos)
    return Elem * std::atoi(Decl.c_str() + Open + 1);
  return Elem;
}

/// Reads `// fakecuda: key=value ...` into \p Attrs.
void readAttributeComment(const std::string &T, std::map<int, int> &Attrs) {
  static const std::map<std::string, int> Keys = {
      {"regs", CU_FUNC_ATTRIBUTE_NUM_REGS},
      {"local", CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES},
      {"static_shared", CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES},
      {"max_threads", CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
  };
  size_t At = T.find("// fakecuda:");
  if (At == std::string::npos)
    return;
  size_t End = T.find('\n', At);
  std::string Line = T.substr(At + 12, End == std::string::npos ? End : End - At - 12);
  size_t I = 0;
  while (I < Line.size()) {
    std::string Key = word(Line, I);
    if (Key.empty() || I >= Line.size() || Line[I] != '=') {
      ++I;
      continue;
    }
    ++I;
    int Value = std::atoi(Line.c_str() + I);
    auto It = Keys.find(Key);
    if (It != Keys.end())
      Attrs[It->second] = Value;
  }
}

/// Parses the `.entry name(...)` declarations of \p Text into \p M; false
/// when there is none (not PTX).
bool parsePTX(const std::string &Text, CUmod_st &M) {
  std::map<int, int> Attrs = {
      {CU_FUNC_ATTRIBUTE_NUM_REGS, 32},
      {CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, 0},
      {CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, 0},
      {CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, static_cast<int>(state().get("max_threads"))},
  };
  readAttributeComment(Text, Attrs);
  size_t At = 0;
  while ((At = Text.find(".entry", At)) != std::string::npos) {
    At += 6;
    auto F = std::make_unique<CUfunc_st>();
    F->Name = word(Text, At);
    skipSpace(Text, At);
    if (At < Text.size() && Text[At] == '(') {
      size_t Close = Text.find(')', At);
      if (Close == std::string::npos)
        return false;
      std::string List = Text.substr(At + 1, Close - At - 1);
      size_t P = 0;
      while ((P = List.find(".param", P)) != std::string::npos) {
        size_t End = List.find(',', P);
        std::string Decl =
            List.substr(P + 6, End == std::string::npos ? std::string::npos : End - P - 6);
        F->ParamSizes.push_back(paramSize(Decl));
        P += 6;
      }
      At = Close;
    }
    F->Attrs = Attrs;
    F->Attrs[CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES] =
        static_cast<int>(state().get("shared_per_block")) -
        Attrs[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES];
    M.Functions.push_back(std::move(F));
  }
  return !M.Functions.empty();
}

std::string hex(const void *P, unsigned N) {
  static const char Digits[] = "0123456789abcdef";
  std::string S;
  const unsigned char *B = static_cast<const unsigned char *>(P);
  for (unsigned I = 0; I < N; ++I) {
    S += Digits[B[I] >> 4];
    S += Digits[B[I] & 15];
  }
  return S;
}

template <typename T> std::string jsonList(const std::vector<T> &V) {
  std::string J = "[";
  for (size_t I = 0; I < V.size(); ++I)
    J += (I ? ", " : "") + std::to_string(V[I]);
  return J + "]";
}

CUresult loadModule(CUmodule *Module, const void *Image, std::string *Log) {
  if (!Current)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (!Module || !Image)
    return CUDA_ERROR_INVALID_VALUE;
  const char *Text = static_cast<const char *>(Image);
  auto M = std::make_unique<CUmod_st>();
  M->Context = Current;
  if (!parsePTX(Text, *M)) {
    if (Log)
      *Log = "fakecuda: the image has no .entry (only PTX text is understood)";
    return CUDA_ERROR_INVALID_IMAGE;
  }
  for (auto &F : M->Functions) {
    F->Module = M.get();
    state().Functions.insert(F.get());
  }
  M->Serial = ++state().ModulesLoaded;
  *Module = M.get();
  state().Modules[M.get()] = std::move(M);
  return CUDA_SUCCESS;
}

bool validFunction(CUfunction F) { return state().Functions.count(F) != 0; }

/// One primary context per device, also for devices a test adds later.
void addPrimaryContexts(State &S) {
  while (S.Primary.size() < static_cast<size_t>(S.get("devices"))) {
    S.Primary.push_back(std::make_unique<CUctx_st>());
    S.Primary.back()->Device = static_cast<int>(S.Primary.size() - 1);
  }
}

} // namespace

extern "C" {

// --- Initialization, errors, devices -------------------------------------

CUresult CUDAAPI cuInit(unsigned int Flags) {
  FAKE_ENTER("cuInit");
  if (Flags != 0)
    return CUDA_ERROR_INVALID_VALUE;
  if (long long E = state().get("init_error"))
    return static_cast<CUresult>(E);
  State &S = state();
  S.Initialized = true;
  addPrimaryContexts(S);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDriverGetVersion(int *Version) {
  static Counter ThisEntry("cuDriverGetVersion");
  ThisEntry.Calls.fetch_add(1, std::memory_order_relaxed);
  std::lock_guard<std::mutex> Guard(state().Lock);
  *Version = static_cast<int>(state().get("driver_version"));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorName(CUresult Error, const char **Str) {
  for (const auto &E : ErrorTable)
    if (E.Code == static_cast<int>(Error)) {
      *Str = E.Name;
      return CUDA_SUCCESS;
    }
  *Str = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuGetErrorString(CUresult Error, const char **Str) {
  for (const auto &E : ErrorTable)
    if (E.Code == static_cast<int>(Error)) {
      *Str = E.Text;
      return CUDA_SUCCESS;
    }
  *Str = nullptr;
  return CUDA_ERROR_INVALID_VALUE;
}

CUresult CUDAAPI cuDeviceGet(CUdevice *Device, int Ordinal) {
  FAKE_ENTER("cuDeviceGet");
  if (Ordinal < 0 || Ordinal >= state().get("devices"))
    return CUDA_ERROR_INVALID_DEVICE;
  *Device = Ordinal;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetCount(int *Count) {
  FAKE_ENTER("cuDeviceGetCount");
  *Count = static_cast<int>(state().get("devices"));
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetAttribute(int *Value, CUdevice_attribute Attr, CUdevice Device) {
  FAKE_ENTER("cuDeviceGetAttribute");
  State &S = state();
  if (Device < 0 || Device >= S.get("devices"))
    return CUDA_ERROR_INVALID_DEVICE;
  switch (Attr) {
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK:
    *Value = static_cast<int>(S.get("max_threads"));
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X:
    *Value = 0x7fffffff;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    *Value = 65535;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z:
    *Value = 65535;
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK:
    *Value = static_cast<int>(S.get("shared_per_block"));
    break;
  case CU_DEVICE_ATTRIBUTE_WARP_SIZE:
    *Value = static_cast<int>(S.get("warp_size"));
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK:
    *Value = static_cast<int>(S.get("regs_per_block"));
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
    *Value = static_cast<int>(S.get("sm_count"));
    break;
  case CU_DEVICE_ATTRIBUTE_CLOCK_RATE:
    *Value = static_cast<int>(S.get("clock_khz"));
    break;
  case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE:
    *Value = static_cast<int>(S.get("mem_clock_khz"));
    break;
  case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH:
    *Value = static_cast<int>(S.get("mem_bus_width"));
    break;
  case CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE:
    *Value = static_cast<int>(S.get("l2_size"));
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *Value = static_cast<int>(S.get("cc_major"));
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *Value = static_cast<int>(S.get("cc_minor"));
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR:
    *Value = static_cast<int>(S.get("shared_per_sm"));
    break;
  case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN:
    *Value = static_cast<int>(S.get("shared_optin"));
    break;
  default:
    return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetName(char *Name, int Len, CUdevice Device) {
  FAKE_ENTER("cuDeviceGetName");
  if (Device < 0 || Device >= state().get("devices"))
    return CUDA_ERROR_INVALID_DEVICE;
  std::snprintf(Name, Len, "Fake CUDA device %d", Device);
  return CUDA_SUCCESS;
}

// --- Contexts --------------------------------------------------------------

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *Ctx, CUdevice Device) {
  FAKE_ENTER("cuDevicePrimaryCtxRetain");
  State &S = state();
  addPrimaryContexts(S);
  if (Device < 0 || static_cast<size_t>(Device) >= S.Primary.size())
    return CUDA_ERROR_INVALID_DEVICE;
  *Ctx = S.Primary[Device].get();
  (*Ctx)->Retains++;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *Ctx) {
  FAKE_ENTER("cuCtxGetCurrent");
  *Ctx = Current;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext Ctx) {
  FAKE_ENTER("cuCtxSetCurrent");
  Current = Ctx;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice *Device) {
  FAKE_ENTER("cuCtxGetDevice");
  if (!Current)
    return CUDA_ERROR_INVALID_CONTEXT;
  *Device = Current->Device;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSynchronize(void) {
  FAKE_ENTER("cuCtxSynchronize");
  return Current ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

// --- Modules and functions -------------------------------------------------

CUresult CUDAAPI cuModuleLoadData(CUmodule *Module, const void *Image) {
  FAKE_ENTER("cuModuleLoadData");
  return loadModule(Module, Image, nullptr);
}

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *Module, const void *Image, unsigned int NumOptions,
                                    CUjit_option *Options, void **Values) {
  static Counter ThisEntry("cuModuleLoadDataEx");
  ThisEntry.Calls.fetch_add(1, std::memory_order_relaxed);
  std::string Log;
  CUresult R;
  {
    std::lock_guard<std::mutex> Guard(state().Lock);
    R = injected("cuModuleLoadDataEx");
    if (R == CUDA_SUCCESS && !state().Initialized)
      R = CUDA_ERROR_NOT_INITIALIZED;
    else if (R != CUDA_SUCCESS)
      Log = "ptxas fatal   : fakecuda was told to fail this load";
    else
      R = loadModule(Module, Image, &Log);
  }
  if (R == CUDA_SUCCESS)
    return R;
  char *Buffer = nullptr;
  size_t Size = 0;
  for (unsigned I = 0; I < NumOptions; ++I) {
    if (Options[I] == CU_JIT_ERROR_LOG_BUFFER)
      Buffer = static_cast<char *>(Values[I]);
    else if (Options[I] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES)
      Size = reinterpret_cast<size_t>(Values[I]);
  }
  if (Buffer && Size)
    std::snprintf(Buffer, Size, "%s", Log.c_str());
  return R;
}

CUresult CUDAAPI cuModuleUnload(CUmodule Module) {
  FAKE_ENTER("cuModuleUnload");
  auto It = state().Modules.find(Module);
  if (It == state().Modules.end())
    return CUDA_ERROR_INVALID_HANDLE;
  for (auto &F : It->second->Functions)
    state().Functions.erase(F.get());
  state().Modules.erase(It);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *Function, CUmodule Module, const char *Name) {
  FAKE_ENTER("cuModuleGetFunction");
  auto It = state().Modules.find(Module);
  if (It == state().Modules.end())
    return CUDA_ERROR_INVALID_HANDLE;
  for (auto &F : It->second->Functions)
    if (F->Name == Name) {
      *Function = F.get();
      return CUDA_SUCCESS;
    }
  return CUDA_ERROR_NOT_FOUND;
}

CUresult CUDAAPI cuFuncGetAttribute(int *Value, CUfunction_attribute Attr, CUfunction F) {
  FAKE_ENTER("cuFuncGetAttribute");
  if (!validFunction(F))
    return CUDA_ERROR_INVALID_HANDLE;
  auto It = F->Attrs.find(Attr);
  if (It == F->Attrs.end())
    return CUDA_ERROR_INVALID_VALUE;
  *Value = It->second;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncSetAttribute(CUfunction F, CUfunction_attribute Attr, int Value) {
  FAKE_ENTER("cuFuncSetAttribute");
  if (!validFunction(F))
    return CUDA_ERROR_INVALID_HANDLE;
  if (Attr != CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)
    return CUDA_ERROR_INVALID_VALUE;
  if (Value < 0 ||
      Value > state().get("shared_optin") - F->Attrs[CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES])
    return CUDA_ERROR_INVALID_VALUE;
  F->Attrs[Attr] = Value;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncSetCacheConfig(CUfunction F, CUfunc_cache Config) {
  FAKE_ENTER("cuFuncSetCacheConfig");
  if (!validFunction(F))
    return CUDA_ERROR_INVALID_HANDLE;
  F->CacheConfig = Config;
  return CUDA_SUCCESS;
}

namespace {
/// What cuLaunchKernel and cuLaunchKernelEx share: the checks and the log.
CUresult launchKernel(CUfunction F, unsigned GridX, unsigned GridY, unsigned GridZ,
                      unsigned BlockX, unsigned BlockY, unsigned BlockZ, unsigned Shared,
                      CUstream Stream, void **Params, void **Extra, LaunchRecord R) {
  State &S = state();
  if (!Current)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (!validFunction(F))
    return CUDA_ERROR_INVALID_HANDLE;
  if (F->Module->Context != Current)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (GridX == 0 || GridY == 0 || GridZ == 0 || GridX > 0x7fffffffu || GridY > 65535 ||
      GridZ > 65535)
    return CUDA_ERROR_INVALID_VALUE;
  unsigned long long Threads = 1ull * BlockX * BlockY * BlockZ;
  if (Threads == 0 ||
      Threads > static_cast<unsigned>(F->Attrs[CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK]))
    return CUDA_ERROR_INVALID_VALUE;
  if (static_cast<int>(Shared) > F->Attrs[CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES])
    return CUDA_ERROR_INVALID_VALUE;
  if (Extra || (!Params && !F->ParamSizes.empty()))
    return CUDA_ERROR_INVALID_VALUE;
  S.ClockNs += S.LaunchNs;
  if (!S.Record)
    return CUDA_SUCCESS;
  R.Kernel = F->Name;
  R.Grid[0] = GridX, R.Grid[1] = GridY, R.Grid[2] = GridZ;
  R.Block[0] = BlockX, R.Block[1] = BlockY, R.Block[2] = BlockZ;
  R.Shared = Shared;
  R.Stream = reinterpret_cast<unsigned long long>(Stream);
  R.Device = Current->Device;
  for (size_t I = 0; I < F->ParamSizes.size(); ++I)
    R.Params.push_back(hex(Params[I], F->ParamSizes[I]));
  S.Launches.push_back(std::move(R));
  return CUDA_SUCCESS;
}
} // namespace

CUresult CUDAAPI cuLaunchKernel(CUfunction F, unsigned int GridX, unsigned int GridY,
                                unsigned int GridZ, unsigned int BlockX, unsigned int BlockY,
                                unsigned int BlockZ, unsigned int Shared, CUstream Stream,
                                void **Params, void **Extra) {
  FAKE_ENTER("cuLaunchKernel");
  return launchKernel(F, GridX, GridY, GridZ, BlockX, BlockY, BlockZ, Shared, Stream, Params,
                      Extra, LaunchRecord());
}

/// Accepts the attributes Tritium passes (cooperative, programmatic stream
/// serialization, an int each) and logs them with the launch; a cooperative
/// grid larger than cooperative_blocks_per_sm * sm_count fails as the real
/// driver's does when its programs cannot all be resident.
CUresult CUDAAPI cuLaunchKernelEx(const CUlaunchConfig *Config, CUfunction F, void **Params,
                                  void **Extra) {
  FAKE_ENTER("cuLaunchKernelEx");
  if (!Config || (Config->numAttrs && !Config->attrs))
    return CUDA_ERROR_INVALID_VALUE;
  LaunchRecord R;
  R.Ex = true;
  for (unsigned I = 0; I < Config->numAttrs; ++I) {
    const CUlaunchAttribute &A = Config->attrs[I];
    int Value;
    if (A.id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE)
      Value = A.value.cooperative;
    else if (A.id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
      Value = A.value.programmaticStreamSerializationAllowed;
    else
      return CUDA_ERROR_INVALID_VALUE; // not one Tritium sets
    R.Attrs.emplace_back(static_cast<int>(A.id), Value);
    if (A.id == CU_LAUNCH_ATTRIBUTE_COOPERATIVE && Value &&
        1ull * Config->gridDimX * Config->gridDimY * Config->gridDimZ >
            static_cast<unsigned long long>(state().get("cooperative_blocks_per_sm") *
                                            state().get("sm_count")))
      return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
  }
  return launchKernel(F, Config->gridDimX, Config->gridDimY, Config->gridDimZ, Config->blockDimX,
                      Config->blockDimY, Config->blockDimZ, Config->sharedMemBytes,
                      Config->hStream, Params, Extra, std::move(R));
}

// --- Memory ------------------------------------------------------------------

CUresult CUDAAPI cuPointerGetAttribute(void *Data, CUpointer_attribute Attr, CUdeviceptr Ptr) {
  FAKE_ENTER("cuPointerGetAttribute");
  if (Attr != CU_POINTER_ATTRIBUTE_DEVICE_POINTER)
    return CUDA_ERROR_INVALID_VALUE;
  if (Ptr < static_cast<CUdeviceptr>(state().get("host_below")))
    return CUDA_ERROR_INVALID_VALUE;
  *static_cast<CUdeviceptr *>(Data) = Ptr;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemAlloc(CUdeviceptr *Ptr, size_t Bytes) {
  FAKE_ENTER("cuMemAlloc");
  if (!Current)
    return CUDA_ERROR_INVALID_CONTEXT;
  if (Bytes == 0)
    return CUDA_ERROR_INVALID_VALUE;
  void *P = std::calloc(1, Bytes); // untouched pages cost nothing
  if (!P)
    return CUDA_ERROR_OUT_OF_MEMORY;
  *Ptr = reinterpret_cast<CUdeviceptr>(P);
  state().Allocations[*Ptr] = Bytes;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemFree(CUdeviceptr Ptr) {
  FAKE_ENTER("cuMemFree");
  if (!state().Allocations.erase(Ptr))
    return CUDA_ERROR_INVALID_VALUE;
  std::free(reinterpret_cast<void *>(Ptr));
  return CUDA_SUCCESS;
}

static bool inAllocation(CUdeviceptr Ptr, size_t Bytes) {
  auto &A = state().Allocations;
  auto It = A.upper_bound(Ptr);
  if (It == A.begin())
    return false;
  --It;
  return Ptr + Bytes <= It->first + It->second;
}

CUresult CUDAAPI cuMemcpyHtoD(CUdeviceptr Dst, const void *Src, size_t Bytes) {
  FAKE_ENTER("cuMemcpyHtoD");
  if (!inAllocation(Dst, Bytes))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(reinterpret_cast<void *>(Dst), Src, Bytes);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyDtoH(void *Dst, CUdeviceptr Src, size_t Bytes) {
  FAKE_ENTER("cuMemcpyDtoH");
  if (!inAllocation(Src, Bytes))
    return CUDA_ERROR_INVALID_VALUE;
  std::memcpy(Dst, reinterpret_cast<const void *>(Src), Bytes);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemsetD8Async(CUdeviceptr Dst, unsigned char Value, size_t Bytes,
                                 CUstream Stream) {
  FAKE_ENTER("cuMemsetD8Async");
  if (!inAllocation(Dst, Bytes))
    return CUDA_ERROR_INVALID_VALUE;
  // Large fills (the benchmark's cache flush) are only counted: touching
  // 256 MB per repetition would make the tests slow.
  if (Bytes <= (1u << 20))
    std::memset(reinterpret_cast<void *>(Dst), Value, Bytes);
  state().ClockNs += state().get("memset_ns");
  return CUDA_SUCCESS;
}

// --- Tensor maps ---------------------------------------------------------------

/// Checks the arguments as cuTensorMapEncodeTiled documents them (for the
/// kinds Tritium passes: no interleave, 1- to 4-byte elements).
CUresult CUDAAPI cuTensorMapEncodeTiled(
    CUtensorMap *Map, CUtensorMapDataType DataType, cuuint32_t Rank, void *Address,
    const cuuint64_t *Dims, const cuuint64_t *Strides, const cuuint32_t *Box,
    const cuuint32_t *ElementStrides, CUtensorMapInterleave Interleave, CUtensorMapSwizzle Swizzle,
    CUtensorMapL2promotion L2Promotion, CUtensorMapFloatOOBfill OOBFill) {
  FAKE_ENTER("cuTensorMapEncodeTiled");
  static const std::map<int, unsigned> Sizes = {
      {CU_TENSOR_MAP_DATA_TYPE_UINT8, 1},   {CU_TENSOR_MAP_DATA_TYPE_UINT16, 2},
      {CU_TENSOR_MAP_DATA_TYPE_UINT32, 4},  {CU_TENSOR_MAP_DATA_TYPE_INT32, 4},
      {CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2}, {CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4},
      {CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2}};
  auto Size = Sizes.find(DataType);
  const auto Addr = reinterpret_cast<unsigned long long>(Address);
  if (!Map || reinterpret_cast<uintptr_t>(Map) % 64 || Size == Sizes.end() || Rank < 1 ||
      Rank > 5 || Addr % 16 || Interleave != CU_TENSOR_MAP_INTERLEAVE_NONE)
    return CUDA_ERROR_INVALID_VALUE;
  for (unsigned D = 0; D < Rank; ++D) {
    if (Dims[D] == 0 || Dims[D] > (1ull << 32) || Box[D] == 0 || Box[D] > 256 ||
        ElementStrides[D] == 0 || ElementStrides[D] > 8)
      return CUDA_ERROR_INVALID_VALUE;
    if (D + 1 < Rank && (Strides[D] % 16 || Strides[D] >= (1ull << 40)))
      return CUDA_ERROR_INVALID_VALUE;
  }
  unsigned InnerBytes = Box[0] * Size->second;
  if (InnerBytes % 16 || (Swizzle == CU_TENSOR_MAP_SWIZZLE_128B && InnerBytes > 128))
    return CUDA_ERROR_INVALID_VALUE;
  State &S = state();
  std::memset(Map, 0, sizeof(*Map));
  std::memcpy(Map, "FAKETMAP", 8);
  unsigned long long Serial = S.Encodes.size() + 1;
  std::memcpy(reinterpret_cast<char *>(Map) + 8, &Serial, 8);
  std::memcpy(reinterpret_cast<char *>(Map) + 16, &Addr, 8);
  EncodeRecord R{
      DataType, static_cast<int>(Rank), Interleave, Swizzle, L2Promotion, OOBFill, Addr, {}, {}, {},
      {},       hex(Map, 128)};
  R.Dims.assign(Dims, Dims + Rank);
  R.Strides.assign(Strides, Strides + Rank - 1);
  R.Box.assign(Box, Box + Rank);
  R.ElementStrides.assign(ElementStrides, ElementStrides + Rank);
  S.Encodes.push_back(std::move(R));
  return CUDA_SUCCESS;
}

// --- Streams and events ------------------------------------------------------

CUresult CUDAAPI cuStreamSynchronize(CUstream Stream) {
  FAKE_ENTER("cuStreamSynchronize");
  return Current ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT;
}

CUresult CUDAAPI cuEventCreate(CUevent *Event, unsigned int Flags) {
  FAKE_ENTER("cuEventCreate");
  *Event = new CUevent_st();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventRecord(CUevent Event, CUstream Stream) {
  FAKE_ENTER("cuEventRecord");
  Event->Recorded = true;
  Event->TimeNs = state().ClockNs;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventSynchronize(CUevent Event) {
  FAKE_ENTER("cuEventSynchronize");
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventElapsedTime(float *Ms, CUevent Start, CUevent End) {
  FAKE_ENTER("cuEventElapsedTime");
  if (!Start->Recorded || !End->Recorded)
    return CUDA_ERROR_INVALID_HANDLE;
  *Ms = static_cast<float>((End->TimeNs - Start->TimeNs) / 1e6);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventDestroy(CUevent Event) {
  FAKE_ENTER("cuEventDestroy");
  delete Event;
  return CUDA_SUCCESS;
}

// --- The tests' side -----------------------------------------------------------

/// Sets one of the settings above (devices, cc_major, shared_optin, ...).
void fakecuda_set(const char *Key, long long Value) {
  std::lock_guard<std::mutex> Guard(state().Lock);
  state().Settings[Key] = Value;
  state().refresh();
}

/// Makes the next call of \p Symbol (e.g. "cuLaunchKernel") return \p Code.
void fakecuda_inject(const char *Symbol, int Code) {
  std::lock_guard<std::mutex> Guard(state().Lock);
  state().Injected[Symbol].push_back(Code);
}

/// Forgets launches, call counts, injected errors and settings (loaded
/// modules and contexts stay).
void fakecuda_reset(void) {
  std::lock_guard<std::mutex> Guard(state().Lock);
  State &S = state();
  S.Launches.clear();
  S.Encodes.clear();
  S.Injected.clear();
  S.setDefaults();
  std::lock_guard<std::mutex> Registry(Counter::registryLock());
  for (Counter *C : Counter::registry())
    C->Calls = 0;
}

/// How often \p Symbol was called since the last reset.
int fakecuda_calls(const char *Symbol) {
  std::lock_guard<std::mutex> Registry(Counter::registryLock());
  for (Counter *C : Counter::registry())
    if (std::strcmp(C->Symbol, Symbol) == 0)
      return C->Calls;
  return 0;
}

int fakecuda_launch_count(void) {
  std::lock_guard<std::mutex> Guard(state().Lock);
  return static_cast<int>(state().Launches.size());
}

/// Launch \p I as JSON ({"kernel", "grid", "block", "shared", "stream",
/// "device", "api", "attributes": [[id, value], ...], "params": [hex, ...]})
/// into \p Buffer; returns the length the
/// whole text needs (call again with a larger buffer when it is >= \p Size),
/// or -1 when there is no launch \p I.
int fakecuda_launch_record(int I, char *Buffer, int Size) {
  std::lock_guard<std::mutex> Guard(state().Lock);
  State &S = state();
  if (I < 0 || static_cast<size_t>(I) >= S.Launches.size())
    return -1;
  const LaunchRecord &R = S.Launches[I];
  std::string J = "{\"kernel\": \"" + R.Kernel + "\", \"grid\": [" + std::to_string(R.Grid[0]) +
                  ", " + std::to_string(R.Grid[1]) + ", " + std::to_string(R.Grid[2]) +
                  "], \"block\": [" + std::to_string(R.Block[0]) + ", " +
                  std::to_string(R.Block[1]) + ", " + std::to_string(R.Block[2]) +
                  "], \"shared\": " + std::to_string(R.Shared) +
                  ", \"stream\": " + std::to_string(R.Stream) +
                  ", \"device\": " + std::to_string(R.Device) +
                  ", \"api\": " + (R.Ex ? "\"cuLaunchKernelEx\"" : "\"cuLaunchKernel\"") +
                  ", \"attributes\": [";
  for (size_t A = 0; A < R.Attrs.size(); ++A)
    J += (A ? ", [" : "[") + std::to_string(R.Attrs[A].first) + ", " +
         std::to_string(R.Attrs[A].second) + "]";
  J += "], \"params\": [";
  for (size_t P = 0; P < R.Params.size(); ++P)
    J += (P ? ", \"" : "\"") + R.Params[P] + "\"";
  J += "]}";
  if (Buffer && Size > 0)
    std::snprintf(Buffer, Size, "%s", J.c_str());
  return static_cast<int>(J.size());
}

/// Successful tensor map encode \p I as JSON ({"data_type", "rank",
/// "address", "dims", "strides", "box", "element_strides", "interleave",
/// "swizzle", "l2_promotion", "oob_fill", "map": hex}), as
/// fakecuda_launch_record returns a launch.
int fakecuda_encode_record(int I, char *Buffer, int Size) {
  std::lock_guard<std::mutex> Guard(state().Lock);
  State &S = state();
  if (I < 0 || static_cast<size_t>(I) >= S.Encodes.size())
    return -1;
  const EncodeRecord &R = S.Encodes[I];
  std::string J =
      "{\"data_type\": " + std::to_string(R.DataType) + ", \"rank\": " + std::to_string(R.Rank) +
      ", \"address\": " + std::to_string(R.Address) + ", \"dims\": " + jsonList(R.Dims) +
      ", \"strides\": " + jsonList(R.Strides) + ", \"box\": " + jsonList(R.Box) +
      ", \"element_strides\": " + jsonList(R.ElementStrides) +
      ", \"interleave\": " + std::to_string(R.Interleave) +
      ", \"swizzle\": " + std::to_string(R.Swizzle) +
      ", \"l2_promotion\": " + std::to_string(R.L2Promotion) +
      ", \"oob_fill\": " + std::to_string(R.OOBFill) + ", \"map\": \"" + R.Map + "\"}";
  if (Buffer && Size > 0)
    std::snprintf(Buffer, Size, "%s", J.c_str());
  return static_cast<int>(J.size());
}

int fakecuda_encode_count(void) {
  std::lock_guard<std::mutex> Guard(state().Lock);
  return static_cast<int>(state().Encodes.size());
}

/// Attribute \p Attr (a CUfunction_attribute) of the most recently loaded
/// kernel named \p Name, or -1 when none is loaded.
long long fakecuda_function_attribute(const char *Name, int Attr) {
  std::lock_guard<std::mutex> Guard(state().Lock);
  long long Value = -1;
  unsigned long Newest = 0;
  for (auto &KV : state().Modules)
    for (auto &F : KV.second->Functions)
      if (F->Name == Name && KV.second->Serial > Newest) {
        auto It = F->Attrs.find(Attr);
        Value = It == F->Attrs.end() ? -1 : It->second;
        Newest = KV.second->Serial;
      }
  return Value;
}

/// Modules currently loaded.
int fakecuda_loaded_modules(void) {
  std::lock_guard<std::mutex> Guard(state().Lock);
  return static_cast<int>(state().Modules.size());
}

} // extern "C"
