// Tests of ir/Lexer: token kinds and spellings, positions, the start-of-line
// flag instructions end on, string escapes, and errors with their position.
#include "ir/Diagnostics.h"
#include "ir/Lexer.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

using namespace tritium;

namespace {

/// A short name of a token kind, to compare whole token streams.
llvm::StringRef describeTokenKind(Token::Kind K) {
  switch (K) {
  case Token::Eof: return "end of input";
  case Token::Ident: return "an identifier";
  case Token::ValueRef: return "a value";
  case Token::Symbol: return "a symbol";
  case Token::Int: return "an integer";
  case Token::Float: return "a float";
  case Token::String: return "a string";
  case Token::LParen: return "'('";
  case Token::RParen: return "')'";
  case Token::LBrace: return "'{'";
  case Token::RBrace: return "'}'";
  case Token::LSquare: return "'['";
  case Token::RSquare: return "']'";
  case Token::Less: return "'<'";
  case Token::Greater: return "'>'";
  case Token::Comma: return "','";
  case Token::Colon: return "':'";
  case Token::Equal: return "'='";
  case Token::Arrow: return "'->'";
  }
  return "a token";
}

/// Every token of \p Text up to (not including) the end.
std::vector<Token> lexAll(llvm::StringRef Text) {
  Lexer L(Text, "t.tir");
  std::vector<Token> Toks;
  for (Token T = L.lex(); !T.is(Token::Eof); T = L.lex())
    Toks.push_back(T);
  return Toks;
}

/// "kind:spelling" for each token, to compare whole token streams.
std::vector<std::string> kinds(llvm::StringRef Text) {
  std::vector<std::string> Out;
  for (const Token &T : lexAll(Text))
    Out.push_back(describeTokenKind(T.K).str() + ":" + T.Text.str());
  return Out;
}

/// The "line:col: message" of the error lexing \p Text throws.
std::string lexError(llvm::StringRef Text) {
  try {
    lexAll(Text);
  } catch (const CompileError &E) {
    return std::to_string(E.getLoc().Line) + ":" +
           std::to_string(E.getLoc().Col) + ": " + E.what();
  }
  return "no error";
}

} // namespace

TEST_CASE("lexer: an instruction line") {
  using V = std::vector<std::string>;
  CHECK(kinds("%r = load %p, %m {cache=cg} : <128 x f32>") ==
        V{"a value:%r", "'=':=", "an identifier:load", "a value:%p", "',':,",
          "a value:%m", "'{':{", "an identifier:cache", "'=':=",
          "an identifier:cg", "'}':}", "':'::", "'<':<", "an integer:128",
          "an identifier:x", "an identifier:f32", "'>':>"});
  CHECK(kinds("kernel @k.1(%0: ptr<f16, 3>) -> (i32) [ ]") ==
        V{"an identifier:kernel", "a symbol:@k.1", "'(':(", "a value:%0",
          "':'::", "an identifier:ptr", "'<':<", "an identifier:f16", "',':,",
          "an integer:3", "'>':>", "')':)", "'->':->", "'(':(",
          "an identifier:i32", "')':)", "'[':[", "']':]"});
}

TEST_CASE("lexer: numbers") {
  using V = std::vector<std::string>;
  CHECK(kinds("0 -7 9223372036854775808") ==
        V{"an integer:0", "an integer:-7", "an integer:9223372036854775808"});
  CHECK(kinds("1.5 -0.0 1e+100 5e-324 2E3 1.") ==
        V{"a float:1.5", "a float:-0.0", "a float:1e+100", "a float:5e-324",
          "a float:2E3", "a float:1."});
  // inf and nan are words; only their negations are float tokens.
  CHECK(kinds("inf -inf nan -nan") == V{"an identifier:inf", "a float:-inf",
                                        "an identifier:nan", "a float:-nan"});
  // An 'e' without digits after it is not an exponent.
  CHECK(kinds("4 x 2e") == V{"an integer:4", "an identifier:x",
                             "an integer:2", "an identifier:e"});
}

TEST_CASE("lexer: names and sigils") {
  std::vector<Token> T = lexAll("%a.b_2 %17 @f bb0 _x");
  REQUIRE(T.size() == 5);
  CHECK(T[0].is(Token::ValueRef));
  CHECK(T[0].getName() == "a.b_2");
  CHECK(T[1].getName() == "17");
  CHECK(T[2].is(Token::Symbol));
  CHECK(T[2].getName() == "f");
  CHECK(T[3].isIdent("bb0"));
  CHECK(T[4].isIdent("_x"));
}

TEST_CASE("lexer: positions, comments and line starts") {
  std::vector<Token> T = lexAll("; header\nbb0:  ; label\n\t%a = ret\n");
  REQUIRE(T.size() == 5);
  CHECK(T[0].Text == "bb0");
  CHECK(T[0].Line == 2);
  CHECK(T[0].Col == 1);
  CHECK(T[0].StartsLine);
  CHECK(T[1].is(Token::Colon));
  CHECK(T[1].Col == 4);
  CHECK(!T[1].StartsLine);
  // A tab is one column.
  CHECK(T[2].Text == "%a");
  CHECK(T[2].Line == 3);
  CHECK(T[2].Col == 2);
  CHECK(T[2].StartsLine);
  CHECK(T[4].isIdent("ret"));
  CHECK(!T[4].StartsLine);
}

TEST_CASE("lexer: the end repeats") {
  Lexer L("x", "t.tir");
  CHECK(L.lex().isIdent("x"));
  Token E = L.lex();
  CHECK(E.is(Token::Eof));
  CHECK(E.Col == 2);
  CHECK(L.lex().is(Token::Eof));
}

TEST_CASE("lexer: strings and their escapes") {
  std::vector<Token> T = lexAll(R"("plain" "q\"b\\n\nt\t" "\01\7F\ff" "")");
  REQUIRE(T.size() == 4);
  CHECK(T[0].is(Token::String));
  CHECK(Lexer::decodeString(T[0].Text) == "plain");
  CHECK(Lexer::decodeString(T[1].Text) == "q\"b\\n\nt\t");
  CHECK(Lexer::decodeString(T[2].Text) == std::string("\x01\x7f\xff"));
  CHECK(Lexer::decodeString(T[3].Text).empty());
  // Bytes the printer escapes are still accepted raw.
  CHECK(Lexer::decodeString(lexAll("\"\x80\"")[0].Text) == "\x80");
}

TEST_CASE("lexer: errors and their positions") {
  CHECK(lexError("a\n  $") == "2:3: unexpected character '$'");
  CHECK(lexError(llvm::StringRef("a \0", 3)) == "1:3: unexpected byte 0x00");
  CHECK(lexError("\"abc") == "1:1: expected '\"' at the end of the string");
  CHECK(lexError("\"abc\ndef\"") ==
        "1:1: expected '\"' at the end of the string");
  CHECK(lexError(R"(x "a\qb")") ==
        R"(1:5: expected an escape after '\': \", \\, \n, \t or two hex digits)");
  // One hex digit is not an escape, even at the end of the buffer.
  CHECK(lexError(R"("\7)") ==
        R"(1:2: expected an escape after '\': \", \\, \n, \t or two hex digits)");
  CHECK(lexError("% x") == "1:1: expected a name or a number after '%'");
  CHECK(lexError("%1a") == "1:1: expected a name or a number after '%'");
  CHECK(lexError("@") == "1:1: expected a name or a number after '@'");
  CHECK(lexError("-x") == "1:1: expected a number after '-'");
  CHECK(lexError("-infinity") == "1:1: expected a number after '-'");
  CHECK(lexError("-") == "1:1: expected a number after '-'");
}
