//===- Lexer.cpp - Tokens of the IR text ----------------------------------===//
//
// Every read is bounds-checked against the buffer: the text may come from a
// fuzzer, with NUL bytes anywhere and no terminator at the end.
//
//===----------------------------------------------------------------------===//

#include "ir/Lexer.h"
#include "ir/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"

using namespace tritium;

namespace {
bool isIdentStart(char C) { return llvm::isAlpha(C) || C == '_'; }
bool isIdentChar(char C) { return llvm::isAlnum(C) || C == '_' || C == '.'; }
} // namespace

void Lexer::error(const char *At, const llvm::Twine &Msg) const {
  throw CompileError(Loc{Name, Line, column(At)}, Msg.str());
}

Token Lexer::make(Token::Kind K, const char *Start) const {
  Token T;
  T.K = K;
  T.Text = llvm::StringRef(Start, Ptr - Start);
  T.Line = Line;
  T.Col = column(Start);
  T.StartsLine = AtLineStart;
  return T;
}

void Lexer::skipSpaceAndComments() {
  const char *End = Buf.end();
  while (Ptr != End) {
    char C = *Ptr;
    if (C == '\n') {
      ++Ptr;
      ++Line;
      LineStart = Ptr;
      AtLineStart = true;
    } else if (C == ' ' || C == '\t' || C == '\r') {
      ++Ptr;
    } else if (C == ';') {
      while (Ptr != End && *Ptr != '\n')
        ++Ptr;
    } else {
      return;
    }
  }
}

Token Lexer::lex() {
  skipSpaceAndComments();
  const char *Start = Ptr;
  if (Ptr == Buf.end())
    return make(Token::Eof, Start);

  Token T;
  char C = *Ptr;
  auto Punct = [&](Token::Kind K) {
    ++Ptr;
    return make(K, Start);
  };
  switch (C) {
  case '(': T = Punct(Token::LParen); break;
  case ')': T = Punct(Token::RParen); break;
  case '{': T = Punct(Token::LBrace); break;
  case '}': T = Punct(Token::RBrace); break;
  case '[': T = Punct(Token::LSquare); break;
  case ']': T = Punct(Token::RSquare); break;
  case '<': T = Punct(Token::Less); break;
  case '>': T = Punct(Token::Greater); break;
  case ',': T = Punct(Token::Comma); break;
  case ':': T = Punct(Token::Colon); break;
  case '=': T = Punct(Token::Equal); break;
  case '"': T = lexString(Start); break;
  case '%': T = lexSigil(Token::ValueRef, Start); break;
  case '@': T = lexSigil(Token::Symbol, Start); break;
  default:
    if (C == '-' || llvm::isDigit(C)) {
      T = lexNumber(Start);
    } else if (isIdentStart(C)) {
      while (Ptr != Buf.end() && isIdentChar(*Ptr))
        ++Ptr;
      T = make(Token::Ident, Start);
    } else if (llvm::isPrint(C)) {
      error(Start, llvm::Twine("unexpected character '") + llvm::Twine(C) +
                       "'");
    } else {
      char Hex[3] = {llvm::hexdigit((C >> 4) & 15, /*LowerCase=*/true),
                     llvm::hexdigit(C & 15, /*LowerCase=*/true), 0};
      error(Start, llvm::Twine("unexpected byte 0x") + Hex);
    }
  }
  AtLineStart = false;
  return T;
}

/// `-?digits(.digits*)?([eE][+-]?digits)?`, plus `->`, `-inf` and `-nan`.
Token Lexer::lexNumber(const char *Start) {
  const char *End = Buf.end();
  auto DigitAt = [&](const char *P) { return P < End && llvm::isDigit(*P); };
  if (*Ptr == '-') {
    ++Ptr;
    if (Ptr != End && *Ptr == '>') {
      ++Ptr;
      return make(Token::Arrow, Start);
    }
    if (!DigitAt(Ptr)) {
      const char *Word = Ptr;
      while (Ptr != End && isIdentChar(*Ptr))
        ++Ptr;
      llvm::StringRef W(Word, Ptr - Word);
      if (W == "inf" || W == "nan")
        return make(Token::Float, Start);
      error(Start, "expected a number after '-'");
    }
  }
  while (DigitAt(Ptr))
    ++Ptr;
  bool IsFloat = false;
  if (Ptr != End && *Ptr == '.') {
    IsFloat = true;
    ++Ptr;
    while (DigitAt(Ptr))
      ++Ptr;
  }
  // An exponent only if digits follow, so `4x` style spellings stay apart.
  if (Ptr != End && (*Ptr == 'e' || *Ptr == 'E')) {
    const char *P = Ptr + 1;
    if (P != End && (*P == '+' || *P == '-'))
      ++P;
    if (DigitAt(P)) {
      IsFloat = true;
      Ptr = P;
      while (DigitAt(Ptr))
        ++Ptr;
    }
  }
  return make(IsFloat ? Token::Float : Token::Int, Start);
}

/// `%` or `@` followed by an identifier or a number.
Token Lexer::lexSigil(Token::Kind K, const char *Start) {
  ++Ptr;
  const char *Body = Ptr;
  while (Ptr != Buf.end() && isIdentChar(*Ptr))
    ++Ptr;
  llvm::StringRef S(Body, Ptr - Body);
  bool Number = !S.empty() && llvm::all_of(S, llvm::isDigit);
  if (!Number && (S.empty() || !isIdentStart(S[0])))
    error(Start, llvm::Twine("expected a name or a number after '") +
                     llvm::Twine(*Start) + "'");
  return make(K, Start);
}

Token Lexer::lexString(const char *Start) {
  const char *End = Buf.end();
  ++Ptr;
  while (true) {
    if (Ptr == End || *Ptr == '\n')
      error(Start, "expected '\"' at the end of the string");
    char C = *Ptr;
    if (C == '"') {
      ++Ptr;
      return make(Token::String, Start);
    }
    if (C != '\\') {
      ++Ptr;
      continue;
    }
    const char *Esc = Ptr++;
    if (Ptr != End && (*Ptr == '"' || *Ptr == '\\' || *Ptr == 'n' ||
                       *Ptr == 't')) {
      ++Ptr;
      continue;
    }
    if (End - Ptr >= 2 && llvm::isHexDigit(Ptr[0]) && llvm::isHexDigit(Ptr[1])) {
      Ptr += 2;
      continue;
    }
    error(Esc, "expected an escape after '\\': \\\", \\\\, \\n, \\t or two hex "
               "digits");
  }
}

std::string Lexer::decodeString(llvm::StringRef Spelling) {
  llvm::StringRef S = Spelling.drop_front().drop_back();
  std::string Out;
  Out.reserve(S.size());
  for (size_t I = 0; I < S.size(); ++I) {
    if (S[I] != '\\' || I + 1 >= S.size()) {
      Out += S[I];
      continue;
    }
    char E = S[++I];
    if (E == 'n')
      Out += '\n';
    else if (E == 't')
      Out += '\t';
    else if (E == '"' || E == '\\')
      Out += E;
    else if (I + 1 < S.size()) {
      Out += char(llvm::hexFromNibbles(E, S[I + 1]));
      ++I;
    }
  }
  return Out;
}
