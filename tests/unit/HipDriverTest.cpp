//===- HipDriverTest.cpp - runtime/HipDriver against the fake libamdhip64 -===//
//
// The build passes the fake runtime's path (tests/fakehip) when it builds
// one; without it only the cases that need no runtime run. The kernels are
// real code objects from the AMDGPU backend.
//
//===----------------------------------------------------------------------===//

#include "codegen/amdgpu/AMDGPUBackend.h"
#include "ir/Context.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "runtime/HipDriver.h"

#include <doctest/doctest.h>

#include <cstring>
#include <string>

using namespace tritium;
using hip::Driver;
using hip::HipError;

TEST_CASE("HipDriver: a missing library is reported, not fatal") {
  Driver &D = Driver::get("/nonexistent/libamdhip64.so");
  std::string Why;
  CHECK_FALSE(D.load(&Why));
  CHECK(Why.find("cannot load the HIP runtime /nonexistent/libamdhip64.so") == 0);
  CHECK(D.deviceCount() == 0);
  CHECK_THROWS_AS(D.driverVersion(), HipError);
}

TEST_CASE("HipDriver: the architecture is found in the properties by its text") {
  char Props[2048] = {};
  std::strcpy(Props, "AMD Instinct MI250X");
  std::strcpy(Props + 1500, "gfx90a:sramecc+:xnack-");
  CHECK(hip::findArchName(Props, sizeof(Props)) == "gfx90a");
  CHECK(hip::findArchName(Props, 1500) == "");
  CHECK(hip::findArchName("gfx1100", 7) == "gfx1100");
  CHECK(hip::findArchName("gfxz", 4) == "");
}

#ifdef TRITIUM_FAKEHIP_PATH

namespace {

std::string codeObject() {
  const char *IR = R"(kernel @scale(%x: ptr<f32> {divisibility=16}, %n: i32) {
entry:
  %r = make_range {start=0, end=256} : <256 x i32>
  %xs = splat %x : <256 x ptr<f32>>
  %p = getelementptr %xs, %r : <256 x ptr<f32>>
  %v = load %p : <256 x f32>
  %w = fadd %v, %v : <256 x f32>
  store %p, %w
  ret
}
)";
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(IR, Ctx);
  CompileOptions O;
  REQUIRE(Target::parse("hip:gfx90a", O.GPU).empty());
  runAMDGPUPipeline(*M, O);
  LLVMIRResult L = lowerAMDGPUToLLVMIR(*M, O);
  return assembleHsaco(compileToAMDGCN(L.IR, O.GPU), O.GPU).Hsaco;
}

Driver &fake() {
  Driver &D = Driver::get(TRITIUM_FAKEHIP_PATH);
  std::string Why;
  REQUIRE_MESSAGE(D.load(&Why), Why);
  return D;
}

} // namespace

TEST_CASE("HipDriver: loads, launches and unloads a code object on the fake runtime") {
  Driver &D = fake();
  CHECK(D.deviceCount() == 1);
  CHECK(D.archName(0) == "gfx90a");
  CHECK(D.deviceAttribute(hip::DevWarpSize, 0) == 64);
  gpu::KernelImage Img;
  Img.Name = "scale";
  Img.Image = codeObject();
  Img.NumThreads = 256;
  gpu::LoadedKernel K = D.loadKernel(Img, 0);
  CHECK(K.NumRegs > 0);
  CHECK(K.MaxThreads == 256);
  CHECK(K.NumSpills == 0);
  uint64_t X = 0x1000;
  int N = 256;
  void *Params[] = {&X, &N};
  CHECK_NOTHROW(D.launch(K, 2, 1, 1, nullptr, Params));
  D.unload(K);

  // A workgroup larger than the kernel allows is OutOfResources at load.
  Img.NumThreads = 512;
  CHECK_THROWS_AS(D.loadKernel(Img, 0), gpu::OutOfResources);
  // A name the code object lacks is HIP's error, named.
  Img.NumThreads = 256;
  Img.Name = "nosuch";
  try {
    D.loadKernel(Img, 0);
    FAIL("expected a HipError");
  } catch (const HipError &E) {
    CHECK(E.name() == "hipErrorNotFound");
    CHECK(std::string(E.what()).find("finding kernel 'nosuch' in its code object") !=
          std::string::npos);
  }
}

#endif // TRITIUM_FAKEHIP_PATH
