//===- AMDGPUMatrixCores.cpp - MFMA for the layout rules ------------------===//
//
// AMD's matrix units as analysis/MatrixCores.h asks for them: "mfma" (CDNA's
// v_mfma on wave64), in codegen/amdgpu/MFMALayouts.h's layouts.
//
//===----------------------------------------------------------------------===//

#include "analysis/LayoutRules.h"
#include "codegen/amdgpu/MFMALayouts.h"
#include "analysis/MatrixCores.h"
#include "ir/Instruction.h"

using namespace tritium;

namespace {
class MFMACores : public MatrixCores {
public:
  std::optional<LinearLayout> accumulatorLayout(const Instruction &Dot,
                                                const LayoutOptions &Opts) const override {
    if (Opts.WarpSize != 64)
      return std::nullopt;
    if (std::optional<MFMAConfig> C = chooseMFMA(Dot, Opts.NumWarps))
      return mfmaAccumulatorLayout(Dot.getResult(0)->getType()->getShape(), *C);
    return std::nullopt;
  }

  std::optional<LinearLayout> operandLayout(const Instruction &Dot, unsigned K,
                                            const LinearLayout &Result) const override {
    if (!Result.hasInDim(kWarp) || Result.getInDimSizeLog2(kLane) != 6)
      return std::nullopt;
    llvm::ArrayRef<int64_t> Shape = Dot.getResult(0)->getType()->getShape();
    std::optional<MFMAConfig> C = chooseMFMA(Dot, unsigned(Result.getInDimSize(kWarp)));
    if (!C)
      return std::nullopt;
    // The accumulator in either variant.
    MFMAConfig Plain = *C;
    Plain.Transposed = false;
    if (Result != mfmaAccumulatorLayout(Shape, *C) && Result != mfmaAccumulatorLayout(Shape, Plain))
      return std::nullopt;
    return mfmaOperandLayout(K, Dot.getOperand(K)->getType()->getShape(), Shape, *C);
  }

  bool places(const Instruction &Dot) const override { return isMFMADot(Dot); }
};

const bool Registered = (registerMatrixCores("mfma", std::make_unique<MFMACores>()), true);
} // namespace
