// The target description (ir/Target.h): what parses, what each target is,
// and that sm_90a stays sm_90a.
#include "ir/Target.h"

#include <doctest/doctest.h>

using namespace tritium;

namespace {
Target parsed(llvm::StringRef Text) {
  Target T;
  std::string Err = Target::parse(Text, T);
  REQUIRE_MESSAGE(Err.empty(), Err);
  return T;
}
std::string errorOf(llvm::StringRef Text) {
  Target T;
  return Target::parse(Text, T);
}
} // namespace

TEST_CASE("NVIDIA targets: the spellings, sm_90a kept apart from sm_90") {
  for (const char *S : {"cuda:90", "cuda:sm_90", "cuda:sm90", "CUDA:90", " cuda:90 ", "cuda"})
    CHECK(parsed(S).str() == "cuda:90");
  Target H = parsed("cuda:90");
  CHECK(H.isNVIDIA());
  CHECK(H.getArchName() == "sm_90");
  CHECK(H.getNumber() == 90u);
  CHECK_FALSE(H.isArchSpecific());
  CHECK(H.getWarpSize() == 32u);
  CHECK(H.getPTXVersion() == 78u);
  // Shared memory a block may opt in to: the CUDA guide's per-architecture table.
  CHECK(H.getMaxSharedBytes() == 227u * 1024);
  CHECK(Target().getMaxSharedBytes() == 227u * 1024);
  CHECK(parsed("cuda:90a").getMaxSharedBytes() == 227u * 1024);
  CHECK(parsed("cuda:80").getMaxSharedBytes() == 163u * 1024);
  CHECK(parsed("cuda:86").getMaxSharedBytes() == 99u * 1024);
  CHECK(parsed("cuda:75").getMaxSharedBytes() == 64u * 1024);
  CHECK(H.has(Target::MMASync));
  CHECK(H.has(Target::TMA));
  CHECK_FALSE(H.has(Target::WGMMA));
  CHECK(H == Target());

  Target A = parsed("cuda:90a");
  CHECK(A.str() == "cuda:90a");
  CHECK(parsed("cuda:sm_90a") == A);
  CHECK(A != H);
  CHECK(A.getArchName() == "sm_90a");
  CHECK(A.getNumber() == 90u);
  CHECK(A.isArchSpecific());
  CHECK(A.getPTXVersion() == 80u);
  CHECK(A.has(Target::WGMMA));

  Target V = parsed("cuda:70");
  CHECK(V.getArchName() == "sm_70");
  CHECK_FALSE(V.has(Target::MMASync));
  CHECK(parsed("cuda:80").has(Target::CpAsync));
  CHECK_FALSE(parsed("cuda:80").has(Target::BF16Atomics));
  CHECK(parsed("cuda:90").has(Target::BF16Atomics));
}

TEST_CASE("AMD targets: the gfx name, its number and warp size") {
  Target M = parsed("hip:gfx90a");
  CHECK(M.isAMD());
  CHECK(M.str() == "hip:gfx90a");
  CHECK(parsed("hip") == M);
  CHECK(M.getNumber() == 0x90au);
  CHECK(M.getWarpSize() == 64u);
  CHECK(M.getPTXVersion() == 0u);
  CHECK(M.has(Target::MFMA));
  CHECK(M.getMaxSharedBytes() == 64u * 1024);
  CHECK(parsed("hip:gfx1100").getWarpSize() == 32u);
  CHECK_FALSE(parsed("hip:gfx1100").has(Target::MFMA));
}

TEST_CASE("what does not parse says what does") {
  CHECK(errorOf("cuda:12") == "unsupported CUDA architecture '12': expected one of 70, 72, 75, "
                              "80, 86, 87, 89, 90, 90a (written as 90, sm_90 or 90a)");
  CHECK(errorOf("cuda:80a").find("unsupported CUDA architecture '80a'") == 0);
  CHECK(errorOf("cuda:").find("unsupported CUDA architecture ''") == 0);
  CHECK(errorOf("cuda:99999999999999999999").find("unsupported CUDA architecture") == 0);
  CHECK(errorOf("hip:gfx942") == "unsupported HIP architecture 'gfx942': LLVM 16 has no gfx941 "
                                 "or gfx942 (MI300X); expected one of gfx908, gfx90a, gfx940, "
                                 "gfx1030, gfx1100");
  CHECK(errorOf("hip:gfx941").find("LLVM 16 has no gfx941 or gfx942") != std::string::npos);
  CHECK(errorOf("hip:gfx900") == "unsupported HIP architecture 'gfx900': expected one of gfx908, "
                                 "gfx90a, gfx940, gfx1030, gfx1100");
  CHECK(errorOf("metal:1").find("unknown target 'metal:1': expected cuda:<cc>") == 0);
  CHECK(errorOf("").find("unknown target ''") == 0);
}
