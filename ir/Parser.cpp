//===- Parser.cpp - Reading the text form of the IR -----------------------===//
//
// A recursive-descent parser over the tokens of Lexer.h, one function per
// construct of the grammar in docs/ir.md, with one token of lookahead (two to
// tell a label `name:` from an instruction).
//
// Names are resolved per function. A non-phi operand must name a value
// defined earlier in the text. A phi operand may name a value defined later:
// it gets a placeholder, an unattached `undef` of the phi's type, that is
// replaced when the definition arrives. Blocks may be named before their
// label; they are created on first mention and inserted into the function
// when the label appears. Whatever is still pending at the closing brace is an
// error.
//
// Errors throw CompileError. ~Parser frees the module before the placeholders
// and never-labelled blocks, since the module's instructions may still use
// them.
//
//===----------------------------------------------------------------------===//

#include "ir/Parser.h"
#include "ir/Context.h"
#include "ir/Instructions.h"
#include "ir/Lexer.h"
#include "ir/Printer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <cstdlib>
#include <limits>

using namespace tritium;

namespace {

/// Types nest through ptr<...> and <... x T>; deeper input is rejected
/// rather than recursed into.
constexpr unsigned MaxTypeDepth = 16;

bool isNumber(llvm::StringRef S) { return llvm::all_of(S, llvm::isDigit); }

/// How a message names the token it did not expect.
std::string describe(const Token &T) {
  if (T.is(Token::Eof))
    return "the end of the input";
  return "'" + T.Text.str() + "'";
}

/// What one instruction line spells, before the instruction exists.
struct InstParts {
  llvm::SmallVector<Value *, 4> Operands;
  /// Phi incoming values, resolved once the result type is known.
  llvm::SmallVector<Token, 4> PhiValues;
  llvm::SmallVector<BasicBlock *, 2> Blocks;
  AttrList Attrs;
  llvm::SmallVector<Type *, 2> Types;
  Loc Location;
};

class Parser {
public:
  Parser(llvm::StringRef Text, Context &Ctx, llvm::StringRef BufferName)
      : Ctx(Ctx), Name(Ctx.intern(BufferName)), Lex(Text, Name) {
    Tok = Lex.lex();
  }
  ~Parser() {
    // The module's instructions may use placeholders and pending blocks;
    // free it first so those have no users left when they go.
    M.reset();
    ForwardValues.clear();
    ForwardBlocks.clear();
  }

  std::unique_ptr<Module> parseModule();
  Type *parseStandaloneType();

private:
  // Tokens.
  const Token &peek();
  void consume();
  bool consumeIf(Token::Kind K);
  Token expect(Token::Kind K, const llvm::Twine &Msg);
  /// \p K comes next and on the current instruction's line.
  bool onLine(Token::Kind K) const { return Tok.is(K) && !Tok.StartsLine; }
  bool atLoc() { return Tok.isIdent("loc") && peek().is(Token::LParen); }
  [[noreturn]] void error(const Token &T, const llvm::Twine &Msg) const;
  /// error(T, Why) unless \p Why, a type's check(), is empty.
  void check(const Token &T, const std::string &Why) const {
    if (!Why.empty())
      error(T, Why);
  }
  /// Reports that something is missing before the current token: right
  /// after the previous token if the current one starts a new line.
  [[noreturn]] void errorMissing(const llvm::Twine &Msg) const;

  // Literals.
  int64_t parseInt(const llvm::Twine &What);
  uint64_t parseUnsigned(const llvm::Twine &What, uint64_t Max);
  /// `[n, ...]`: \p Open and \p Close are the messages of a missing bracket,
  /// \p Elem what an element is.
  void parseIntList(llvm::SmallVectorImpl<int64_t> &Out, const llvm::Twine &Open,
                    const llvm::Twine &Elem, const llvm::Twine &Close);
  std::optional<double> parseFloat();

  // Types.
  Type *parseType(unsigned Depth = 0);
  Type *parsePointerType(unsigned Depth);
  Type *parseBlockType(unsigned Depth);
  Type *parseMemDescType(unsigned Depth);
  Type *parseTensorDescType(unsigned Depth);
  Type *parseDimsAndElement(Shape &Dims, llvm::StringRef What, unsigned Depth);
  Type *parseFunctionType();
  void parseTypeList(llvm::SmallVectorImpl<Type *> &Types);

  // Functions and blocks.
  void parseFunction();
  void parseArgAttrs(ArgAttrs &A);
  void finishFunction();
  void parseBlock();
  BasicBlock *newBlock(llvm::StringRef Label);
  BasicBlock *blockRef(const Token &T);

  // Instructions.
  void parseInstruction(BasicBlock *B);
  void parseOperands(InstParts &P);
  void parsePhiOperands(InstParts &P);
  void parseCallOperands(InstParts &P);
  void parseAttrs(AttrList &Attrs);
  AttrValue parseAttrValue(AttrKey Key);
  AttrValue parseLayout() { return AttrValue::layout(parseLayoutText()); }
  LinearLayout parseLayoutText();
  Loc parseLoc();

  // Values.
  void checkNewValue(const Token &T);
  Value *lookupValue(const Token &T);
  Value *lookupPhiValue(const Token &T, Type *Ty);
  void defineValue(const Token &T, Value *V);

  Context &Ctx;
  llvm::StringRef Name;
  Lexer Lex;
  Token Tok;
  std::optional<Token> Peeked;
  /// Where the last consumed token ends.
  unsigned PrevLine = 1, PrevEndCol = 1;
  /// The line of the instruction being parsed, or 0 between instructions.
  unsigned InstLine = 0;
  std::unique_ptr<Module> M;

  // State of the function being parsed.
  Function *F = nullptr;
  llvm::StringMap<Value *> Values;
  llvm::StringMap<BasicBlock *> Blocks;
  struct Pending {
    std::unique_ptr<Instruction> Placeholder;
    Token FirstUse;
  };
  /// Phi operands not defined yet.
  llvm::StringMap<Pending> ForwardValues;
  struct PendingBlock {
    std::unique_ptr<BasicBlock> Block;
    Token FirstUse;
  };
  /// Blocks mentioned but not labelled yet.
  llvm::StringMap<PendingBlock> ForwardBlocks;
};

//===----------------------------------------------------------------------===//
// Tokens and literals
//===----------------------------------------------------------------------===//

const Token &Parser::peek() {
  if (!Peeked)
    Peeked = Lex.lex();
  return *Peeked;
}

void Parser::consume() {
  // An instruction is one line; a token from the next line is never part of
  // it, even where the grammar would allow it (after a trailing comma).
  if (InstLine && Tok.Line != InstLine)
    errorMissing("expected the rest of the instruction on its line");
  PrevLine = Tok.Line;
  PrevEndCol = Tok.Col + unsigned(Tok.Text.size());
  if (Peeked) {
    Tok = *Peeked;
    Peeked.reset();
  } else {
    Tok = Lex.lex();
  }
}

bool Parser::consumeIf(Token::Kind K) {
  if (!Tok.is(K))
    return false;
  consume();
  return true;
}

Token Parser::expect(Token::Kind K, const llvm::Twine &Msg) {
  if (!Tok.is(K))
    errorMissing(Msg);
  Token T = Tok;
  consume();
  return T;
}

void Parser::error(const Token &T, const llvm::Twine &Msg) const {
  throw CompileError(Loc{Name, T.Line, T.Col}, Msg.str());
}

void Parser::errorMissing(const llvm::Twine &Msg) const {
  if (!Tok.StartsLine)
    error(Tok, Msg);
  throw CompileError(Loc{Name, PrevLine, PrevEndCol}, Msg.str());
}

int64_t Parser::parseInt(const llvm::Twine &What) {
  if (!Tok.is(Token::Int))
    errorMissing("expected " + What);
  int64_t V;
  if (Tok.Text.getAsInteger(10, V))
    error(Tok, "integer " + Tok.Text + " does not fit in 64 bits");
  consume();
  return V;
}

uint64_t Parser::parseUnsigned(const llvm::Twine &What, uint64_t Max) {
  uint64_t V;
  if (!Tok.is(Token::Int) || Tok.Text.getAsInteger(10, V) || V > Max)
    errorMissing("expected " + What + " from 0 to " + llvm::Twine(Max));
  consume();
  return V;
}

void Parser::parseIntList(llvm::SmallVectorImpl<int64_t> &Out, const llvm::Twine &Open,
                          const llvm::Twine &Elem, const llvm::Twine &Close) {
  expect(Token::LSquare, Open);
  if (!Tok.is(Token::RSquare))
    do
      Out.push_back(parseInt(Elem));
    while (consumeIf(Token::Comma));
  expect(Token::RSquare, Close);
}

/// A Float token or the words inf and nan, if one comes next.
std::optional<double> Parser::parseFloat() {
  llvm::StringRef S = Tok.Text;
  bool Word = Tok.is(Token::Ident) && (S == "inf" || S == "nan");
  if (!Tok.is(Token::Float) && !Word)
    return std::nullopt;
  consume();
  bool Neg = S.consume_front("-");
  double V;
  if (S == "inf")
    V = std::numeric_limits<double>::infinity();
  else if (S == "nan")
    V = std::numeric_limits<double>::quiet_NaN();
  else
    // The token is plain decimal, which strtod reads correctly rounded.
    V = std::strtod(S.str().c_str(), nullptr);
  return std::copysign(V, Neg ? -1.0 : 1.0);
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type *Parser::parseType(unsigned Depth) {
  if (Depth > MaxTypeDepth)
    error(Tok, "expected a type nested at most " + llvm::Twine(MaxTypeDepth) +
                   " deep");
  if (Tok.is(Token::Less))
    return parseBlockType(Depth);
  if (!Tok.is(Token::Ident))
    errorMissing("expected a type, got " + describe(Tok));
  Token T = Tok;
  consume();
  if (T.Text == "ptr")
    return parsePointerType(Depth);
  if (T.Text == "memdesc")
    return parseMemDescType(Depth);
  if (T.Text == "tensordesc")
    return parseTensorDescType(Depth);
  Type *Ty = llvm::StringSwitch<Type *>(T.Text)
                 .Case("void", Type::getVoid(Ctx))
                 .Case("i1", Type::getI1(Ctx))
                 .Case("i8", Type::getI8(Ctx))
                 .Case("i16", Type::getInt(Ctx, 16))
                 .Case("i32", Type::getI32(Ctx))
                 .Case("i64", Type::getI64(Ctx))
                 .Case("f8e4m3", Type::getFloat(Ctx, Type::Kind::F8E4M3))
                 .Case("f8e5m2", Type::getFloat(Ctx, Type::Kind::F8E5M2))
                 .Case("f8e4b15", Type::getFloat(Ctx, Type::Kind::F8E4M3B15))
                 .Case("f16", Type::getF16(Ctx))
                 .Case("bf16", Type::getBF16(Ctx))
                 .Case("f32", Type::getF32(Ctx))
                 .Case("f64", Type::getF64(Ctx))
                 .Default(nullptr);
  if (!Ty)
    error(T, "expected a type, got " + describe(T));
  return Ty;
}

/// ptr<T> or ptr<T, AS>, after `ptr`.
Type *Parser::parsePointerType(unsigned Depth) {
  expect(Token::Less, "expected '<' after 'ptr'");
  Token PT = Tok;
  Type *Pointee = parseType(Depth + 1);
  if (!Pointee->isScalar())
    error(PT, "expected a scalar pointee type, got " + Pointee->str());
  unsigned AS = PointerType::Global;
  if (consumeIf(Token::Comma)) {
    Token ASTok = Tok;
    uint64_t N = parseUnsigned("an address space", UINT32_MAX);
    check(ASTok, PointerType::checkAddressSpace(int64_t(N)));
    AS = unsigned(N);
  }
  expect(Token::Greater, "expected '>' after the pointee type");
  return PointerType::get(Pointee, AS);
}

/// `d0 x d1 x ... x T` inside a block, memdesc or tensordesc type: the
/// dimensions into \p Dims, and the scalar element type.
Type *Parser::parseDimsAndElement(Shape &Dims, llvm::StringRef What, unsigned Depth) {
  while (Tok.is(Token::Int)) {
    Dims.push_back(parseInt(("a " + What + " dimension").str()));
    if (!Tok.isIdent("x"))
      error(Tok, "expected 'x' after a " + What + " dimension");
    consume();
  }
  Token ET = Tok;
  Type *Elem = parseType(Depth + 1);
  if (!Elem->isScalar())
    error(ET, "expected a scalar element type, got " + Elem->str());
  return Elem;
}

/// memdesc<[S x] d0 x ... x T, <offset=[...], shape=[...]>[, mutable]>,
/// after `memdesc`.
Type *Parser::parseMemDescType(unsigned Depth) {
  Token Open = expect(Token::Less, "expected '<' after 'memdesc'");
  Shape Dims;
  Type *Elem = parseDimsAndElement(Dims, "memdesc", Depth);
  expect(Token::Comma, "expected ',' and the shared layout after the element type");
  LinearLayout Layout = parseLayoutText();
  bool Mutable = false;
  if (consumeIf(Token::Comma)) {
    if (!Tok.isIdent("mutable"))
      error(Tok, "expected 'mutable' or '>'");
    consume();
    Mutable = true;
  }
  expect(Token::Greater, "expected '>' to end the memdesc type");
  check(Open, MemDescType::check(Elem, Dims, Layout));
  return MemDescType::get(Elem, Dims, Layout, Mutable);
}

/// tensordesc<d0 x ... x T>, after `tensordesc`.
Type *Parser::parseTensorDescType(unsigned Depth) {
  Token Open = expect(Token::Less, "expected '<' after 'tensordesc'");
  Shape Dims;
  Type *Elem = parseDimsAndElement(Dims, "tensordesc", Depth);
  expect(Token::Greater, "expected '>' to end the tensordesc type");
  check(Open, TensorDescType::check(Elem, Dims));
  return TensorDescType::get(Elem, Dims);
}

/// <d0 x d1 x ... x T>
Type *Parser::parseBlockType(unsigned Depth) {
  Token Open = expect(Token::Less, "expected '<'");
  Shape Dims;
  Type *Elem = parseDimsAndElement(Dims, "block", Depth);
  expect(Token::Greater, "expected '>' after the element type");
  check(Open, BlockType::checkShape(Dims));
  return BlockType::get(Elem, Dims);
}

/// (T, ...) -> R, (T, ...) -> (R, ...) or (T, ...) -> void. Only a
/// standalone type may be a function type; values never have one.
Type *Parser::parseFunctionType() {
  expect(Token::LParen, "expected '('");
  llvm::SmallVector<Type *, 4> Params, Results;
  if (!Tok.is(Token::RParen))
    parseTypeList(Params);
  expect(Token::RParen, "expected ')' after the parameter types");
  expect(Token::Arrow, "expected '->' after the parameter types");
  if (consumeIf(Token::LParen)) {
    parseTypeList(Results);
    expect(Token::RParen, "expected ')' after the result types");
  } else if (Tok.isIdent("void")) {
    consume();
  } else {
    Results.push_back(parseType());
  }
  return FunctionType::get(Ctx, Params, Results);
}

void Parser::parseTypeList(llvm::SmallVectorImpl<Type *> &Types) {
  do
    Types.push_back(parseType());
  while (consumeIf(Token::Comma));
}

Type *Parser::parseStandaloneType() {
  Type *T = Tok.is(Token::LParen) ? parseFunctionType() : parseType();
  if (!Tok.is(Token::Eof))
    error(Tok, "expected the end of the input after the type");
  return T;
}

//===----------------------------------------------------------------------===//
// Functions and blocks
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> Parser::parseModule() {
  M = std::make_unique<Module>(Ctx);
  while (!Tok.is(Token::Eof))
    parseFunction();
  return std::move(M);
}

/// kernel|func [noinline] @name(%a: T [{attrs}], ...) [-> T | -> (T, ...)] {
///   blocks
/// }
void Parser::parseFunction() {
  Loc Start{Name, Tok.Line, Tok.Col};
  bool Kernel = Tok.isIdent("kernel");
  if (!Kernel && !Tok.isIdent("func"))
    error(Tok, "expected 'kernel' or 'func'");
  consume();
  bool NoInline = Tok.isIdent("noinline");
  if (NoInline)
    consume();
  Token FnName = expect(Token::Symbol, "expected a function name such as @f");

  struct ArgSpec {
    Token Name;
    ArgAttrs Attrs;
  };
  llvm::SmallVector<ArgSpec, 8> Args;
  llvm::SmallVector<Type *, 8> Params;
  llvm::SmallVector<Type *, 2> Results;
  expect(Token::LParen, "expected '(' after the function name");
  if (!Tok.is(Token::RParen)) {
    do {
      ArgSpec A{expect(Token::ValueRef, "expected an argument such as %0"), {}};
      expect(Token::Colon, "expected ':' after the argument name");
      Params.push_back(parseType());
      if (Tok.is(Token::LBrace))
        parseArgAttrs(A.Attrs);
      Args.push_back(A);
    } while (consumeIf(Token::Comma));
  }
  expect(Token::RParen, "expected ')' after the arguments");
  if (consumeIf(Token::Arrow)) {
    if (consumeIf(Token::LParen)) {
      if (!Tok.is(Token::RParen))
        parseTypeList(Results);
      expect(Token::RParen, "expected ')' after the result types");
    } else {
      Results.push_back(parseType());
    }
  }
  expect(Token::LBrace, "expected '{' before the function body");

  F = M->createFunction(FnName.getName(),
                        FunctionType::get(Ctx, Params, Results));
  if (!F)
    error(FnName, "redefinition of function " + FnName.Text);
  F->setKernel(Kernel);
  F->setNoInline(NoInline);
  F->setLoc(Start);
  for (unsigned I = 0; I < Args.size(); ++I) {
    checkNewValue(Args[I].Name);
    defineValue(Args[I].Name, F->getArg(I));
    F->getArg(I)->getAttrs() = Args[I].Attrs;
  }

  while (!Tok.is(Token::RBrace)) {
    if (Tok.is(Token::Eof))
      errorMissing("expected '}' at the end of the function");
    parseBlock();
  }
  consume();
  finishFunction();
}

/// {divisibility=N, equal_to_1, constant=N, noalias, tensormap} in any order.
void Parser::parseArgAttrs(ArgAttrs &A) {
  expect(Token::LBrace, "expected '{'");
  llvm::SmallVector<llvm::StringRef, 4> Seen;
  do {
    Token K = expect(Token::Ident, "expected an argument attribute");
    if (llvm::is_contained(Seen, K.Text))
      error(K, "argument attribute '" + K.Text + "' appears twice");
    Seen.push_back(K.Text);
    if (K.Text == "divisibility" || K.Text == "constant") {
      expect(Token::Equal, "expected '=' after '" + K.Text + "'");
      int64_t V = parseInt("an integer for '" + K.Text + "'");
      if (K.Text == "constant")
        A.ConstantValue = V;
      else
        A.Divisibility = V;
    } else if (K.Text == "equal_to_1") {
      A.EqualTo1 = true;
    } else if (K.Text == "noalias") {
      A.NoAlias = true;
    } else if (K.Text == "tensormap") {
      A.TensorMap = true;
    } else {
      error(K, "expected an argument attribute (divisibility, equal_to_1, "
               "constant, noalias or tensormap), got '" +
                   K.Text + "'");
    }
  } while (consumeIf(Token::Comma));
  expect(Token::RBrace, "expected ',' or '}' after an argument attribute");
}

void Parser::finishFunction() {
  // Report whichever dangling reference comes first in the text.
  const Token *First = nullptr;
  std::string Msg;
  auto Consider = [&](const Token &T, std::string What) {
    if (!First || std::make_pair(T.Line, T.Col) <
                      std::make_pair(First->Line, First->Col)) {
      First = &T;
      Msg = std::move(What);
    }
  };
  for (auto &B : ForwardBlocks)
    Consider(B.second.FirstUse,
             "use of undefined block '" + B.first().str() + "'");
  for (auto &V : ForwardValues)
    Consider(V.second.FirstUse,
             "use of undefined value " + V.second.FirstUse.Text.str());
  if (First)
    error(*First, Msg);
  Values.clear();
  Blocks.clear();
  F = nullptr;
}

/// label: instructions
void Parser::parseBlock() {
  if (!Tok.is(Token::Ident) || !peek().is(Token::Colon))
    error(Tok, "expected a block label such as 'bb0:'");
  Token Label = Tok;
  consume();
  consume();
  BasicBlock *B;
  auto [It, New] = Blocks.try_emplace(Label.Text, nullptr);
  if (New) {
    B = It->second = newBlock(Label.Text);
  } else {
    auto Pending = ForwardBlocks.find(Label.Text);
    if (Pending == ForwardBlocks.end())
      error(Label, "redefinition of block '" + Label.Text + "'");
    B = Pending->second.Block.release();
    ForwardBlocks.erase(Pending);
  }
  F->push_back(B);
  while (!Tok.is(Token::RBrace) && !Tok.is(Token::Eof) &&
         !(Tok.is(Token::Ident) && peek().is(Token::Colon)))
    parseInstruction(B);
}

BasicBlock *Parser::newBlock(llvm::StringRef Label) {
  return new BasicBlock(looksNumbered(Label) ? "" : Label);
}

BasicBlock *Parser::blockRef(const Token &T) {
  if (BasicBlock *B = Blocks.lookup(T.Text))
    return B;
  BasicBlock *B = newBlock(T.Text);
  Blocks[T.Text] = B;
  ForwardBlocks.try_emplace(T.Text, PendingBlock{std::unique_ptr<BasicBlock>(B), T});
  return B;
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

/// [%r, ... =] opcode [lead] operands [{attrs}] [: types] [loc(...)]
void Parser::parseInstruction(BasicBlock *B) {
  Token Start = Tok;
  InstLine = Tok.Line;
  llvm::SmallVector<Token, 2> Names;
  if (Tok.is(Token::ValueRef)) {
    do {
      Token N = expect(Token::ValueRef, "expected a result name such as %0");
      checkNewValue(N);
      for (const Token &Prev : Names)
        if (Prev.Text == N.Text)
          error(N, "redefinition of value " + N.Text);
      Names.push_back(N);
    } while (consumeIf(Token::Comma));
    expect(Token::Equal, "expected '=' after the result names");
  }
  Token OpTok = expect(Token::Ident, "expected an opcode");
  std::optional<Opcode> Op = lookupOpcode(OpTok.Text);
  if (!Op)
    error(OpTok, "unknown opcode '" + OpTok.Text + "'");

  InstParts P;
  if (std::optional<AttrKey> Lead = getLeadAttr(*Op))
    P.Attrs.push_back({*Lead, parseAttrValue(*Lead)});
  if (*Op == Opcode::Phi)
    parsePhiOperands(P);
  else if (*Op == Opcode::Call)
    parseCallOperands(P);
  else
    parseOperands(P);
  if (onLine(Token::LBrace))
    parseAttrs(P.Attrs);
  if (onLine(Token::Colon)) {
    Token Colon = Tok;
    consume();
    if (Tok.StartsLine)
      errorMissing("expected the result types after ':'");
    parseTypeList(P.Types);
    if (P.Types.size() != Names.size())
      error(Colon, "expected " + llvm::Twine(Names.size()) +
                       " result types, one per result name, got " +
                       llvm::Twine(P.Types.size()));
  } else if (!Names.empty()) {
    errorMissing("expected ':' after the operands");
  }
  if (!Tok.StartsLine && atLoc())
    P.Location = parseLoc();
  if (!Tok.StartsLine && !Tok.is(Token::Eof))
    error(Tok, "expected the end of the line after the instruction");
  InstLine = 0;

  Type *PhiTy = P.Types.size() == 1 ? P.Types[0] : Type::getVoid(Ctx);
  for (const Token &V : P.PhiValues)
    P.Operands.push_back(lookupPhiValue(V, PhiTy));

  std::unique_ptr<Instruction> I(
      Instruction::create(Ctx, *Op, P.Types, P.Operands, std::move(P.Attrs),
                          P.Blocks, P.Location));
  std::string Err = I->checkTypes();
  if (!Err.empty())
    error(Start, Err);
  Instruction *Inst = I.release();
  B->push_back(Inst);
  for (unsigned R = 0; R < Names.size(); ++R)
    defineValue(Names[R], Inst->getResult(R));
}

/// Values, then block labels, separated by commas: `%a, %b`, `bb1`,
/// `%c, bb1, bb2`.
void Parser::parseOperands(InstParts &P) {
  bool Starts = Tok.is(Token::ValueRef) || (Tok.is(Token::Ident) && !atLoc());
  if (Tok.StartsLine || !Starts)
    return;
  do {
    if (Tok.is(Token::ValueRef)) {
      if (!P.Blocks.empty())
        error(Tok, "expected a block label: values come before blocks");
      P.Operands.push_back(lookupValue(Tok));
      consume();
    } else if (Tok.is(Token::Ident)) {
      P.Blocks.push_back(blockRef(Tok));
      consume();
    } else {
      error(Tok, "expected a value or a block label");
    }
  } while (consumeIf(Token::Comma));
}

/// [%v, label], [%w, label], ...
void Parser::parsePhiOperands(InstParts &P) {
  if (!onLine(Token::LSquare))
    return;
  do {
    expect(Token::LSquare, "expected '[' before an incoming value");
    P.PhiValues.push_back(
        expect(Token::ValueRef, "expected an incoming value such as %0"));
    expect(Token::Comma, "expected ',' after the incoming value");
    Token Label = expect(Token::Ident, "expected the incoming block's label");
    P.Blocks.push_back(blockRef(Label));
    expect(Token::RSquare, "expected ']' after the incoming block");
  } while (consumeIf(Token::Comma));
}

/// @callee(%a, ...)
void Parser::parseCallOperands(InstParts &P) {
  Token Callee = expect(Token::Symbol, "expected a callee such as @f");
  P.Attrs.push_back({AttrKey::Callee, AttrValue::symbol(Callee.getName())});
  expect(Token::LParen, "expected '(' after the callee");
  if (!Tok.is(Token::RParen)) {
    do {
      Token V = expect(Token::ValueRef, "expected an argument such as %0");
      P.Operands.push_back(lookupValue(V));
    } while (consumeIf(Token::Comma));
  }
  expect(Token::RParen, "expected ')' after the call arguments");
}

/// {key, key=value, ...}
void Parser::parseAttrs(AttrList &Attrs) {
  expect(Token::LBrace, "expected '{'");
  do {
    Token K = expect(Token::Ident, "expected an attribute name");
    std::optional<AttrKey> Key = lookupAttrKey(K.Text);
    if (!Key)
      error(K, "unknown attribute '" + K.Text + "'");
    if (llvm::any_of(Attrs, [&](const Attribute &A) { return A.Key == *Key; }))
      error(K, "attribute '" + K.Text + "' appears twice");
    if (getAttrKeyKind(*Key) == AttrKeyKind::Unit) {
      if (Tok.is(Token::Equal))
        error(Tok, "expected ',' or '}': '" + K.Text + "' takes no value");
      Attrs.push_back({*Key, AttrValue::unit()});
      continue;
    }
    expect(Token::Equal, "expected '=' after '" + K.Text + "'");
    Attrs.push_back({*Key, parseAttrValue(*Key)});
  } while (consumeIf(Token::Comma));
  expect(Token::RBrace, "expected ',' or '}' after an attribute");
}

/// The value of \p Key, of the kind Attributes.def gives it.
AttrValue Parser::parseAttrValue(AttrKey Key) {
  std::string KeyName = getAttrKeyName(Key).str();
  switch (getAttrKeyKind(Key)) {
  case AttrKeyKind::Unit:
    return AttrValue::unit();
  case AttrKeyKind::Int:
    return AttrValue::integer(parseInt("an integer for '" + KeyName + "'"));
  case AttrKeyKind::Number:
    if (std::optional<double> D = parseFloat())
      return AttrValue::floating(*D);
    return AttrValue::integer(parseInt("a number for '" + KeyName + "'"));
  case AttrKeyKind::String: {
    Token S = expect(Token::String, "expected a string for '" + KeyName + "'");
    return AttrValue::string(Lexer::decodeString(S.Text));
  }
  case AttrKeyKind::Symbol: {
    Token S = expect(Token::Symbol,
                     "expected a symbol such as @f for '" + KeyName + "'");
    return AttrValue::symbol(S.getName());
  }
  case AttrKeyKind::Layout:
    return parseLayout();
  case AttrKeyKind::IntList: {
    llvm::SmallVector<int64_t, 4> List;
    parseIntList(List, "expected '[' to start the list for '" + KeyName + "'",
                 "an integer in the list for '" + KeyName + "'",
                 "expected ']' at the end of the list");
    return AttrValue::intList(List);
  }
  case AttrKeyKind::Enum: {
    EnumTable Table = getAttrKeyEnumTable(Key);
    std::optional<unsigned> V;
    if (Tok.is(Token::Ident))
      V = lookupEnumValue(Table, Tok.Text);
    if (!V) {
      std::string Names;
      for (const char *N : getEnumNames(Table))
        Names += (Names.empty() ? "" : ", ") + std::string(N);
      errorMissing("expected one of " + Names + " for '" + KeyName +
                   "', got " + describe(Tok));
    }
    consume();
    return AttrValue::enumerator(*V);
  }
  }
  return AttrValue::unit();
}

/// <register=[[1], [2]], lane=[[4]], warp=[], shape=[8]>: the bases of each
/// input dimension, then the sizes of the outputs dim0, dim1, ...
LinearLayout Parser::parseLayoutText() {
  expect(Token::Less, "expected '<' to start a layout");
  struct ParsedIn {
    std::string Name;
    llvm::SmallVector<llvm::SmallVector<int64_t, 4>, 8> Bases;
    Token At;
  };
  llvm::SmallVector<ParsedIn, 3> Ins;
  llvm::SmallVector<int64_t, 4> Shape;
  Token ShapeTok;
  for (;;) {
    Token N = expect(Token::Ident, "expected an input dimension or 'shape'");
    expect(Token::Equal, "expected '=' after '" + N.Text + "'");
    if (N.Text == "shape") {
      ShapeTok = N;
      parseIntList(Shape, "expected '['", "a dimension size", "expected ']' after the shape");
      break;
    }
    expect(Token::LSquare, "expected '['");
    if (llvm::any_of(Ins, [&](const ParsedIn &I) { return I.Name == N.Text; }))
      error(N, "input dimension '" + N.Text + "' appears twice");
    ParsedIn In{N.Text.str(), {}, N};
    if (!Tok.is(Token::RSquare))
      do {
        llvm::SmallVector<int64_t, 4> B;
        parseIntList(B, "expected '[' to start a basis", "a basis coordinate",
                     "expected ']' after a basis");
        if (In.Bases.size() >= 31)
          error(N, "too many bases for '" + N.Text + "'");
        In.Bases.push_back(std::move(B));
      } while (consumeIf(Token::Comma));
    expect(Token::RSquare, "expected ']' after the bases");
    Ins.push_back(std::move(In));
    expect(Token::Comma, "expected ',' and then 'shape=[...]'");
  }
  expect(Token::Greater, "expected '>' after the layout's shape");
  // Validate before building: LinearLayout asserts its invariants.
  llvm::SmallVector<LinearLayout::OutDim, 4> Outs;
  for (unsigned K = 0; K < Shape.size(); ++K) {
    if (Shape[K] <= 0 || Shape[K] > (int64_t(1) << 30) ||
        (Shape[K] & (Shape[K] - 1)))
      error(ShapeTok, "layout shape sizes must be powers of two");
    Outs.push_back({"dim" + std::to_string(K), int32_t(Shape[K])});
  }
  llvm::SmallVector<LinearLayout::InDim, 3> InDims;
  for (ParsedIn &In : Ins) {
    LinearLayout::InDim D{In.Name, {}};
    for (auto &B : In.Bases) {
      if (B.size() != Shape.size())
        error(In.At, "each basis of '" + In.Name + "' needs " +
                         std::to_string(Shape.size()) + " coordinates");
      LinearLayout::Basis Basis;
      for (unsigned K = 0; K < B.size(); ++K) {
        if (B[K] < 0 || B[K] >= Shape[K])
          error(In.At, "a basis of '" + In.Name + "' lies outside the shape");
        Basis.push_back(int32_t(B[K]));
      }
      D.Bases.push_back(std::move(Basis));
    }
    InDims.push_back(std::move(D));
  }
  return LinearLayout(InDims, Outs);
}

/// loc("file":line:col)
Loc Parser::parseLoc() {
  consume();
  expect(Token::LParen, "expected '(' after 'loc'");
  Token File = expect(Token::String, "expected a file name string in 'loc'");
  expect(Token::Colon, "expected ':' after the file name");
  unsigned Line = unsigned(parseUnsigned("a line number", ~0u));
  expect(Token::Colon, "expected ':' after the line number");
  unsigned Col = unsigned(parseUnsigned("a column number", ~0u));
  expect(Token::RParen, "expected ')' after the location");
  return Loc{Ctx.intern(Lexer::decodeString(File.Text)), Line, Col};
}

//===----------------------------------------------------------------------===//
// Values
//===----------------------------------------------------------------------===//

void Parser::checkNewValue(const Token &T) {
  if (Values.count(T.getName()))
    error(T, "redefinition of value " + T.Text);
}

Value *Parser::lookupValue(const Token &T) {
  Value *V = Values.lookup(T.getName());
  if (!V)
    error(T, "use of undefined value " + T.Text);
  return V;
}

Value *Parser::lookupPhiValue(const Token &T, Type *Ty) {
  if (Value *V = Values.lookup(T.getName()))
    return V;
  auto It = ForwardValues.find(T.getName());
  if (It != ForwardValues.end())
    return It->second.Placeholder->getResult();
  std::unique_ptr<Instruction> P(
      Instruction::create(Ctx, Opcode::Undef, {Ty}, {}));
  Value *V = P->getResult();
  ForwardValues.try_emplace(T.getName(), Pending{std::move(P), T});
  return V;
}

/// Names \p V after \p T (unless T is a number) and resolves phi uses that
/// came before it.
void Parser::defineValue(const Token &T, Value *V) {
  llvm::StringRef N = T.getName();
  if (!isNumber(N))
    V->setName(N);
  Values[N] = V;
  auto It = ForwardValues.find(N);
  if (It == ForwardValues.end())
    return;
  Value *P = It->second.Placeholder->getResult();
  if (P->getType() != V->getType())
    error(T, "value " + T.Text + " has type " + V->getType()->str() +
                 " but a phi before it uses it as " + P->getType()->str());
  P->replaceAllUsesWith(V);
  ForwardValues.erase(It);
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

std::unique_ptr<Module> tritium::parseModule(llvm::StringRef Text, Context &Ctx,
                                             llvm::StringRef BufferName) {
  return Parser(Text, Ctx, BufferName).parseModule();
}

Type *tritium::parseType(llvm::StringRef Text, Context &Ctx) {
  return Parser(Text, Ctx, "<type>").parseStandaloneType();
}

std::string tritium::formatError(const CompileError &E, llvm::StringRef Text,
                                 llvm::StringRef BufferName) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  Loc L = E.getLoc();
  if (L.isKnown()) {
    L.print(OS);
    OS << ": ";
  }
  OS << "error: " << E.what() << '\n';
  // A location in another file (an instruction's loc(...)) has no line here.
  if (!L.isKnown() || (!BufferName.empty() && L.File != BufferName))
    return S;
  llvm::StringRef Rest = Text;
  for (unsigned I = 1; I < L.Line; ++I) {
    size_t NL = Rest.find('\n');
    if (NL == llvm::StringRef::npos)
      return S;
    Rest = Rest.drop_front(NL + 1);
  }
  llvm::StringRef Line = Rest.take_until([](char C) { return C == '\n'; });
  Line.consume_back("\r");
  OS << Line << '\n';
  // Tabs stay tabs so that the caret lines up however the terminal sets them.
  for (unsigned I = 1; I < L.Col && I <= Line.size(); ++I)
    OS << (Line[I - 1] == '\t' ? '\t' : ' ');
  OS << "^\n";
  return S;
}
