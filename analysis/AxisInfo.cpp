//===- AxisInfo.cpp - Contiguity, divisibility and constancy --------------===//
//
// A forward dataflow analysis over the function in reverse post-order,
// repeated until the facts of phis stop changing. Each transfer function
// below states, per dimension, what it can prove; anything else is "1".
//
// One subtlety runs through the rules: divisibility describes the first
// element of each contiguous run. When a rule cuts runs shorter (a run of 8
// meets an operand constant only over 4), the new starts are old starts plus
// a multiple of the new length, so their divisibility is at most that length.
// And when a value is not contiguous (contiguity 1) every element is a start.
//
//===----------------------------------------------------------------------===//

#include "analysis/AxisInfo.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/PassManager.h"

#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace tritium;

char AxisInfoAnalysis::ID;

//===----------------------------------------------------------------------===//
// The lattice
//===----------------------------------------------------------------------===//

int64_t AxisInfo::divisorOf(int64_t V) {
  if (V == 0)
    return kMaxDivisibility;
  uint64_t U = V < 0 ? uint64_t(-(V + 1)) + 1 : uint64_t(V);
  return std::min<int64_t>(kMaxDivisibility, int64_t(U & (~U + 1)));
}

AxisInfo AxisInfo::unknown(llvm::ArrayRef<int64_t> Shape) {
  unsigned R = std::max<size_t>(1, Shape.size());
  AxisInfo I;
  I.Contiguity.assign(R, 1);
  I.Divisibility.assign(R, 1);
  I.Constancy.assign(R, 1);
  I.Prefix.assign(R, 1);
  return I;
}

AxisInfo AxisInfo::uniform(llvm::ArrayRef<int64_t> Shape, int64_t Div,
                           std::optional<int64_t> Constant) {
  AxisInfo I = unknown(Shape);
  for (unsigned D = 0; D < I.getRank(); ++D) {
    I.Divisibility[D] = Div;
    I.Constancy[D] = Shape.empty() ? 1 : Shape[D];
  }
  I.Constant = Constant;
  return I;
}

AxisInfo AxisInfo::join(const AxisInfo &O) const {
  AxisInfo R = *this;
  for (unsigned D = 0; D < getRank(); ++D) {
    R.Contiguity[D] = std::gcd(Contiguity[D], O.Contiguity[D]);
    R.Divisibility[D] = std::gcd(Divisibility[D], O.Divisibility[D]);
    R.Constancy[D] = std::gcd(Constancy[D], O.Constancy[D]);
    R.Prefix[D] = std::gcd(Prefix[D], O.Prefix[D]);
  }
  if (Constant != O.Constant)
    R.Constant.reset();
  if (Range && O.Range)
    R.Range = std::make_pair(std::min(Range->first, O.Range->first),
                             std::max(Range->second, O.Range->second));
  else
    R.Range.reset();
  return R;
}

void AxisInfo::print(llvm::raw_ostream &OS) const {
  auto List = [&](const char *Name, llvm::ArrayRef<int64_t> V) {
    OS << Name << "=[";
    for (unsigned I = 0; I < V.size(); ++I)
      OS << (I ? ", " : "") << V[I];
    OS << ']';
  };
  List("contiguity", Contiguity);
  List(" divisibility", Divisibility);
  List(" constancy", Constancy);
  for (unsigned D = 0; D < getRank(); ++D)
    if (Prefix[D] > Constancy[D]) {
      List(" prefix", Prefix);
      break;
    }
  if (Constant)
    OS << " constant=" << *Constant;
  else if (Range)
    OS << " range=[" << Range->first << ", " << Range->second << ']';
}

//===----------------------------------------------------------------------===//
// Transfer functions
//===----------------------------------------------------------------------===//

namespace {

int64_t gcd3(int64_t A, int64_t B, int64_t C) { return std::gcd(std::gcd(A, B), C); }

/// Divisibility of every element (not just run starts) along \p D.
int64_t elementDiv(const AxisInfo &I, unsigned D) {
  return I.Contiguity[D] > 1 ? 1 : I.Divisibility[D];
}

/// x + y, x - y (\p IsSub), or ptr + y for a gep whose elements are \p Scale
/// bytes (divisibility of pointers is in bytes, of offsets in elements).
AxisInfo addLike(const AxisInfo &L, const AxisInfo &R, bool IsSub,
                 int64_t Scale) {
  auto Cap = [](int64_t V) { return std::min(AxisInfo::kMaxDivisibility, V); };
  AxisInfo Out = L;
  for (unsigned D = 0; D < L.getRank(); ++D) {
    // Contiguous plus uniform stays contiguous over the shorter run; uniform
    // minus contiguous runs backwards and is not contiguous.
    int64_t FromL = std::gcd(L.Contiguity[D], R.Constancy[D]);
    int64_t FromR = IsSub ? 1 : std::gcd(R.Contiguity[D], L.Constancy[D]);
    int64_t Cont = std::max(FromL, FromR);
    // Divisibility of the run starts: a start cut out of a longer run is the
    // old start plus a multiple of Cont.
    auto StartDiv = [&](const AxisInfo &X) {
      return Cont < X.Contiguity[D] ? std::min(X.Divisibility[D], Cont)
                                    : X.Divisibility[D];
    };
    int64_t Div;
    if (Cont > 1 && FromL >= FromR)
      Div = std::gcd(StartDiv(L), Cap(R.Divisibility[D] * Scale));
    else if (Cont > 1)
      Div = std::gcd(L.Divisibility[D], Cap(StartDiv(R) * Scale));
    else
      Div = std::gcd(elementDiv(L, D), Cap(elementDiv(R, D) * Scale));
    Out.Contiguity[D] = Cont;
    Out.Divisibility[D] = Div;
    Out.Constancy[D] = std::gcd(L.Constancy[D], R.Constancy[D]);
  }
  Out.Constant.reset();
  if (L.Constant && R.Constant && Scale == 1)
    Out.Constant = IsSub ? *L.Constant - *R.Constant : *L.Constant + *R.Constant;
  return Out;
}

AxisInfo mul(const AxisInfo &L, const AxisInfo &R) {
  AxisInfo Out = L;
  for (unsigned D = 0; D < L.getRank(); ++D) {
    if (R.Constant == 1 || L.Constant == 1) {
      const AxisInfo &X = R.Constant == 1 ? L : R;
      Out.Contiguity[D] = X.Contiguity[D];
      Out.Divisibility[D] = X.Divisibility[D];
    } else {
      Out.Contiguity[D] = 1;
      Out.Divisibility[D] = std::min(AxisInfo::kMaxDivisibility,
                                     elementDiv(L, D) * elementDiv(R, D));
    }
    Out.Constancy[D] = std::gcd(L.Constancy[D], R.Constancy[D]);
  }
  Out.Constant.reset();
  if (L.Constant && R.Constant)
    Out.Constant = *L.Constant * *R.Constant;
  if ((L.Constant && *L.Constant == 0) || (R.Constant && *R.Constant == 0))
    Out.Constant = 0;
  return Out;
}

/// x / c and x >> log2(c) for a power-of-two constant c: runs of c aligned
/// contiguous values collapse into runs of c equal values.
AxisInfo divByPow2(const AxisInfo &L, int64_t C) {
  AxisInfo Out = L;
  for (unsigned D = 0; D < L.getRank(); ++D) {
    bool Aligned = L.Contiguity[D] >= C && L.Divisibility[D] >= C;
    Out.Constancy[D] = std::max(L.Constancy[D], Aligned ? C : 1);
    Out.Contiguity[D] = 1;
    Out.Divisibility[D] = std::max<int64_t>(1, elementDiv(L, D) / C);
  }
  Out.Constant.reset();
  if (L.Constant)
    Out.Constant = *L.Constant / C;
  return Out;
}

/// x % c for a power-of-two constant c.
AxisInfo remByPow2(const AxisInfo &L, int64_t C) {
  AxisInfo Out = L;
  for (unsigned D = 0; D < L.getRank(); ++D) {
    Out.Contiguity[D] = std::gcd(L.Contiguity[D], C);
    Out.Divisibility[D] =
        L.Divisibility[D] >= C ? AxisInfo::kMaxDivisibility : L.Divisibility[D];
    Out.Constancy[D] = L.Constancy[D];
  }
  Out.Constant.reset();
  if (L.Constant)
    Out.Constant = *L.Constant % C;
  return Out;
}

/// x % r for r uniform over x's runs and x >= 0: a
/// run of g = gcd(x's contiguity, x's divisibility, r's divisibility)
/// values starting at a multiple of g cannot straddle a multiple of r, so
/// it stays a run (Triton's rule, with x's divisibility added: 3,4,5,6 % 4
/// is no run).
AxisInfo remByUniform(const AxisInfo &L, const AxisInfo &R) {
  AxisInfo Out = L;
  for (unsigned D = 0; D < L.getRank(); ++D) {
    int64_t G = gcd3(L.Contiguity[D], L.Divisibility[D], R.Divisibility[D]);
    Out.Contiguity[D] = R.Constancy[D] % G == 0 ? G : 1;
    Out.Divisibility[D] = std::gcd(L.Divisibility[D], R.Divisibility[D]);
    Out.Constancy[D] = std::gcd(L.Constancy[D], R.Constancy[D]);
  }
  Out.Constant.reset();
  return Out;
}

/// Only constancy survives (bitwise ops, conversions that scramble values).
AxisInfo constancyOnly(const AxisInfo &L, const AxisInfo &R) {
  AxisInfo Out = L;
  for (unsigned D = 0; D < L.getRank(); ++D) {
    Out.Contiguity[D] = 1;
    Out.Divisibility[D] = 1;
    Out.Constancy[D] = std::gcd(L.Constancy[D], R.Constancy[D]);
  }
  Out.Constant.reset();
  return Out;
}

/// Runs along \p D of `L pred R` whose true elements come first: x < n or
/// x <= n (n > x, n >= x) with x contiguous from an aligned start (runs of
/// consecutive values that cross no signed or unsigned wrap) and n
/// constant over the run, whatever n is.
int64_t prefixOfCompare(ICmpPredicate P, const AxisInfo &L, const AxisInfo &R, unsigned D) {
  auto Rising = [&](const AxisInfo &X, const AxisInfo &N) {
    return std::min(std::gcd(X.Contiguity[D], X.Divisibility[D]), N.Constancy[D]);
  };
  switch (P) {
  case ICmpPredicate::SLT:
  case ICmpPredicate::SLE:
  case ICmpPredicate::ULT:
  case ICmpPredicate::ULE: return Rising(L, R);
  case ICmpPredicate::SGT:
  case ICmpPredicate::SGE:
  case ICmpPredicate::UGT:
  case ICmpPredicate::UGE: return Rising(R, L);
  default: return 1;
  }
}

bool isOrdering(const Instruction &I) {
  if (auto *C = llvm::dyn_cast<CmpInst>(&I)) {
    if (C->isFloat())
      return false;
    ICmpPredicate P = C->getIPredicate();
    return P != ICmpPredicate::EQ && P != ICmpPredicate::NE;
  }
  return false;
}

} // namespace

using RangeT = std::pair<int64_t, int64_t>;

/// The range of a computation on 128 bits, if it fits the type's signed
/// range (wrapping would make the bounds meaningless).
std::optional<RangeT> fitting(__int128 Lo, __int128 Hi, Type *T) {
  unsigned W = T->getScalarSizeInBits();
  if (!T->getScalarType()->isInt() || W == 0 || W > 64)
    return std::nullopt;
  __int128 Min = -(__int128(1) << (W - 1)), Max = (__int128(1) << (W - 1)) - 1;
  if (W == 1)
    Min = 0, Max = 1; // i1 holds 0 and 1 as far as masks are concerned
  if (Lo < Min || Hi > Max || Lo > Hi)
    return std::nullopt;
  return RangeT(int64_t(Lo), int64_t(Hi));
}

/// Whether `L pred R` holds for all, none, or some elements.
std::optional<bool> compareRanges(ICmpPredicate P, RangeT L, RangeT R) {
  bool Unsigned = P == ICmpPredicate::ULT || P == ICmpPredicate::ULE ||
                  P == ICmpPredicate::UGT || P == ICmpPredicate::UGE;
  // Unsigned order agrees with signed order on nonnegative values.
  if (Unsigned && (L.first < 0 || R.first < 0))
    return std::nullopt;
  switch (P) {
  case ICmpPredicate::SLT:
  case ICmpPredicate::ULT:
    if (L.second < R.first) return true;
    if (L.first >= R.second) return false;
    return std::nullopt;
  case ICmpPredicate::SLE:
  case ICmpPredicate::ULE:
    if (L.second <= R.first) return true;
    if (L.first > R.second) return false;
    return std::nullopt;
  case ICmpPredicate::SGT:
  case ICmpPredicate::UGT:
    return compareRanges(ICmpPredicate::SLT, R, L);
  case ICmpPredicate::SGE:
  case ICmpPredicate::UGE:
    return compareRanges(ICmpPredicate::SLE, R, L);
  case ICmpPredicate::EQ:
    if (L.first == L.second && L == R) return true;
    if (L.second < R.first || R.second < L.first) return false;
    return std::nullopt;
  case ICmpPredicate::NE:
    if (auto Eq = compareRanges(ICmpPredicate::EQ, L, R))
      return !*Eq;
    return std::nullopt;
  }
  return std::nullopt;
}

/// Interval arithmetic for the value range of result \p R of \p I.
std::optional<RangeT> rangeOf(const Instruction &I,
                              llvm::function_ref<const AxisInfo &(unsigned)> Op) {
  Type *T = I.getResult(0)->getType();
  auto Rg = [&](unsigned K) { return Op(K).Range; };
  switch (I.getOpcode()) {
  case Opcode::Constant: {
    auto &C = llvm::cast<ConstantInst>(I);
    if (C.isFloat())
      return std::nullopt;
    int64_t V = C.getIntValue();
    if (T->getScalarType()->isBool())
      V = V != 0;
    return RangeT(V, V);
  }
  case Opcode::MakeRange: {
    auto &M = llvm::cast<MakeRangeInst>(I);
    return RangeT(M.getStart(), M.getEnd() - 1);
  }
  case Opcode::GetProgramId:
    return RangeT(0, (int64_t(1) << 31) - 1);
  case Opcode::GetNumPrograms:
    return RangeT(1, (int64_t(1) << 31) - 1);
  case Opcode::Splat:
  case Opcode::Broadcast:
  case Opcode::ExpandDims:
  case Opcode::Trans:
  case Opcode::Reshape:
  case Opcode::ConvertLayout:
  case Opcode::MultipleOf:
  case Opcode::MaxContiguous:
  case Opcode::MaxConstancy:
  case Opcode::ZExt:
  case Opcode::SExt: {
    auto A = Rg(0);
    if (!A)
      return std::nullopt;
    // An i1's range is 0 (false) to 1 (true), and sext makes true -1.
    if (I.getOpcode() == Opcode::SExt && I.getOperand(0)->getType()->getScalarType()->isBool())
      return std::make_pair(-A->second, -A->first);
    if (I.getOpcode() == Opcode::ZExt && A->first < 0)
      return std::nullopt;
    return A;
  }
  case Opcode::Trunc:
    if (auto A = Rg(0))
      return fitting(A->first, A->second, T);
    return std::nullopt;
  case Opcode::Add:
  case Opcode::Sub:
  case Opcode::Mul:
  case Opcode::SMin:
  case Opcode::SMax: {
    auto A = Rg(0), B = Rg(1);
    if (!A || !B)
      return std::nullopt;
    __int128 AL = A->first, AH = A->second, BL = B->first, BH = B->second;
    switch (I.getOpcode()) {
    case Opcode::Add: return fitting(AL + BL, AH + BH, T);
    case Opcode::Sub: return fitting(AL - BH, AH - BL, T);
    case Opcode::SMin: return fitting(std::min(AL, BL), std::min(AH, BH), T);
    case Opcode::SMax: return fitting(std::max(AL, BL), std::max(AH, BH), T);
    default: {
      __int128 P[] = {AL * BL, AL * BH, AH * BL, AH * BH};
      return fitting(*std::min_element(P, P + 4), *std::max_element(P, P + 4), T);
    }
    }
  }
  case Opcode::SRem:
  case Opcode::URem:
  case Opcode::SDiv:
  case Opcode::UDiv: {
    auto A = Rg(0);
    auto C = Op(1).Constant;
    if (!A || A->first < 0 || !C || *C <= 0)
      return std::nullopt;
    if (I.getOpcode() == Opcode::SRem || I.getOpcode() == Opcode::URem)
      return RangeT(0, std::min(A->second, *C - 1));
    return RangeT(A->first / *C, A->second / *C);
  }
  case Opcode::And: {
    auto A = Rg(0), B = Rg(1);
    if (T->getScalarType()->isBool() && A && B)
      return RangeT(A->first & B->first, A->second & B->second);
    if (A && B && A->first >= 0 && B->first >= 0)
      return RangeT(0, std::min(A->second, B->second));
    return std::nullopt;
  }
  case Opcode::Or: {
    auto A = Rg(0), B = Rg(1);
    if (T->getScalarType()->isBool() && A && B)
      return RangeT(A->first | B->first, A->second | B->second);
    return std::nullopt;
  }
  case Opcode::ICmp: {
    auto A = Rg(0), B = Rg(1);
    if (!A || !B)
      return RangeT(0, 1);
    if (auto V = compareRanges(llvm::cast<CmpInst>(I).getIPredicate(), *A, *B))
      return RangeT(*V, *V);
    return RangeT(0, 1);
  }
  case Opcode::Select: {
    auto C = Rg(0), A = Rg(1), B = Rg(2);
    if (C && C->first == C->second)
      return C->first ? A : B;
    if (A && B)
      return RangeT(std::min(A->first, B->first), std::max(A->second, B->second));
    return std::nullopt;
  }
  default:
    return std::nullopt;
  }
}

AxisInfoAnalysis::AxisInfoAnalysis(Function &F) { compute(F); }

AxisInfoAnalysis AxisInfoAnalysis::run(Function &F, AnalysisManager &) {
  return AxisInfoAnalysis(F);
}

const AxisInfo &AxisInfoAnalysis::get(const Value *V) const {
  assert(V->getId() < Infos.size() && "value of another function");
  return Infos[V->getId()];
}

int64_t AxisInfoAnalysis::getPtrVectorWidth(const Value *Ptr, unsigned Dim) const {
  const AxisInfo &I = get(Ptr);
  if (Dim >= I.getRank())
    return 1;
  auto *PT = llvm::dyn_cast<PointerType>(Ptr->getType()->getScalarType());
  int64_t Bytes = PT ? PT->getPointee()->getScalarSizeInBytes() : 1;
  return std::max<int64_t>(
      1, std::min(I.Contiguity[Dim], I.Divisibility[Dim] / Bytes));
}

int64_t AxisInfoAnalysis::getContiguity(const Value *V, unsigned Dim) const {
  const AxisInfo &I = get(V);
  return Dim < I.getRank() ? I.Contiguity[Dim] : 1;
}

int64_t AxisInfoAnalysis::getMaskConstancy(const Value *Mask, unsigned Dim) const {
  const AxisInfo &I = get(Mask);
  return Dim < I.getRank() ? I.Constancy[Dim] : 1;
}

int64_t AxisInfoAnalysis::getMaskPrefix(const Value *Mask, unsigned Dim) const {
  const AxisInfo &I = get(Mask);
  return Dim < I.getRank() ? std::max(I.Prefix[Dim], I.Constancy[Dim]) : 1;
}

/// The instructions whose results keep (or compute) prefix runs; every
/// other result has none beyond its constancy.
static bool keepsPrefix(Opcode Op) {
  switch (Op) {
  case Opcode::ICmp:
  case Opcode::And:
  case Opcode::Or:
  case Opcode::Broadcast:
  case Opcode::ExpandDims:
  case Opcode::Trans:
  case Opcode::ConvertLayout:
  case Opcode::MultipleOf:
  case Opcode::MaxContiguous:
  case Opcode::MaxConstancy: return true;
  default: return false;
  }
}

AxisInfo AxisInfoAnalysis::visit(const Instruction &I, unsigned Res) const {
  AxisInfo A = visitFacts(I, Res);
  if (!keepsPrefix(I.getOpcode()))
    A.Prefix.assign(A.getRank(), 1);
  if (Res != 0 || !I.getResult(0)->getType()->getScalarType()->isInt())
    return A;
  A.Range = rangeOf(I, [&](unsigned K) -> const AxisInfo & {
    return get(I.getOperand(K));
  });
  // i1 in [0, 1] says nothing.
  if (A.Range && *A.Range == std::make_pair(int64_t(0), int64_t(1)) &&
      I.getResult(0)->getType()->getScalarType()->isBool())
    A.Range.reset();
  // A one-value range is a constant (a comparison proven true or false).
  if (A.Range && A.Range->first == A.Range->second && !A.Constant) {
    A.Constant = A.Range->first;
    for (unsigned D = 0; D < A.getRank(); ++D) {
      A.Constancy[D] = std::max<int64_t>(1, I.getResult(0)->getType()->getShape().empty()
                                                ? 1
                                                : I.getResult(0)->getType()->getShape()[D]);
      A.Contiguity[D] = 1;
      A.Divisibility[D] = AxisInfo::divisorOf(*A.Constant);
    }
  }
  return A;
}

AxisInfo AxisInfoAnalysis::visitFacts(const Instruction &I, unsigned Res) const {
  Type *T = I.getResult(Res)->getType();
  llvm::ArrayRef<int64_t> Shape = T->getShape();
  auto Op = [&](unsigned K) -> const AxisInfo & { return get(I.getOperand(K)); };

  switch (I.getOpcode()) {
  case Opcode::Constant: {
    auto &C = llvm::cast<ConstantInst>(I);
    if (C.isFloat())
      return AxisInfo::uniform(Shape, 1);
    return AxisInfo::uniform(Shape, AxisInfo::divisorOf(C.getIntValue()),
                             C.getIntValue());
  }
  case Opcode::MakeRange: {
    auto &R = llvm::cast<MakeRangeInst>(I);
    AxisInfo A = AxisInfo::unknown(Shape);
    A.Contiguity[0] = R.getEnd() - R.getStart();
    A.Divisibility[0] = AxisInfo::divisorOf(R.getStart());
    return A;
  }
  case Opcode::Splat: {
    const AxisInfo &S = Op(0);
    return AxisInfo::uniform(Shape, S.Divisibility[0], S.Constant);
  }
  case Opcode::Broadcast: {
    const AxisInfo &S = Op(0);
    llvm::ArrayRef<int64_t> From = I.getOperand(0)->getType()->getShape();
    AxisInfo A = S;
    for (unsigned D = 0; D < Shape.size(); ++D)
      if (From[D] == 1 && Shape[D] != 1) {
        A.Contiguity[D] = 1;
        A.Constancy[D] = Shape[D];
      }
    return A;
  }
  case Opcode::ExpandDims: {
    const AxisInfo &S = Op(0);
    if (!I.getOperand(0)->getType()->isBlock())
      return AxisInfo::uniform(Shape, S.Divisibility[0], S.Constant);
    unsigned Axis = llvm::cast<ExpandDimsInst>(I).getAxis();
    // Along the new dimension every element is a run of its own.
    int64_t Elem = AxisInfo::kMaxDivisibility;
    for (unsigned D = 0; D < S.getRank(); ++D)
      Elem = std::min(Elem, elementDiv(S, D));
    AxisInfo A = S;
    A.Contiguity.insert(A.Contiguity.begin() + Axis, 1);
    A.Divisibility.insert(A.Divisibility.begin() + Axis, Elem);
    A.Constancy.insert(A.Constancy.begin() + Axis, 1);
    A.Prefix.insert(A.Prefix.begin() + Axis, 1);
    return A;
  }
  case Opcode::Trans: {
    const AxisInfo &S = Op(0);
    AxisInfo A = S;
    llvm::ArrayRef<int64_t> Order = llvm::cast<TransInst>(I).getOrder();
    for (unsigned D = 0; D < Order.size(); ++D) {
      A.Contiguity[D] = S.Contiguity[Order[D]];
      A.Divisibility[D] = S.Divisibility[Order[D]];
      A.Constancy[D] = S.Constancy[Order[D]];
      A.Prefix[D] = S.Prefix[Order[D]];
    }
    return A;
  }
  case Opcode::Add:
    return addLike(Op(0), Op(1), /*IsSub=*/false, 1);
  case Opcode::Sub:
    return addLike(Op(0), Op(1), /*IsSub=*/true, 1);
  case Opcode::GetElementPtr: {
    auto *PT = llvm::cast<PointerType>(T->getScalarType());
    int64_t Bytes = PT->getPointee()->getScalarSizeInBytes();
    return addLike(Op(0), Op(1), /*IsSub=*/false, Bytes);
  }
  case Opcode::Mul:
    return mul(Op(0), Op(1));
  case Opcode::Shl:
    if (auto C = Op(1).Constant; C && *C >= 0 && *C < 31) {
      AxisInfo Pow = AxisInfo::uniform(Shape, AxisInfo::divisorOf(int64_t(1) << *C),
                                       int64_t(1) << *C);
      return mul(Op(0), Pow);
    }
    return constancyOnly(Op(0), Op(1));
  case Opcode::SDiv:
  case Opcode::UDiv:
    if (auto C = Op(1).Constant; C && *C > 0 && llvm::isPowerOf2_64(*C))
      return divByPow2(Op(0), *C);
    return constancyOnly(Op(0), Op(1));
  case Opcode::LShr:
  case Opcode::AShr:
    if (auto C = Op(1).Constant; C && *C >= 0 && *C < 31)
      return divByPow2(Op(0), int64_t(1) << *C);
    return constancyOnly(Op(0), Op(1));
  case Opcode::SRem:
  case Opcode::URem:
    if (auto C = Op(1).Constant; C && *C > 0 && llvm::isPowerOf2_64(*C))
      return remByPow2(Op(0), *C);
    // Triton's assumption, which its tutorials rely on (`(pid * BLOCK +
    // arange) % N` stays vectorizable): a signed remainder's dividend is not
    // negative. Where it is, the kernel indexes before its tensor anyway.
    return remByUniform(Op(0), Op(1));
  case Opcode::ICmp:
  case Opcode::FCmp: {
    const AxisInfo &L = Op(0), &R = Op(1);
    AxisInfo A = constancyOnly(L, R);
    if (isOrdering(I))
      for (unsigned D = 0; D < A.getRank(); ++D) {
        // x < n with x contiguous from an aligned start and n uniform and
        // aligned: the answer can only flip at aligned positions.
        auto Runs = [&](const AxisInfo &X, const AxisInfo &N) {
          return std::min(gcd3(X.Contiguity[D], X.Divisibility[D], N.Divisibility[D]),
                          N.Constancy[D]);
        };
        A.Constancy[D] = std::max({A.Constancy[D], Runs(L, R), Runs(R, L)});
      }
    if (I.getOpcode() == Opcode::ICmp)
      for (unsigned D = 0; D < A.getRank(); ++D)
        A.Prefix[D] = prefixOfCompare(llvm::cast<CmpInst>(I).getIPredicate(), L, R, D);
    return A;
  }
  case Opcode::Select: {
    const AxisInfo &C = Op(0), &X = Op(1), &Y = Op(2);
    AxisInfo A = X;
    for (unsigned D = 0; D < A.getRank(); ++D) {
      int64_t CK = I.getOperand(0)->getType()->isBlock() ? C.Constancy[D]
                                                         : (Shape.empty() ? 1 : Shape[D]);
      A.Constancy[D] = gcd3(CK, X.Constancy[D], Y.Constancy[D]);
      A.Contiguity[D] = gcd3(CK, X.Contiguity[D], Y.Contiguity[D]);
      A.Divisibility[D] = std::gcd(X.Divisibility[D], Y.Divisibility[D]);
    }
    A.Constant = X.Constant == Y.Constant ? X.Constant : std::nullopt;
    return A;
  }
  case Opcode::And:
  case Opcode::Or: {
    // Two masks made of prefixes along d (constant runs are prefixes too):
    // their intersection and their union are prefixes.
    AxisInfo A = constancyOnly(Op(0), Op(1));
    if (T->getScalarType()->isBool())
      for (unsigned D = 0; D < A.getRank(); ++D)
        A.Prefix[D] = std::min(std::max(Op(0).Prefix[D], Op(0).Constancy[D]),
                               std::max(Op(1).Prefix[D], Op(1).Constancy[D]));
    return A;
  }
  case Opcode::Xor:
    return constancyOnly(Op(0), Op(1));
  case Opcode::SMin:
  case Opcode::SMax:
  case Opcode::UMin:
  case Opcode::UMax: {
    // Each element is one of the two: it divides by what both divide by
    // (a descriptor's shape clamped at 0 keeps the shape's divisibility).
    AxisInfo A = constancyOnly(Op(0), Op(1));
    for (unsigned D = 0; D < A.getRank(); ++D)
      A.Divisibility[D] = std::gcd(Op(0).Divisibility[D], Op(1).Divisibility[D]);
    return A;
  }
  case Opcode::ConvertLayout:
  case Opcode::ZExt:
  case Opcode::SExt:
  case Opcode::Trunc:
  case Opcode::Bitcast:
  case Opcode::PtrToInt:
  case Opcode::IntToPtr:
    return Op(0);
  case Opcode::Load: {
    // Equal addresses load equal values.
    AxisInfo A = AxisInfo::unknown(Shape);
    for (unsigned D = 0; D < A.getRank(); ++D)
      A.Constancy[D] = Op(0).Constancy[D];
    return A;
  }
  case Opcode::MultipleOf:
  case Opcode::MaxContiguous:
  case Opcode::MaxConstancy: {
    AxisInfo A = Op(0);
    llvm::ArrayRef<int64_t> V = llvm::cast<HintInst>(I).getValues();
    for (unsigned D = 0; D < A.getRank() && D < V.size(); ++D) {
      // The facts are powers of two, as the layouts built on them need: a
      // hint of 12 (a multiple of 12, runs of 12 from multiples of 12)
      // implies its largest power-of-two divisor, 4. Runs stay within the
      // dimension.
      int64_t P = V[D] & -V[D];
      int64_t Dim = Shape.empty() ? 1 : Shape[D];
      if (I.getOpcode() == Opcode::MultipleOf)
        A.Divisibility[D] = std::min(AxisInfo::kMaxDivisibility, P);
      else if (I.getOpcode() == Opcode::MaxContiguous)
        A.Contiguity[D] = std::min(Dim, P);
      else
        A.Constancy[D] = std::min(Dim, P);
    }
    return A;
  }
  default:
    return AxisInfo::unknown(Shape);
  }
}

void AxisInfoAnalysis::compute(Function &F) {
  F.renumber();
  // Every value starts as "nothing known" of its own rank; Known marks the
  // values computed at least once (phis ignore incoming values that are not).
  Infos.assign(F.getNumValueIds(), AxisInfo::unknown({}));
  Known.assign(F.getNumValueIds(), false);
  for (BasicBlock &B : F)
    for (Instruction &I : B)
      for (unsigned R = 0; R < I.getNumResults(); ++R)
        Infos[I.getResult(R)->getId()] =
            AxisInfo::unknown(I.getResult(R)->getType()->getShape());

  for (Argument *A : F.args()) {
    const ArgAttrs &Attrs = A->getAttrs();
    // Device functions may take blocks.
    AxisInfo I = AxisInfo::unknown(A->getType()->getShape());
    if (Attrs.Divisibility)
      I.Divisibility[0] = Attrs.Divisibility;
    if (Attrs.EqualTo1)
      I.Constant = 1, I.Range = std::make_pair(int64_t(1), int64_t(1));
    if (Attrs.ConstantValue) {
      I.Constant = Attrs.ConstantValue;
      I.Range = std::make_pair(*Attrs.ConstantValue, *Attrs.ConstantValue);
      I.Divisibility[0] = AxisInfo::divisorOf(*Attrs.ConstantValue);
    }
    Infos[A->getId()] = I;
    Known[A->getId()] = true;
  }

  DominatorTree DT(F);
  // Facts only shrink (gcd) and are powers of two, so this terminates; the
  // bound is a guard, and hitting it falls back to nothing known.
  bool Changed = true;
  unsigned Iter = 0;
  for (; Changed && Iter < 64; ++Iter) {
    Changed = false;
    for (BasicBlock *B : DT.getReversePostOrder())
      for (Instruction &I : *B)
        for (unsigned R = 0; R < I.getNumResults(); ++R) {
          Value *V = I.getResult(R);
          AxisInfo New;
          if (auto *Phi = llvm::dyn_cast<PhiInst>(&I)) {
            // The meet over the incoming values known so far (optimistic:
            // back edges not yet visited do not pessimize the first pass).
            bool Any = false;
            for (Value *In : Phi->getOperands()) {
              if (!Known[In->getId()])
                continue;
              New = Any ? New.join(Infos[In->getId()]) : Infos[In->getId()];
              Any = true;
            }
            if (!Any)
              continue;
            // Widen: a range that still grows (a loop counter) would take
            // as many rounds as it has values.
            if (Known[V->getId()] && New.Range != Infos[V->getId()].Range)
              New.Range.reset();
          } else {
            New = visit(I, R);
          }
          if (!Known[V->getId()] || New != Infos[V->getId()]) {
            Infos[V->getId()] = std::move(New);
            Known[V->getId()] = true;
            Changed = true;
          }
        }
  }
  if (Changed)
    for (BasicBlock &B : F)
      for (Instruction &I : B)
        for (unsigned R = 0; R < I.getNumResults(); ++R)
          Infos[I.getResult(R)->getId()] =
              AxisInfo::unknown(I.getResult(R)->getType()->getShape());
}
