//===- LinearLayout.h - Layouts as linear maps over GF(2) --------*- C++ -*-===//
//
// Every block dimension is a power of two, so both a hardware position
// (register, lane, warp) and a tensor coordinate are bit vectors. A layout is
// a linear map over GF(2) from the hardware bits ("input dimensions") to the
// coordinate bits ("output dimensions"): for each input bit it stores a basis,
// the coordinate that bit alone selects; any other position maps to the XOR
// of the bases of its set bits. A zero basis means the bit does not move the
// coordinate: those hardware positions hold copies (broadcast).
//
// Blocked, slice, MMA and shared-memory layouts are all constructors of this
// one type (analysis/Layouts.h); a layout conversion, the width of a vector
// access and the shuffle pattern of a reduction are questions of linear
// algebra on it (Zhou, Lezcano, Goucher et al., "Linear Layouts", 2025; see
// docs/layouts.md).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_LINEARLAYOUT_H
#define TRITIUM_IR_LINEARLAYOUT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tritium {

class LinearLayout {
public:
  /// One coordinate per output dimension.
  using Basis = llvm::SmallVector<int32_t, 4>;

  struct InDim {
    std::string Name;
    llvm::SmallVector<Basis, 8> Bases; // one per input bit, lowest first
    bool operator==(const InDim &O) const {
      return Name == O.Name && Bases == O.Bases;
    }
  };
  struct OutDim {
    std::string Name;
    int32_t Size; // a power of two
    bool operator==(const OutDim &O) const {
      return Name == O.Name && Size == O.Size;
    }
  };

  /// The empty layout: no inputs, no outputs; the identity of operator*.
  LinearLayout() = default;
  /// \p Outs lists each output dimension with its size; every basis has one
  /// coordinate per output dimension, in that order. Coordinates must be
  /// smaller than the dimension's size.
  LinearLayout(llvm::ArrayRef<InDim> Ins, llvm::ArrayRef<OutDim> Outs);

  /// In -> Out, bit i of the input selects coordinate 2^i (size must be a
  /// power of two).
  static LinearLayout identity1D(int32_t Size, llvm::StringRef In,
                                 llvm::StringRef Out);
  /// In -> Out, every input bit maps to 0: the whole input dimension holds
  /// copies of coordinate 0.
  static LinearLayout zeros1D(int32_t Size, llvm::StringRef In,
                              llvm::StringRef Out);
  /// An output dimension of \p Size that no input touches.
  static LinearLayout empty(llvm::StringRef Out, int32_t Size = 1);

  // Shape of the map.
  llvm::ArrayRef<InDim> getInDims() const { return Ins; }
  llvm::ArrayRef<OutDim> getOutDims() const { return Outs; }
  bool hasInDim(llvm::StringRef Name) const { return findIn(Name) >= 0; }
  /// Number of bits of an input dimension (0 if absent).
  unsigned getInDimSizeLog2(llvm::StringRef Name) const;
  int32_t getInDimSize(llvm::StringRef Name) const {
    return int32_t(1) << getInDimSizeLog2(Name);
  }
  int32_t getOutDimSize(llvm::StringRef Name) const;
  unsigned getTotalInBits() const;
  unsigned getTotalOutBits() const;
  llvm::ArrayRef<Basis> getBases(llvm::StringRef In) const;

  /// Maps input coordinates (one per input dimension, in getInDims() order)
  /// to output coordinates (in getOutDims() order).
  llvm::SmallVector<int32_t, 4> apply(llvm::ArrayRef<int32_t> In) const;
  /// The output coordinates of input \p In at \p Index, every other input
  /// at 0 (e.g. the part of a tensor coordinate a register index gives).
  Basis applyIn(llvm::StringRef In, int32_t Index) const;

  /// Tensor product: inputs with the same name concatenate (this layout's
  /// bits low, \p O's high); outputs with the same name concatenate too
  /// (\p O's coordinates are scaled by this layout's size of that output).
  /// Dimensions present on one side only are carried over.
  LinearLayout operator*(const LinearLayout &O) const;
  LinearLayout &operator*=(const LinearLayout &O) { return *this = *this * O; }

  /// This: A -> B, \p Outer: B -> C gives A -> C. The output dimensions of
  /// this layout must be \p Outer's input dimensions (names and sizes).
  LinearLayout compose(const LinearLayout &Outer) const;

  /// Whether every output coordinate is reached (the bases span the space).
  bool isSurjective() const;
  /// Whether no two inputs reach the same output.
  bool isInjective() const;
  /// The inverse of a bijective layout (outputs become inputs).
  LinearLayout invert() const;
  /// A right inverse of a surjective layout: for each output the input whose
  /// nonzero bits are as low as possible maps to it. For a layout with
  /// copies this picks register copies over lane or warp copies, in the
  /// order of the input dimensions.
  LinearLayout pseudoinvert() const;
  /// \p Target^-1 composed with this: for each input of this layout, the
  /// input of \p Target holding the same output. Both must have the same
  /// output dimensions and \p Target must be surjective.
  LinearLayout invertAndCompose(const LinearLayout &Target) const;

  /// The value of input \p In alone (all other inputs 0) that maps to
  /// \p Out, or nullopt if \p Out is not reachable through \p In.
  std::optional<int32_t> findInput(llvm::StringRef In,
                                   llvm::ArrayRef<int32_t> Out) const;

  /// Keeps only the given input and output dimensions (others dropped; a
  /// basis keeps its coordinates on the kept outputs).
  LinearLayout sublayout(llvm::ArrayRef<std::string> InNames,
                         llvm::ArrayRef<std::string> OutNames) const;
  /// Whether every basis of input \p In is zero on every output.
  bool isZero(llvm::StringRef In) const;
  /// Drops input bits whose basis is zero (copies) from input \p In.
  LinearLayout removeZeroBases(llvm::StringRef In) const;

  /// Renames / reorders output dimensions; \p Order[i] is the index of the
  /// old output that becomes output i.
  LinearLayout transposeOuts(llvm::ArrayRef<unsigned> Order) const;
  /// Reinterprets the outputs as one row-major space (last output fastest)
  /// and splits it into \p NewOuts of the same total size.
  LinearLayout reshapeOuts(llvm::ArrayRef<OutDim> NewOuts) const;
  /// Removes output dimension \p Name: its coordinates are forgotten
  /// (used by reductions).
  LinearLayout dropOut(llvm::StringRef Name) const;

  /// How many consecutive values of input \p In (from 0) map to consecutive
  /// coordinates of output \p Out (and to nothing else): the widest vector
  /// a thread can access along \p Out.
  int32_t getNumConsecutiveInOut(llvm::StringRef In, llvm::StringRef Out) const;

  bool operator==(const LinearLayout &O) const {
    return Ins == O.Ins && Outs == O.Outs;
  }
  bool operator!=(const LinearLayout &O) const { return !(*this == O); }

  /// e.g. `register=[[0,1],[0,2]] lane=[[0,4],...] warp=[[1,0]] -> dim0:2, dim1:8`
  void print(llvm::raw_ostream &OS) const;
  std::string str() const;

private:
  int findIn(llvm::StringRef Name) const;
  int findOut(llvm::StringRef Name) const;
  /// Packs a basis into the bits of the concatenated outputs (first output
  /// lowest).
  uint64_t pack(const Basis &B) const;
  Basis unpack(uint64_t Bits) const;
  /// Columns of the whole map, in input order.
  llvm::SmallVector<uint64_t, 16> columns() const;

  llvm::SmallVector<InDim, 3> Ins;
  llvm::SmallVector<OutDim, 4> Outs;
};

inline llvm::raw_ostream &operator<<(llvm::raw_ostream &OS,
                                     const LinearLayout &L) {
  L.print(OS);
  return OS;
}

/// The IR's text form of \p L: `<register=[[1], [2]], lane=[[4]], warp=[],
/// shape=[8]>`, the bases of each input dimension, then the size of each
/// output dimension dim0, dim1, ... (the `layout` attribute and memdesc
/// types print it; the parser reads it back).
void printLayout(llvm::raw_ostream &OS, const LinearLayout &L);

} // namespace tritium

#endif // TRITIUM_IR_LINEARLAYOUT_H
