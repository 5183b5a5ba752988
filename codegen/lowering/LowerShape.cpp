//===- LowerShape.cpp - Reshaping ops and layout conversions --------------===//
//
// broadcast, expand_dims, reshape, trans, join, split and cat move no data:
// assign-layouts gave the result a layout in which every thread already
// holds the elements it needs, so each result register is some operand
// register. Which one is linear algebra on the two layouts (registerMapping
// after viewing the result in the operand's coordinates); no per-op tables.
//
// convert_layout is a register permutation when the layouts agree on lanes
// and warps, and otherwise a round trip through shared memory: every thread
// writes its elements at their row-major offsets, a barrier, then every
// thread reads the elements of the new layout. Accesses are vectorized along
// the last dimension where both layouts keep elements consecutive. No
// barrier goes before the writes: insert-barriers placed one in the IR where
// an earlier access of the same bytes may still be in flight
// (codegen/layouts/InsertBarriers.cpp).
//
//===----------------------------------------------------------------------===//

#include "analysis/DotLayouts.h"
#include "codegen/lowering/LoweringContext.h"
#include "ir/Diagnostics.h"

using namespace tritium;

namespace {

using Regs = LoweringContext::Regs;
using Basis = LinearLayout::Basis;

llvm::SmallVector<LinearLayout::OutDim, 4> outsFor(llvm::ArrayRef<int64_t> Shape) {
  llvm::SmallVector<LinearLayout::OutDim, 4> Outs;
  for (unsigned D = 0; D < Shape.size(); ++D)
    Outs.push_back({outDimName(D), int32_t(Shape[D])});
  return Outs;
}

/// \p L with every basis mapped by \p F onto outputs \p Shape, keeping all
/// registers (so the result still has one entry per register of L).
template <typename Fn>
LinearLayout view(const LinearLayout &L, llvm::ArrayRef<int64_t> Shape, Fn F) {
  llvm::SmallVector<LinearLayout::InDim, 3> Ins;
  for (const LinearLayout::InDim &In : L.getInDims()) {
    LinearLayout::InDim N{In.Name, {}};
    for (const Basis &B : In.Bases)
      N.Bases.push_back(F(B));
    Ins.push_back(std::move(N));
  }
  return LinearLayout(Ins, outsFor(Shape));
}

/// The operand register of every result register; an internal error if the
/// layouts do not allow it (assign-layouts guarantees they do).
llvm::SmallVector<int32_t, 16> mapping(const Instruction &I, const LinearLayout &Src,
                                       const LinearLayout &DstView) {
  std::optional<llvm::SmallVector<int32_t, 16>> M = registerMapping(Src, DstView);
  if (!M)
    reportError(I.getLoc(), "internal error: '" + I.getOpcodeName() +
                                "' needs data from other threads; its layouts are "
                                "inconsistent");
  return *M;
}

Regs gather(const Regs &From, llvm::ArrayRef<int32_t> Map) {
  Regs Out;
  for (int32_t R : Map)
    Out.push_back(From[R]);
  return Out;
}

void lowerConvert(LoweringContext &C, Instruction &I) {
  Value *Src = I.getOperand(0);
  const LinearLayout &From = C.layout(Src);
  const LinearLayout &To = *I.getLayout();
  if (std::optional<llvm::SmallVector<int32_t, 16>> M = registerMapping(From, To)) {
    C.set(I.getResult(), gather(C.get(Src), *M));
    return;
  }
  llvm::IRBuilder<> &B = C.B;
  Type *T = Src->getType();
  llvm::ArrayRef<int64_t> Shape = T->getShape();
  unsigned Rank = Shape.size();
  bool Bool = T->getScalarType()->isBool();
  llvm::Type *ET = Bool ? B.getInt8Ty() : C.elemType(T);
  unsigned Bytes = T->getScalarSizeInBytes();
  unsigned Base = C.scratchOffset(I);

  // Elements a thread keeps consecutive along the last dimension, with
  // aligned starts (no other basis touches the vector's low bits).
  auto VecWidth = [&](const LinearLayout &L) {
    unsigned V = unsigned(L.getNumConsecutiveInOut(kRegister, outDimName(Rank - 1)));
    V = std::min(V, std::max(1u, 16 / Bytes));
    for (const LinearLayout::InDim &In : L.getInDims())
      for (unsigned Bit = 0; Bit < In.Bases.size(); ++Bit) {
        if (In.Name == kRegister && (1u << Bit) < V)
          continue;
        while (V > 1 && (In.Bases[Bit][Rank - 1] & (V - 1)))
          V /= 2;
      }
    return V;
  };
  auto Access = [&](const LinearLayout &L, bool Store, Regs *Vals) {
    Regs Offsets = C.elementOffsets(L);
    unsigned V = VecWidth(L);
    llvm::Type *VT = llvm::FixedVectorType::get(ET, V);
    Regs Out;
    for (unsigned G = 0; G < Offsets.size(); G += V) {
      llvm::Value *Off = B.CreateAdd(B.CreateMul(Offsets[G], C.constI32(Bytes)),
                                     C.constI32(Base));
      llvm::Value *P = C.sharedPtr(Off);
      llvm::Align A(std::min(16u, V * Bytes));
      if (Store) {
        llvm::Value *Vec = llvm::PoisonValue::get(VT);
        for (unsigned K = 0; K < V; ++K) {
          llvm::Value *E = (*Vals)[G + K];
          Vec = B.CreateInsertElement(Vec, Bool ? B.CreateZExt(E, ET) : E, K);
        }
        B.CreateAlignedStore(Vec, P, A);
      } else {
        llvm::Value *Vec = B.CreateAlignedLoad(VT, P, A);
        for (unsigned K = 0; K < V; ++K) {
          llvm::Value *E = B.CreateExtractElement(Vec, K);
          Out.push_back(Bool ? B.CreateICmpNE(E, B.getInt8(0)) : E);
        }
      }
    }
    return Out;
  };
  Regs In = C.get(Src);
  if (Rank == 2 && !Bool) {
    // A 2-d block goes through the swizzled layout of the dot operands
    // (rows of 16-byte chunks XORed with a phase of the row), so that the
    // 8 rows an mma accumulator's quarter-warp writes fall in distinct
    // banks, while the reader still gets 16-byte vectors for its global
    // stores. An accumulator of 16-bit elements is written with matrix
    // stores where the target has them (stmatrix: 16-byte rows, a quarter
    // of the instructions of a word per thread). insert-barriers made the
    // scratch free to write; wait for everyone's writes before reading
    // what others wrote.
    LinearLayout Shared = swizzledSharedLayout(Shape, 1, Bytes);
    if (!storeMatrices(C, C.constI32(Base), Shared, From, T, In))
      accessShared(C, C.constI32(Base), Shared, From, T, &In);
    C.getTarget().barrier(B);
    C.set(I.getResult(), accessShared(C, C.constI32(Base), Shared, To, T, nullptr));
    return;
  }
  // insert-barriers made the scratch free to write; wait for everyone's
  // writes before reading what others wrote.
  Access(From, /*Store=*/true, &In);
  C.getTarget().barrier(B);
  C.set(I.getResult(), Access(To, /*Store=*/false, nullptr));
}

/// tl.gather through the scratch buffer: every thread stores the source
/// elements it holds at their row-major offsets (copies of an element
/// store the same value), waits for the others, then reads, for each
/// result element, the source element at its own coordinates with the
/// axis' one replaced by its index (the result has the indices' layout,
/// so result register R and index register R are one element).
void lowerGather(LoweringContext &C, const GatherInst &I) {
  llvm::IRBuilder<> &B = C.B;
  Value *Src = I.getSrc();
  Type *T = Src->getType();
  llvm::ArrayRef<int64_t> Shape = T->getShape();
  unsigned Rank = Shape.size(), Axis = I.getAxis();
  bool Bool = T->getScalarType()->isBool();
  llvm::Type *ET = Bool ? B.getInt8Ty() : C.elemType(T);
  unsigned Bytes = T->getScalarSizeInBytes();
  unsigned Base = C.scratchOffset(I);
  auto Ptr = [&](llvm::Value *Elem) {
    return C.sharedPtr(B.CreateAdd(B.CreateMul(Elem, C.constI32(Bytes)), C.constI32(Base)));
  };
  llvm::Align A(Bytes);
  // insert-barriers made the scratch free to write.
  const Regs &In = C.get(Src);
  Regs SrcOffsets = C.elementOffsets(C.layout(Src));
  // Runs at consecutive places a vector at a time where the target works in
  // vectors (the cpu), else an element at a time.
  unsigned W = C.getTarget().registerVectorWidth();
  forEachConstantRun(SrcOffsets, Bool ? 1 : W, [&](unsigned First, unsigned Count) {
    llvm::ArrayRef<llvm::Value *> Run = llvm::ArrayRef<llvm::Value *>(In).slice(First, Count);
    llvm::Value *V = Bool ? B.CreateZExt(Run[0], ET) : Count == 1 ? Run[0] : packRegisters(B, Run);
    B.CreateAlignedStore(V, Ptr(SrcOffsets[First]), A);
  });
  C.getTarget().barrier(B);
  llvm::SmallVector<int64_t, 4> Stride(Rank, 1);
  for (unsigned D = Rank; D-- > 1;)
    Stride[D - 1] = Stride[D] * Shape[D];
  std::vector<Regs> Coords = C.coordinates(C.layout(I.getResult()));
  const Regs &Index = C.get(I.getIndex());
  Regs Out;
  // A target that works in vectors (the cpu) reads W elements with one
  // gather: a 256x64 tl.gather was 16,384 scalar loads, minutes of LLVM.
  if (W > 1 && !Bool && Coords.size() % W == 0) {
    auto Splat = [&](uint32_t K) { return B.CreateVectorSplat(W, C.constI32(K)); };
    auto Lanes = [&](auto Reg) {
      Regs V;
      for (unsigned K = 0; K < W; ++K)
        V.push_back(Reg(K));
      return packRegisters(B, V);
    };
    for (unsigned R = 0; R < Coords.size(); R += W) {
      llvm::Value *Idx = B.CreateSExtOrTrunc(Lanes([&](unsigned K) { return Index[R + K]; }),
                                             llvm::FixedVectorType::get(B.getInt32Ty(), W));
      llvm::Value *Elem = B.CreateMul(Idx, Splat(uint32_t(Stride[Axis])));
      for (unsigned D = 0; D < Rank; ++D)
        if (D != Axis)
          Elem = B.CreateAdd(Elem, B.CreateMul(Lanes([&](unsigned K) { return Coords[R + K][D]; }),
                                               Splat(uint32_t(Stride[D]))));
      llvm::Value *Off = B.CreateAdd(B.CreateMul(Elem, Splat(Bytes)), Splat(Base));
      llvm::Value *V;
      if (Bytes >= 4) {
        V = B.CreateMaskedGather(llvm::FixedVectorType::get(ET, W), C.sharedPtr(Off), A);
      } else {
        // Narrower elements as the 32-bit words that hold them (x86 gathers
        // 32 and 64 bits only; LLVM made 16 scalar loads of each gather),
        // shifted down: the word never leaves the scratch buffer's bytes.
        llvm::Value *Words = B.CreateMaskedGather(llvm::FixedVectorType::get(B.getInt32Ty(), W),
                                                  C.sharedPtr(B.CreateAnd(Off, Splat(~3u))),
                                                  llvm::Align(4));
        llvm::Value *Shift = B.CreateShl(B.CreateAnd(Off, Splat(3)), Splat(3));
        V = B.CreateBitCast(B.CreateTrunc(B.CreateLShr(Words, Shift),
                                          llvm::FixedVectorType::get(B.getIntNTy(Bytes * 8), W)),
                            llvm::FixedVectorType::get(ET, W));
      }
      for (unsigned K = 0; K < W; ++K)
        Out.push_back(B.CreateExtractElement(V, K));
    }
    C.set(I.getResult(), std::move(Out));
    return;
  }
  for (unsigned R = 0; R < Coords.size(); ++R) {
    llvm::Value *Elem = B.CreateMul(B.CreateSExtOrTrunc(Index[R], B.getInt32Ty()),
                                    C.constI32(uint32_t(Stride[Axis])));
    for (unsigned D = 0; D < Rank; ++D)
      if (D != Axis)
        Elem = B.CreateAdd(Elem, B.CreateMul(Coords[R][D], C.constI32(uint32_t(Stride[D]))));
    llvm::Value *V = B.CreateAlignedLoad(ET, Ptr(Elem), A);
    Out.push_back(Bool ? B.CreateICmpNE(V, B.getInt8(0)) : V);
  }
  C.set(I.getResult(), std::move(Out));
}

} // namespace

void tritium::lowerShape(LoweringContext &C, Instruction &I) {
  if (I.getOpcode() == Opcode::ConvertLayout) {
    lowerConvert(C, I);
    return;
  }
  if (auto *G = llvm::dyn_cast<GatherInst>(&I)) {
    lowerGather(C, *G);
    return;
  }
  Value *Src = I.getOperand(0);
  Type *SrcTy = Src->getType();
  if (I.getOpcode() == Opcode::Reshape && !I.getResult(0)->getType()->isBlock()) {
    // A one-element block's element: every thread holds it, in register 0.
    C.set(I.getResult(0), {C.get(Src)[0]});
    return;
  }
  if (!I.getResult(0)->getType()->isBlock()) {
    // A split of <2 x T> into two scalars (assign-layouts put both elements
    // in every thread's registers): find them among the registers.
    assert(I.getOpcode() == Opcode::Split && "only split makes scalars here");
    for (unsigned H = 0; H < 2; ++H) {
      std::optional<int32_t> R = C.layout(Src).findInput(kRegister, {int32_t(H)});
      if (!R)
        reportError(I.getLoc(), "internal error: split along lanes");
      C.set(I.getResult(H), {C.get(Src)[*R]});
    }
    return;
  }
  const LinearLayout &Dst = C.layout(I.getResult(0));
  llvm::ArrayRef<int64_t> SrcShape = SrcTy->getShape();
  switch (I.getOpcode()) {
  case Opcode::Broadcast: {
    if (!SrcTy->isBlock()) {
      C.set(I.getResult(), Regs(LoweringContext::numRegs(Dst), C.scalar(Src)));
      return;
    }
    LinearLayout V = projectLayout(Dst, SrcShape);
    C.set(I.getResult(), gather(C.get(Src), mapping(I, C.layout(Src), V)));
    return;
  }
  case Opcode::ExpandDims: {
    if (!SrcTy->isBlock()) {
      C.set(I.getResult(), Regs(LoweringContext::numRegs(Dst), C.scalar(Src)));
      return;
    }
    unsigned Axis = unsigned(llvm::cast<ExpandDimsInst>(I).getAxis());
    LinearLayout V = view(Dst, SrcShape, [&](const Basis &B) {
      Basis R(B.begin(), B.end());
      R.erase(R.begin() + Axis);
      return R;
    });
    C.set(I.getResult(), gather(C.get(Src), mapping(I, C.layout(Src), V)));
    return;
  }
  case Opcode::Reshape: {
    LinearLayout V = Dst.reshapeOuts(outsFor(SrcShape));
    C.set(I.getResult(), gather(C.get(Src), mapping(I, C.layout(Src), V)));
    return;
  }
  case Opcode::Trans: {
    llvm::ArrayRef<int64_t> Order = llvm::cast<TransInst>(I).getOrder();
    LinearLayout V = view(Dst, SrcShape, [&](const Basis &B) {
      Basis R(B.size(), 0);
      for (unsigned D = 0; D < Order.size(); ++D)
        R[Order[D]] = B[D];
      return R;
    });
    C.set(I.getResult(), gather(C.get(Src), mapping(I, C.layout(Src), V)));
    return;
  }
  case Opcode::Join: {
    // The new last dimension must be a register bit: its coordinate picks
    // the operand, the rest the operand's register.
    unsigned Last = Dst.getOutDims().size() - 1;
    for (const char *Name : {kLane, kWarp})
      for (const Basis &B : Dst.getBases(Name))
        if (B[Last])
          reportError(I.getLoc(), "internal error: join along lanes");
    // Scalar operands view as <1 x T>; the array outlives the ArrayRef.
    static constexpr int64_t ScalarShape[] = {1};
    llvm::ArrayRef<int64_t> Shape = SrcTy->isBlock() ? SrcShape : llvm::ArrayRef<int64_t>(ScalarShape);
    LinearLayout V = view(Dst, Shape, [&](const Basis &B) {
      Basis R(B.begin(), B.end() - 1);
      if (R.empty())
        R.push_back(0);
      return R;
    });
    Regs Out;
    if (!SrcTy->isBlock()) {
      for (uint32_t R = 0; R < LoweringContext::numRegs(Dst); ++R)
        Out.push_back(C.scalar(I.getOperand(Dst.applyIn(kRegister, int32_t(R))[Last])));
    } else {
      llvm::SmallVector<int32_t, 16> Map = mapping(I, C.layout(Src), V);
      for (uint32_t R = 0; R < Map.size(); ++R)
        Out.push_back(C.get(I.getOperand(Dst.applyIn(kRegister, int32_t(R))[Last]))[Map[R]]);
    }
    C.set(I.getResult(), std::move(Out));
    return;
  }
  case Opcode::Split: {
    const LinearLayout &SrcL = C.layout(Src);
    unsigned Rank = SrcL.getOutDims().size();
    Regs Halves[2];
    LinearLayout Full = Dst * LinearLayout::identity1D(2, kRegister, outDimName(Rank - 1));
    llvm::SmallVector<int32_t, 16> Map = mapping(I, SrcL, Full);
    unsigned N = LoweringContext::numRegs(Dst);
    for (unsigned H = 0; H < 2; ++H)
      for (unsigned R = 0; R < N; ++R)
        Halves[H].push_back(C.get(Src)[Map[R + H * N]]);
    C.set(I.getResult(0), std::move(Halves[0]));
    C.set(I.getResult(1), std::move(Halves[1]));
    return;
  }
  case Opcode::Cat: {
    int32_t Half = int32_t(SrcShape[0]);
    for (const char *Name : {kLane, kWarp})
      for (const Basis &B : Dst.getBases(Name))
        if (B[0] & Half)
          reportError(I.getLoc(), "internal error: cat across threads");
    LinearLayout V = view(Dst, SrcShape, [&](const Basis &B) {
      Basis R(B.begin(), B.end());
      R[0] &= Half - 1;
      return R;
    });
    llvm::SmallVector<int32_t, 16> Map = mapping(I, C.layout(Src), V);
    Regs Out;
    for (uint32_t R = 0; R < Map.size(); ++R) {
      unsigned Which = (Dst.applyIn(kRegister, int32_t(R))[0] & Half) ? 1 : 0;
      Out.push_back(C.get(I.getOperand(Which))[Map[R]]);
    }
    C.set(I.getResult(), std::move(Out));
    return;
  }
  default:
    C.unsupported(I, "'" + I.getOpcodeName() + "'");
  }
}
