//===- ModuleTest.cpp - Functions of a module -----------------------------===//

#include "ir/Builder.h"
#include "ir/Context.h"
#include "ir/Module.h"

#include <doctest/doctest.h>

using namespace tritium;

TEST_CASE("functions are created, found and erased by name") {
  Context Ctx;
  Module M(Ctx);
  CHECK(&M.getContext() == &Ctx);
  CHECK(M.functions().empty());
  FunctionType *FT = FunctionType::get(Ctx, {}, {});
  Function *F = M.createFunction("f", FT);
  Function *G = M.createFunction("g", FT);
  REQUIRE(F);
  REQUIRE(G);
  CHECK(F->getParent() == &M);
  CHECK(M.getFunction("f") == F);
  CHECK(M.getFunction("g") == G);
  CHECK(M.getFunction("h") == nullptr);
  CHECK(M.getFunction("") == nullptr);

  // A taken name gives null, whatever the type.
  CHECK(M.createFunction("f", FunctionType::get(Ctx, {Type::getI32(Ctx)}, {})) ==
        nullptr);
  CHECK(M.functions().size() == 2u);

  Function *H = M.createFunction("h", FT);
  CHECK(M.functions() == llvm::SmallVector<Function *, 4>{F, G, H});
  M.eraseFunction(G);
  CHECK(M.getFunction("g") == nullptr);
  CHECK(M.functions() == llvm::SmallVector<Function *, 4>{F, H});
  // The name is free again; the new function comes last.
  Function *G2 = M.createFunction("g", FT);
  REQUIRE(G2);
  CHECK(M.getFunction("g") == G2);
  CHECK(M.functions() == llvm::SmallVector<Function *, 4>{F, H, G2});
}

TEST_CASE("a module prints its functions in creation order") {
  Context Ctx;
  Module M(Ctx);
  IRBuilder B(Ctx);
  Type *I32 = Type::getI32(Ctx);
  Function *Dev = M.createFunction("add1", FunctionType::get(Ctx, {I32}, {I32}));
  B.setInsertPoint(Dev->createBlock("entry"));
  B.createRet({B.createBinary(Opcode::Add, Dev->getArg(0), B.getInt32(1))});
  Function *K = M.createFunction("k", FunctionType::get(Ctx, {I32}, {}));
  K->setKernel(true);
  B.setInsertPoint(K->createBlock("entry"));
  B.createCall(Dev, {K->getArg(0)});
  B.createRet();
  CHECK(M.str() == R"(func @add1(%0: i32) -> i32 {
entry:
  %1 = constant 1 : i32
  %2 = add %0, %1 : i32
  ret %2
}

kernel @k(%0: i32) {
entry:
  %1 = call @add1(%0) : i32
  ret
}
)");
  M.eraseFunction(Dev);
  CHECK(llvm::StringRef(M.str()).startswith("kernel @k"));
}
