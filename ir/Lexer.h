//===- Lexer.h - Tokens of the IR text ---------------------------*- C++ -*-===//
//
// Splits IR text into tokens for Parser.cpp. The lexer knows spellings only:
// `%x` is a value reference, `@f` a symbol, `add` or `i32` an identifier;
// what an identifier means is the parser's business. Each token records
// whether it is the first on its line, because an instruction ends at the end
// of its line (`barrier` followed by a label on the next line must not take
// the label as a block operand). `;` starts a comment to the end of the line.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_LEXER_H
#define TRITIUM_IR_LEXER_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <string>

namespace tritium {

struct Token {
  enum Kind : uint8_t {
    Eof,
    Ident,    ///< add, i32, bb0, x, inf
    ValueRef, ///< %name or %12; getName() drops the '%'
    Symbol,   ///< @name; getName() drops the '@'
    Int,      ///< 42, -7
    Float,    ///< 1.5, -2.0e-3, 1e10, -inf, -nan (inf and nan are Idents)
    String,   ///< "..." with escapes; decode with Lexer::decodeString
    LParen,
    RParen,
    LBrace,
    RBrace,
    LSquare,
    RSquare,
    Less,
    Greater,
    Comma,
    Colon,
    Equal,
    Arrow, ///< ->
  };

  Kind K = Eof;
  /// The spelling, pointing into the buffer.
  llvm::StringRef Text;
  /// 1-based position of the first character.
  unsigned Line = 0, Col = 0;
  /// No other token precedes this one on its line.
  bool StartsLine = false;

  bool is(Kind Other) const { return K == Other; }
  bool isIdent(llvm::StringRef S) const { return K == Ident && Text == S; }
  /// The name of a ValueRef or Symbol without its sigil.
  llvm::StringRef getName() const { return Text.drop_front(); }
};

class Lexer {
public:
  /// \p BufferName must outlive the lexer and the errors it throws.
  Lexer(llvm::StringRef Buffer, llvm::StringRef BufferName)
      : Buf(Buffer), Name(BufferName), Ptr(Buffer.begin()),
        LineStart(Buffer.begin()) {}

  /// Returns the next token (Eof at the end, forever). Throws CompileError
  /// at a character that starts no token or a malformed string.
  Token lex();

  /// The contents of a String token's spelling with escapes replaced.
  static std::string decodeString(llvm::StringRef Spelling);

private:
  [[noreturn]] void error(const char *At, const llvm::Twine &Msg) const;
  void skipSpaceAndComments();
  Token make(Token::Kind K, const char *Start) const;
  Token lexNumber(const char *Start);
  Token lexString(const char *Start);
  Token lexSigil(Token::Kind K, const char *Start);
  unsigned column(const char *P) const { return unsigned(P - LineStart) + 1; }

  llvm::StringRef Buf;
  llvm::StringRef Name;
  const char *Ptr;
  const char *LineStart;
  unsigned Line = 1;
  /// A newline (or the start of the buffer) was seen since the last token.
  bool AtLineStart = true;
};

} // namespace tritium

#endif // TRITIUM_IR_LEXER_H
