// The cpu target (codegen/cpu/) and its driver (runtime/CpuDriver.h): the
// stages make a launch entry and an ELF object; the driver links it into
// this process and runs the grid's programs on its threads.
#include "codegen/Backend.h"
#include "ir/Context.h"
#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "runtime/CpuDriver.h"

#include "llvm/Support/MemoryBuffer.h"

#include <doctest/doctest.h>

#include <vector>

using namespace tritium;

namespace {
/// out[pid_y * gx + pid_x] = pid_x + 100 * pid_y + 10000 * gx + 1000000 * gy:
/// a program's ids and the grid, through a scalar store.
const char *Ids = R"(kernel @ids(%out: ptr<i32>) {
entry:
  %x = get_program_id {axis=0} : i32
  %y = get_program_id {axis=1} : i32
  %gx = get_num_programs {axis=0} : i32
  %gy = get_num_programs {axis=1} : i32
  %c100 = constant 100 : i32
  %c10k = constant 10000 : i32
  %c1m = constant 1000000 : i32
  %row = mul %y, %gx : i32
  %at = add %row, %x : i32
  %yy = mul %y, %c100 : i32
  %v0 = add %x, %yy : i32
  %g0 = mul %gx, %c10k : i32
  %g1 = mul %gy, %c1m : i32
  %v1 = add %v0, %g0 : i32
  %v = add %v1, %g1 : i32
  %p = getelementptr %out, %at : ptr<i32>
  store %p, %v
  ret
}
)";

std::vector<std::pair<std::string, StageOutput>> compileForCPU(const std::string &Text,
                                                               Context &Ctx) {
  CompileOptions Opts;
  REQUIRE(Target::parse("cpu", Opts.GPU).empty());
  std::unique_ptr<Module> M = parseModule(Text, Ctx);
  return compileStages(*M, Opts);
}

std::string vectorAdd() {
  auto Text = llvm::MemoryBuffer::getFile(TRITIUM_SOURCE_DIR "/examples/vector_add.tir");
  REQUIRE(Text);
  return (*Text)->getBuffer().str();
}

gpu::LoadedKernel load(const std::vector<std::pair<std::string, StageOutput>> &Stages,
                       const char *Name) {
  gpu::KernelImage Img;
  Img.Name = Name;
  Img.Image = Stages.back().second.Data;
  return cpu::Driver::get().loadKernel(Img, 0);
}
} // namespace

TEST_CASE("the cpu target's stages: a launch entry, vectors and an ELF object") {
  Context Ctx;
  auto S = compileForCPU(vectorAdd(), Ctx);
  REQUIRE(S.size() == 3);
  CHECK(S[0].first == "tgir");
  // A program of 16 threads (warps of one lane), each a run of 64 elements
  // in its registers, looped over by the launch entry.
  CHECK(S[0].second.Data.find("register=[[1], [2], [4], [8], [16], [32]], lane=[], "
                              "warp=[[64], [128], [256], [512]]") != std::string::npos);
  const std::string &IR = S[1].second.Data;
  CHECK(IR.find("define void @vector_add(ptr") != std::string::npos);
  CHECK(IR.find("@vector_add.body") == std::string::npos); // inlined into its entry
  CHECK(IR.find("%tid = phi i32 [ 0, %entry ]") != std::string::npos);
  CHECK(IR.find("icmp ult i32 %") != std::string::npos);
  CHECK(IR.find("__tritium_cpu_thread_id") == std::string::npos); // the loop's counter
  CHECK(IR.find("@__tritium_cpu_program_id(i32 0)") != std::string::npos);
  // Accesses of a vector register (32 bytes, 64 with AVX-512) masked
  // element by element: n is any number.
  bool Wide = IR.find("@llvm.masked.load.v16i32") != std::string::npos;
  CHECK((Wide || IR.find("@llvm.masked.load.v8i32") != std::string::npos));
  CHECK(IR.find(Wide ? "@llvm.masked.store.v16i32" : "@llvm.masked.store.v8i32") !=
        std::string::npos);
  CHECK(S[2].second.Binary);
  CHECK(S[2].second.Data.rfind("\x7f" "ELF", 0) == 0);
}

namespace {
/// A kernel of a [64, 64] block through \p Op, which reads it as %x and
/// leaves %y, a [64, 64] f32 block stored back.
std::string tileKernel(const std::string &Op) {
  return R"(kernel @tile(%p: ptr<f32> {divisibility=16}) {
entry:
  %r = make_range {start=0, end=64} : <64 x i32>
  %rows = expand_dims %r {axis=1} : <64 x 1 x i32>
  %cols = expand_dims %r {axis=0} : <1 x 64 x i32>
  %k = constant 64 : <64 x 1 x i32>
  %rk = mul %rows, %k : <64 x 1 x i32>
  %rb = broadcast %rk : <64 x 64 x i32>
  %cb = broadcast %cols : <64 x 64 x i32>
  %off = add %rb, %cb : <64 x 64 x i32>
  %ps = splat %p : <64 x 64 x ptr<f32>>
  %ptrs = getelementptr %ps, %off : <64 x 64 x ptr<f32>>
  %x = load %ptrs : <64 x 64 x f32>
)" + Op + R"(
  store %ptrs, %y
  ret
}
)";
}

/// The warps of the layout of %x in the tgir of \p Text.
std::string warpsOf(const std::string &Text) {
  Context Ctx;
  std::string Tgir = compileForCPU(Text, Ctx)[0].second.Data;
  size_t At = Tgir.find("warp=", Tgir.find("%x = load"));
  REQUIRE(At != std::string::npos);
  return Tgir.substr(At, Tgir.find(", shape", At) - At);
}
} // namespace

TEST_CASE("a cpu program is a loop of threads only where no thread needs another's values") {
  // Elementwise: a row of 64 a thread.
  CHECK(warpsOf(tileKernel("  %y = fadd %x, %x : <64 x 64 x f32>")) ==
        "warp=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]]");
  // Rows reduced within their thread: still a loop.
  CHECK(warpsOf(tileKernel(R"(  %s = reduce %x {axis=1, kind=fadd} : <64 x f32>
  %s2 = expand_dims %s {axis=1} : <64 x 1 x f32>
  %y = broadcast %s2 : <64 x 64 x f32>)")) ==
        "warp=[[1, 0], [2, 0], [4, 0], [8, 0], [16, 0], [32, 0]]");
  // Columns reduced across the threads' rows: shared memory, one thread.
  CHECK(warpsOf(tileKernel(R"(  %s = reduce %x {axis=0, kind=fadd} : <64 x f32>
  %s2 = expand_dims %s {axis=0} : <1 x 64 x f32>
  %y = broadcast %s2 : <64 x 64 x f32>)")) == "warp=[]");
  // A dot takes whole tiles (CPULowerDot.cpp): one thread.
  CHECK(warpsOf(tileKernel(R"(  %z = constant 0.0 : <64 x 64 x f32>
  %y = dot %x, %x, %z : <64 x 64 x f32>)")) == "warp=[]");
}

TEST_CASE("the cpu driver runs the vector add's programs on its threads") {
  Context Ctx;
  gpu::LoadedKernel K = load(compileForCPU(vectorAdd(), Ctx), "vector_add");
  int32_t N = 3000; // three programs, the last one masked
  std::vector<float> X(4096), Y(4096), Out(4096, -1.0f);
  for (int I = 0; I < 4096; ++I)
    X[I] = float(I), Y[I] = 0.5f * float(I);
  float *XP = X.data(), *YP = Y.data(), *OP = Out.data();
  void *Params[] = {&XP, &YP, &OP, &N};
  cpu::Driver::get().launch(K, 3, 1, 1, nullptr, Params);
  bool Right = true;
  for (int I = 0; I < 4096; ++I)
    Right &= Out[I] == (I < N ? 1.5f * float(I) : -1.0f);
  CHECK(Right);
  cpu::Driver::get().unload(K);
}

TEST_CASE("a program's ids and the grid come from the launch") {
  Context Ctx;
  gpu::LoadedKernel K = load(compileForCPU(Ids, Ctx), "ids");
  std::vector<int32_t> Out(5 * 3, -1);
  int32_t *OP = Out.data();
  void *Params[] = {&OP};
  cpu::Driver::get().launch(K, 5, 3, 1, nullptr, Params);
  for (int Y = 0; Y < 3; ++Y)
    for (int X = 0; X < 5; ++X)
      CHECK(Out[Y * 5 + X] == X + 100 * Y + 50000 + 3000000);
  // Two kernels of one name coexist: each object has a library of its own.
  gpu::LoadedKernel Again = load(compileForCPU(Ids, Ctx), "ids");
  cpu::Driver::get().launch(Again, 1, 1, 1, nullptr, Params);
  CHECK(Out[0] == 10000 + 1000000);
  cpu::Driver::get().unload(Again);
  cpu::Driver::get().unload(K);
}

TEST_CASE("what the cpu target refuses") {
  CompileOptions Opts;
  CHECK(Target::parse("cpu:nonesuch", Opts.GPU).empty()); // any name parses...
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(Ids, Ctx);
  // ...and LLVM names the ones it does not know.
  CHECK_THROWS_WITH_AS(compileStages(*M, Opts), doctest::Contains("knows no processor 'nonesuch'"),
                       CompileError);
  REQUIRE(Target::parse("cpu:x86-64", Opts.GPU).empty());
  Opts.MaxNReg = 128;
  CHECK_THROWS_WITH_AS(compileStages(*M, Opts), doctest::Contains("maxnreg"), CompileError);
  gpu::KernelImage Img;
  Img.Name = "k";
  Img.Image = "not an object";
  CHECK_THROWS_AS(cpu::Driver::get().loadKernel(Img, 0), gpu::DriverError);
  CHECK_THROWS_AS(cpu::Driver::get().setCurrentDevice(1), gpu::DriverError);
}
