//===- DTypeTest.cpp - The language's types -------------------------------===//

#include "frontend/DType.h"
#include "ir/Context.h"

#include <doctest/doctest.h>

using namespace tritium;

TEST_CASE("dtypes are uniqued and spelled as in Triton") {
  CHECK(DType::getInt(32) == DType::fromName("int32"));
  CHECK(DType::getInt(8, false)->getName() == "uint8");
  CHECK(DType::getBool()->getName() == "int1");
  CHECK(DType::getInt(1, false) == DType::getBool());
  CHECK(DType::getFloat(Type::Kind::F8E4M3)->getName() == "fp8e4nv");
  CHECK(DType::getFloat(Type::Kind::F8E5M2)->getName() == "fp8e5");
  CHECK(DType::getFloat(Type::Kind::F8E4M3B15)->getName() == "fp8e4b15");
  CHECK(DType::getFloat(Type::Kind::BF16)->getName() == "bf16");
  DType *F32 = DType::fromName("fp32");
  CHECK(DType::getPointer(F32)->getName() == "pointer<fp32>");
  CHECK(DType::getPointer(F32, 1, true)->getName() == "const_pointer<fp32>");
  CHECK(DType::getPointer(F32, 3)->getName() == "pointer<fp32, 3>");
  CHECK(DType::getPointer(F32) != DType::getPointer(F32, 1, true));
  DType *B = DType::getBlock(DType::fromName("fp16"), {128, 64});
  CHECK(B->getName() == "<128x64xfp16>");
  CHECK(B == DType::getBlock(DType::fromName("float16"), {128, 64}));
  CHECK(DType::getVoid()->getName() == "void");
}

TEST_CASE("dtype names and Triton's aliases") {
  CHECK(DType::fromName("bool") == DType::getBool());
  CHECK(DType::fromName("float32") == DType::fromName("fp32"));
  CHECK(DType::fromName("bfloat16") == DType::fromName("bf16"));
  CHECK(DType::fromName("float8e4nv") == DType::fromName("fp8e4nv"));
  CHECK(DType::fromName("float8e5") == DType::fromName("fp8e5"));
  CHECK(DType::fromName("float8e4b15") == DType::fromName("fp8e4b15"));
  CHECK(DType::fromName("fp8e4b15")->getFloatKind() == Type::Kind::F8E4M3B15);
  CHECK(DType::fromName("float64")->getName() == "fp64");
  CHECK(DType::fromName("int3") == nullptr);
  CHECK(DType::fromName("pointer<fp32>") == nullptr);
}

TEST_CASE("int1 is unsigned, as in Triton") {
  DType *I1 = DType::getBool();
  CHECK(I1->isInt());
  CHECK(I1->isBool());
  CHECK(I1->isUnsigned());
  CHECK_FALSE(I1->isSigned());
  CHECK(DType::getInt(8)->isSigned());
  CHECK_FALSE(DType::getInt(8)->isUnsigned());
  CHECK(DType::getInt(64, false)->isUnsigned());
  CHECK_FALSE(DType::fromName("fp32")->isSigned());
  CHECK_FALSE(DType::fromName("fp32")->isUnsigned());
}

TEST_CASE("dtype kinds, widths and mantissas") {
  DType *E4 = DType::fromName("fp8e4nv"), *H = DType::fromName("fp16");
  CHECK(E4->isFP8());
  CHECK(E4->isFloat());
  CHECK_FALSE(E4->isStandardFloat());
  CHECK(H->isStandardFloat());
  CHECK(E4->getBitWidth() == 8);
  CHECK(H->getBitWidth() == 16);
  CHECK(DType::getBool()->getBitWidth() == 1);
  CHECK(DType::getPointer(H)->getBitWidth() == 64);
  CHECK(DType::fromName("fp32")->getFPMantissaWidth() == 24);
  CHECK(DType::fromName("bf16")->getFPMantissaWidth() == 8);
  CHECK(E4->getFPMantissaWidth() == 4);
  CHECK(DType::fromName("fp8e5")->getFPMantissaWidth() == 3);
  DType *B15 = DType::fromName("fp8e4b15");
  CHECK(B15->isFP8());
  CHECK_FALSE(B15->isStandardFloat());
  CHECK(B15->getBitWidth() == 8);
  CHECK(B15->getFPMantissaWidth() == 4);
  CHECK(DType::fromName("fp64")->getFPMantissaWidth() == 53);
  CHECK(DType::getPointer(H)->isScalar());
  CHECK_FALSE(DType::getBlock(H, {4})->isScalar());
}

TEST_CASE("blocks: scalar, shape, elements, reshaping the element") {
  DType *I32 = DType::getInt(32), *U8 = DType::getInt(8, false);
  DType *B = DType::getBlock(I32, {4, 8});
  CHECK(B->isBlock());
  CHECK(B->getScalar() == I32);
  CHECK(I32->getScalar() == I32);
  CHECK(B->getShape().size() == 2);
  CHECK(B->getNumElements() == 32);
  CHECK(I32->getNumElements() == 1);
  CHECK(B->withScalar(U8) == DType::getBlock(U8, {4, 8}));
  CHECK(I32->withScalar(U8) == U8);
  CHECK(DType::getShaped(I32, {}) == I32);
  CHECK(DType::getShaped(I32, {4, 8}) == B);
  // A block's bit width and mantissa are its element's.
  CHECK(B->getBitWidth() == 32);
}

TEST_CASE("dtypes lower to the signless IR types and back") {
  Context C;
  CHECK(DType::getInt(32, false)->toIR(C) == Type::getI32(C));
  CHECK(DType::getBool()->toIR(C) == Type::getI1(C));
  CHECK(DType::getPointer(DType::getInt(8, false))->toIR(C)->str() ==
        "ptr<i8>");
  CHECK(DType::getPointer(DType::fromName("fp16"), 3)->toIR(C)->str() ==
        "ptr<f16, 3>");
  CHECK(DType::getBlock(DType::fromName("bf16"), {2, 4})->toIR(C)->str() ==
        "<2 x 4 x bf16>");
  CHECK(DType::fromIR(Type::getI32(C)) == DType::getInt(32));
  CHECK(DType::fromIR(Type::getI1(C)) == DType::getBool());
  CHECK(DType::fromIR(PointerType::get(Type::getF16(C)))->getName() ==
        "pointer<fp16>");
  CHECK(DType::fromIR(BlockType::get(Type::getI64(C), {8}))->getName() ==
        "<8xint64>");
}
