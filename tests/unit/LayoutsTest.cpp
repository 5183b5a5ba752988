// Blocked and slice layouts built as linear layouts.
#include "analysis/Layouts.h"

#include <doctest/doctest.h>

using namespace tritium;

TEST_CASE("1-d blocked layout repeats over registers") {
  BlockedParams P{{4}, {32}, {4}, {0}};
  LinearLayout L = blockedLayout({1024}, P);
  CHECK(L.str() == "register=[[1],[2],[512]] lane=[[4],[8],[16],[32],[64]] "
                   "warp=[[128],[256]] -> dim0:1024");
  CHECK(L.getNumConsecutiveInOut(kRegister, "dim0") == 4);
  CHECK(L.isInjective());
  CHECK(L.isSurjective());
}

TEST_CASE("blocked layout smaller than the CTA tile gives copies") {
  BlockedParams P{{1}, {32}, {4}, {0}};
  LinearLayout L = blockedLayout({64}, P);
  CHECK(L.str() == "register=[] lane=[[1],[2],[4],[8],[16]] warp=[[32],[0]] "
                   "-> dim0:64");
  CHECK(L.isSurjective());
  CHECK_FALSE(L.isInjective());
}

TEST_CASE("2-d blocked layout, row-major order") {
  BlockedParams P{{1, 4}, {2, 16}, {4, 1}, {1, 0}};
  LinearLayout L = blockedLayout({32, 64}, P);
  CHECK(L.str() == "register=[[0,1],[0,2],[8,0],[16,0]] "
                   "lane=[[0,4],[0,8],[0,16],[0,32],[1,0]] "
                   "warp=[[2,0],[4,0]] -> dim0:32, dim1:64");
  // Thread (lane 17, warp 1), register 3 holds row 1 + 2, column 4 + 3.
  CHECK(L.apply({3, 17, 1}) == llvm::SmallVector<int32_t, 4>{3, 7});
}

TEST_CASE("default blocked parameters follow Triton's distribution") {
  BlockedParams P = defaultBlockedParams({128, 128}, {1, 4}, {1, 0}, 4);
  CHECK(P.ThreadsPerWarp == llvm::SmallVector<unsigned, 4>{1, 32});
  CHECK(P.WarpsPerCTA == llvm::SmallVector<unsigned, 4>{4, 1});
  BlockedParams Q = defaultBlockedParams({16, 16}, {1, 4}, {1, 0}, 8);
  CHECK(Q.ThreadsPerWarp == llvm::SmallVector<unsigned, 4>{8, 4});
  CHECK(Q.WarpsPerCTA == llvm::SmallVector<unsigned, 4>{8, 1});
  BlockedParams R = defaultBlockedParams({1024}, {4}, {0}, 4);
  CHECK(R.ThreadsPerWarp == llvm::SmallVector<unsigned, 4>{32});
  CHECK(R.WarpsPerCTA == llvm::SmallVector<unsigned, 4>{4});
}

TEST_CASE("slice drops the reduced dimension and its registers") {
  BlockedParams P{{1, 4}, {2, 16}, {4, 1}, {1, 0}};
  LinearLayout L = blockedLayout({32, 64}, P);
  LinearLayout S = sliceLayout(L, 1);
  CHECK(S.str() == "register=[[8],[16]] lane=[[0],[0],[0],[0],[1]] "
                   "warp=[[2],[4]] -> dim0:32");
  LinearLayout E = expandDimsLayout(S, 1);
  CHECK(E.str() == "register=[[8,0],[16,0]] lane=[[0,0],[0,0],[0,0],[0,0],[1,0]] "
                   "warp=[[2,0],[4,0]] -> dim0:32, dim1:1");
}
