//===- LinearLayout.cpp - Layouts as linear maps over GF(2) ---------------===//
//
// Bases are kept per named dimension for reading and printing; the algebra
// (rank, inverse, solving) packs each basis into a 64-bit column over the
// concatenated output bits and does Gaussian elimination on those columns.
// Block shapes are at most 2^20 elements and hardware positions fit in far
// fewer than 64 bits, so one word per column always suffices.
//
//===----------------------------------------------------------------------===//

#include "ir/LinearLayout.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ScopedPrinter.h"

#include <cassert>

using namespace tritium;

namespace {

unsigned log2Exact(int32_t Size) {
  assert(Size > 0 && llvm::isPowerOf2_32(uint32_t(Size)) &&
         "layout dimension sizes are powers of two");
  return llvm::Log2_32(uint32_t(Size));
}

/// An incrementally built basis of a GF(2) vector space. Each stored row
/// remembers which inserted columns XOR to it, so a target in the span can be
/// written as a combination of inserted columns. Rows have distinct leading
/// bits and are kept sorted by them, highest first, so one pass reduces.
class GF2Basis {
public:
  /// Inserts column \p Index with value \p V; false if V is already in the
  /// span (then nothing is stored).
  bool insert(uint64_t V, unsigned Index) {
    uint64_t Combo = uint64_t(1) << Index;
    reduce(V, Combo);
    if (!V)
      return false;
    auto Pos = llvm::find_if(Rows, [&](const Row &R) { return R.Vec < V; });
    Rows.insert(Pos, Row{V, Combo});
    return true;
  }
  /// The inserted columns XORing to \p V, or nullopt if V is not spanned.
  std::optional<uint64_t> solve(uint64_t V) const {
    uint64_t Combo = 0;
    reduce(V, Combo);
    if (V)
      return std::nullopt;
    return Combo;
  }
  unsigned rank() const { return Rows.size(); }

private:
  struct Row {
    uint64_t Vec;
    uint64_t Combo;
  };
  // Eliminating a row's leading bit only touches lower bits, so after the
  // descending pass V has no row's leading bit set.
  void reduce(uint64_t &V, uint64_t &Combo) const {
    for (const Row &R : Rows) {
      uint64_t Lead = uint64_t(1) << llvm::Log2_64(R.Vec);
      if (V & Lead) {
        V ^= R.Vec;
        Combo ^= R.Combo;
      }
    }
  }
  llvm::SmallVector<Row, 32> Rows;
};

/// \p Ins with every basis replaced by \p Map of it.
template <typename MapFn>
llvm::SmallVector<LinearLayout::InDim, 3> mapBases(llvm::ArrayRef<LinearLayout::InDim> Ins,
                                                   MapFn Map) {
  llvm::SmallVector<LinearLayout::InDim, 3> NewIns;
  for (const LinearLayout::InDim &I : Ins) {
    LinearLayout::InDim N{I.Name, {}};
    for (const LinearLayout::Basis &B : I.Bases)
      N.Bases.push_back(Map(B));
    NewIns.push_back(std::move(N));
  }
  return NewIns;
}

/// \p B's coordinates at \p Indices, in that order.
LinearLayout::Basis pick(const LinearLayout::Basis &B, llvm::ArrayRef<unsigned> Indices) {
  LinearLayout::Basis R;
  for (unsigned K : Indices)
    R.push_back(B[K]);
  return R;
}

unsigned totalBits(llvm::ArrayRef<LinearLayout::OutDim> Outs) {
  unsigned N = 0;
  for (const LinearLayout::OutDim &O : Outs)
    N += log2Exact(O.Size);
  return N;
}

/// `[[b, ...], ...]`, the coordinates of each basis separated by \p Sep.
void printBases(llvm::raw_ostream &OS, llvm::ArrayRef<LinearLayout::Basis> Bases,
                llvm::StringRef Sep) {
  OS << '[';
  llvm::interleave(
      Bases, OS,
      [&](const LinearLayout::Basis &B) {
        OS << '[';
        llvm::interleave(B, OS, Sep);
        OS << ']';
      },
      Sep);
  OS << ']';
}

} // namespace

//===----------------------------------------------------------------------===//
// Construction
//===----------------------------------------------------------------------===//

LinearLayout::LinearLayout(llvm::ArrayRef<InDim> In, llvm::ArrayRef<OutDim> Out)
    : Ins(In.begin(), In.end()), Outs(Out.begin(), Out.end()) {
#ifndef NDEBUG
  for (const OutDim &O : Outs)
    log2Exact(O.Size);
  for (const InDim &I : Ins)
    for (const Basis &B : I.Bases) {
      assert(B.size() == Outs.size() && "a basis needs one coordinate per output");
      for (unsigned K = 0; K < B.size(); ++K)
        assert(B[K] >= 0 && B[K] < Outs[K].Size && "basis out of range");
    }
#endif
}

LinearLayout LinearLayout::identity1D(int32_t Size, llvm::StringRef In,
                                      llvm::StringRef Out) {
  InDim I{In.str(), {}};
  for (unsigned B = 0, E = log2Exact(Size); B < E; ++B)
    I.Bases.push_back({int32_t(1) << B});
  return LinearLayout({I}, {OutDim{Out.str(), Size}});
}

LinearLayout LinearLayout::zeros1D(int32_t Size, llvm::StringRef In,
                                   llvm::StringRef Out) {
  InDim I{In.str(), {}};
  for (unsigned B = 0, E = log2Exact(Size); B < E; ++B)
    I.Bases.push_back({0});
  return LinearLayout({I}, {OutDim{Out.str(), 1}});
}

LinearLayout LinearLayout::empty(llvm::StringRef Out, int32_t Size) {
  return LinearLayout({}, {OutDim{Out.str(), Size}});
}

//===----------------------------------------------------------------------===//
// Queries
//===----------------------------------------------------------------------===//

int LinearLayout::findIn(llvm::StringRef Name) const {
  for (unsigned I = 0; I < Ins.size(); ++I)
    if (Ins[I].Name == Name)
      return I;
  return -1;
}

int LinearLayout::findOut(llvm::StringRef Name) const {
  for (unsigned I = 0; I < Outs.size(); ++I)
    if (Outs[I].Name == Name)
      return I;
  return -1;
}

unsigned LinearLayout::getInDimSizeLog2(llvm::StringRef Name) const {
  int I = findIn(Name);
  return I < 0 ? 0 : Ins[I].Bases.size();
}

int32_t LinearLayout::getOutDimSize(llvm::StringRef Name) const {
  int I = findOut(Name);
  return I < 0 ? 1 : Outs[I].Size;
}

unsigned LinearLayout::getTotalInBits() const {
  unsigned N = 0;
  for (const InDim &I : Ins)
    N += I.Bases.size();
  return N;
}

unsigned LinearLayout::getTotalOutBits() const { return totalBits(Outs); }

llvm::ArrayRef<LinearLayout::Basis>
LinearLayout::getBases(llvm::StringRef In) const {
  int I = findIn(In);
  return I < 0 ? llvm::ArrayRef<Basis>() : llvm::ArrayRef<Basis>(Ins[I].Bases);
}

uint64_t LinearLayout::pack(const Basis &B) const {
  uint64_t Bits = 0;
  unsigned Shift = 0;
  for (unsigned K = 0; K < Outs.size(); ++K) {
    Bits |= uint64_t(B[K]) << Shift;
    Shift += log2Exact(Outs[K].Size);
  }
  return Bits;
}

LinearLayout::Basis LinearLayout::unpack(uint64_t Bits) const {
  Basis B;
  for (const OutDim &O : Outs) {
    unsigned W = log2Exact(O.Size);
    B.push_back(int32_t(Bits & ((uint64_t(1) << W) - 1)));
    Bits >>= W;
  }
  return B;
}

llvm::SmallVector<uint64_t, 16> LinearLayout::columns() const {
  llvm::SmallVector<uint64_t, 16> Cols;
  for (const InDim &I : Ins)
    for (const Basis &B : I.Bases)
      Cols.push_back(pack(B));
  return Cols;
}

llvm::SmallVector<int32_t, 4>
LinearLayout::apply(llvm::ArrayRef<int32_t> In) const {
  assert(In.size() == Ins.size() && "one coordinate per input dimension");
  llvm::SmallVector<int32_t, 4> Out(Outs.size(), 0);
  for (unsigned D = 0; D < Ins.size(); ++D)
    for (unsigned B = 0; B < Ins[D].Bases.size(); ++B)
      if (In[D] >> B & 1)
        for (unsigned K = 0; K < Outs.size(); ++K)
          Out[K] ^= Ins[D].Bases[B][K];
  return Out;
}

LinearLayout::Basis LinearLayout::applyIn(llvm::StringRef In, int32_t Index) const {
  llvm::SmallVector<int32_t, 4> Coords(Ins.size(), 0);
  if (int D = findIn(In); D >= 0)
    Coords[D] = Index;
  return apply(Coords);
}

bool LinearLayout::isZero(llvm::StringRef In) const {
  for (const Basis &B : getBases(In))
    if (llvm::any_of(B, [](int32_t C) { return C != 0; }))
      return false;
  return true;
}

//===----------------------------------------------------------------------===//
// Algebra
//===----------------------------------------------------------------------===//

LinearLayout LinearLayout::operator*(const LinearLayout &O) const {
  llvm::SmallVector<OutDim, 4> NewOuts(Outs.begin(), Outs.end());
  for (const OutDim &D : O.Outs) {
    int K = findOut(D.Name);
    if (K >= 0)
      NewOuts[K].Size *= D.Size;
    else
      NewOuts.push_back(D);
  }
  auto OutIndex = [&](llvm::StringRef Name) {
    for (unsigned K = 0; K < NewOuts.size(); ++K)
      if (NewOuts[K].Name == Name)
        return K;
    llvm_unreachable("output dimension vanished");
  };
  // Rewrites a basis of \p L into the product's outputs, scaling shared
  // outputs by \p Scale(name).
  auto Embed = [&](const LinearLayout &L, const Basis &B, bool ScaleShared) {
    Basis R(NewOuts.size(), 0);
    for (unsigned K = 0; K < L.Outs.size(); ++K) {
      int32_t C = B[K];
      if (ScaleShared)
        C *= getOutDimSize(L.Outs[K].Name);
      R[OutIndex(L.Outs[K].Name)] = C;
    }
    return R;
  };
  llvm::SmallVector<InDim, 3> NewIns =
      mapBases(Ins, [&](const Basis &B) { return Embed(*this, B, false); });
  for (const InDim &I : O.Ins) {
    int Existing = -1;
    for (unsigned K = 0; K < NewIns.size(); ++K)
      if (NewIns[K].Name == I.Name)
        Existing = K;
    if (Existing < 0) {
      NewIns.push_back({I.Name, {}});
      Existing = NewIns.size() - 1;
    }
    for (const Basis &B : I.Bases)
      NewIns[Existing].Bases.push_back(Embed(O, B, true));
  }
  return LinearLayout(NewIns, NewOuts);
}

LinearLayout LinearLayout::compose(const LinearLayout &Outer) const {
  assert(Outer.Ins.size() == Outs.size() && "compose: dimension mismatch");
  for (unsigned K = 0; K < Outs.size(); ++K) {
    assert(Outer.Ins[K].Name == Outs[K].Name && "compose: name mismatch");
    assert(Outer.getInDimSize(Outs[K].Name) == Outs[K].Size &&
           "compose: size mismatch");
    (void)K;
  }
  return LinearLayout(mapBases(Ins, [&](const Basis &B) { return Outer.apply(B); }),
                      Outer.Outs);
}

bool LinearLayout::isSurjective() const {
  GF2Basis G;
  unsigned I = 0;
  for (uint64_t C : columns())
    G.insert(C, I++ % 64);
  return G.rank() == getTotalOutBits();
}

bool LinearLayout::isInjective() const {
  GF2Basis G;
  unsigned I = 0;
  for (uint64_t C : columns())
    if (!G.insert(C, I++ % 64))
      return false;
  return true;
}

LinearLayout LinearLayout::pseudoinvert() const {
  llvm::SmallVector<uint64_t, 16> Cols = columns();
  assert(Cols.size() <= 64 && "too many input bits");
  // Columns in input order: the earliest independent ones (registers before
  // lanes before warps, low bits first) become the chosen preimages.
  GF2Basis G;
  for (unsigned I = 0; I < Cols.size(); ++I)
    G.insert(Cols[I], I);
  assert(G.rank() == getTotalOutBits() && "pseudoinvert needs a surjective layout");
  // The inverse maps output bit j to the input whose bits are Combo(e_j).
  llvm::SmallVector<InDim, 3> NewIns;
  unsigned Shift = 0;
  for (const OutDim &O : Outs) {
    InDim N{O.Name, {}};
    for (unsigned B = 0, E = log2Exact(O.Size); B < E; ++B) {
      uint64_t Combo = *G.solve(uint64_t(1) << (Shift + B));
      // Spread the combination of input bits back over the input dims.
      Basis In(Ins.size(), 0);
      unsigned Bit = 0;
      for (unsigned D = 0; D < Ins.size(); ++D)
        for (unsigned K = 0; K < Ins[D].Bases.size(); ++K, ++Bit)
          if (Combo >> Bit & 1)
            In[D] |= int32_t(1) << K;
      N.Bases.push_back(In);
    }
    Shift += log2Exact(O.Size);
    NewIns.push_back(std::move(N));
  }
  llvm::SmallVector<OutDim, 4> NewOuts;
  for (const InDim &I : Ins)
    NewOuts.push_back({I.Name, int32_t(1) << I.Bases.size()});
  return LinearLayout(NewIns, NewOuts);
}

LinearLayout LinearLayout::invert() const {
  assert(isInjective() && isSurjective() && "invert needs a bijective layout");
  return pseudoinvert();
}

LinearLayout LinearLayout::invertAndCompose(const LinearLayout &Target) const {
  return compose(Target.pseudoinvert());
}

std::optional<int32_t> LinearLayout::findInput(llvm::StringRef In,
                                               llvm::ArrayRef<int32_t> Out) const {
  llvm::ArrayRef<Basis> Bases = getBases(In);
  GF2Basis G;
  for (unsigned B = 0; B < Bases.size(); ++B)
    G.insert(pack(Bases[B]), B);
  Basis Target(Out.begin(), Out.end());
  std::optional<uint64_t> Combo = G.solve(pack(Target));
  if (!Combo)
    return std::nullopt;
  return int32_t(*Combo);
}

//===----------------------------------------------------------------------===//
// Reshaping
//===----------------------------------------------------------------------===//

LinearLayout LinearLayout::sublayout(llvm::ArrayRef<std::string> InNames,
                                     llvm::ArrayRef<std::string> OutNames) const {
  llvm::SmallVector<unsigned, 4> Keep;
  llvm::SmallVector<OutDim, 4> NewOuts;
  for (unsigned K = 0; K < Outs.size(); ++K)
    if (llvm::is_contained(OutNames, Outs[K].Name)) {
      Keep.push_back(K);
      NewOuts.push_back(Outs[K]);
    }
  llvm::SmallVector<InDim, 3> KeptIns;
  for (const InDim &I : Ins)
    if (llvm::is_contained(InNames, I.Name))
      KeptIns.push_back(I);
  return LinearLayout(mapBases(KeptIns, [&](const Basis &B) { return pick(B, Keep); }), NewOuts);
}

LinearLayout LinearLayout::removeZeroBases(llvm::StringRef In) const {
  LinearLayout R = *this;
  int D = findIn(In);
  if (D >= 0)
    llvm::erase_if(R.Ins[D].Bases, [](const Basis &B) {
      return llvm::all_of(B, [](int32_t C) { return C == 0; });
    });
  return R;
}

LinearLayout LinearLayout::transposeOuts(llvm::ArrayRef<unsigned> Order) const {
  assert(Order.size() == Outs.size() && "transposeOuts: not a permutation");
  llvm::SmallVector<OutDim, 4> NewOuts;
  for (unsigned K : Order)
    NewOuts.push_back(Outs[K]);
  return LinearLayout(mapBases(Ins, [&](const Basis &B) { return pick(B, Order); }), NewOuts);
}

LinearLayout LinearLayout::reshapeOuts(llvm::ArrayRef<OutDim> NewOuts) const {
  // Row-major flattening of power-of-two dimensions is bit concatenation
  // (last dimension lowest), so reshaping is linear.
  auto Flatten = [](llvm::ArrayRef<OutDim> Dims, const Basis &B) {
    uint64_t Index = 0;
    for (unsigned K = 0; K < Dims.size(); ++K)
      Index = (Index << log2Exact(Dims[K].Size)) | uint64_t(B[K]);
    return Index;
  };
  auto Split = [](llvm::ArrayRef<OutDim> Dims, uint64_t Index) {
    Basis B(Dims.size(), 0);
    for (unsigned K = Dims.size(); K-- > 0;) {
      unsigned W = log2Exact(Dims[K].Size);
      B[K] = int32_t(Index & ((uint64_t(1) << W) - 1));
      Index >>= W;
    }
    return B;
  };
  assert(getTotalOutBits() == totalBits(NewOuts) && "reshapeOuts must keep the total size");
  return LinearLayout(
      mapBases(Ins, [&](const Basis &B) { return Split(NewOuts, Flatten(Outs, B)); }), NewOuts);
}

LinearLayout LinearLayout::dropOut(llvm::StringRef Name) const {
  llvm::SmallVector<std::string, 4> InNames, OutNames;
  for (const InDim &I : Ins)
    InNames.push_back(I.Name);
  for (const OutDim &O : Outs)
    if (O.Name != Name)
      OutNames.push_back(O.Name);
  return sublayout(InNames, OutNames);
}

int32_t LinearLayout::getNumConsecutiveInOut(llvm::StringRef In,
                                             llvm::StringRef Out) const {
  int K = findOut(Out);
  if (K < 0)
    return 1;
  unsigned N = 0;
  for (const Basis &B : getBases(In)) {
    bool Unit = true;
    for (unsigned J = 0; J < B.size(); ++J)
      Unit &= B[J] == (int(J) == K ? int32_t(1) << N : 0);
    if (!Unit)
      break;
    ++N;
  }
  return int32_t(1) << N;
}

//===----------------------------------------------------------------------===//
// Printing
//===----------------------------------------------------------------------===//

void LinearLayout::print(llvm::raw_ostream &OS) const {
  for (const InDim &I : Ins) {
    OS << (&I == Ins.begin() ? "" : " ") << I.Name << '=';
    printBases(OS, I.Bases, ",");
  }
  OS << " -> ";
  for (unsigned K = 0; K < Outs.size(); ++K)
    OS << (K ? ", " : "") << Outs[K].Name << ':' << Outs[K].Size;
}

std::string LinearLayout::str() const { return llvm::to_string(*this); }

void tritium::printLayout(llvm::raw_ostream &OS, const LinearLayout &L) {
  OS << '<';
  for (const LinearLayout::InDim &In : L.getInDims()) {
    OS << In.Name << '=';
    printBases(OS, In.Bases, ", ");
    OS << ", ";
  }
  OS << "shape=[";
  llvm::interleave(L.getOutDims(), OS, [&](const LinearLayout::OutDim &O) { OS << O.Size; }, ", ");
  OS << "]>";
}
