//===- AxisInfo.h - Contiguity, divisibility and constancy ------*- C++ -*-===//
//
// The alignment analysis of Triton 2019: for every integer or pointer value
// and every dimension d it finds
//
//   contiguity[d]   the value is made of runs of this many consecutive
//                   integers along d (each run starts at an index that is a
//                   multiple of it);
//   divisibility[d] the first element of every run is a multiple of this
//                   (for pointers: the address, in bytes);
//   constancy[d]    the value is made of runs of this many equal elements
//                   along d;
//   prefix[d]       (masks) the value is made of runs of this many elements
//                   along d whose true elements come first (T..TF..F):
//                   `x < n` for x contiguous from an aligned start, whatever
//                   n is (a run of equal elements is a prefix too);
//
// all powers of two, plus the constant value when it is known and, for
// integers, a range [lo, hi] every element lies in (so that `arange(0, 64) <
// 64` is known to be all true and its mask can go). Facts start
// at kernel arguments (divisibility, equal_to_1 attributes), constants,
// make_range and the multiple_of / max_contiguous / max_constancy hints, and
// flow through arithmetic, getelementptr, splat, broadcast, expand_dims,
// trans, select, comparisons and phis (loops iterate to a fixed point, with
// gcd as the meet). The code generator uses it to size vector accesses (up to
// 16 bytes a thread) and to drop masks that are provably true.
//
// Scalars are treated as rank-1 values of one element.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_AXISINFO_H
#define TRITIUM_ANALYSIS_AXISINFO_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace tritium {

class AnalysisManager;
class Function;
class Value;

struct AxisInfo {
  /// Divisibility of 0: every power of two divides it; capped so products
  /// cannot overflow.
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 30;

  llvm::SmallVector<int64_t, 4> Contiguity, Divisibility, Constancy, Prefix;
  std::optional<int64_t> Constant;
  /// Every element lies in [first, second] (signed).
  std::optional<std::pair<int64_t, int64_t>> Range;

  unsigned getRank() const { return Contiguity.size(); }
  /// Nothing known for a value of \p Shape (all ones).
  static AxisInfo unknown(llvm::ArrayRef<int64_t> Shape);
  /// The facts of a splat of a scalar with divisibility \p Div.
  static AxisInfo uniform(llvm::ArrayRef<int64_t> Shape, int64_t Div,
                          std::optional<int64_t> Constant = std::nullopt);
  /// The largest power of two dividing \p V (kMaxDivisibility for 0).
  static int64_t divisorOf(int64_t V);

  /// The meet: what holds for both (elementwise gcd).
  AxisInfo join(const AxisInfo &O) const;

  bool operator==(const AxisInfo &O) const {
    return Contiguity == O.Contiguity && Divisibility == O.Divisibility &&
           Constancy == O.Constancy && Prefix == O.Prefix && Constant == O.Constant &&
           Range == O.Range;
  }
  bool operator!=(const AxisInfo &O) const { return !(*this == O); }
  void print(llvm::raw_ostream &OS) const;
};

class AxisInfoAnalysis {
public:
  using Result = AxisInfoAnalysis;
  static char ID;
  static Result run(Function &F, AnalysisManager &AM);

  explicit AxisInfoAnalysis(Function &F);

  /// Facts about \p V (a value of the analysed function).
  const AxisInfo &get(const Value *V) const;

  /// Elements of a pointer (block) that one thread may access as a single
  /// vector along dimension \p Dim: min(contiguity, alignment in elements).
  int64_t getPtrVectorWidth(const Value *Ptr, unsigned Dim) const;
  /// Runs of consecutive values (addresses) along \p Dim; 1 past the rank.
  int64_t getContiguity(const Value *V, unsigned Dim) const;
  /// How many consecutive elements along \p Dim share one mask bit.
  int64_t getMaskConstancy(const Value *Mask, unsigned Dim) const;
  /// Runs of how many consecutive elements along \p Dim have their true
  /// mask bits first (at least getMaskConstancy).
  int64_t getMaskPrefix(const Value *Mask, unsigned Dim) const;

private:
  void compute(Function &F);
  AxisInfo visit(const class Instruction &I, unsigned Result) const;
  AxisInfo visitFacts(const class Instruction &I, unsigned Result) const;

  std::vector<AxisInfo> Infos; // by value id
  std::vector<bool> Known;     // by value id
};

} // namespace tritium

#endif // TRITIUM_ANALYSIS_AXISINFO_H
