//===- TypesTest.cpp - Uniquing, printing and queries of types ------------===//

#include "ir/Context.h"
#include "ir/Types.h"

#include <doctest/doctest.h>

using namespace tritium;

TEST_CASE("types are uniqued and print") {
  Context C;
  Type *B = BlockType::get(PointerType::get(Type::getF16(C)), {64, 32});
  CHECK(B == BlockType::get(PointerType::get(Type::getF16(C)), {64, 32}));
  CHECK(B->str() == "<64 x 32 x ptr<f16>>");
}

TEST_CASE("every type is uniqued per context") {
  Context C, D;
  CHECK(Type::getVoid(C) == Type::getVoid(C));
  CHECK(Type::getI32(C) == Type::getInt(C, 32));
  CHECK(Type::getI32(C) != Type::getI64(C));
  CHECK(Type::getI32(C) != Type::getI32(D));
  CHECK(&Type::getI32(D)->getContext() == &D);
  CHECK(Type::getF32(C) == Type::getFloat(C, Type::Kind::F32));
  CHECK(Type::getBF16(C) != Type::getF16(C));

  Type *F16 = Type::getF16(C);
  CHECK(PointerType::get(F16) == PointerType::get(F16, PointerType::Global));
  CHECK(PointerType::get(F16, PointerType::Shared) != PointerType::get(F16));
  CHECK(PointerType::get(F16)->getPointee() == F16);
  CHECK(PointerType::get(F16, 3)->getAddressSpace() == 3u);

  CHECK(BlockType::get(F16, {128}) == BlockType::get(F16, {128}));
  CHECK(BlockType::get(F16, {128}) != BlockType::get(F16, {64}));
  CHECK(BlockType::get(F16, {2, 64}) != BlockType::get(F16, {64, 2}));
  CHECK(BlockType::get(F16, {128}) != BlockType::get(Type::getF32(C), {128}));

  Type *I32 = Type::getI32(C), *F32 = Type::getF32(C);
  FunctionType *FT = FunctionType::get(C, {I32, F32}, {F32});
  CHECK(FT == FunctionType::get(C, {I32, F32}, {F32}));
  CHECK(FT != FunctionType::get(C, {I32, F32}, {}));
  CHECK(FT != FunctionType::get(C, {F32, I32}, {F32}));
  CHECK(FT->getParams().size() == 2);
  CHECK(FT->getParams()[1] == F32);
  CHECK(FT->getResults().size() == 1);
}

TEST_CASE("every type prints in the IR syntax") {
  Context C;
  CHECK(Type::getVoid(C)->str() == "void");
  CHECK(Type::getI1(C)->str() == "i1");
  CHECK(Type::getI8(C)->str() == "i8");
  CHECK(Type::getI16(C)->str() == "i16");
  CHECK(Type::getI32(C)->str() == "i32");
  CHECK(Type::getI64(C)->str() == "i64");
  CHECK(Type::getFloat(C, Type::Kind::F8E4M3)->str() == "f8e4m3");
  CHECK(Type::getFloat(C, Type::Kind::F8E5M2)->str() == "f8e5m2");
  CHECK(Type::getFloat(C, Type::Kind::F8E4M3B15)->str() == "f8e4b15");
  CHECK(Type::getF16(C)->str() == "f16");
  CHECK(Type::getBF16(C)->str() == "bf16");
  CHECK(Type::getF32(C)->str() == "f32");
  CHECK(Type::getF64(C)->str() == "f64");
  Type *F32 = Type::getF32(C), *I32 = Type::getI32(C);
  CHECK(PointerType::get(F32)->str() == "ptr<f32>");
  CHECK(PointerType::get(F32, PointerType::Generic)->str() == "ptr<f32, 0>");
  CHECK(PointerType::get(F32, PointerType::Shared)->str() == "ptr<f32, 3>");
  CHECK(PointerType::get(PointerType::get(I32))->str() == "ptr<ptr<i32>>");
  CHECK(BlockType::get(I32, {128})->str() == "<128 x i32>");
  CHECK(BlockType::get(PointerType::get(F32, 3), {1, 2, 4})->str() ==
        "<1 x 2 x 4 x ptr<f32, 3>>");
  CHECK(FunctionType::get(C, {}, {})->str() == "() -> void");
  CHECK(FunctionType::get(C, {I32, PointerType::get(F32)}, {F32})->str() ==
        "(i32, ptr<f32>) -> f32");
  CHECK(FunctionType::get(C, {BlockType::get(F32, {4})}, {I32, F32})->str() ==
        "(<4 x f32>) -> (i32, f32)");

  std::string S;
  llvm::raw_string_ostream OS(S);
  Type *Ts[] = {I32, BlockType::get(F32, {2}), Type::getVoid(C)};
  printTypeList(OS, Ts);
  OS << '|' << *F32;
  CHECK(S == "i32, <2 x f32>, void|f32");
}

TEST_CASE("kind predicates") {
  Context C;
  Type *I1 = Type::getI1(C), *I32 = Type::getI32(C), *F8 = Type::getFloat(C, Type::Kind::F8E5M2);
  Type *P = PointerType::get(I32), *B = BlockType::get(I32, {4});
  Type *V = Type::getVoid(C), *Fn = FunctionType::get(C, {}, {});
  CHECK(I1->isBool());
  CHECK(I1->isInt());
  CHECK(I1->isInt(1));
  CHECK_FALSE(I32->isBool());
  CHECK(I32->isInt(32));
  CHECK_FALSE(I32->isInt(64));
  CHECK_FALSE(Type::getF32(C)->isInt(32));
  CHECK(F8->isFloat());
  CHECK(F8->isFP8());
  CHECK_FALSE(Type::getF16(C)->isFP8());
  CHECK(Type::getFloat(C, Type::Kind::F8E4M3B15)->isFP8());
  CHECK(Type::getFloat(C, Type::Kind::F8E4M3B15)->isFloat());
  CHECK(Type::getF64(C)->isFloat());
  CHECK_FALSE(I32->isFloat());
  CHECK(P->isPointer());
  CHECK(B->isBlock());
  CHECK(V->isVoid());
  CHECK(Fn->isFunction());
  CHECK(I32->isScalar());
  CHECK(F8->isScalar());
  CHECK(P->isScalar());
  CHECK_FALSE(B->isScalar());
  CHECK_FALSE(V->isScalar());
  CHECK_FALSE(Fn->isScalar());
  CHECK(llvm::isa<IntType>(I32));
  CHECK(llvm::cast<IntType>(I32)->getWidth() == 32u);
  CHECK_FALSE(llvm::isa<IntType>(P));
  CHECK(llvm::isa<PointerType>(P));
  CHECK(llvm::isa<BlockType>(B));
  CHECK(llvm::isa<FunctionType>(Fn));
}

TEST_CASE("shapes, element types and withElement") {
  Context C;
  Type *I32 = Type::getI32(C), *F16 = Type::getF16(C);
  Type *B = BlockType::get(I32, {16, 8});
  CHECK(B->getScalarType() == I32);
  CHECK(I32->getScalarType() == I32);
  CHECK(B->getShape() == llvm::ArrayRef<int64_t>({16, 8}));
  CHECK(B->getRank() == 2u);
  CHECK(B->getNumElements() == 128);
  CHECK(I32->getShape().empty());
  CHECK(I32->getRank() == 0u);
  CHECK(I32->getNumElements() == 1);
  CHECK(BlockType::get(I32, {1})->getNumElements() == 1);
  CHECK(BlockType::get(I32, {1 << 10, 1 << 10})->getNumElements() ==
        int64_t(1) << 20);

  CHECK(B->withElement(F16) == BlockType::get(F16, {16, 8}));
  CHECK(B->withElement(I32) == B);
  CHECK(I32->withElement(F16) == F16);
  Type *PB = B->withElement(PointerType::get(F16));
  CHECK(PB->str() == "<16 x 8 x ptr<f16>>");
}

TEST_CASE("sizes and mantissa widths") {
  Context C;
  CHECK(Type::getI1(C)->getScalarSizeInBits() == 1u);
  CHECK(Type::getI8(C)->getScalarSizeInBits() == 8u);
  CHECK(Type::getI16(C)->getScalarSizeInBits() == 16u);
  CHECK(Type::getI32(C)->getScalarSizeInBits() == 32u);
  CHECK(Type::getI64(C)->getScalarSizeInBits() == 64u);
  CHECK(Type::getFloat(C, Type::Kind::F8E4M3)->getScalarSizeInBits() == 8u);
  CHECK(Type::getFloat(C, Type::Kind::F8E5M2)->getScalarSizeInBits() == 8u);
  CHECK(Type::getFloat(C, Type::Kind::F8E4M3B15)->getScalarSizeInBits() == 8u);
  CHECK(Type::getF16(C)->getScalarSizeInBits() == 16u);
  CHECK(Type::getBF16(C)->getScalarSizeInBits() == 16u);
  CHECK(Type::getF32(C)->getScalarSizeInBits() == 32u);
  CHECK(Type::getF64(C)->getScalarSizeInBits() == 64u);
  CHECK(PointerType::get(Type::getI8(C))->getScalarSizeInBits() == 64u);
  CHECK(BlockType::get(Type::getF16(C), {32})->getScalarSizeInBits() == 16u);
  CHECK(Type::getVoid(C)->getScalarSizeInBits() == 0u);
  CHECK(FunctionType::get(C, {}, {})->getScalarSizeInBits() == 0u);

  // Significand bits including the implicit one.
  CHECK(Type::getFloat(C, Type::Kind::F8E4M3)->getFPMantissaWidth() == 4u);
  CHECK(Type::getFloat(C, Type::Kind::F8E5M2)->getFPMantissaWidth() == 3u);
  CHECK(Type::getFloat(C, Type::Kind::F8E4M3B15)->getFPMantissaWidth() == 4u);
  CHECK(Type::getF16(C)->getFPMantissaWidth() == 11u);
  CHECK(Type::getBF16(C)->getFPMantissaWidth() == 8u);
  CHECK(Type::getF32(C)->getFPMantissaWidth() == 24u);
  CHECK(Type::getF64(C)->getFPMantissaWidth() == 53u);
  CHECK(BlockType::get(Type::getBF16(C), {2})->getFPMantissaWidth() == 8u);
  CHECK(Type::getI32(C)->getFPMantissaWidth() == 0u);
  CHECK(PointerType::get(Type::getF32(C))->getFPMantissaWidth() == 0u);
}

TEST_CASE("checkShape accepts powers of two, 2^20 elements at most") {
  CHECK(BlockType::checkShape({1}) == "");
  CHECK(BlockType::checkShape({128, 64, 2}) == "");
  CHECK(BlockType::checkShape({1 << 10, 1 << 10}) == "");
  CHECK(BlockType::checkShape({1 << 10, 1 << 10, 2}) ==
        "a block holds at most 2^20 elements");
  CHECK(BlockType::checkShape({int64_t(1) << 40}) == "a block holds at most 2^20 elements");
  CHECK(BlockType::checkShape({int64_t(1) << 62, int64_t(1) << 62, int64_t(1) << 62}) ==
        "a block holds at most 2^20 elements");
  CHECK(BlockType::checkShape({}) == "a block needs at least one dimension");
  CHECK(BlockType::checkShape({3}) == "block dimension 3 is not a power of two");
  CHECK(BlockType::checkShape({64, 0}) ==
        "block dimension 0 is not a power of two");
  CHECK(BlockType::checkShape({-4}) ==
        "block dimension -4 is not a power of two");
}

TEST_CASE("pointers live in the generic, global or shared address space") {
  CHECK(PointerType::checkAddressSpace(PointerType::Generic) == "");
  CHECK(PointerType::checkAddressSpace(PointerType::Global) == "");
  CHECK(PointerType::checkAddressSpace(PointerType::Shared) == "");
  for (int64_t AS : {int64_t(2), int64_t(4), int64_t(999), int64_t(-1)})
    CHECK(PointerType::checkAddressSpace(AS) ==
          "address space " + std::to_string(AS) +
              " is not one of 0 (generic), 1 (global) and 3 (shared)");
}

TEST_CASE("the context interns strings") {
  Context C;
  std::string S = "kernel.py";
  llvm::StringRef A = C.intern(S);
  S = "changed";
  CHECK(A == "kernel.py");
  CHECK(C.intern("kernel.py").data() == A.data());
  CHECK(C.intern("other").data() != A.data());
}

TEST_CASE("memdesc types: uniqued, buffers first, a bijective shared layout") {
  Context C;
  Type *F16 = Type::getF16(C);
  LinearLayout Rows({{"offset", {{0, 1}, {0, 2}, {1, 0}}}}, {{"dim0", 2}, {"dim1", 4}});
  MemDescType *One = MemDescType::get(F16, {2, 4}, Rows, /*Mutable=*/false);
  CHECK(One == MemDescType::get(F16, {2, 4}, Rows, false));
  CHECK(One != MemDescType::get(F16, {2, 4}, Rows, true));
  CHECK_FALSE(One->hasBufferDim());
  CHECK(One->getNumBuffers() == 1);
  CHECK(One->getBufferElements() == 8);
  CHECK(One->str() == "memdesc<2 x 4 x f16, <offset=[[0, 1], [0, 2], [1, 0]], shape=[2, 4]>>");
  MemDescType *Three = MemDescType::get(F16, {4, 2, 4}, Rows, true);
  CHECK(Three->hasBufferDim());
  CHECK(Three->getNumBuffers() == 4);
  CHECK(Three->getBufferShape() == llvm::ArrayRef<int64_t>({2, 4}));
  CHECK(Three->getBufferType() == MemDescType::get(F16, {2, 4}, Rows, true));
  CHECK(Three->isMemDesc());
  CHECK_FALSE(Three->isBlock());
  CHECK(Three->getScalarSizeInBits() == 16u);

  CHECK(MemDescType::check(F16, {2, 4}, Rows) == "");
  CHECK(MemDescType::check(F16, {8}, Rows).find("needs a layout of as many dimensions") !=
        std::string::npos);
  CHECK(MemDescType::check(F16, {4, 4}, Rows) ==
        "the shared layout's shape does not match the memdesc's");
  CHECK(MemDescType::check(PointerType::get(F16), {2, 4}, Rows) ==
        "shared memory holds integers or floats, not ptr<f16>");
  LinearLayout Twice({{"offset", {{0, 1}, {0, 1}, {1, 0}}}}, {{"dim0", 2}, {"dim1", 4}});
  CHECK(MemDescType::check(F16, {2, 4}, Twice) ==
        "a shared layout puts every element at one offset (a bijection)");
  LinearLayout Lanes({{"lane", {{0, 1}, {0, 2}, {1, 0}}}}, {{"dim0", 2}, {"dim1", 4}});
  CHECK(MemDescType::check(F16, {2, 4}, Lanes) == "a shared layout has one input dimension, 'offset'");
  CHECK(MemDescType::check(F16, {512, 2, 4}, Rows) == "a memdesc has 1 to 256 buffers, got 512");
  // A ring of three pipeline stages: any buffer count, powers of two inside.
  CHECK(MemDescType::check(F16, {3, 2, 4}, Rows) == "");
  CHECK(MemDescType::get(F16, {3, 2, 4}, Rows, true)->getNumBuffers() == 3);
  CHECK(MemDescType::check(F16, {0, 2, 4}, Rows) == "a memdesc has 1 to 256 buffers, got 0");
  // A transposed view: the same offsets, the coordinates swapped; names stay
  // in place, so that transposing back gives the type itself.
  MemDescType *T = One->getTransposed({1, 0});
  CHECK(T->str() == "memdesc<4 x 2 x f16, <offset=[[1, 0], [2, 0], [0, 1]], shape=[4, 2]>>");
  CHECK(T->getTransposed({1, 0}) == One);
  CHECK(MemDescType::get(F16, {2, 4}, Rows, true)->getTransposed({1, 0})->isMutable());
  CHECK(One->getTransposed({0, 1}) == One);
}
