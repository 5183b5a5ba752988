//===- Attribute.cpp - Attribute tables and printing ----------------------===//

#include "ir/Attribute.h"

#include "llvm/ADT/StringExtras.h"

#include <charconv>
#include <cmath>
#include <cstring>

using namespace tritium;

AttrValue AttrValue::integer(int64_t V) {
  AttrValue A;
  A.K = Kind::Int;
  A.I = V;
  return A;
}

AttrValue AttrValue::floating(double V) {
  AttrValue A;
  A.K = Kind::Float;
  A.F = V;
  return A;
}

AttrValue AttrValue::string(llvm::StringRef V) {
  AttrValue A;
  A.K = Kind::String;
  A.S = V.str();
  return A;
}

AttrValue AttrValue::symbol(llvm::StringRef V) {
  AttrValue A;
  A.K = Kind::Symbol;
  A.S = V.str();
  return A;
}

AttrValue AttrValue::intList(llvm::ArrayRef<int64_t> V) {
  AttrValue A;
  A.K = Kind::IntList;
  A.List.assign(V.begin(), V.end());
  return A;
}

AttrValue AttrValue::layout(LinearLayout L) {
  AttrValue A;
  A.K = Kind::Layout;
  A.Layout = std::make_shared<const LinearLayout>(std::move(L));
  return A;
}

AttrValue AttrValue::enumerator(unsigned V) {
  AttrValue A;
  A.K = Kind::Enum;
  A.I = V;
  return A;
}

bool AttrValue::operator==(const AttrValue &O) const {
  if (K != O.K)
    return false;
  switch (K) {
  case Kind::Unit: return true;
  case Kind::Int:
  case Kind::Enum: return I == O.I;
  case Kind::Float:
    // Bitwise, so that NaN constants compare equal to themselves and 0.0
    // differs from -0.0.
    return std::memcmp(&F, &O.F, sizeof(double)) == 0;
  case Kind::String:
  case Kind::Symbol: return S == O.S;
  case Kind::IntList: return List == O.List;
  case Kind::Layout: return *Layout == *O.Layout;
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Key and enumeration tables
//===----------------------------------------------------------------------===//

namespace {
struct KeyInfo {
  const char *Name;
  AttrKeyKind Kind;
  EnumTable Table;
};

const KeyInfo Keys[] = {
#define ATTR(Enum, Name, Kind, Table)                                          \
  {Name, AttrKeyKind::Kind, EnumTable::Table},
#include "ir/Attributes.def"
};

#define ENUM_BEGIN(Table) const char *const Table##Names[] = {
#define ENUM_VALUE(Enum, Name) Name,
#define ENUM_END                                                               \
  }                                                                            \
  ;
#include "ir/Attributes.def"
} // namespace

llvm::StringRef tritium::getAttrKeyName(AttrKey K) {
  return Keys[unsigned(K)].Name;
}
AttrKeyKind tritium::getAttrKeyKind(AttrKey K) {
  return Keys[unsigned(K)].Kind;
}
EnumTable tritium::getAttrKeyEnumTable(AttrKey K) {
  return Keys[unsigned(K)].Table;
}

std::optional<AttrKey> tritium::lookupAttrKey(llvm::StringRef Name) {
  for (unsigned I = 0; I < std::size(Keys); ++I)
    if (Name == Keys[I].Name)
      return AttrKey(I);
  return std::nullopt;
}

llvm::ArrayRef<const char *> tritium::getEnumNames(EnumTable T) {
  switch (T) {
  case EnumTable::None: return {};
#define ENUM_BEGIN(Table)                                                      \
  case EnumTable::Table:                                                       \
    return Table##Names;
#include "ir/Attributes.def"
  }
  return {};
}

std::optional<unsigned> tritium::lookupEnumValue(EnumTable T,
                                                 llvm::StringRef Name) {
  llvm::ArrayRef<const char *> Names = getEnumNames(T);
  for (unsigned I = 0; I < Names.size(); ++I)
    if (Name == Names[I])
      return I;
  return std::nullopt;
}

#define ENUM_BEGIN(Table)                                                      \
  llvm::StringRef tritium::stringify(Table V) {                                \
    return Table##Names[unsigned(V)];                                          \
  }
#include "ir/Attributes.def"

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

void tritium::printFloat(llvm::raw_ostream &OS, double V) {
  if (std::isnan(V)) {
    OS << (std::signbit(V) ? "-nan" : "nan");
    return;
  }
  if (std::isinf(V)) {
    OS << (V < 0 ? "-inf" : "inf");
    return;
  }
  char Buf[64];
  auto Res = std::to_chars(Buf, Buf + sizeof(Buf), V);
  llvm::StringRef S(Buf, Res.ptr - Buf);
  OS << S;
  if (S.find_first_of(".e") == llvm::StringRef::npos)
    OS << ".0";
}

void tritium::printQuoted(llvm::raw_ostream &OS, llvm::StringRef S) {
  OS << '"';
  for (unsigned char C : S) {
    if (C == '"' || C == '\\')
      OS << '\\' << C;
    else if (C == '\n')
      OS << "\\n";
    else if (C == '\t')
      OS << "\\t";
    else if (llvm::isPrint(C))
      OS << C;
    else
      OS << '\\' << llvm::hexdigit(C >> 4, /*LowerCase=*/true)
         << llvm::hexdigit(C & 15, /*LowerCase=*/true);
  }
  OS << '"';
}

void tritium::printAttrValue(llvm::raw_ostream &OS, const Attribute &A) {
  const AttrValue &V = A.Val;
  switch (V.K) {
  case AttrValue::Kind::Unit: return;
  case AttrValue::Kind::Int: OS << V.I; return;
  case AttrValue::Kind::Float: printFloat(OS, V.F); return;
  case AttrValue::Kind::String: printQuoted(OS, V.S); return;
  case AttrValue::Kind::Symbol: OS << '@' << V.S; return;
  case AttrValue::Kind::IntList:
    OS << '[';
    llvm::interleaveComma(V.List, OS);
    OS << ']';
    return;
  case AttrValue::Kind::Layout:
    printLayout(OS, *V.Layout);
    return;
  case AttrValue::Kind::Enum: {
    llvm::ArrayRef<const char *> Names =
        getEnumNames(getAttrKeyEnumTable(A.Key));
    if (V.I >= 0 && uint64_t(V.I) < Names.size())
      OS << Names[V.I];
    else
      OS << "<invalid enum " << V.I << '>';
    return;
  }
  }
}
