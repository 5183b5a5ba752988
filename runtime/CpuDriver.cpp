//===- CpuDriver.cpp - Kernels of the cpu target on the host's threads ----===//

#include "runtime/CpuDriver.h"

#include "codegen/cpu/CPUTargetInfo.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/Host.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"

#include <atomic>
#include <chrono>
#include <csetjmp>
#include <csignal>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

using namespace tritium;
using namespace tritium::cpu;

namespace {

/// What the running program of this thread asks for (CPUTargetInfo.h).
struct ProgramState {
  uint32_t Id[3] = {0, 0, 0};
  uint32_t Grid[3] = {1, 1, 1};
  void *Arena = nullptr;
  size_t ArenaBytes = 0;
};
thread_local ProgramState Program;

/// The first failed assert of the launch in flight (one launch at a time).
std::mutex AssertLock;
std::string AssertMessage;

extern "C" uint32_t __tritium_cpu_program_id(uint32_t Axis) { return Program.Id[Axis]; }
extern "C" uint32_t __tritium_cpu_num_programs(uint32_t Axis) { return Program.Grid[Axis]; }
extern "C" void *__tritium_cpu_shared() { return Program.Arena; }
extern "C" void __tritium_cpu_assert_fail(const char *Message, const char *File, uint32_t Line,
                                          const char *Func) {
  std::lock_guard<std::mutex> G(AssertLock);
  if (AssertMessage.empty())
    AssertMessage = std::string(File) + ":" + std::to_string(Line) + ": " + Func +
                    ": Assertion `" + Message + "` failed.";
}

/// A kernel's memory fault (SIGSEGV, SIGBUS) ends its thread's programs instead of the process,
/// as a GPU reports an illegal address: drain arms FaultJump around its programs; the handler
/// jumps back there, taking the program and the address, and passes other faults on to the
/// handler it replaced (Python's faulthandler, or the default action).
thread_local sigjmp_buf *FaultJump = nullptr;
struct Fault {
  uint32_t Program[3];
  void *Address;
};
std::mutex FaultLock;
std::optional<Fault> LaunchFault; // the first of the launch in flight
struct sigaction Previous[2];     // SIGSEGV's and SIGBUS's

void onFault(int Signal, siginfo_t *Info, void *Context) {
  if (sigjmp_buf *Jump = FaultJump) {
    FaultJump = nullptr;
    if (std::unique_lock<std::mutex> G(FaultLock, std::try_to_lock); G && !LaunchFault)
      LaunchFault = Fault{{Program.Id[0], Program.Id[1], Program.Id[2]}, Info->si_addr};
    siglongjmp(*Jump, 1);
  }
  const struct sigaction &Old = Previous[Signal == SIGBUS];
  if (Old.sa_flags & SA_SIGINFO)
    return Old.sa_sigaction(Signal, Info, Context);
  if (Old.sa_handler != SIG_DFL && Old.sa_handler != SIG_IGN)
    return Old.sa_handler(Signal);
  std::signal(Signal, SIG_DFL); // the faulting instruction runs again and ends the process
}

/// Puts onFault in front of SIGSEGV's and SIGBUS's handlers, again if another took its place.
void catchFaults() {
  int Signals[2] = {SIGSEGV, SIGBUS};
  for (int K = 0; K < 2; ++K) {
    struct sigaction Now {};
    sigaction(Signals[K], nullptr, &Now);
    if ((Now.sa_flags & SA_SIGINFO) && Now.sa_sigaction == onFault)
      continue;
    struct sigaction Ours {};
    Ours.sa_sigaction = onFault;
    Ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&Ours.sa_mask);
    sigaction(Signals[K], &Ours, &Previous[K]);
  }
}

gpu::DriverError error(const std::string &Description, const std::string &Action) {
  return gpu::DriverError("CPU", 1, "", Description, Action);
}

/// Runs Body(i) for i in [0, N) on Count threads (the caller among them).
class ThreadPool {
public:
  explicit ThreadPool(unsigned Count) {
    for (unsigned I = 1; I < Count; ++I)
      Workers.emplace_back([this] { work(); });
  }
  ~ThreadPool() {
    {
      std::lock_guard<std::mutex> G(Lock);
      Stop = true;
    }
    Wake.notify_all();
    for (std::thread &T : Workers)
      T.join();
  }
  unsigned size() const { return unsigned(Workers.size()) + 1; }

  void run(uint64_t N, const std::function<void(uint64_t)> &Body) {
    std::lock_guard<std::mutex> One(Launch); // one grid at a time
    if (N <= 1 || Workers.empty()) {
      Next = 0;
      drain(Body, N);
      return;
    }
    {
      std::lock_guard<std::mutex> G(Lock);
      Job = &Body;
      Total = N;
      Next = 0;
      Busy = unsigned(Workers.size());
      ++Generation;
    }
    Wake.notify_all();
    drain(Body, N);
    std::unique_lock<std::mutex> G(Lock);
    Done.wait(G, [this] { return Busy == 0; });
    Job = nullptr;
  }

private:
  /// Runs programs of the grid of \p N until none is left, taking them in
  /// chunks (one atomic a program, which the threads' cores pass back and
  /// forth, cost a tenth of a 4096-row softmax) that shrink as the grid
  /// empties: a quarter of what is left a thread, at least a 64th of its
  /// share, so that the threads finish together (fixed chunks of a 16th
  /// left one thread idle for up to a chunk at the end). A memory fault in
  /// a program (onFault) jumps back here and takes every program left.
  void drain(const std::function<void(uint64_t)> &Body, uint64_t N) {
    uint64_t Least = std::max<uint64_t>(1, N / (64 * size()));
    auto Chunk = [&] {
      uint64_t Taken = Next.load(std::memory_order_relaxed);
      return std::max(Least, (N - std::min(N, Taken)) / (4 * size()));
    };
    sigjmp_buf Jump;
    if (sigsetjmp(Jump, /*savesigs=*/0)) {
      Next = N;
      return;
    }
    FaultJump = &Jump;
    for (uint64_t C = Chunk(), I = Next.fetch_add(C); I < N; C = Chunk(), I = Next.fetch_add(C))
      for (uint64_t End = std::min(N, I + C); I < End; ++I)
        Body(I);
    FaultJump = nullptr;
  }
  void work() {
    uint64_t Seen = 0;
    for (;;) {
      const std::function<void(uint64_t)> *Body;
      uint64_t N;
      {
        // Spin a little before sleeping: a loop of launches (a benchmark, a
        // training step) gives the next grid within microseconds, and a
        // sleeping thread takes tens of them to wake.
        auto Until = std::chrono::steady_clock::now() + std::chrono::microseconds(200);
        while (Generation.load(std::memory_order_acquire) == Seen &&
               std::chrono::steady_clock::now() < Until)
          std::this_thread::yield();
        std::unique_lock<std::mutex> G(Lock);
        Wake.wait(G, [&] { return Stop || Generation != Seen; });
        if (Stop)
          return;
        Seen = Generation;
        Body = Job;
        N = Total;
      }
      drain(*Body, N);
      std::lock_guard<std::mutex> G(Lock);
      if (--Busy == 0)
        Done.notify_one();
    }
  }

  std::vector<std::thread> Workers;
  std::mutex Lock, Launch;
  std::condition_variable Wake, Done;
  const std::function<void(uint64_t)> *Job = nullptr;
  uint64_t Total = 0;
  std::atomic<uint64_t> Next{0};
  // Bumped under Lock for each grid; read without it by a spinning thread.
  std::atomic<uint64_t> Generation{0};
  unsigned Busy = 0;
  bool Stop = false;
};

unsigned threadCount() {
  unsigned N = std::max(1u, std::thread::hardware_concurrency());
  if (const char *E = std::getenv("TRITIUM_CPU_THREADS"))
    if (unsigned Want = unsigned(std::strtoul(E, nullptr, 10)))
      N = Want;
  return N;
}

using Entry = void (*)(void **);

} // namespace

struct Driver::Impl {
  std::mutex Lock; // the JIT's libraries
  std::unique_ptr<llvm::orc::LLJIT> JIT;
  std::string Error; // why the JIT could not be made
  unsigned NextLibrary = 0;
  ThreadPool Pool{threadCount()};
};

Driver &Driver::get() {
  static Driver *D = new Driver(); // never destroyed: launchers may outlive statics
  return *D;
}

Driver::Driver() : P(std::make_unique<Impl>()) {
  // glibc's vector math, which the cpu target's kernels call (CPUBackend.cpp).
  llvm::sys::DynamicLibrary::LoadLibraryPermanently("libmvec.so.1");
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  // JITLink, not LLVM 16's default RuntimeDyld, which maps an object's
  // sections apart and reaches its stubs' GOT with 32-bit displacements: in
  // a long-lived process (Triton's tests on the cpu target: hundreds of
  // kernels, some large) a kernel crashed jumping through a stub whose GOT
  // slot was unmapped. JITLink allocates each object, its GOT and stubs in
  // one slab (the process's in-process memory manager).
  auto J = llvm::orc::LLJITBuilder()
               .setObjectLinkingLayerCreator([](llvm::orc::ExecutionSession &ES,
                                                const llvm::Triple &) {
                 return std::make_unique<llvm::orc::ObjectLinkingLayer>(ES);
               })
               .create();
  if (J)
    P->JIT = std::move(*J);
  else
    P->Error = llvm::toString(J.takeError());
}

Driver::~Driver() = default;

const std::string &Driver::path() const {
  static const std::string None;
  return None;
}

bool Driver::load(std::string *Why) {
  if (P->JIT)
    return true;
  if (Why)
    *Why = "LLVM's JIT cannot run on this host: " + P->Error;
  return false;
}

void Driver::setCurrentDevice(int Device) {
  if (Device != 0)
    throw error("the cpu has one device, 0; got " + std::to_string(Device), "");
}

std::string Driver::hostProcessor() { return llvm::sys::getHostCPUName().str(); }

unsigned Driver::numThreads() const { return P->Pool.size(); }

gpu::LoadedKernel Driver::loadKernel(const gpu::KernelImage &Img, int Device) {
  std::string Action = "loading kernel '" + Img.Name + "'";
  if (!P->JIT)
    throw error("LLVM's JIT cannot run on this host: " + P->Error, Action);
  setCurrentDevice(Device);
  // An object of another processor family (cpu:<an AArch64 name> compiled
  // here) is for that machine, not this process.
  llvm::Triple Host(llvm::sys::getProcessTriple());
  auto Obj = llvm::object::ObjectFile::createObjectFile(llvm::MemoryBufferRef(Img.Image, Img.Name));
  if (!Obj)
    llvm::consumeError(Obj.takeError()); // addObjectFile says what is wrong with it
  else if ((*Obj)->getArch() != Host.getArch())
    throw error("the kernel was compiled for " +
                    llvm::Triple::getArchTypeName((*Obj)->getArch()).str() + ", not this " +
                    llvm::Triple::getArchTypeName(Host.getArch()).str() + " host",
                Action);
  std::lock_guard<std::mutex> G(P->Lock);
  llvm::orc::LLJIT &J = *P->JIT;
  auto Lib = J.getExecutionSession().createJITDylib("kernel" + std::to_string(P->NextLibrary++));
  if (!Lib)
    throw error(llvm::toString(Lib.takeError()), Action);
  llvm::orc::JITDylib &JD = *Lib;
  // The C library's functions (printf, math) from the process; the
  // runtime's own as they are here.
  auto Process = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(
      J.getDataLayout().getGlobalPrefix());
  if (!Process)
    throw error(llvm::toString(Process.takeError()), Action);
  JD.addGenerator(std::move(*Process));
  llvm::orc::SymbolMap Runtime;
  auto Define = [&](const char *Name, auto *Fn) {
    Runtime[J.mangleAndIntern(Name)] = llvm::JITEvaluatedSymbol(
        llvm::pointerToJITTargetAddress(Fn), llvm::JITSymbolFlags::Exported);
  };
  Define(CPUProgramId, &__tritium_cpu_program_id);
  Define(CPUNumPrograms, &__tritium_cpu_num_programs);
  Define(CPUShared, &__tritium_cpu_shared);
  Define(CPUAssertFail, &__tritium_cpu_assert_fail);
  auto Fail = [&](llvm::Error E) {
    std::string Why = llvm::toString(std::move(E));
    llvm::consumeError(J.getExecutionSession().removeJITDylib(JD));
    throw error(Why, Action);
  };
  if (llvm::Error E = JD.define(llvm::orc::absoluteSymbols(std::move(Runtime))))
    Fail(std::move(E));
  if (llvm::Error E = J.addObjectFile(JD, llvm::MemoryBuffer::getMemBufferCopy(Img.Image)))
    Fail(std::move(E));
  auto Addr = J.lookup(JD, Img.Name);
  if (!Addr)
    Fail(Addr.takeError());
  gpu::LoadedKernel K;
  K.Name = Img.Name;
  K.Module = &JD;
  K.Function = Addr->toPtr<void *>();
  K.SharedBytes = Img.SharedBytes;
  K.NumThreads = 1;
  K.MaxThreads = 1;
  K.Flags = Img.Flags;
  return K;
}

void Driver::unload(const gpu::LoadedKernel &K) noexcept {
  if (!K.Module || !P->JIT)
    return;
  std::lock_guard<std::mutex> G(P->Lock);
  llvm::consumeError(
      P->JIT->getExecutionSession().removeJITDylib(*static_cast<llvm::orc::JITDylib *>(K.Module)));
}

void Driver::launch(const gpu::LoadedKernel &K, unsigned GridX, unsigned GridY, unsigned GridZ,
                    gpu::Stream, void **Params) {
  auto Fn = reinterpret_cast<Entry>(K.Function);
  uint64_t XY = uint64_t(GridX) * GridY;
  size_t Arena = K.SharedBytes;
  {
    std::lock_guard<std::mutex> G(AssertLock);
    AssertMessage.clear();
  }
  catchFaults();
  LaunchFault.reset();
  P->Pool.run(XY * GridZ, [&](uint64_t Linear) {
    ProgramState &S = Program;
    if (S.ArenaBytes < Arena) {
      std::free(S.Arena);
      S.ArenaBytes = (Arena + 63) / 64 * 64;
      S.Arena = std::aligned_alloc(64, S.ArenaBytes);
    }
    S.Grid[0] = GridX, S.Grid[1] = GridY, S.Grid[2] = GridZ;
    S.Id[0] = uint32_t(Linear % GridX);
    S.Id[1] = uint32_t(Linear / GridX % GridY);
    S.Id[2] = uint32_t(Linear / XY);
    Fn(Params);
  });
  if (LaunchFault) {
    char Where[96];
    std::snprintf(Where, sizeof(Where), "address %p in program (%u, %u, %u)", LaunchFault->Address,
                  LaunchFault->Program[0], LaunchFault->Program[1], LaunchFault->Program[2]);
    throw error(std::string("an illegal memory access was encountered (") + Where +
                    "): the kernel read or wrote outside its arrays (mask the access, or run "
                    "with TRITIUM_BOUNDS_CHECK=1 or the interpreter to see which)",
                "running kernel '" + K.Name + "'");
  }
  std::lock_guard<std::mutex> G(AssertLock);
  if (!AssertMessage.empty())
    throw error("device-side assertion failed: " + AssertMessage,
                "running kernel '" + K.Name + "'");
}

gpu::DevicePtr Driver::memAlloc(size_t Bytes, int) {
  void *Ptr = std::aligned_alloc(256, std::max<size_t>(256, (Bytes + 255) / 256 * 256));
  if (!Ptr)
    throw error("out of memory", "allocating " + std::to_string(Bytes) + " bytes");
  return reinterpret_cast<gpu::DevicePtr>(Ptr);
}

void Driver::memFree(gpu::DevicePtr Ptr) { std::free(reinterpret_cast<void *>(Ptr)); }

void Driver::memcpyHtoD(gpu::DevicePtr Dst, const void *Src, size_t Bytes) {
  std::memcpy(reinterpret_cast<void *>(Dst), Src, Bytes);
}

void Driver::memcpyDtoH(void *Dst, gpu::DevicePtr Src, size_t Bytes) {
  std::memcpy(Dst, reinterpret_cast<const void *>(Src), Bytes);
}

void Driver::memsetD8Async(gpu::DevicePtr Dst, unsigned char Value, size_t Bytes, gpu::Stream) {
  std::memset(reinterpret_cast<void *>(Dst), Value, Bytes);
}

// Launches return when their grid is done: an event is the time it is recorded.
using Clock = std::chrono::steady_clock;

void *Driver::eventCreate() { return new Clock::time_point(); }

void Driver::eventRecord(void *Event, gpu::Stream) {
  *static_cast<Clock::time_point *>(Event) = Clock::now();
}

float Driver::eventElapsed(void *Start, void *End) {
  std::chrono::duration<float, std::milli> D =
      *static_cast<Clock::time_point *>(End) - *static_cast<Clock::time_point *>(Start);
  return D.count();
}

void Driver::eventDestroy(void *Event) noexcept { delete static_cast<Clock::time_point *>(Event); }
