//===- PackRegistersTest.cpp - registers packed back into their vector ----===//
//
// packRegisters (LoweringContext.h) packs a run of lowered registers into
// one vector. Registers that are consecutive lanes of one vector give that
// vector back (all of it) or a shuffle of it (a part); anything else is a
// chain of inserts. The decoders of carried floats (bf16, fp8) take vectors
// and give the bits they give lane by lane.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/FloatConversions.h"
#include "codegen/lowering/LoweringContext.h"

#include "llvm/Analysis/ConstantFolding.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"

#include <doctest/doctest.h>

#include <limits>
#include <vector>

using namespace tritium;

namespace {

struct Fixture {
  llvm::LLVMContext Ctx;
  llvm::Module M{"pack", Ctx};
  llvm::Function *Fn;
  llvm::IRBuilder<> B{Ctx};
  llvm::Value *Vec; ///< the function's <8 x float> argument
  Fixture() {
    auto *V8 = llvm::FixedVectorType::get(B.getFloatTy(), 8);
    Fn = llvm::Function::Create(llvm::FunctionType::get(B.getVoidTy(), {V8, B.getFloatTy()}, false),
                                llvm::Function::ExternalLinkage, "f", M);
    B.SetInsertPoint(llvm::BasicBlock::Create(Ctx, "entry", Fn));
    Vec = Fn->getArg(0);
  }
  llvm::SmallVector<llvm::Value *, 8> lanes(unsigned First, unsigned Count) {
    llvm::SmallVector<llvm::Value *, 8> Out;
    for (unsigned K = First; K < First + Count; ++K)
      Out.push_back(B.CreateExtractElement(Vec, uint64_t(K)));
    return Out;
  }
};

/// The value of \p V after folding the function's instructions on constants.
llvm::Constant *fold(llvm::Function &Fn, llvm::Value *V) {
  llvm::DenseMap<llvm::Value *, llvm::Constant *> Folded;
  for (llvm::Instruction &I : llvm::make_early_inc_range(Fn.getEntryBlock()))
    if (llvm::Constant *C = llvm::ConstantFoldInstruction(&I, Fn.getParent()->getDataLayout())) {
      if (&I == V)
        return C;
      I.replaceAllUsesWith(C);
      I.eraseFromParent();
    }
  return llvm::dyn_cast<llvm::Constant>(V);
}

} // namespace

TEST_CASE("all lanes of a vector in order are that vector") {
  Fixture F;
  CHECK(packRegisters(F.B, F.lanes(0, 8)) == F.Vec);
}

TEST_CASE("consecutive lanes of part of a vector are one shuffle of it") {
  Fixture F;
  llvm::Value *V = packRegisters(F.B, F.lanes(4, 4));
  auto *S = llvm::dyn_cast<llvm::ShuffleVectorInst>(V);
  REQUIRE(S);
  CHECK(S->getOperand(0) == F.Vec);
  CHECK(S->getShuffleMask().vec() == std::vector<int>{4, 5, 6, 7});
}

TEST_CASE("lanes out of order, of two vectors, or scalars are inserted") {
  Fixture F;
  llvm::SmallVector<llvm::Value *, 8> Swapped = F.lanes(0, 2);
  std::swap(Swapped[0], Swapped[1]);
  CHECK(llvm::isa<llvm::InsertElementInst>(packRegisters(F.B, Swapped)));
  llvm::SmallVector<llvm::Value *, 8> Mixed = F.lanes(0, 1);
  Mixed.push_back(F.Fn->getArg(1));
  llvm::Value *V = packRegisters(F.B, Mixed);
  auto *Last = llvm::dyn_cast<llvm::InsertElementInst>(V);
  REQUIRE(Last);
  CHECK(Last->getOperand(1) == F.Fn->getArg(1));
  CHECK(llvm::cast<llvm::FixedVectorType>(V->getType())->getNumElements() == 2);
}

TEST_CASE("fp8 and bf16 decode a vector lane by lane as they decode scalars") {
  for (Type::Kind K : {Type::Kind::F8E4M3, Type::Kind::F8E5M2, Type::Kind::F8E4M3B15}) {
    Fixture F;
    llvm::SmallVector<llvm::Constant *, 256> Bits;
    for (unsigned X = 0; X < 256; ++X)
      Bits.push_back(F.B.getInt8(uint8_t(X)));
    llvm::Value *Vec = fp8ToF32(F.B, llvm::ConstantVector::get(Bits), K);
    llvm::Constant *Folded = fold(*F.Fn, Vec);
    REQUIRE(Folded);
    for (unsigned X = 0; X < 256; ++X) {
      llvm::Constant *One = fold(*F.Fn, fp8ToF32(F.B, Bits[X], K));
      REQUIRE(One);
      CHECK(Folded->getAggregateElement(X) == One);
    }
  }
  Fixture F;
  llvm::SmallVector<llvm::Constant *, 4> Bits;
  for (uint16_t X : {0x3F80, 0xC000, 0x7F80, 0x0001})
    Bits.push_back(F.B.getInt16(X));
  llvm::Constant *Folded = fold(*F.Fn, bf16ToF32(F.B, llvm::ConstantVector::get(Bits)));
  REQUIRE(Folded);
  for (unsigned X = 0; X < Bits.size(); ++X)
    CHECK(Folded->getAggregateElement(X) == fold(*F.Fn, bf16ToF32(F.B, Bits[X])));
}

TEST_CASE("fp8 and bf16 encode a vector lane by lane as they encode scalars") {
  std::vector<float> Probes = {0.0f, -0.0f, 1.0f, -1.5f, 0.1f, 3.0e-3f, 448.0f, 449.0f, 57344.0f,
                               1.0e9f, -1.0e-9f, 1.2e-38f, std::numeric_limits<float>::infinity(),
                               std::numeric_limits<float>::quiet_NaN(), 65504.0f, 0.33333334f};
  Fixture F;
  llvm::SmallVector<llvm::Constant *, 16> Floats;
  for (float X : Probes)
    Floats.push_back(llvm::ConstantFP::get(F.B.getFloatTy(), X));
  llvm::Constant *Vec = llvm::ConstantVector::get(Floats);
  for (Type::Kind K : {Type::Kind::F8E4M3, Type::Kind::F8E5M2, Type::Kind::F8E4M3B15}) {
    llvm::Constant *Folded = fold(*F.Fn, f32ToFP8(F.B, Vec, K));
    REQUIRE(Folded);
    for (unsigned X = 0; X < Floats.size(); ++X)
      CHECK(Folded->getAggregateElement(X) == fold(*F.Fn, f32ToFP8(F.B, Floats[X], K)));
  }
  for (RoundingMode M : {RoundingMode::RTNE, RoundingMode::RTZ}) {
    llvm::Constant *Folded = fold(*F.Fn, f32ToBF16(F.B, Vec, M));
    REQUIRE(Folded);
    for (unsigned X = 0; X < Floats.size(); ++X)
      CHECK(Folded->getAggregateElement(X) == fold(*F.Fn, f32ToBF16(F.B, Floats[X], M)));
  }
}
