//===- Attribute.h - Instruction attributes ----------------------*- C++ -*-===//
//
// Instructions carry their non-operand data (predicates, axes, cache hints,
// callee names, ...) as a short list of (key, value) attributes. Keys and the
// enumerations used as values are listed once in Attributes.def. Keeping the
// data generic is what lets one printer, one parser, one cloner and one CSE
// key serve every opcode; typed accessors live on the instruction classes.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_ATTRIBUTE_H
#define TRITIUM_IR_ATTRIBUTE_H

#include "ir/LinearLayout.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace tritium {

enum class AttrKey : uint8_t {
#define ATTR(Enum, Name, Kind, Table) Enum,
#include "ir/Attributes.def"
};

/// The enumerations attribute values can come from.
enum class EnumTable : uint8_t {
  None,
#define ENUM_BEGIN(Table) Table,
#include "ir/Attributes.def"
};

#define ENUM_BEGIN(Table) enum class Table : uint8_t {
#define ENUM_VALUE(Enum, Name) Enum,
#define ENUM_END                                                               \
  }                                                                            \
  ;
#include "ir/Attributes.def"

/// One attribute value. Enum values are stored as their index in the table
/// of their key.
struct AttrValue {
  enum class Kind : uint8_t { Unit, Int, Float, String, Symbol, IntList, Enum, Layout };

  Kind K = Kind::Unit;
  int64_t I = 0;
  double F = 0;
  std::string S;
  llvm::SmallVector<int64_t, 4> List;
  /// Shared: layouts are copied with every clone of an instruction.
  std::shared_ptr<const LinearLayout> Layout;

  static AttrValue unit() { return {}; }
  static AttrValue integer(int64_t V);
  static AttrValue floating(double V);
  static AttrValue string(llvm::StringRef V);
  static AttrValue symbol(llvm::StringRef V);
  static AttrValue intList(llvm::ArrayRef<int64_t> V);
  static AttrValue enumerator(unsigned V);
  static AttrValue layout(LinearLayout L);

  bool operator==(const AttrValue &O) const;
  bool operator!=(const AttrValue &O) const { return !(*this == O); }
};

struct Attribute {
  AttrKey Key;
  AttrValue Val;
  bool operator==(const Attribute &O) const {
    return Key == O.Key && Val == O.Val;
  }
};

using AttrList = llvm::SmallVector<Attribute, 2>;

/// The kind of value a key takes: Number keys accept Int or Float.
enum class AttrKeyKind : uint8_t { Unit, Int, Number, String, Symbol, IntList, Enum, Layout };

llvm::StringRef getAttrKeyName(AttrKey K);
AttrKeyKind getAttrKeyKind(AttrKey K);
EnumTable getAttrKeyEnumTable(AttrKey K);
std::optional<AttrKey> lookupAttrKey(llvm::StringRef Name);

/// Names of the values of an enumeration, in order.
llvm::ArrayRef<const char *> getEnumNames(EnumTable T);
/// Index of \p Name in \p T.
std::optional<unsigned> lookupEnumValue(EnumTable T, llvm::StringRef Name);

/// Name of one enumerator, e.g. stringify(MemSem::AcqRel) == "acq_rel".
#define ENUM_BEGIN(Table) llvm::StringRef stringify(Table V);
#include "ir/Attributes.def"

/// Prints a floating-point value so that parsing it gives the same double
/// back, always with a '.', an exponent or a name (inf, nan) so it reads as a
/// float.
void printFloat(llvm::raw_ostream &OS, double V);
/// Prints \p S quoted with C escapes for '"', '\\' and non-printable bytes.
void printQuoted(llvm::raw_ostream &OS, llvm::StringRef S);

/// Prints \p A's value (not its key) in the text syntax of the IR.
void printAttrValue(llvm::raw_ostream &OS, const Attribute &A);

} // namespace tritium

#endif // TRITIUM_IR_ATTRIBUTE_H
