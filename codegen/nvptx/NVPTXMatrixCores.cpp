//===- NVPTXMatrixCores.cpp - mma.sync and wgmma for the layout rules -----===//
//
// NVIDIA's matrix units as analysis/MatrixCores.h asks for them: "mma"
// (mma.sync, sm_80 on) and "wgmma" (sm_90a: the dots that fit wgmma take
// mma.sync's accumulator with every warp along M, wgmma's; the others stay
// on mma.sync). The layouts are codegen/nvptx/MMALayouts.h's and
// WGMMALayouts.h's.
//
//===----------------------------------------------------------------------===//

#include "analysis/LayoutRules.h"
#include "codegen/nvptx/MMALayouts.h"
#include "analysis/MatrixCores.h"
#include "codegen/nvptx/WGMMALayouts.h"
#include "ir/Instruction.h"

using namespace tritium;

namespace {
class NVIDIAMatrixCores : public MatrixCores {
public:
  explicit NVIDIAMatrixCores(bool WGMMA) : WGMMA(WGMMA) {}

  std::optional<LinearLayout> accumulatorLayout(const Instruction &Dot,
                                                const LayoutOptions &Opts) const override {
    if (Opts.WarpSize != 32 || !isMMACandidate(Dot))
      return std::nullopt;
    llvm::ArrayRef<int64_t> Shape = Dot.getResult(0)->getType()->getShape();
    bool AlongM = isChainedDot(Dot) || (WGMMA && isWGMMACandidate(Dot, Opts.NumWarps));
    return mmaAccumulatorLayout(Shape, AlongM ? mmaWarpsAlongM(Shape, Opts.NumWarps)
                                              : mmaWarps(Shape, Opts.NumWarps));
  }

  std::optional<LinearLayout> operandLayout(const Instruction &Dot, unsigned K,
                                            const LinearLayout &Result) const override {
    llvm::ArrayRef<int64_t> Shape = Dot.getResult(0)->getType()->getShape();
    if (std::optional<MMAInstr> X = mmaInstrOf(Dot))
      if (std::optional<MMAWarps> W = matchMMAAccumulator(Result, Shape))
        return mmaOperandLayout(K, Dot.getOperand(K)->getType()->getShape(), Shape, *W,
                                X->KWidth);
    return std::nullopt;
  }

  bool places(const Instruction &Dot) const override { return isMMADot(Dot); }

  // wgmma reads its operands from NVMMA buffers; where K is not the
  // contiguous dimension, only with 128-byte swizzling.
  std::optional<LinearLayout> sharedOperandLayout(const Instruction &Dot, unsigned K,
                                                  llvm::ArrayRef<int64_t> Shape,
                                                  unsigned Contiguous,
                                                  unsigned ElementBytes) const override {
    bool KMajor = Contiguous == (K == 0 ? 1u : 0u);
    if (!WGMMA || !isWGMMADot(Dot) ||
        (!KMajor && nvmmaSwizzleBytes(Shape[Contiguous] * ElementBytes) != 128))
      return std::nullopt;
    return nvmmaSharedLayout(Shape, Contiguous, ElementBytes);
  }

  bool runsAsynchronously(const Instruction &Dot) const override {
    return WGMMA && isWGMMADot(Dot) && nvmmaLoadContiguousDim(Dot.getOperand(0)) &&
           nvmmaLoadContiguousDim(Dot.getOperand(1));
  }

  bool staysInFlight(const Instruction &Dot) const override {
    return WGMMA && wgmmaStaysInFlight(Dot);
  }

private:
  bool WGMMA;
};

const bool Registered = [] {
  registerMatrixCores("mma", std::make_unique<NVIDIAMatrixCores>(false));
  registerMatrixCores("wgmma", std::make_unique<NVIDIAMatrixCores>(true));
  return true;
}();
} // namespace
