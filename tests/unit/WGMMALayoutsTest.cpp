// Hopper's wgmma: the NVMMA shared layout checked byte by byte against the
// PTX ISA's 128-byte swizzle (16-byte chunk c of 128-byte row r at chunk
// c ^ (r % 8), 1024-byte atoms of 8 rows, 64-element column blocks
// last), and the memdesc match.
#include "analysis/MMALayouts.h"
#include "analysis/WGMMALayouts.h"
#include "ir/Context.h"
#include "ir/Types.h"

#include <doctest/doctest.h>

using namespace tritium;

TEST_CASE("the NVMMA layout is the PTX ISA's 128-byte swizzle") {
  for (auto [D0, D1, Contig] : {std::tuple<int64_t, int64_t, unsigned>{128, 64, 1},
                                {64, 128, 1}, {64, 128, 0}, {128, 256, 0}, {8, 64, 1}}) {
    std::optional<LinearLayout> L = nvmmaSharedLayout({D0, D1}, Contig, 2);
    REQUIRE(L);
    CHECK(L->isInjective());
    LinearLayout Inv = L->invert(); // coordinates -> element offset
    int64_t Inner = Contig == 1 ? D1 : D0, Rows = Contig == 1 ? D0 : D1;
    for (int64_t R = 0; R < Rows; ++R)
      for (int64_t I = 0; I < Inner; ++I) {
        LinearLayout::Basis C = Contig == 1 ? LinearLayout::Basis{int32_t(R), int32_t(I)}
                                            : LinearLayout::Basis{int32_t(I), int32_t(R)};
        int64_t Byte = int64_t(Inv.apply(C)[0]) * 2;
        int64_t Block = I / 64, InRow = I % 64;
        int64_t Want = Block * Rows * 128 + R * 128 +
                       (((InRow / 8) ^ (R % 8)) * 16) + (InRow % 8) * 2;
        if (Byte != Want) {
          FAIL_CHECK("element (" << C[0] << ", " << C[1] << ") at byte " << Byte << ", not "
                                 << Want);
          return;
        }
      }
  }
  // Rows of 128 bytes: the swizzled layout mma.sync's operands use.
  CHECK(*nvmmaSharedLayout({128, 64}, 1, 2) == swizzledSharedLayout({128, 64}, 1, 2));
  CHECK(*nvmmaSharedLayout({64, 64}, 0, 2) == swizzledSharedLayout({64, 64}, 0, 2));
  // No 128-byte row, or fewer than 8 rows: none.
  CHECK(!nvmmaSharedLayout({128, 32}, 1, 2));
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
