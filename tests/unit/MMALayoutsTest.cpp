// mma.sync's and MFMA's accumulator and operand layouts, checked element by
// element against the PTX and CDNA ISAs' fragment tables, and the swizzled
// shared layout's bank conflicts counted.
#include "analysis/Layouts.h"
#include "codegen/amdgpu/MFMALayouts.h"
#include "codegen/nvptx/MMALayouts.h"
#include "ir/Context.h"
#include "ir/Types.h"

#include <doctest/doctest.h>

#include <set>

using namespace tritium;

namespace {
using Coord = llvm::SmallVector<int32_t, 4>;

/// Warp w's (m, n) tile origin under mmaWarps W: warps along M first.
Coord warpOrigin(MMAWarps W, int32_t Warp, int64_t M, int64_t N) {
  int32_t WM = Warp % int32_t(W.M), WN = Warp / int32_t(W.M);
  return {int32_t(16 * WM % M), int32_t(8 * WN % N)};
}

/// The MFMA layouts of an [M, N] dot on \p NumWarps waves of T x T tiles
/// (\p W K elements a lane per chunk), as the layout passes tile them.
LinearLayout mfmaAccumulatorLayout(llvm::ArrayRef<int64_t> Shape, unsigned NumWarps, unsigned T,
                                   bool Transposed) {
  return tritium::mfmaAccumulatorLayout(
      Shape, MFMAConfig{T, 0, mfmaWarps(Shape, NumWarps, T), Transposed});
}
LinearLayout mfmaOperandLayout(unsigned OpIdx, llvm::ArrayRef<int64_t> OperandShape,
                               llvm::ArrayRef<int64_t> ResultShape, unsigned NumWarps,
                               unsigned T, unsigned W) {
  return tritium::mfmaOperandLayout(OpIdx, OperandShape, ResultShape,
                                    MFMAConfig{T, W, mfmaWarps(ResultShape, NumWarps, T), true});
}
} // namespace

TEST_CASE("mma warps tile M first while tiles stay at least as tall as wide") {
  CHECK(mmaWarps({128, 128}, 4).M == 2);
  CHECK(mmaWarps({128, 128}, 4).N == 2);
  CHECK(mmaWarps({128, 256}, 8).M == 2);
  CHECK(mmaWarps({128, 256}, 8).N == 4);
  CHECK(mmaWarps({16, 64}, 4).M == 1); // M has one 16-row tile
  CHECK(mmaWarps({16, 64}, 4).N == 4);
  CHECK(mmaWarps({256, 16}, 8).M == 8);
}

TEST_CASE("mma accumulator layout: the bases") {
  CHECK(mmaAccumulatorLayout({32, 32}, 4).str() ==
        "register=[[0,1],[8,0],[0,16]] lane=[[0,2],[0,4],[1,0],[2,0],[4,0]] "
        "warp=[[16,0],[0,8]] -> dim0:32, dim1:32");
  // Fewer columns than warps along N: those warps hold copies.
  CHECK(mmaAccumulatorLayout({16, 8}, 4).str() ==
        "register=[[0,1],[8,0]] lane=[[0,2],[0,4],[1,0],[2,0],[4,0]] "
        "warp=[[0,0],[0,0]] -> dim0:16, dim1:8");
}

TEST_CASE("mma accumulator layout matches the PTX fragment of m16n8 per tile") {
  for (auto [M, N, Warps] : {std::tuple<int64_t, int64_t, unsigned>{128, 128, 4},
                             {128, 256, 8}, {64, 32, 4}, {16, 16, 1}}) {
    LinearLayout L = mmaAccumulatorLayout({M, N}, Warps);
    MMAWarps W = mmaWarps({M, N}, Warps);
    CHECK(L.isSurjective());
    CHECK(L.isInjective());
    for (int32_t Warp = 0; Warp < int32_t(Warps); ++Warp)
      for (int32_t Lane = 0; Lane < 32; ++Lane)
        for (int32_t C = 0; C < 4; ++C) {
          // c0, c1: (g, 2t + i); c2, c3: (g + 8, 2t + i).
          Coord O = warpOrigin(W, Warp, M, N);
          Coord Want = {O[0] + Lane / 4 + 8 * (C / 2), O[1] + 2 * (Lane % 4) + C % 2};
          CHECK(L.apply({C, Lane, Warp}) == Want);
        }
  }
}

TEST_CASE("mma operand layouts match the PTX fragments of m16n8k16") {
  int64_t M = 64, N = 64, K = 32;
  unsigned Warps = 4;
  MMAWarps W = mmaWarps({M, N}, Warps);
  LinearLayout A = mmaOperandLayout(0, {M, K}, {M, N}, Warps);
  LinearLayout B = mmaOperandLayout(1, {K, N}, {M, N}, Warps);
  CHECK(A.str() == "register=[[0,1],[8,0],[0,8],[0,16],[32,0]] "
                   "lane=[[0,2],[0,4],[1,0],[2,0],[4,0]] warp=[[16,0],[0,0]] "
                   "-> dim0:64, dim1:32");
  CHECK(B.str() == "register=[[1,0],[8,0],[0,16],[16,0],[0,32]] "
                   "lane=[[2,0],[4,0],[0,1],[0,2],[0,4]] warp=[[0,0],[0,8]] "
                   "-> dim0:32, dim1:64");
  for (int32_t Warp = 0; Warp < int32_t(Warps); ++Warp)
    for (int32_t Lane = 0; Lane < 32; ++Lane) {
      Coord O = warpOrigin(W, Warp, M, N);
      int32_t G = Lane / 4, T = Lane % 4;
      // a0..a7 of the first tile: (g + 8 * (i / 2 % 2), 2t + i % 2 + 8 * (i / 4)).
      for (int32_t I = 0; I < 8; ++I)
        CHECK(A.apply({I, Lane, Warp}) ==
              Coord{O[0] + G + 8 * (I / 2 % 2), 2 * T + I % 2 + 8 * (I / 4)});
      // b0..b3: (2t + i % 2 + 8 * (i / 2), g).
      for (int32_t I = 0; I < 4; ++I)
        CHECK(B.apply({I, Lane, Warp}) == Coord{2 * T + I % 2 + 8 * (I / 2), O[1] + G});
    }
}

TEST_CASE("mma operand layouts match the PTX fragments of m16n8k8 tf32 and m16n8k32 int8") {
  int64_t M = 32, N = 16;
  unsigned Warps = 2;
  MMAWarps W = mmaWarps({M, N}, Warps);
  // tf32 (kWidth 1): a0 (g, t), a1 row + 8, a2 col + 4, a3 both; b0 (t, g),
  // b1 row + 4.
  LinearLayout A = mmaOperandLayout(0, {M, 16}, {M, N}, W, 1);
  LinearLayout B = mmaOperandLayout(1, {16, N}, {M, N}, W, 1);
  CHECK(A.str() == "register=[[8,0],[0,4],[0,8]] lane=[[0,1],[0,2],[1,0],[2,0],[4,0]] "
                   "warp=[[16,0]] -> dim0:32, dim1:16");
  CHECK(B.str() == "register=[[4,0],[0,8],[8,0]] lane=[[1,0],[2,0],[0,1],[0,2],[0,4]] "
                   "warp=[[0,0]] -> dim0:16, dim1:16");
  // int8 (kWidth 4): a0..a3 (g, 4t + i), a4..a7 row + 8, a8..a15 col + 16;
  // b0..b3 (4t + i, g), b4..b7 row + 16.
  LinearLayout A8 = mmaOperandLayout(0, {M, 32}, {M, N}, W, 4);
  LinearLayout B8 = mmaOperandLayout(1, {32, N}, {M, N}, W, 4);
  for (int32_t Warp = 0; Warp < int32_t(Warps); ++Warp)
    for (int32_t Lane = 0; Lane < 32; ++Lane) {
      Coord O = warpOrigin(W, Warp, M, N);
      int32_t G = Lane / 4, T = Lane % 4;
      for (int32_t I = 0; I < 4; ++I)
        CHECK(A.apply({I, Lane, Warp}) == Coord{O[0] + G + 8 * (I % 2), T + 4 * (I / 2)});
      for (int32_t I = 0; I < 2; ++I)
        CHECK(B.apply({I, Lane, Warp}) == Coord{T + 4 * I, G});
      for (int32_t I = 0; I < 16; ++I)
        CHECK(A8.apply({I, Lane, Warp}) ==
              Coord{O[0] + G + 8 * (I / 4 % 2), 4 * T + I % 4 + 16 * (I / 8)});
      for (int32_t I = 0; I < 8; ++I)
        CHECK(B8.apply({I, Lane, Warp}) == Coord{4 * T + I % 4 + 16 * (I / 4), G});
    }
}

TEST_CASE("the swizzled shared layout: bases and bank conflicts") {
  // 128-byte rows of f16: the chunk index XOR the row's low three bits.
  LinearLayout S = swizzledSharedLayout({16, 64}, 1, 2);
  CHECK(S.str() == "offset=[[0,1],[0,2],[0,4],[0,8],[0,16],[0,32],[1,8],[2,16],[4,32],"
                   "[8,0]] -> dim0:16, dim1:64");
  CHECK(S.isInjective());
  for (auto [Rows, Cols, Contig] : {std::tuple<int64_t, int64_t, unsigned>{128, 64, 1},
                                    {64, 128, 1}, {64, 32, 1}, {32, 16, 1}, {64, 64, 0}}) {
    LinearLayout L = swizzledSharedLayout({Rows, Cols}, Contig, 2);
    LinearLayout Inv = L.invert(); // coordinates -> offset
    int64_t Inner = Contig == 1 ? Cols : Rows, Outer = Contig == 1 ? Rows : Cols;
    auto Offset = [&](int64_t Row, int64_t Col) {
      Coord C = Contig == 1 ? Coord{int32_t(Row), int32_t(Col)} : Coord{int32_t(Col), int32_t(Row)};
      return Inv.apply(C)[0];
    };
    // The 16-byte chunk of 4-byte banks (0..7 in a 128-byte line) an
    // element lands in.
    auto BankGroup = [&](int64_t Row, int64_t Col) { return (Offset(Row, Col) * 2 / 16) % 8; };
    for (int64_t Row0 = 0; Row0 < Outer; Row0 += 8)
      for (int64_t Col = 0; Col < Inner; Col += 8) {
        // ldmatrix: 8 consecutive rows at one chunk, one 128-byte wavefront.
        std::set<int64_t> Groups;
        for (int64_t R = 0; R < 8; ++R)
          Groups.insert(BankGroup(Row0 + R, Col));
        CHECK(Groups.size() == 8);
        // The chunk stays contiguous and aligned.
        CHECK(Offset(Row0, Col) % 8 == 0);
        CHECK(Offset(Row0, Col + 7) == Offset(Row0, Col) + 7);
      }
    // 16-byte writes by 8 lanes of consecutive chunks (wrapping rows).
    for (int64_t First = 0; First < Outer * Inner / 8; First += 8) {
      std::set<int64_t> Groups;
      for (int64_t Q = 0; Q < 8; ++Q) {
        int64_t Chunk = First + Q;
        Groups.insert(BankGroup(Chunk * 8 / Inner, Chunk * 8 % Inner));
      }
      CHECK(Groups.size() == 8);
    }
  }
}

TEST_CASE("an A operand staged row-major fits ldmatrix: registers pair along K") {
  // The map (register, lane, warp) -> offset of the A operand in the
  // swizzled buffer: register 0 and lanes 0, 1 step through a 16-byte row,
  // every other bit moves by whole rows (what LowerSharedMemory checks).
  LinearLayout A = mmaOperandLayout(0, {64, 32}, {64, 64}, 4);
  LinearLayout ToOffset = A.compose(swizzledSharedLayout({64, 32}, 1, 2).invert());
  CHECK(ToOffset.getBases(kRegister)[0][0] == 1);
  CHECK(ToOffset.getBases(kLane)[0][0] == 2);
  CHECK(ToOffset.getBases(kLane)[1][0] == 4);
  for (const LinearLayout::InDim &In : ToOffset.getInDims())
    for (unsigned Bit = 0; Bit < In.Bases.size(); ++Bit)
      if (!(In.Name == kRegister && Bit == 0) && !(In.Name == kLane && Bit < 2))
        CHECK(In.Bases[Bit][0] % 8 == 0);
  // B staged with N contiguous fits the transposed load: lanes 2..4 step
  // through a row.
  LinearLayout B = mmaOperandLayout(1, {32, 64}, {64, 64}, 4);
  LinearLayout BOff = B.compose(swizzledSharedLayout({32, 64}, 1, 2).invert());
  CHECK(BOff.getBases(kLane)[2][0] == 1);
  CHECK(BOff.getBases(kLane)[3][0] == 2);
  CHECK(BOff.getBases(kLane)[4][0] == 4);
}

TEST_CASE("chained dots put every warp along M; the accumulator says which") {
  MMAWarps W = mmaWarpsAlongM({128, 64}, 4);
  CHECK(W.M == 4);
  CHECK(W.N == 1);
  // Too few rows for every warp: the usual tiling.
  CHECK(mmaWarpsAlongM({32, 64}, 4).M == mmaWarps({32, 64}, 4).M);
  LinearLayout Chained = mmaAccumulatorLayout({128, 64}, W);
  CHECK(Chained.str() == "register=[[0,1],[8,0],[0,8],[0,16],[0,32],[64,0]] "
                         "lane=[[0,2],[0,4],[1,0],[2,0],[4,0]] warp=[[16,0],[32,0]] "
                         "-> dim0:128, dim1:64");
  CHECK(matchMMAAccumulator(Chained, {128, 64})->M == 4);
  CHECK(matchMMAAccumulator(mmaAccumulatorLayout({128, 64}, 4u), {128, 64})->M == 2);
  CHECK_FALSE(matchMMAAccumulator(blockedLayout({128, 64}, defaultBlockedParams(
                                      {128, 64}, {1, 4}, {1, 0}, 4)),
                                  {128, 64}));
  // The accumulator of a [128, 64] dot and the A operand of a [128, 64] x
  // [64, N] dot hold the same elements in the same threads: P of attention
  // passes by renaming registers.
  LinearLayout A = mmaOperandLayout(0, {128, 64}, {128, 64}, W);
  CHECK(A.getBases(kLane) == Chained.getBases(kLane));
  CHECK(A.getBases(kWarp) == Chained.getBases(kWarp));
  std::set<std::pair<int32_t, int32_t>> RegsA, RegsC;
  for (int32_t R = 0; R < 64; ++R) {
    Coord CA = A.applyIn(kRegister, R), CC = Chained.applyIn(kRegister, R);
    RegsA.insert({CA[0], CA[1]});
    RegsC.insert({CC[0], CC[1]});
  }
  CHECK(RegsA == RegsC);
}

TEST_CASE("MFMA accumulator layouts match the CDNA3 ISA's D fragments") {
  for (bool Transposed : {false, true})
    for (unsigned T : {32u, 16u})
      for (auto [M, N, Warps] : {std::tuple<int64_t, int64_t, unsigned>{128, 128, 4},
                                 {64, 32, 2}, {32, 32, 1}}) {
        LinearLayout L = mfmaAccumulatorLayout({M, N}, Warps, T, Transposed);
        MMAWarps W = mfmaWarps({M, N}, Warps, T);
        CHECK(L.isSurjective());
        for (int32_t Warp = 0; Warp < int32_t(Warps); ++Warp)
          for (int32_t Lane = 0; Lane < 64; ++Lane)
            for (int32_t V = 0; V < (T == 32 ? 16 : 4); ++V) {
              // D value v of lane l: column l % T; row (v % 4) + 8 (v / 4)
              // + 4 (l / 32) on 32x32 tiles, v + 4 (l / 16) on 16x16 ones.
              // Transposed, the instruction's row is the tile's column.
              int32_t Row = T == 32 ? V % 4 + 8 * (V / 4) + 4 * (Lane / 32) : V + 4 * (Lane / 16);
              int32_t Col = Lane % int32_t(T);
              if (Transposed)
                std::swap(Row, Col);
              int32_t WM = Warp % int32_t(W.M), WN = Warp / int32_t(W.M);
              Coord Want = {int32_t((int64_t(T) * WM) % M) + Row,
                            int32_t((int64_t(T) * WN) % N) + Col};
              CHECK(L.apply({V, Lane, Warp}) == Want);
            }
      }
  CHECK(mfmaAccumulatorLayout({32, 32}, 1, 32, false).str() ==
        "register=[[1,0],[2,0],[8,0],[16,0]] lane=[[0,1],[0,2],[0,4],[0,8],[0,16],[4,0]] "
        "warp=[] -> dim0:32, dim1:32");
  // Transposed: four consecutive columns in a lane's first registers.
  LinearLayout Tr = mfmaAccumulatorLayout({32, 32}, 1, 32, true);
  CHECK(Tr.str() == "register=[[0,1],[0,2],[0,8],[0,16]] lane=[[1,0],[2,0],[4,0],[8,0],[16,0],"
                    "[0,4]] warp=[] -> dim0:32, dim1:32");
  CHECK(Tr.getNumConsecutiveInOut(kRegister, "dim1") == 4);
}

TEST_CASE("MFMA operand layouts: 16 bytes of K a lane, the instruction's K split") {
  // f16, 32x32 tiles: a lane holds 8 consecutive K of one row of A (16
  // bytes), lanes 32..63 the next 8; a chunk of K = 16 is two
  // v_mfma_f32_32x32x8f16, each taking 4 of the 8.
  LinearLayout A = mfmaOperandLayout(0, {32, 32}, {32, 32}, 1, 32, 8);
  CHECK(A.str() == "register=[[0,1],[0,2],[0,4],[0,16]] "
                   "lane=[[1,0],[2,0],[4,0],[8,0],[16,0],[0,8]] warp=[] -> dim0:32, dim1:32");
  LinearLayout B = mfmaOperandLayout(1, {32, 32}, {32, 32}, 1, 32, 8);
  CHECK(B.str() == "register=[[1,0],[2,0],[4,0],[16,0]] "
                   "lane=[[0,1],[0,2],[0,4],[0,8],[0,16],[8,0]] warp=[] -> dim0:32, dim1:32");
  for (unsigned T : {32u, 16u})
    for (unsigned W : {8u, 4u, 16u}) {
      int64_t Chunk = int64_t(W) * 64 / T;
      LinearLayout LA = mfmaOperandLayout(0, {64, 2 * Chunk}, {64, 64}, 4, T, W);
      LinearLayout LB = mfmaOperandLayout(1, {2 * Chunk, 64}, {64, 64}, 4, T, W);
      CHECK(LA.isSurjective());
      CHECK(LB.isSurjective());
      // Register i of lane l: row (A) or column (B) l % T, K = W (l / T) + i.
      for (int32_t Lane = 0; Lane < 64; ++Lane)
        for (int32_t I = 0; I < int32_t(W); ++I) {
          int32_t K = int32_t(W) * (Lane / int32_t(T)) + I;
          CHECK(LA.apply({I, Lane, 0}) == Coord{Lane % int32_t(T), K});
          CHECK(LB.apply({I, Lane, 0}) == Coord{K, Lane % int32_t(T)});
        }
    }
  // 16-byte accesses a lane from a K-contiguous swizzled buffer.
  LinearLayout ToOffset = A.compose(swizzledSharedLayout({32, 32}, 1, 2).invert());
  for (unsigned Bit = 0; Bit < 3; ++Bit)
    CHECK(ToOffset.getBases(kRegister)[Bit][0] == int32_t(1u << Bit));
}

TEST_CASE("MFMA tiles: 32 where M and N have room, 16 below, none under 16") {
  Context Ctx;
  CHECK(mfmaTileFor(128, 128, 64, mfmaLoadWidth(Type::getF16(Ctx))) == 32);
  CHECK(mfmaTileFor(16, 64, 64, mfmaLoadWidth(Type::getF16(Ctx))) == 16);
  CHECK(mfmaTileFor(128, 128, 8, mfmaLoadWidth(Type::getF16(Ctx))) == 0); // K under one chunk
  CHECK(mfmaTileFor(8, 64, 64, mfmaLoadWidth(Type::getF32(Ctx))) == 0);
  CHECK(mfmaTileFor(32, 32, 32, mfmaLoadWidth(Type::getInt(Ctx, 8))) == 32);
  CHECK(mfmaLoadWidth(Type::getBF16(Ctx)) == 8);
}
