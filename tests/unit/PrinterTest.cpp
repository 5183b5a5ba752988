// Tests of ir/Printer on IR built through the API, where names need not be
// unique identifiers: what prints as a name and what as an id, and that
// whatever the printer writes parses back to text that prints the same.
#include "ir/Builder.h"
#include "ir/Context.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "ir/Printer.h"

#include <doctest/doctest.h>

#include <string>

using namespace tritium;

namespace {

std::string print(const Module &M, bool Locs = false) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  PrintOptions Opts;
  Opts.PrintLocs = Locs;
  printModule(M, OS, Opts);
  return S;
}

/// Parses \p Text and prints it again.
std::string reprint(const std::string &Text, bool Locs = false) {
  Context Ctx;
  return print(*parseModule(Text, Ctx), Locs);
}

} // namespace

TEST_CASE("printer: names that cannot print as names use ids") {
  Context Ctx;
  Module M(Ctx);
  Type *I32 = Type::getI32(Ctx);
  Function *F = M.createFunction("f", FunctionType::get(Ctx, {I32, I32}, {I32}));
  F->getArg(0)->setName("x");
  F->getArg(1)->setName("x"); // taken: prints as its id
  BasicBlock *Entry = F->createBlock("bb7"); // looks numbered: prints bb0
  BasicBlock *Next = F->createBlock("not an identifier");
  BasicBlock *Exit = F->createBlock("exit");
  IRBuilder B(Ctx);
  B.setInsertPoint(Entry);
  Value *Sum = B.createBinary(Opcode::Add, F->getArg(0), F->getArg(1));
  Sum->setName("1x"); // starts with a digit
  Value *Two = B.getInt32(2);
  Two->setName("two.v_2");
  B.createBr(Next);
  B.setInsertPoint(Next);
  Value *Prod = B.createBinary(Opcode::Mul, Sum, Two);
  Prod->setName("x"); // taken by the argument
  B.createBr(Exit);
  B.setInsertPoint(Exit);
  B.createRet({Prod});

  const std::string Want = "func @f(%x: i32, %1: i32) -> i32 {\n"
                           "bb0:\n"
                           "  %2 = add %x, %1 : i32\n"
                           "  %two.v_2 = constant 2 : i32\n"
                           "  br bb1\n"
                           "bb1:\n"
                           "  %4 = mul %2, %two.v_2 : i32\n"
                           "  br exit\n"
                           "exit:\n"
                           "  ret %4\n"
                           "}\n";
  CHECK(print(M) == Want);
  CHECK(reprint(Want) == Want);
}

TEST_CASE("printer: duplicate block names") {
  Context Ctx;
  Module M(Ctx);
  Function *F = M.createFunction("k", FunctionType::get(Ctx, {}, {}));
  F->setKernel(true);
  BasicBlock *A = F->createBlock("loop");
  BasicBlock *C = F->createBlock("loop");
  IRBuilder B(Ctx);
  B.setInsertPoint(A);
  B.createBr(C);
  B.setInsertPoint(C);
  B.createRet();
  const std::string Want = "kernel @k() {\nloop:\n  br bb1\nbb1:\n  ret\n}\n";
  CHECK(print(M) == Want);
  CHECK(reprint(Want) == Want);
}

TEST_CASE("printer: locations, lead words and attribute order") {
  Context Ctx;
  Module M(Ctx);
  Type *F32 = Type::getF32(Ctx);
  Type *Ptr = PointerType::get(F32);
  Function *F = M.createFunction("k", FunctionType::get(Ctx, {Ptr}, {}));
  F->setKernel(true);
  F->getArg(0)->getAttrs().NoAlias = true;
  F->getArg(0)->getAttrs().Divisibility = 16;
  IRBuilder B(Ctx);
  B.setInsertPoint(F->createBlock());
  B.setLoc(Loc{Ctx.intern("dir/k \"1\".py"), 3, 14});
  LoadOptions LO;
  LO.Volatile = true;
  LO.Evict = EvictionPolicy::EvictFirst;
  LO.Cache = CacheModifier::CG;
  Value *V = B.createLoad(F->getArg(0), nullptr, nullptr, LO);
  B.setLoc(Loc{});
  Value *X = B.createAtomicRMW(AtomicKind::FAdd, F->getArg(0), V, nullptr,
                               MemSem::Relaxed, MemScope::CTA);
  B.createFCmp(FCmpPredicate::UNO, X, B.getFloatConstant(F32, -0.0));
  B.createRet();

  const std::string Body =
      "kernel @k(%0: ptr<f32> {divisibility=16, noalias}) {\n"
      "bb0:\n"
      "  %1 = load %0 {cache=cg, evict=evict_first, volatile} : f32%L\n"
      "  %2 = atomic_rmw fadd %0, %1 {sem=relaxed, scope=cta} : f32\n"
      "  %3 = constant -0.0 : f32\n"
      "  %4 = fcmp uno %2, %3 : i1\n"
      "  ret\n"
      "}\n";
  auto With = [&](llvm::StringRef L) {
    std::string S = Body;
    S.replace(S.find("%L"), 2, L.str());
    return S;
  };
  const std::string Locs = With(" loc(\"dir/k \\\"1\\\".py\":3:14)");
  CHECK(print(M) == With(""));
  CHECK(print(M, /*Locs=*/true) == Locs);
  CHECK(reprint(Locs, /*Locs=*/true) == Locs);
}

TEST_CASE("printer: single instructions and blocks use the function's ids") {
  Context Ctx;
  auto M = parseModule("func @f(%a: i32) -> i32 {\nbb0:\n  br bb1\nbb1:\n"
                       "  %1 = add %a, %a : i32\n  ret %1\n}\n",
                       Ctx);
  BasicBlock &Second = *std::next(M->getFunction("f")->begin());
  CHECK(Second.front().str() == "%1 = add %a, %a : i32");
  std::string S;
  llvm::raw_string_ostream OS(S);
  printBlock(Second, OS);
  CHECK(S == "bb1:\n  %1 = add %a, %a : i32\n  ret %1\n");
}
