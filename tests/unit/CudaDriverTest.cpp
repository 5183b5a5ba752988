//===- CudaDriverTest.cpp - runtime/CudaDriver against the fake libcuda ---===//
//
// The build passes the fake driver's path (tests/fakecuda) when it builds
// one; without it these cases are left out.
//
//===----------------------------------------------------------------------===//

#include "runtime/CudaDriver.h"

#include <doctest/doctest.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstring>
#include <string>

using namespace tritium::cuda;

TEST_CASE("CudaDriver: a missing library is reported, not fatal") {
  Driver &D = Driver::get("/nonexistent/libcuda.so.1");
  std::string Why;
  CHECK_FALSE(D.load(&Why));
  CHECK(Why.find("cannot load the CUDA driver /nonexistent/libcuda.so.1") == 0);
  CHECK(D.deviceCount() == 0);
  try {
    D.driverVersion();
    FAIL("expected a CudaError");
  } catch (const CudaError &E) {
    CHECK(E.code() == -1);
    CHECK(E.name().empty());
    CHECK(std::string(E.what()).find("cannot load") != std::string::npos);
  }
}

TEST_CASE("CudaDriver: no tensor maps without a driver") {
  Driver &D = Driver::get("/nonexistent/libcuda.so.1");
  CHECK_FALSE(D.hasTensorMaps(0));
  tritium::gpu::TensorMap M;
  CHECK_FALSE(D.encodeTensorMap(tritium::gpu::TensorMapSpec(), M));
}

#ifdef TRITIUM_FAKECUDA_PATH

namespace {

const char *PTX = R"(.version 8.0
.target sm_90
.address_size 64
// fakecuda: regs=24 local=8
.visible .entry k(
	.param .u64 k_param_0,
	.param .u32 k_param_1
)
{
	ret;
}
)";

Driver &fake() { return Driver::get(TRITIUM_FAKECUDA_PATH); }

/// fakecuda_inject from the same loaded library.
void inject(const char *Symbol, int Code) {
  void *H = dlopen(TRITIUM_FAKECUDA_PATH, RTLD_NOW | RTLD_LOCAL);
  REQUIRE(H != nullptr);
  auto *Inject = reinterpret_cast<void (*)(const char *, int)>(dlsym(H, "fakecuda_inject"));
  REQUIRE(static_cast<bool>(Inject));
  Inject(Symbol, Code);
  dlclose(H);
}

KernelImage image(const char *Name, unsigned Shared = 0, unsigned Threads = 128) {
  KernelImage Img;
  Img.Name = Name;
  Img.Image = PTX;
  Img.SharedBytes = Shared;
  Img.NumThreads = Threads;
  return Img;
}

} // namespace

TEST_CASE("CudaDriver: the fake's device") {
  Driver &D = fake();
  REQUIRE(D.load());
  CHECK(D.deviceCount() == 1);
  CHECK(D.deviceAttribute(DevComputeCapabilityMajor, 0) == 9);
  CHECK(D.deviceName(0) == "Fake CUDA device 0");
  CHECK(D.driverVersion() == 13000);
  CHECK_THROWS_AS(D.deviceAttribute(DevWarpSize, 3), CudaError);
}

TEST_CASE("CudaDriver: load, launch, unload") {
  Driver &D = fake();
  LoadedKernel K = D.loadKernel(image("k"), 0);
  CHECK(K.NumRegs == 24);
  CHECK(K.NumSpills == 2);
  CHECK(K.MaxThreads == 1024);
  CHECK(D.currentDevice() == 0);
  uint64_t Ptr = 0x7f0000000000;
  uint32_t N = 5;
  void *Params[] = {&Ptr, &N};
  D.launch(K, 2, 1, 1, nullptr, Params);
  inject("cuLaunchKernel", 700);
  try {
    D.launch(K, 2, 1, 1, nullptr, Params);
    FAIL("expected a CudaError");
  } catch (const CudaError &E) {
    CHECK(E.name() == "CUDA_ERROR_ILLEGAL_ADDRESS");
    CHECK(E.description() == "an illegal memory access was encountered");
    CHECK(E.action().find("launching kernel 'k' on grid (2, 1, 1)") == 0);
  }
  D.unload(K);
}

TEST_CASE("CudaDriver: load errors name the kernel") {
  Driver &D = fake();
  try {
    D.loadKernel(image("missing"), 0);
    FAIL("expected a CudaError");
  } catch (const CudaError &E) {
    CHECK(E.name() == "CUDA_ERROR_NOT_FOUND");
    CHECK(E.action() == "finding kernel 'missing' in its binary");
  }
  KernelImage Bad = image("k");
  Bad.Image = "not a kernel";
  try {
    D.loadKernel(Bad, 0);
    FAIL("expected a CudaError");
  } catch (const CudaError &E) {
    CHECK(E.name() == "CUDA_ERROR_INVALID_IMAGE");
    CHECK(E.action().find("loading kernel 'k'; the PTX JIT said: ") == 0);
  }
}

TEST_CASE("CudaDriver: shared memory above 48 KB opts in, up to the device") {
  Driver &D = fake();
  LoadedKernel K = D.loadKernel(image("k", 64 * 1024), 0);
  int Allowed = 0;
  REQUIRE(D.cuFuncGetAttribute()(&Allowed, FuncMaxDynamicSharedSizeBytes,
                                 static_cast<CUfunction>(K.Function)) == 0);
  CHECK(Allowed == 64 * 1024);
  D.unload(K);
  try {
    D.loadKernel(image("k", 300000), 0);
    FAIL("expected OutOfResources");
  } catch (const OutOfResources &E) {
    CHECK(E.resource() == "shared memory");
    CHECK(E.required() == 300000);
    CHECK(E.limit() == 232448);
  }
  CHECK_THROWS_AS(D.loadKernel(image("k", 0, 2048), 0), OutOfResources);
}

TEST_CASE("CudaDriver: tensor maps") {
  Driver &D = fake();
  CHECK(D.hasTensorMaps(0)); // the fake is a compute capability 9.0 device
  tritium::gpu::TensorMapSpec S;
  S.Element = tritium::gpu::TensorMapElement::F16;
  S.Rank = 2;
  S.Base = 0x7f0000000100;
  S.Dims[0] = 96, S.Dims[1] = 100;
  S.ByteStrides[0] = 192;
  S.Box[0] = 64, S.Box[1] = 128;
  tritium::gpu::TensorMap M;
  REQUIRE(D.encodeTensorMap(S, M));
  CHECK(std::string(reinterpret_cast<const char *>(M.Bytes), 8) == "FAKETMAP");
  uint64_t Address = 0;
  std::memcpy(&Address, M.Bytes + 16, 8);
  CHECK(Address == S.Base);
  S.ByteStrides[0] = 200; // not a multiple of 16: rejected, not thrown
  CHECK_FALSE(D.encodeTensorMap(S, M));
  S.ByteStrides[0] = 192;
  inject("cuTensorMapEncodeTiled", 1);
  CHECK_FALSE(D.encodeTensorMap(S, M));
  CHECK(D.encodeTensorMap(S, M));
}

#endif // TRITIUM_FAKECUDA_PATH
