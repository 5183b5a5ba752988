//===- Layouts.cpp - The familiar layouts as linear layouts ---------------===//

#include "analysis/Layouts.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace tritium;

std::string tritium::outDimName(unsigned I) { return "dim" + std::to_string(I); }

namespace {
/// Renames outputs to dim0..dimN-1 in their current order.
LinearLayout renumberOuts(const LinearLayout &L) {
  llvm::SmallVector<LinearLayout::OutDim, 4> Outs;
  for (unsigned K = 0; K < L.getOutDims().size(); ++K)
    Outs.push_back({outDimName(K), L.getOutDims()[K].Size});
  llvm::SmallVector<LinearLayout::InDim, 3> Ins(L.getInDims().begin(), L.getInDims().end());
  return LinearLayout(Ins, Outs);
}

/// Puts outputs in dim0..dimN-1 order and makes sure every hardware
/// dimension exists (possibly with no bits), in register, lane, warp order.
LinearLayout canonicalize(const LinearLayout &L, unsigned Rank) {
  llvm::SmallVector<unsigned, 4> Order;
  for (unsigned D = 0; D < Rank; ++D)
    for (unsigned K = 0; K < L.getOutDims().size(); ++K)
      if (L.getOutDims()[K].Name == outDimName(D))
        Order.push_back(K);
  LinearLayout T = L.transposeOuts(Order);
  llvm::SmallVector<LinearLayout::InDim, 3> Ins;
  for (const char *Name : {kRegister, kLane, kWarp}) {
    LinearLayout::InDim I{Name, {}};
    for (const auto &B : T.getBases(Name))
      I.Bases.push_back(B);
    Ins.push_back(std::move(I));
  }
  return LinearLayout(Ins, T.getOutDims());
}
} // namespace

LinearLayout tritium::blockedLayout(llvm::ArrayRef<int64_t> Shape, const BlockedParams &P) {
  unsigned Rank = Shape.size();
  assert(P.SizePerThread.size() == Rank && P.ThreadsPerWarp.size() == Rank &&
         P.WarpsPerCTA.size() == Rank && P.Order.size() == Rank &&
         "blocked parameters of the wrong rank");
  // One CTA tile: registers, then lanes, then warps, fastest dimension first.
  LinearLayout Tile;
  for (unsigned D : P.Order) {
    std::string Out = outDimName(D);
    Tile *= LinearLayout::identity1D(P.SizePerThread[D], kRegister, Out) *
            LinearLayout::identity1D(P.ThreadsPerWarp[D], kLane, Out) *
            LinearLayout::identity1D(P.WarpsPerCTA[D], kWarp, Out);
  }
  // Repeat the tile over registers where the block is larger.
  for (unsigned D : P.Order) {
    int64_t TileSize = int64_t(P.SizePerThread[D]) * P.ThreadsPerWarp[D] * P.WarpsPerCTA[D];
    if (Shape[D] > TileSize)
      Tile *= LinearLayout::identity1D(int32_t(Shape[D] / TileSize), kRegister, outDimName(D));
  }
  LinearLayout L = canonicalize(Tile, Rank);
  // Clip where the block is smaller: bases reaching past the shape become
  // copies (lanes, warps) or are dropped (registers would only duplicate).
  llvm::SmallVector<LinearLayout::InDim, 3> Ins;
  for (const auto &In : L.getInDims()) {
    LinearLayout::InDim N{In.Name, {}};
    for (LinearLayout::Basis B : In.Bases) {
      bool Outside = false;
      for (unsigned K = 0; K < Rank; ++K)
        if (B[K] >= Shape[K]) {
          Outside = true;
          B[K] = 0;
        }
      if (Outside && In.Name == kRegister)
        continue;
      N.Bases.push_back(B);
    }
    Ins.push_back(std::move(N));
  }
  llvm::SmallVector<LinearLayout::OutDim, 4> Outs;
  for (unsigned K = 0; K < Rank; ++K)
    Outs.push_back({outDimName(K), int32_t(Shape[K])});
  return LinearLayout(Ins, Outs);
}

BlockedParams tritium::defaultBlockedParams(llvm::ArrayRef<int64_t> Shape,
                                            llvm::ArrayRef<unsigned> SizePerThread,
                                            llvm::ArrayRef<unsigned> Order, unsigned NumWarps,
                                            unsigned WarpSize) {
  unsigned Rank = Shape.size();
  BlockedParams P;
  P.SizePerThread.assign(SizePerThread.begin(), SizePerThread.end());
  P.Order.assign(Order.begin(), Order.end());
  P.ThreadsPerWarp.assign(Rank, 1);
  P.WarpsPerCTA.assign(Rank, 1);
  unsigned Lanes = WarpSize, Warps = NumWarps, Threads = NumWarps * WarpSize;
  unsigned UsedLanes = 1, UsedWarps = 1;
  // Every dimension but the slowest takes as many threads as it has room
  // for; the slowest takes what is left, so the whole CTA is always used.
  for (unsigned K = 0; K + 1 < Rank; ++K) {
    unsigned D = Order[K];
    unsigned Room = unsigned(std::max<int64_t>(1, Shape[D] / SizePerThread[D]));
    unsigned ThreadsHere = std::clamp(Threads, 1u, Room);
    P.ThreadsPerWarp[D] = std::clamp(ThreadsHere, 1u, Lanes);
    P.WarpsPerCTA[D] = std::clamp(ThreadsHere / P.ThreadsPerWarp[D], 1u, Warps);
    Lanes /= P.ThreadsPerWarp[D];
    Warps /= P.WarpsPerCTA[D];
    Threads /= ThreadsHere;
    UsedLanes *= P.ThreadsPerWarp[D];
    UsedWarps *= P.WarpsPerCTA[D];
  }
  P.ThreadsPerWarp[Order[Rank - 1]] = WarpSize / UsedLanes;
  P.WarpsPerCTA[Order[Rank - 1]] = NumWarps / UsedWarps;
  return P;
}

LinearLayout tritium::sliceLayout(const LinearLayout &Parent, unsigned Dim) {
  return renumberOuts(Parent.dropOut(outDimName(Dim))).removeZeroBases(kRegister);
}

LinearLayout tritium::expandDimsLayout(const LinearLayout &L, unsigned Dim) {
  llvm::SmallVector<LinearLayout::OutDim, 4> Outs;
  unsigned Rank = L.getOutDims().size();
  for (unsigned K = 0, Src = 0; K <= Rank; ++K)
    Outs.push_back({outDimName(K), K == Dim ? 1 : L.getOutDims()[Src++].Size});
  llvm::SmallVector<LinearLayout::InDim, 3> Ins;
  for (const auto &In : L.getInDims()) {
    LinearLayout::InDim N{In.Name, {}};
    for (const auto &B : In.Bases) {
      LinearLayout::Basis NB(B.begin(), B.end());
      NB.insert(NB.begin() + Dim, 0);
      N.Bases.push_back(NB);
    }
    Ins.push_back(std::move(N));
  }
  return LinearLayout(Ins, Outs);
}

std::optional<llvm::SmallVector<int32_t, 16>> tritium::registerMapping(const LinearLayout &Src,
                                                                       const LinearLayout &Dst) {
  if (Src.getOutDims() != Dst.getOutDims())
    return std::nullopt;
  for (const char *Dim : {kLane, kWarp})
    if (Src.getBases(Dim) != Dst.getBases(Dim))
      return std::nullopt;
  llvm::ArrayRef<LinearLayout::Basis> Regs = Dst.getBases(kRegister);
  unsigned Rank = Dst.getOutDims().size();
  llvm::SmallVector<int32_t, 16> Map;
  for (uint32_t R = 0; R < (1u << Regs.size()); ++R) {
    LinearLayout::Basis Coord(Rank, 0);
    for (unsigned B = 0; B < Regs.size(); ++B)
      if (R >> B & 1)
        for (unsigned D = 0; D < Rank; ++D)
          Coord[D] ^= Regs[B][D];
    std::optional<int32_t> From = Src.findInput(kRegister, Coord);
    if (!From)
      return std::nullopt;
    Map.push_back(*From);
  }
  return Map;
}
