// Tests of analysis/MatrixCores.h: the targets' folders register their
// matrix units, and the layout rules place a dot on the units the options
// name, and read an operand's layout off whichever units the result's
// layout belongs to; assign-layouts takes one target's units at most. Units
// that read operands from shared memory answer their buffers' layouts, and
// tensor copies which buffers they fill.
#include "analysis/DotLayouts.h"
#include "analysis/LayoutRules.h"
#include "analysis/MatrixCores.h"
#include "analysis/TensorCopies.h"
#include "codegen/nvptx/WGMMALayouts.h"
#include "ir/Context.h"
#include "ir/Diagnostics.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "codegen/Passes.h"

#include <doctest/doctest.h>

using namespace tritium;

namespace {
const char *Dot = R"(kernel @k(%p: ptr<f16>, %q: ptr<f32>) {
bb0:
  %a = splat %p : <64 x 32 x ptr<f16>>
  %x = load %a : <64 x 32 x f16>
  %b = splat %p : <32 x 64 x ptr<f16>>
  %y = load %b : <32 x 64 x f16>
  %z = constant 0.0 : <64 x 64 x f32>
  %d = dot %x, %y, %z : <64 x 64 x f32>
  ret
}
)";

Instruction &dotOf(Module &M) {
  for (BasicBlock &B : *M.functions().front())
    for (Instruction &I : B)
      if (I.getOpcode() == Opcode::Dot)
        return I;
  FAIL("no dot");
  throw;
}
} // namespace

TEST_CASE("the targets' matrix units are registered, and place the dots they take") {
  const MatrixCores *MMA = getMatrixCores("mma"), *WGMMA = getMatrixCores("wgmma"),
                    *MFMA = getMatrixCores("mfma");
  REQUIRE(MMA);
  REQUIRE(WGMMA);
  REQUIRE(MFMA);
  CHECK_FALSE(getMatrixCores("tensor-cores"));
  CHECK(allMatrixCores().size() >= 3);

  Context Ctx;
  std::unique_ptr<Module> M = parseModule(Dot, Ctx);
  Instruction &D = dotOf(*M);
  LayoutOptions O; // 4 warps of 32 lanes
  LinearLayout FMA = dotLayout(D, O);
  O.Cores = MMA;
  LinearLayout Acc = dotLayout(D, O);
  CHECK(Acc != FMA);
  CHECK(Acc == *MMA->accumulatorLayout(D, O));
  // wgmma's accumulator: every warp along M.
  O.Cores = WGMMA;
  CHECK(dotLayout(D, O) != Acc);
  // MFMA's units are wave64's: on 32 lanes the dot is FMA's.
  O.Cores = MFMA;
  CHECK(dotLayout(D, O) == FMA);
  LayoutOptions Wave64{4, 64, MFMA};
  LinearLayout MFMAAcc = dotLayout(D, Wave64);
  CHECK(MFMAAcc != fmaDotLayout({64, 64}, Wave64));

  // An operand's layout follows the result's: whose accumulator it is.
  std::optional<LinearLayout> A = requiredOperandLayout(D, 0, Acc);
  REQUIRE(A);
  CHECK(A == MMA->operandLayout(D, 0, Acc));
  CHECK_FALSE(MFMA->operandLayout(D, 0, Acc));
  CHECK(requiredOperandLayout(D, 1, MFMAAcc) == MFMA->operandLayout(D, 1, MFMAAcc));
  CHECK_FALSE(requiredOperandLayout(D, 0, FMA));
  CHECK(requiredOperandLayout(D, 2, FMA) == FMA);
}

TEST_CASE("assign-layouts takes one target's matrix units") {
  PassRegistry &R = PassRegistry::global();
  registerAllPasses(R);
  PassManager PM;
  CHECK_THROWS_WITH_AS(R.parsePipeline("assign-layouts{num-warps=4,mma=1,mfma=1}", PM),
                       "assign-layouts takes one target's matrix units, not two",
                       CompileError);
  CHECK_NOTHROW(R.parsePipeline("assign-layouts{num-warps=4,mma=0,wgmma=1}", PM));
}

TEST_CASE("units that read shared memory themselves say how; tensor copies which buffers they fill") {
  const MatrixCores *MMA = getMatrixCores("mma"), *WGMMA = getMatrixCores("wgmma");
  Context Ctx;
  auto Staged = [&](const char *Units) {
    std::unique_ptr<Module> M = parseModule(Dot, Ctx);
    PassRegistry &R = PassRegistry::global();
    registerAllPasses(R);
    PassManager PM;
    R.parsePipeline(std::string("assign-layouts{num-warps=4,") + Units +
                        "=1},remove-layout-conversions,stage-dot-operands{" + Units + "=1}",
                    PM);
    PM.run(*M);
    return M;
  };
  auto BufferOf = [](const Instruction &D, unsigned K) {
    const Instruction *Load = D.getOperand(K)->getDefiningInstruction();
    REQUIRE(Load->getOpcode() == Opcode::LocalLoad);
    return llvm::cast<MemDescType>(Load->getOperand(0)->getType());
  };

  // wgmma's dot: each operand staged in the layout wgmma answers for it
  // (its first offset bit names the contiguous dimension), which TMA
  // fills; mma.sync answers none. Rows longer than 128 bytes are where
  // NVMMA's column blocks differ from the generic swizzle; M/N-major rows
  // shorter than 128 bytes take none.
  std::unique_ptr<Module> W = Staged("wgmma");
  Instruction &D = dotOf(*W);
  for (unsigned K = 0; K < 2; ++K) {
    const MemDescType *Buf = BufferOf(D, K);
    unsigned Contiguous = Buf->getLayout().getBases("offset")[0][0] ? 0 : 1;
    std::optional<LinearLayout> Answer =
        WGMMA->sharedOperandLayout(D, K, Buf->getBufferShape(), Contiguous, 2);
    REQUIRE(Answer);
    CHECK(Buf->getLayout() == *Answer);
    CHECK(tensorCopiesFill(*Buf));
    CHECK_FALSE(MMA->sharedOperandLayout(D, K, Buf->getBufferShape(), Contiguous, 2));
  }
  std::optional<LinearLayout> Wide = WGMMA->sharedOperandLayout(D, 1, {32, 128}, 1, 2);
  REQUIRE(Wide);
  CHECK(*Wide == *nvmmaSharedLayout({32, 128}, 1, 2));
  CHECK(*Wide != swizzledSharedLayout({32, 128}, 1, 2));
  CHECK_FALSE(WGMMA->sharedOperandLayout(D, 1, {32, 32}, 1, 2));
  // It runs asynchronously; outside a loop it stays in flight nowhere.
  CHECK(WGMMA->runsAsynchronously(D));
  CHECK_FALSE(MMA->runsAsynchronously(D));
  CHECK_FALSE(WGMMA->staysInFlight(D));
  CHECK(allTensorCopies().count("tma"));
  // Placed for mma.sync, wgmma does not run it.
  std::unique_ptr<Module> S = Staged("mma");
  CHECK_FALSE(WGMMA->runsAsynchronously(dotOf(*S)));

  PassManager PM;
  CHECK_THROWS_WITH_AS(PassRegistry::global().parsePipeline("stage-dot-operands{mma=1,wgmma=1}", PM),
                       "stage-dot-operands takes one target's matrix units, not two",
                       CompileError);
  CHECK_THROWS_AS(PassRegistry::global().parsePipeline("stage-dot-operands{nvmma=1}", PM),
                  CompileError);
  CHECK_NOTHROW(PassRegistry::global().parsePipeline("pipeline{num-stages=2,mfma=1}", PM));
}
