// Tests of ir/Parser: canonical text round-trips, names and forward
// references resolve to the right values, literals and attributes arrive
// intact, every error reports its line:col and text, parseType, and
// formatError's layout.
#include "ir/Context.h"
#include "ir/Instructions.h"
#include "ir/Module.h"
#include "ir/Parser.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <optional>
#include <string>

using namespace tritium;

namespace {

std::string roundTrip(llvm::StringRef Text) {
  Context Ctx;
  return parseModule(Text, Ctx)->str();
}

/// "line:col: message" of the error parsing \p Text throws.
std::string parseError(llvm::StringRef Text) {
  Context Ctx;
  try {
    parseModule(Text, Ctx, "t.tir");
  } catch (const CompileError &E) {
    CHECK(E.getLoc().File == "t.tir");
    return std::to_string(E.getLoc().Line) + ":" +
           std::to_string(E.getLoc().Col) + ": " + E.what();
  }
  return "no error";
}

/// The instructions of \p F in order.
std::vector<Instruction *> insts(Function &F) {
  std::vector<Instruction *> Is;
  for (BasicBlock &B : F)
    for (Instruction &I : B)
      Is.push_back(&I);
  return Is;
}

const char *Loop = R"(func noinline @sum(%p: ptr<i32, 3> {divisibility=16}, %n: i32 {equal_to_1, constant=1}) -> (i32, i64) {
entry:
  %zero = constant 0 : i32
  %3 = constant 1 : i32
  br header
header:
  %i = phi [%zero, entry], [%next, body] : i32
  %acc = phi [%zero, entry], [%9, body] : i32
  %done = icmp sge %i, %n : i1
  cond_br %done, bb3, body
body:
  %q = getelementptr %p, %i : ptr<i32, 3>
  %v = atomic_rmw add %q, %3 {sem=relaxed, scope=cta} : i32
  %9 = add %acc, %v : i32
  %next = add %i, %3 : i32
  br header
bb3:
  %w = sext %acc : i64
  ret %acc, %w
}

kernel @main(%p: ptr<i32, 3>) {
bb0:
  %1 = constant 4 : i32
  %r, %s = call @sum(%p, %1) : i32, i64
  print %r, %s {prefix="r = \"\01\n", hex}
  ret
}
)";

} // namespace

TEST_CASE("parser: canonical text prints back unchanged") {
  CHECK(roundTrip(Loop) == Loop);
  CHECK(roundTrip("") == "");
  const char *Empty = "kernel @k() {\n}\n";
  CHECK(roundTrip(Empty) == Empty);
}

TEST_CASE("parser: names") {
  Context Ctx;
  auto M = parseModule(Loop, Ctx);
  Function *F = M->getFunction("sum");
  REQUIRE(F);
  CHECK(F->isNoInline());
  CHECK(!F->isKernel());
  CHECK(M->getFunction("main")->isKernel());
  CHECK(F->getArg(0)->getName() == "p");
  std::vector<Instruction *> Is = insts(*F);
  CHECK(Is[0]->getResult()->getName() == "zero");
  // %3 is a number, not a name.
  CHECK(!Is[1]->getResult()->hasName());
  std::vector<std::string> Blocks;
  for (BasicBlock &B : *F)
    Blocks.push_back(B.getName().str());
  // bb3 is a numbered label: the block is unnamed.
  CHECK(Blocks == std::vector<std::string>{"entry", "header", "body", ""});
}

TEST_CASE("parser: forward references") {
  Context Ctx;
  auto M = parseModule(Loop, Ctx);
  Function *F = M->getFunction("sum");
  std::vector<Instruction *> Is = insts(*F);
  auto *I = llvm::cast<PhiInst>(Is[3]);
  auto *Acc = llvm::cast<PhiInst>(Is[4]);
  // The phis use the adds defined after them, not placeholders.
  CHECK(I->getIncomingValue(1) == Is[10]->getResult());
  CHECK(Acc->getIncomingValue(1) == Is[9]->getResult());
  CHECK(I->getIncomingValue(1)->getFunction() == F);
  BasicBlock *Body = Is[7]->getParent();
  CHECK(I->getIncomingBlock(1) == Body);
  // cond_br named bb3 and body before their labels; the edges are real.
  CHECK(Is[6]->getBlockOperand(0) == &*std::prev(F->end()));
  CHECK(Body->getSinglePredecessor() == Is[6]->getParent());
  // A phi may use itself.
  auto M2 = parseModule("func @f() {\nbb0:\n  br bb1\nbb1:\n"
                        "  %x = phi [%x, bb1] : i32\n  br bb1\n}\n",
                        Ctx);
  Instruction *X = insts(*M2->getFunction("f"))[1];
  CHECK(X->getOperand(0) == X->getResult());
}

TEST_CASE("parser: blocks are laid out in label order") {
  const char *Text = "kernel @k(%c: i1) {\nbb0:\n  cond_br %c, b, a\n"
                     "a:\n  br b\nb:\n  ret\n}\n";
  CHECK(roundTrip(Text) == Text);
}

TEST_CASE("parser: literal values") {
  Context Ctx;
  auto M = parseModule(R"(kernel @k(%p: ptr<f32>) {
bb0:
  %a = constant -9223372036854775808 : i64
  %b = constant -0.0 : f32
  %c = constant -nan : f32
  %d = constant inf : f64
  %e = constant 0.1 : f64
  %f = make_range {start=0, end=8} : <8 x i32>
  %g = reshape %f : <2 x 4 x i32>
  %h = trans %g {order=[1, 0]} : <4 x 2 x i32>
  %i = icmp uge %h, %h : <4 x 2 x i1>
  %j = atomic_rmw xchg %p, %b : f32
  assert %i {message="tab\there \"q\" \7f"}
  %k = call @elsewhere(%p) : i32 loc("k.py":7:9)
  ret
}
)",
                       Ctx);
  std::vector<Instruction *> Is = insts(*M->getFunction("k"));
  CHECK(getConstantIntValue(Is[0]->getResult()) == INT64_MIN);
  double B = *getConstantFloatValue(Is[1]->getResult());
  CHECK(B == 0.0);
  CHECK(std::signbit(B));
  double C = *getConstantFloatValue(Is[2]->getResult());
  CHECK(std::isnan(C));
  CHECK(std::signbit(C));
  CHECK(std::isinf(*getConstantFloatValue(Is[3]->getResult())));
  CHECK(*getConstantFloatValue(Is[4]->getResult()) == 0.1);
  CHECK(llvm::cast<MakeRangeInst>(Is[5])->getEnd() == 8);
  CHECK(llvm::cast<TransInst>(Is[7])->getOrder() ==
        llvm::ArrayRef<int64_t>({1, 0}));
  CHECK(llvm::cast<CmpInst>(Is[8])->getIPredicate() == ICmpPredicate::UGE);
  CHECK(llvm::cast<AtomicRMWInst>(Is[9])->getKind() == AtomicKind::Xchg);
  CHECK(llvm::cast<AssertInst>(Is[10])->getMessage() ==
        "tab\there \"q\" \x7f");
  auto *Call = llvm::cast<CallInst>(Is[11]);
  // A callee need not exist: the verifier judges calls.
  CHECK(Call->getCallee() == "elsewhere");
  CHECK(Call->getLoc() == Loc{"k.py", 7, 9});
  CHECK(!Is[0]->getLoc().isKnown());
}

TEST_CASE("parser: argument attributes") {
  Context Ctx;
  auto M = parseModule("kernel @k(%a: i32 {constant=-3, equal_to_1}, %p: "
                       "ptr<f16> {noalias, divisibility=16}, %q: ptr<f16>) {\n}\n",
                       Ctx);
  Function *F = M->getFunction("k");
  CHECK(F->getArg(0)->getAttrs().ConstantValue == -3);
  CHECK(F->getArg(0)->getAttrs().EqualTo1);
  CHECK(F->getArg(0)->getAttrs().Divisibility == 0);
  CHECK(F->getArg(1)->getAttrs().Divisibility == 16);
  CHECK(F->getArg(1)->getAttrs().NoAlias);
  CHECK(F->getArg(2)->getAttrs().empty());
}

TEST_CASE("parser: an instruction ends at the end of its line") {
  // Without that rule `barrier` would take the next label as an operand and
  // `ret` the next instruction's result.
  const char *Text = "kernel @k() {\nbb0:\n  barrier\n  br next\nnext:\n"
                     "  ret\n}\n\nfunc @f() -> i32 {\nbb0:\n  %0 = constant 1 : i32\n"
                     "  ret %0\n}\n";
  CHECK(roundTrip(Text) == Text);
  // Not even after a trailing comma.
  CHECK(parseError("kernel @k(%a: i32) {\nbb0:\n  %b = add %a,\n    %a : i32\n"
                   "  ret\n}\n") ==
        "3:15: expected the rest of the instruction on its line");
  CHECK(parseError("kernel @k() {\nbb0:\n  ret ret\n}\n") ==
        "3:3: 'ret' defines no results and takes no block operands");
}

TEST_CASE("parser: errors") {
  auto K = [](const std::string &Body) {
    return "kernel @k(%a: i32, %c: i1, %p: ptr<f32>) {\nbb0:\n" + Body + "}\n";
  };
  // Structure.
  CHECK(parseError("kernel") == "1:7: expected a function name such as @f");
  CHECK(parseError("module {}") == "1:1: expected 'kernel' or 'func'");
  CHECK(parseError("func @f(%a i32) {}") ==
        "1:12: expected ':' after the argument name");
  CHECK(parseError("func @f() -> {}") == "1:14: expected a type, got '{'");
  CHECK(parseError("func @f() -> (i32 {}") ==
        "1:19: expected ')' after the result types");
  CHECK(parseError("func @f()") == "1:10: expected '{' before the function body");
  CHECK(parseError("func @f() {\nbb0:\n  ret\n") ==
        "3:6: expected '}' at the end of the function");
  CHECK(parseError("func @f() {\n  ret\n}") ==
        "2:3: expected a block label such as 'bb0:'");
  CHECK(parseError("func @f() {\n}\nfunc @f() {\n}\n") ==
        "3:6: redefinition of function @f");
  CHECK(parseError("func @f(%a: i32, %a: i32) {\n}\n") ==
        "1:18: redefinition of value %a");
  CHECK(parseError("func @f(%a: i32 {divisibility}) {\n}\n") ==
        "1:30: expected '=' after 'divisibility'");
  CHECK(parseError("func @f(%a: i32 {noalias, noalias}) {\n}\n") ==
        "1:27: argument attribute 'noalias' appears twice");
  // Instructions.
  CHECK(parseError(K("  %b = nop\n")) == "3:8: unknown opcode 'nop'");
  CHECK(parseError(K("  %b add %a, %a : i32\n")) ==
        "3:6: expected '=' after the result names");
  CHECK(parseError(K("  %b, = undef : i32\n")) ==
        "3:7: expected a result name such as %0");
  CHECK(parseError(K("  %b, %b = split %a : i32, i32\n")) ==
        "3:7: redefinition of value %b");
  CHECK(parseError(K("  %b = add %a, %zz : i32\n")) ==
        "3:16: use of undefined value %zz");
  CHECK(parseError(K("  %b = add %a, %a\n  ret\n")) ==
        "3:18: expected ':' after the operands");
  CHECK(parseError(K("  %b = add %a, %a :\n  ret\n")) ==
        "3:20: expected the result types after ':'");
  CHECK(parseError(K("  %b = add %a, %a : i32, i32\n")) ==
        "3:19: expected 1 result types, one per result name, got 2");
  CHECK(parseError(K("  store %p, %a : f32\n")) ==
        "3:16: expected 0 result types, one per result name, got 1");
  CHECK(parseError(K("  %b = add %a, %a : i32 %a\n")) ==
        "3:25: expected the end of the line after the instruction");
  CHECK(parseError(K("  cond_br %c, bb1, %a\n")) ==
        "3:20: expected a block label: values come before blocks");
  CHECK(parseError(K("  br bb0, 5\n")) == "3:11: expected a value or a block label");
  CHECK(parseError(K("  %b = add %a, %c : i32\n")) ==
        "3:3: 'add' operands must have the same type, got i32 and i1");
  // Lead words and literals.
  CHECK(parseError(K("  %b = constant : i32\n")) ==
        "3:17: expected a number for 'value'");
  CHECK(parseError(K("  %b = constant 99999999999999999999 : i64\n")) ==
        "3:17: integer 99999999999999999999 does not fit in 64 bits");
  CHECK(parseError(K("  %b = icmp %a, %a : i1\n")) ==
        "3:13: expected one of eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge "
        "for 'ipredicate', got '%a'");
  CHECK(parseError(K("  %b = atomic_rmw sub %p, %a : i32\n")) ==
        "3:19: expected one of add, fadd, max, min, umax, umin, and, or, xor, "
        "xchg for 'rmw_kind', got 'sub'");
  // Attributes.
  CHECK(parseError(K("  %b = get_program_id {dim=0} : i32\n")) ==
        "3:24: unknown attribute 'dim'");
  CHECK(parseError(K("  %b = get_program_id {axis} : i32\n")) ==
        "3:28: expected '=' after 'axis'");
  CHECK(parseError(K("  %b = get_program_id {axis=0.5} : i32\n")) ==
        "3:29: expected an integer for 'axis'");
  CHECK(parseError(K("  print %a {prefix=x}\n")) ==
        "3:20: expected a string for 'prefix'");
  CHECK(parseError(K("  %b = reduce %a {axis=0, combine=f} : i32\n")) ==
        "3:35: expected a symbol such as @f for 'combine'");
  CHECK(parseError(K("  %b = multiple_of %a {values=16} : i32\n")) ==
        "3:31: expected '[' to start the list for 'values'");
  CHECK(parseError(K("  %b = multiple_of %a {values=[16 8]} : i32\n")) ==
        "3:35: expected ']' at the end of the list");
  CHECK(parseError(K("  %b = load %p {volatile=true} : f32\n")) ==
        "3:25: expected ',' or '}': 'volatile' takes no value");
  CHECK(parseError(K("  %b = load %p {volatile volatile} : f32\n")) ==
        "3:26: expected ',' or '}' after an attribute");
  CHECK(parseError(K("  %b = load %p {cache=cg, cache=ca} : f32\n")) ==
        "3:27: attribute 'cache' appears twice");
  CHECK(parseError(K("  %b = call @g(%a) {callee=@h} : i32\n")) ==
        "3:21: attribute 'callee' appears twice");
  // Phis and blocks.
  CHECK(parseError(K("  br bb1\nbb1:\n  %x = phi [%a, bb0], [%y, bb1] : i32\n"
                     "  br bb1\n")) == "5:24: use of undefined value %y");
  CHECK(parseError(K("  br bb1\nbb1:\n  %x = phi [%a, bb0], [%y, bb1] : i32\n"
                     "  %y = zext %x : i64\n  br bb1\n")) ==
        "6:3: value %y has type i64 but a phi before it uses it as i32");
  CHECK(parseError(K("  %x = phi [%a bb0] : i32\n")) ==
        "3:16: expected ',' after the incoming value");
  CHECK(parseError(K("  %x = phi [%a, bb0 : i32\n")) ==
        "3:21: expected ']' after the incoming block");
  CHECK(parseError(K("  br nowhere\n")) == "3:6: use of undefined block 'nowhere'");
  CHECK(parseError(K("  br bb0\nbb0:\n  ret\n")) == "4:1: redefinition of block 'bb0'");
  // The first dangling reference in the text is the one reported.
  CHECK(parseError(K("  br bb1\nbb1:\n  %x = phi [%y, bb1] : i32\n  br bb9\n")) ==
        "5:13: use of undefined value %y");
  // Calls and locations.
  CHECK(parseError(K("  call g(%a)\n")) == "3:8: expected a callee such as @f");
  CHECK(parseError(K("  call @g(%a\n")) ==
        "3:13: expected ')' after the call arguments");
  CHECK(parseError(K("  ret loc(\"f\":1)\n")) ==
        "3:16: expected ':' after the line number");
  CHECK(parseError(K("  ret loc(\"f\":1:4294967296)\n")) ==
        "3:17: expected a column number from 0 to 4294967295");
}

TEST_CASE("parser: an error leaves nothing behind") {
  // Errors after forward references: the pending placeholder and block are
  // freed after the module that uses them (checked under ASan in CI).
  CHECK(parseError("func @f(%c: i1) {\nbb0:\n  cond_br %c, bb1, bb2\nbb1:\n"
                   "  %x = phi [%y, bb0] : i32\n  %z = bogus\n}\n") ==
        "6:8: unknown opcode 'bogus'");
  CHECK(parseError("func @f(%c: i1) {\nbb0:\n  br bb1\nbb1:\n"
                   "  %x = phi [%y, bb0] : i32\n  %q = add %x, %x : i64\n}\n") ==
        "6:3: 'add' result must be i32, got i64");
}

TEST_CASE("parseType") {
  Context Ctx;
  auto RoundTrips = [&](const char *S) { return parseType(S, Ctx)->str() == S; };
  for (const char *S :
       {"void", "i1", "i8", "i16", "i32", "i64", "f8e4m3", "f8e5m2", "f8e4b15",
        "f16", "bf16", "f32", "f64", "ptr<f32>", "ptr<f16, 3>", "ptr<i8, 0>",
        "ptr<ptr<i32>>", "<128 x f32>", "<64 x 32 x ptr<f16>>",
        "<1 x 1 x 1 x i1>", "(i32, ptr<f32>) -> void", "() -> f32",
        "(f32) -> (f32, i32)"})
    CHECK_MESSAGE(RoundTrips(S), S);
  CHECK(parseType("<64 x 32 x ptr<f16>>", Ctx) ==
        BlockType::get(PointerType::get(Type::getF16(Ctx)), {64, 32}));
  CHECK(parseType("ptr<f32, 1>", Ctx) == PointerType::get(Type::getF32(Ctx)));

  auto Error = [&](const char *S) -> std::string {
    try {
      parseType(S, Ctx);
    } catch (const CompileError &E) {
      return std::to_string(E.getLoc().Col) + ": " + E.what();
    }
    return "no error";
  };
  CHECK(Error("") == "1: expected a type, got the end of the input");
  CHECK(Error("i7") == "1: expected a type, got 'i7'");
  CHECK(Error("i32 i32") == "5: expected the end of the input after the type");
  CHECK(Error("<3 x f32>") == "1: block dimension 3 is not a power of two");
  CHECK(Error("<0 x f32>") == "1: block dimension 0 is not a power of two");
  CHECK(Error("<-4 x f32>") == "1: block dimension -4 is not a power of two");
  CHECK(Error("<f32>") == "1: a block needs at least one dimension");
  CHECK(Error("<4 f32>") == "4: expected 'x' after a block dimension");
  CHECK(Error("<4 x f32") == "9: expected '>' after the element type");
  CHECK(Error("<4 x void>") == "6: expected a scalar element type, got void");
  CHECK(Error("<4 x <4 x f32>>") ==
        "6: expected a scalar element type, got <4 x f32>");
  // At most 2^20 elements, the frontend's limit: later code may assume it.
  CHECK(Error("<65536 x 65536 x 2 x i8>") == "1: a block holds at most 2^20 elements");
  CHECK(Error("<4294967296 x i8>") == "1: a block holds at most 2^20 elements");
  CHECK(Error("<2048 x 1024 x i8>") == "1: a block holds at most 2^20 elements");
  CHECK(Error("<1024 x 1024 x i8>") == "no error");
  CHECK(Error("<4611686018427387904 x 4611686018427387904 x i8>") ==
        "1: a block holds at most 2^20 elements");
  CHECK(Error("ptr<void>") == "5: expected a scalar pointee type, got void");
  CHECK(Error("ptr f32") == "5: expected '<' after 'ptr'");
  CHECK(Error("ptr<f32, -1>") == "10: expected an address space from 0 to 4294967295");
  // Only the address spaces the backends lower.
  CHECK(Error("ptr<f32, 999>") ==
        "10: address space 999 is not one of 0 (generic), 1 (global) and 3 (shared)");
  CHECK(Error("ptr<f32, 2>") ==
        "10: address space 2 is not one of 0 (generic), 1 (global) and 3 (shared)");
  CHECK(Error("ptr<f32, 16777216>") ==
        "10: address space 16777216 is not one of 0 (generic), 1 (global) and 3 (shared)");
  CHECK(Error("ptr<f32, 3>") == "no error");
  CHECK(Error("(i32) f32") == "7: expected '->' after the parameter types");
  // Nesting is bounded, not recursed into without limit.
  std::string Deep;
  for (int I = 0; I < 10000; ++I)
    Deep += "ptr<";
  CHECK(Error(Deep.c_str()) == "69: expected a type nested at most 16 deep");
}

TEST_CASE("an error outlives the Context that named its file") {
  // tritium-translate catches errors after the Context is gone: the file
  // name must be the error's own, not a pointer into the Context.
  std::string Buffer = "t-" + std::string(40, 'x') + ".tir";
  std::optional<CompileError> Caught;
  {
    Context Ctx;
    try {
      parseModule("kernel @k() {\nbb0:\n  frob\n}\n", Ctx, Buffer);
    } catch (const CompileError &E) {
      Caught = E;
    }
    Buffer.assign(Buffer.size(), '#'); // the caller's string changes too
  }
  REQUIRE(Caught);
  CHECK(Caught->getLoc().File == "t-" + std::string(40, 'x') + ".tir");
  CHECK(Caught->describe() == "t-" + std::string(40, 'x') + ".tir:3:3: unknown opcode 'frob'");
  CompileError Copy = *Caught;
  Caught.reset();
  CHECK(Copy.getLoc().File == "t-" + std::string(40, 'x') + ".tir");
}

TEST_CASE("formatError") {
  const char *Text = "kernel @k() {\nbb0:\n\t%b = add %a, %a : i32\n}\n";
  Context Ctx;
  CompileError E = [&] {
    try {
      parseModule(Text, Ctx, "t.tir");
    } catch (const CompileError &E) {
      return E;
    }
    return CompileError("no error");
  }();
  // The caret line keeps the tab, so it lines up under the column.
  CHECK(formatError(E, Text) == "t.tir:3:11: error: use of undefined value %a\n"
                                "\t%b = add %a, %a : i32\n"
                                "\t         ^\n");
  CHECK(formatError(E, Text, "t.tir") == formatError(E, Text));
  // Located in another file: no source line from this text.
  CHECK(formatError(CompileError(Loc{"k.py", 3, 2}, "bad"), Text, "t.tir") ==
        "k.py:3:2: error: bad\n");
  CHECK(formatError(CompileError("no location"), Text) ==
        "error: no location\n");
  // A line past the end of the text prints no source line.
  CHECK(formatError(CompileError(Loc{"t.tir", 9, 1}, "late"), Text) ==
        "t.tir:9:1: error: late\n");
  // A column past the end of the line puts the caret just after it.
  CHECK(formatError(CompileError(Loc{"t.tir", 2, 40}, "eol"), "x\nbb0:\r\n") ==
        "t.tir:2:40: error: eol\nbb0:\n    ^\n");
}
