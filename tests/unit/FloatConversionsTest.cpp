//===- FloatConversionsTest.cpp - fp8 constants round as conversions do ---===//
//
// A constant of an fp8 type must have the bits its value gets from a
// conversion at run time (f32ToFP8: round to nearest even, saturating, one
// NaN), as the interpreter gives them; LLVM's own conversion makes values
// out of range NaN (e4m3fn) or infinite (e5m2). f32ToFP8's IR is evaluated
// here by LLVM's constant folder on constant inputs.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/FloatConversions.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace tritium;

namespace {

/// f32ToFP8(F) evaluated by folding its instructions one by one.
uint8_t convertedAtRunTime(float F, Type::Kind K) {
  llvm::LLVMContext Ctx;
  llvm::Module M("fold", Ctx);
  auto *Fn = llvm::Function::Create(llvm::FunctionType::get(llvm::Type::getInt8Ty(Ctx), false),
                                    llvm::Function::ExternalLinkage, "f", M);
  llvm::IRBuilder<> B(llvm::BasicBlock::Create(Ctx, "entry", Fn));
  llvm::Value *R = f32ToFP8(B, llvm::ConstantFP::get(B.getFloatTy(), F), K);
  B.CreateRet(R);
  for (llvm::Instruction &I : llvm::make_early_inc_range(Fn->getEntryBlock())) {
    if (llvm::Constant *C = llvm::ConstantFoldInstruction(&I, M.getDataLayout())) {
      I.replaceAllUsesWith(C);
      I.eraseFromParent();
    }
  }
  auto *Ret = llvm::cast<llvm::ReturnInst>(Fn->getEntryBlock().getTerminator());
  auto *C = llvm::dyn_cast<llvm::ConstantInt>(Ret->getReturnValue());
  REQUIRE(C);
  return uint8_t(C->getZExtValue());
}

float fromBits(uint32_t Bits) {
  float F;
  std::memcpy(&F, &Bits, 4);
  return F;
}

/// Values around every fp8 number of each format (exact, halfway, just
/// off halfway), the edges of the range, infinities, NaN, and random floats.
std::vector<float> probes() {
  std::vector<float> V = {0.0f, -0.0f, 1e-30f, 1.0f, 1.75f, 1.8f, 1.875f, 2.0f, 240.0f, 448.0f,
                          464.0f, 480.0f, 1000.0f, 57344.0f, 61440.0f, 65536.0f, 1e30f,
                          std::numeric_limits<float>::max(),
                          std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN()};
  for (int E = -20; E <= 17; ++E)
    for (int M = 0; M < 16; ++M)
      for (float Off : {0.0f, 1.0f / 64, -1.0f / 64})
        V.push_back(std::ldexp(1.0f + M / 16.0f + Off / 8, E));
  std::mt19937 Rng(7);
  std::uniform_int_distribution<uint32_t> Bits;
  for (int I = 0; I < 4000; ++I)
    V.push_back(fromBits(Bits(Rng)));
  size_t N = V.size();
  for (size_t I = 0; I < N; ++I)
    V.push_back(-V[I]);
  return V;
}

} // namespace

TEST_CASE("an fp8 constant has the bits a conversion at run time gives") {
  for (Type::Kind K : {Type::Kind::F8E4M3, Type::Kind::F8E5M2, Type::Kind::F8E4M3B15})
    for (float F : probes()) {
      CAPTURE(unsigned(K));
      CAPTURE(F);
      CHECK(fp8ConstantBits(double(F), K) == convertedAtRunTime(F, K));
    }
}

TEST_CASE("fp8 constants out of range saturate; NaN keeps its sign") {
  CHECK(fp8ConstantBits(1000.0, Type::Kind::F8E4M3) == 0x7E);  // 448, not NaN
  CHECK(fp8ConstantBits(-1e30, Type::Kind::F8E4M3) == 0xFE);
  CHECK(fp8ConstantBits(1e6, Type::Kind::F8E5M2) == 0x7B);     // 57344, not inf
  CHECK(fp8ConstantBits(INFINITY, Type::Kind::F8E5M2) == 0x7B);
  CHECK(fp8ConstantBits(2.0, Type::Kind::F8E4M3B15) == 0x7E);  // 1.75
  CHECK(fp8ConstantBits(NAN, Type::Kind::F8E4M3) == 0x7F);
  CHECK(fp8ConstantBits(-NAN, Type::Kind::F8E5M2) == 0xFF);
  CHECK(fp8ConstantBits(1.5, Type::Kind::F8E4M3) == 0x3C);
}
