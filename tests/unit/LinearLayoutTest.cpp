// LinearLayout: construction, apply, products, inverses, reshapes.
#include "ir/LinearLayout.h"

#include <doctest/doctest.h>

using namespace tritium;
using LL = LinearLayout;

TEST_CASE("identity and zeros map bits as expected") {
  LL I = LL::identity1D(8, "register", "dim0");
  CHECK(I.str() == "register=[[1],[2],[4]] -> dim0:8");
  CHECK(I.apply({5}) == llvm::SmallVector<int32_t, 4>{5});
  LL Z = LL::zeros1D(4, "lane", "dim0");
  CHECK(Z.str() == "lane=[[0],[0]] -> dim0:1");
  CHECK(Z.apply({3}) == llvm::SmallVector<int32_t, 4>{0});
  CHECK(I.isInjective());
  CHECK(I.isSurjective());
  CHECK_FALSE(Z.isInjective());
}

TEST_CASE("product concatenates shared dimensions, low bits first") {
  LL L = LL::identity1D(4, "register", "dim0") *
         LL::identity1D(32, "lane", "dim0") *
         LL::identity1D(4, "warp", "dim0");
  CHECK(L.getOutDimSize("dim0") == 512);
  CHECK(L.getInDimSizeLog2("lane") == 5);
  // register 1 -> 1, lane 1 -> 4, warp 1 -> 128.
  CHECK(L.apply({1, 1, 1}) == llvm::SmallVector<int32_t, 4>{133});
  CHECK(L.apply({3, 31, 3}) == llvm::SmallVector<int32_t, 4>{511});
  // Different outputs stay separate dimensions.
  LL M = LL::identity1D(2, "register", "dim1") * LL::identity1D(4, "register", "dim0");
  CHECK(M.str() == "register=[[1,0],[0,1],[0,2]] -> dim1:2, dim0:4");
  // One input alone, the others at 0.
  CHECK(L.applyIn("lane", 3) == LL::Basis{12});
  CHECK(L.applyIn("warp", 2) == LL::Basis{256});
  CHECK(M.applyIn("register", 5) == LL::Basis{1, 2});
}

TEST_CASE("pseudoinvert prefers registers over lanes for copies") {
  // Four lanes hold copies of the two-element register space.
  LL L = LL::identity1D(2, "register", "dim0") * LL::zeros1D(4, "lane", "dim0");
  CHECK(L.isSurjective());
  CHECK_FALSE(L.isInjective());
  LL P = L.pseudoinvert();
  CHECK(P.str() == "dim0=[[1,0]] -> register:2, lane:4");
  // L o P is the identity on the tensor.
  LL Round = P.compose(L);
  CHECK(Round.apply({1}) == llvm::SmallVector<int32_t, 4>{1});
}

TEST_CASE("invert of a bijection and invertAndCompose") {
  LL A = LL::identity1D(4, "register", "dim0") * LL::identity1D(8, "lane", "dim0");
  LL Inv = A.invert();
  for (int32_t X = 0; X < 32; ++X) {
    auto HW = Inv.apply({X});
    CHECK(A.apply({HW[0], HW[1]})[0] == X);
  }
  // A layout converted to itself: every position finds itself.
  LL Self = A.invertAndCompose(A);
  CHECK(Self.apply({3, 5}) == llvm::SmallVector<int32_t, 4>{3, 5});
  // Registers and lanes swapped: element at (reg r, lane l) of B lives at
  // the A position computed by the composition.
  LL B = LL::identity1D(8, "lane", "dim0") * LL::identity1D(4, "register", "dim0");
  LL C = B.invertAndCompose(A);
  CHECK(C.getInDims()[0].Name == "lane");
  for (int32_t L = 0; L < 8; ++L)
    for (int32_t R = 0; R < 4; ++R) {
      auto Pos = C.apply({L, R});
      CHECK(A.apply({Pos[0], Pos[1]}) == B.apply({L, R}));
    }
}

TEST_CASE("reshape and transpose of outputs") {
  LL L = LL::identity1D(4, "register", "dim1") * LL::identity1D(8, "lane", "dim0");
  LL T = L.transposeOuts({1, 0});
  CHECK(T.str() == "register=[[0,1],[0,2]] lane=[[1,0],[2,0],[4,0]] -> dim0:8, dim1:4");
  // Row-major flattening of (dim0:8, dim1:4): index = dim0 * 4 + dim1.
  LL F = T.reshapeOuts({{"dim0", 32}});
  CHECK(F.str() == "register=[[1],[2]] lane=[[4],[8],[16]] -> dim0:32");
  CHECK(F.getNumConsecutiveInOut("register", "dim0") == 4);
  CHECK(T.getNumConsecutiveInOut("register", "dim1") == 4);
  CHECK(T.getNumConsecutiveInOut("register", "dim0") == 1);
}

TEST_CASE("sublayout, dropOut and removeZeroBases") {
  LL L = LL::identity1D(2, "register", "dim1") * LL::identity1D(2, "register", "dim0") *
         LL::identity1D(4, "lane", "dim1");
  CHECK(L.str() == "register=[[1,0],[0,1]] lane=[[2,0],[4,0]] -> dim1:8, dim0:2");
  LL D = L.dropOut("dim1");
  CHECK(D.str() == "register=[[0],[1]] lane=[[0],[0]] -> dim0:2");
  CHECK(D.removeZeroBases("register").str() == "register=[[1]] lane=[[0],[0]] -> dim0:2");
  CHECK(D.isZero("lane"));
  CHECK_FALSE(D.isZero("register"));
  LL S = L.sublayout({"lane"}, {"dim1"});
  CHECK(S.str() == "lane=[[2],[4]] -> dim1:8");
}

TEST_CASE("findInput solves for one input dimension") {
  LL L = LL::identity1D(4, "register", "dim0") * LL::identity1D(8, "lane", "dim0");
  // Coordinates 0..3 are registers of lane 0; 4 is lane 1's register 0.
  CHECK(L.findInput("register", {3}) == std::optional<int32_t>(3));
  CHECK(L.findInput("register", {4}) == std::nullopt);
  CHECK(L.findInput("lane", {12}) == std::optional<int32_t>(3));
  CHECK(L.findInput("lane", {13}) == std::nullopt);
}
