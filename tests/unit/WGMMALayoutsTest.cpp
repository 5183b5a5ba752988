// Hopper's wgmma: the NVMMA shared layout checked byte by byte against the
// PTX ISA's swizzles (the 16-byte chunk index XORed with address bits 7 and
// up, in atoms of 8 rows of S = 128, 64 or 32 bytes; column blocks of S
// bytes last), and the memdesc match.
#include "codegen/nvptx/MMALayouts.h"
#include "codegen/nvptx/WGMMALayouts.h"
#include "ir/Context.h"
#include "ir/Types.h"

#include <doctest/doctest.h>

using namespace tritium;

TEST_CASE("the NVMMA layout is the PTX ISA's 128-, 64- or 32-byte swizzle") {
  CHECK(nvmmaSwizzleBytes(256) == 128);
  CHECK(nvmmaSwizzleBytes(128) == 128);
  CHECK(nvmmaSwizzleBytes(64) == 64);
  CHECK(nvmmaSwizzleBytes(32) == 32);
  CHECK(nvmmaSwizzleBytes(16) == 0);
  CHECK(nvmmaSwizzleBytes(96) == 0);
  for (auto [D0, D1, Contig, Bytes] :
       {std::tuple<int64_t, int64_t, unsigned, int64_t>{128, 64, 1, 2}, {64, 128, 1, 2},
        {64, 128, 0, 2}, {128, 256, 0, 2}, {8, 64, 1, 2}, {128, 32, 1, 2}, {32, 64, 0, 2},
        {64, 16, 1, 2}, {128, 64, 1, 1}, {64, 64, 0, 1}, {64, 32, 1, 1}, {64, 256, 1, 1}}) {
    std::optional<LinearLayout> L = nvmmaSharedLayout({D0, D1}, Contig, unsigned(Bytes));
    REQUIRE(L);
    CHECK(L->isInjective());
    LinearLayout Inv = L->invert(); // coordinates -> element offset
    int64_t Inner = Contig == 1 ? D1 : D0, Rows = Contig == 1 ? D0 : D1;
    int64_t S = nvmmaSwizzleBytes(Inner * Bytes), RowElems = S / Bytes, Vec = 16 / Bytes;
    for (int64_t R = 0; R < Rows; ++R)
      for (int64_t I = 0; I < Inner; ++I) {
        LinearLayout::Basis C = Contig == 1 ? LinearLayout::Basis{int32_t(R), int32_t(I)}
                                            : LinearLayout::Basis{int32_t(I), int32_t(R)};
        int64_t Byte = int64_t(Inv.apply(C)[0]) * Bytes;
        int64_t Block = I / RowElems, InRow = I % RowElems;
        int64_t Flip = ((R * S) >> 7) & (S / 16 - 1);
        int64_t Want = Block * Rows * S + R * S + (((InRow / Vec) ^ Flip) * 16) +
                       (InRow % Vec) * Bytes;
        if (Byte != Want) {
          FAIL_CHECK("element (" << C[0] << ", " << C[1] << ") of " << S
                                 << "-byte rows at byte " << Byte << ", not " << Want);
          return;
        }
      }
  }
  // Rows of 128 and 64 bytes: the swizzled layout mma.sync's operands use.
  CHECK(*nvmmaSharedLayout({128, 64}, 1, 2) == swizzledSharedLayout({128, 64}, 1, 2));
  CHECK(*nvmmaSharedLayout({64, 64}, 0, 2) == swizzledSharedLayout({64, 64}, 0, 2));
  CHECK(*nvmmaSharedLayout({128, 64}, 1, 1) == swizzledSharedLayout({128, 64}, 1, 1));
  // Rows of 16 or 96 bytes, or fewer than 8 rows: none.
  CHECK(!nvmmaSharedLayout({128, 8}, 1, 2));
  CHECK(!nvmmaSharedLayout({128, 48}, 1, 2));
  CHECK(!nvmmaSharedLayout({4, 64}, 1, 2));
  CHECK(nvmmaSharedLayout({64, 32}, 1, 4)); // f32: 32 elements a row
}

TEST_CASE("a memdesc in the NVMMA layout names its contiguous dimension") {
  Context Ctx;
  Type *F16 = Type::getF16(Ctx);
  auto Mem = [&](llvm::ArrayRef<int64_t> Dims, const LinearLayout &L) {
    return MemDescType::get(F16, Dims, L, true);
  };
  CHECK(nvmmaContiguousDim(*Mem({64, 128}, *nvmmaSharedLayout({64, 128}, 1, 2))) == 1u);
  CHECK(nvmmaContiguousDim(*Mem({3, 64, 128}, *nvmmaSharedLayout({64, 128}, 0, 2))) == 0u);
  // 256-byte rows: the swizzled layout is not the NVMMA one.
  CHECK(!nvmmaContiguousDim(*Mem({64, 128}, swizzledSharedLayout({64, 128}, 1, 2))));
}
