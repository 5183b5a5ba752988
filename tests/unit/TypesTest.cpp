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
