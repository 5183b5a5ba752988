//===- LowerSharedMemory.cpp - local_alloc, local_load, local_store -------===//
//
// A memdesc value lowers to one i32: the byte offset of its buffer in the
// kernel's shared memory (its allocation's offset, plus the buffer index
// times the buffer's bytes after memdesc_index). An element's place in the
// buffer is the shared layout's inverse at its coordinates; composed with
// the distributed layout of the block loaded or stored, that is a linear
// map from (register, lane, warp) to the element offset, so each thread
// computes the XOR of its lane and warp bits' offsets once and each register
// adds a constant. Accesses are vectors of the registers that hold
// consecutive offsets (up to 16 bytes), and loads of 16-bit elements whose
// layouts fit the target's 8x8 matrix loads (ldmatrix, plain or transposed)
// use them; insert-barriers placed the barriers between writes and reads,
// and local_dealloc emits nothing.
//
//===----------------------------------------------------------------------===//

#include "analysis/MatrixCores.h"
#include "codegen/lowering/FloatConversions.h"
#include "codegen/lowering/LoweringContext.h"

using namespace tritium;

namespace {

using Regs = LoweringContext::Regs;

MemDescType *memdescOf(const Value *V) { return llvm::cast<MemDescType>(V->getType()); }

/// The map from a thread's (register, lane, warp) to the element offset in
/// a buffer laid out by \p Shared of the block in layout \p L it holds.
LinearLayout toOffsets(const LinearLayout &L, const LinearLayout &Shared) {
  return L.compose(Shared.invert());
}

/// The XOR of \p Bases[b] over the set bits b of \p Id (i32).
llvm::Value *xorOfBits(llvm::IRBuilder<> &B, llvm::Value *Id, llvm::ArrayRef<int32_t> Bases) {
  llvm::Value *Out = B.getInt32(0);
  for (unsigned Bit = 0; Bit < Bases.size(); ++Bit) {
    if (Bases[Bit] == 0)
      continue;
    llvm::Value *Set = B.CreateAnd(B.CreateLShr(Id, Bit), 1);
    Out = B.CreateXor(Out, B.CreateMul(Set, B.getInt32(uint32_t(Bases[Bit]))));
  }
  return Out;
}

llvm::SmallVector<int32_t, 8> offsetsOf(llvm::ArrayRef<LinearLayout::Basis> Bases) {
  llvm::SmallVector<int32_t, 8> Out;
  for (const LinearLayout::Basis &B : Bases)
    Out.push_back(B[0]);
  return Out;
}

/// The thread's part of the offsets: the XOR of the offsets of its set lane
/// and warp bits (registers add a constant each).
llvm::Value *threadOffset(LoweringContext &C, const LinearLayout &ToOffset) {
  llvm::IRBuilder<> &B = C.B;
  return B.CreateXor(xorOfBits(B, C.laneId(), offsetsOf(ToOffset.getBases(kLane))),
                     xorOfBits(B, C.warpId(), offsetsOf(ToOffset.getBases(kWarp))));
}

/// The bits the thread part of \p ToOffset can set: those of its lane and
/// warp bases' offsets.
int32_t threadBits(const LinearLayout &ToOffset) {
  int32_t Bits = 0;
  for (llvm::StringRef In : {kLane, kWarp})
    if (ToOffset.hasInDim(In))
      for (const LinearLayout::Basis &B : ToOffset.getBases(In))
        Bits |= B[0];
  return Bits;
}

/// The address of element offset \p Thread XOR \p Const from \p Base
/// (bytes) for \p Bytes-byte elements: an XOR of Const's bits the thread
/// part can set (\p ThreadBits), then the others added as a constant,
/// which cannot carry into them (sharedPtr's constant, folded into the
/// access's immediate offset): registers that differ only there share one
/// address register. A dot operand read a K tile at a time would otherwise
/// keep dozens of them live across the loop.
llvm::Value *addressOf(LoweringContext &C, llvm::Value *Base, llvm::Value *Thread,
                       int32_t ThreadBits, int32_t Const, unsigned Bytes) {
  llvm::IRBuilder<> &B = C.B;
  int32_t Xor = Const & ThreadBits, Add = Const & ~ThreadBits;
  llvm::Value *Off = Xor ? B.CreateXor(Thread, B.getInt32(uint32_t(Xor))) : Thread;
  return C.sharedPtr(B.CreateAdd(Base, B.CreateMul(Off, B.getInt32(Bytes))),
                     uint32_t(Add) * Bytes);
}

/// How many consecutive registers hold consecutive, aligned offsets (at
/// most 16 bytes of them): the width of the vector accesses.
unsigned vectorWidth(const LinearLayout &ToOffset, unsigned Bytes) {
  llvm::ArrayRef<LinearLayout::Basis> Regs = ToOffset.getBases(kRegister);
  unsigned V = 1;
  while (llvm::Log2_32(V) < Regs.size() && Regs[llvm::Log2_32(V)][0] == int32_t(V) &&
         2 * V * Bytes <= 16)
    V *= 2;
  for (const LinearLayout::InDim &In : ToOffset.getInDims())
    for (unsigned Bit = 0; Bit < In.Bases.size(); ++Bit)
      if (In.Name != kRegister || (1u << Bit) >= V)
        while (V > 1 && (In.Bases[Bit][0] & int32_t(V - 1)))
          V /= 2;
  return V;
}

} // namespace

Regs tritium::accessShared(LoweringContext &C, llvm::Value *Base, const LinearLayout &Shared,
                           const LinearLayout &L, Type *BlockTy, const Regs *Vals,
                           unsigned From, unsigned Count, unsigned MaxWidth) {
  llvm::IRBuilder<> &B = C.B;
  unsigned Bytes = BlockTy->getScalarSizeInBytes();
  LinearLayout ToOffset = toOffsets(L, Shared);
  llvm::Value *Thread = threadOffset(C, ToOffset);
  llvm::Type *ET = C.elemType(BlockTy);
  // i1 vectors would be packed into bits: one byte each instead.
  unsigned V = ET->isIntegerTy(1) ? 1 : std::min(MaxWidth, vectorWidth(ToOffset, Bytes));
  llvm::Type *VT = llvm::FixedVectorType::get(ET, V);
  Regs Out;
  unsigned N = std::min(LoweringContext::numRegs(L), From + std::min(Count, ~0u - From));
  int32_t Bits = threadBits(ToOffset);
  for (unsigned R = From; R < N; R += V) {
    llvm::Value *P =
        addressOf(C, Base, Thread, Bits, ToOffset.applyIn(kRegister, int32_t(R))[0], Bytes);
    llvm::Align A(V * Bytes);
    if (Vals) {
      if (V == 1) {
        B.CreateStore((*Vals)[R], P);
        continue;
      }
      auto Run = llvm::ArrayRef<llvm::Value *>(*Vals).slice(R, V);
      B.CreateAlignedStore(packRegisters(B, Run), P, A);
    } else if (V == 1) {
      Out.push_back(B.CreateLoad(ET, P));
    } else {
      llvm::Value *Vec = B.CreateAlignedLoad(VT, P, A);
      for (unsigned K = 0; K < V; ++K)
        Out.push_back(B.CreateExtractElement(Vec, K));
    }
  }
  return Out;
}

namespace {

/// Loads or stores (\p Vals non-null) a block in layout \p L at the buffer
/// \p MemDesc starts at.
Regs access(LoweringContext &C, Value *MemDesc, const LinearLayout &L, Type *BlockTy,
            const Regs *Vals, unsigned From = 0, unsigned Count = ~0u,
            unsigned MaxWidth = 16) {
  return accessShared(C, C.scalar(MemDesc), memdescOf(MemDesc)->getLayout(), L, BlockTy, Vals,
                      From, Count, MaxWidth);
}

/// How a block in a distributed layout can be read with the target's 8x8
/// matrix loads, or written with its matrix stores (ldmatrix, stmatrix:
/// eight 16-byte rows, a 32-bit word of one per lane): each 32-bit word of
/// a thread holds 4 / (element bytes) elements consecutive in memory and
/// four lanes a 16-byte row (plain), or, for 16-bit elements, a thread's
/// word holds two consecutive rows and eight lanes a 16-byte row
/// (transposed); groups of 8 rows start 16-byte aligned.
struct MatrixLoad {
  LinearLayout ToOffset; // (register, lane, warp) -> element offset
  llvm::SmallVector<int32_t, 8> Reg, Lane, Warp; // its bases' offsets
  bool Trans = false;
  unsigned Count = 0;    // matrices per load: 1, 2 or 4
  unsigned PerWord = 2;  // elements per 32-bit word
  unsigned registers() const { return PerWord * Count; }
};

/// The matrix accesses of layout \p L in a buffer of \p ElemTy laid out by
/// \p Shared, or nullopt where they do not fit.
std::optional<MatrixLoad> matchMatrixLoad(Type *ElemTy, const LinearLayout &Shared,
                                          const LinearLayout &L) {
  unsigned Bytes = ElemTy->getScalarSizeInBytes();
  if (Bytes != 1 && Bytes != 2 && Bytes != 4)
    return std::nullopt;
  MatrixLoad X;
  X.PerWord = 4 / Bytes;
  X.ToOffset = toOffsets(L, Shared);
  X.Reg = offsetsOf(X.ToOffset.getBases(kRegister));
  X.Lane = offsetsOf(X.ToOffset.getBases(kLane));
  X.Warp = offsetsOf(X.ToOffset.getBases(kWarp));
  llvm::ArrayRef<int32_t> Reg = X.Reg, Lane = X.Lane;
  unsigned WordBits = llvm::Log2_32(X.PerWord);
  int32_t PerWord = int32_t(X.PerWord), RowElems = 16 / int32_t(Bytes);
  if (Lane.size() != 5 || Reg.size() <= WordBits)
    return std::nullopt;
  auto Aligned = [&](llvm::ArrayRef<int32_t> Bases) {
    return llvm::all_of(Bases, [&](int32_t O) { return O % RowElems == 0; });
  };
  bool InWord = true;
  for (unsigned I = 0; I < WordBits; ++I)
    InWord &= Reg[I] == 1 << I;
  bool Plain = InWord && Lane[0] == PerWord && Lane[1] == 2 * PerWord &&
               Aligned(Reg.drop_front(WordBits)) && Aligned(Lane.drop_front(2)) &&
               Aligned(X.Warp);
  X.Trans = Bytes == 2 && Lane[2] == 1 && Lane[3] == 2 && Lane[4] == 4 && Aligned(Reg) &&
            Aligned(Lane.take_front(2)) && Aligned(X.Warp);
  if (!Plain && !X.Trans)
    return std::nullopt;
  // The register bits past a word's select the matrices (a transposed
  // word's two elements are its first register bit's two rows).
  X.Count = 1u << std::min<unsigned>(2, Reg.size() - WordBits);
  return X;
}

/// Loads (into \p Out) or stores (\p Vals) registers [From, From + NumRegs)
/// of a block of \p ElemTy in layout \p L, in the buffer at \p Base laid
/// out by \p Shared, with the target's matrix loads or stores; false where
/// they do not fit or the target has none (leaving dead address arithmetic).
bool accessMatrices(LoweringContext &C, llvm::Value *Base, const LinearLayout &Shared,
                    Type *ElemTy, const LinearLayout &L, Regs *Out, const Regs *Vals,
                    unsigned From = 0, unsigned NumRegs = ~0u) {
  std::optional<MatrixLoad> X = matchMatrixLoad(ElemTy, Shared, L);
  if (!X || ElemTy->getScalarType()->isBool())
    return false;
  llvm::ArrayRef<int32_t> Reg = X->Reg, Lane = X->Lane;
  unsigned Count = X->Count;
  bool Trans = X->Trans;
  const LinearLayout &ToOffset = X->ToOffset;
  // Lane l gives the address of row l % 8 of matrix l / 8: the offsets of
  // the hardware bits that select that row, per bit of l.
  unsigned WordBits = llvm::Log2_32(X->PerWord);
  int32_t Mat1 = Count >= 2 ? Reg[WordBits] : 0, Mat2 = Count >= 4 ? Reg[WordBits + 1] : 0;
  llvm::SmallVector<int32_t, 5> RowOf =
      Trans ? llvm::SmallVector<int32_t, 5>{Reg[0], Lane[0], Lane[1], Mat1, Mat2}
            : llvm::SmallVector<int32_t, 5>{Lane[2], Lane[3], Lane[4], Mat1, Mat2};
  llvm::IRBuilder<> &B = C.B;
  llvm::Value *Row = B.CreateXor(xorOfBits(B, C.laneId(), RowOf),
                                 xorOfBits(B, C.warpId(), X->Warp));
  unsigned PerAccess = X->registers();
  llvm::Type *ET = C.elemType(ElemTy);
  llvm::Type *WordTy = X->PerWord == 1 ? ET : llvm::FixedVectorType::get(ET, X->PerWord);
  unsigned Bytes = ElemTy->getScalarSizeInBytes();
  unsigned N = std::min(LoweringContext::numRegs(L), From + std::min(NumRegs, ~0u - From));
  // The bits the lanes' row addresses can set.
  int32_t Bits = 0;
  for (int32_t O : llvm::concat<const int32_t>(RowOf, X->Warp))
    Bits |= O;
  for (unsigned R = From; R < N; R += PerAccess) {
    llvm::Value *P =
        addressOf(C, Base, Row, Bits, ToOffset.applyIn(kRegister, int32_t(R))[0], Bytes);
    llvm::SmallVector<llvm::Value *, 4> Words;
    if (Vals) {
      // Word W is matrix W's: registers R + W * PerWord onwards.
      for (unsigned W = 0; W < Count; ++W) {
        llvm::Value *Word = (*Vals)[R + W * X->PerWord];
        if (X->PerWord > 1)
          Word = packRegisters(
              B, llvm::ArrayRef<llvm::Value *>(*Vals).slice(R + W * X->PerWord, X->PerWord));
        Words.push_back(Word);
      }
      if (!C.getTarget().storeMatrices(B, P, Trans, Words))
        return false;
      continue;
    }
    if (!C.getTarget().loadMatrices(B, P, Count, Trans, Words))
      return false;
    for (llvm::Value *W : Words) {
      if (X->PerWord == 1) {
        Out->push_back(B.CreateBitCast(W, ET));
        continue;
      }
      llvm::Value *Vec = B.CreateBitCast(W, WordTy);
      for (unsigned E = 0; E < X->PerWord; ++E)
        Out->push_back(B.CreateExtractElement(Vec, uint64_t(E)));
    }
  }
  return true;
}

/// Loads registers [From, From + NumRegs) of a block in layout \p L with
/// matrix loads; false where they do not fit or the target has none.
bool loadMatrices(LoweringContext &C, Value *MemDesc, const LinearLayout &L, Regs &Out,
                  unsigned From = 0, unsigned NumRegs = ~0u) {
  MemDescType *M = memdescOf(MemDesc);
  return accessMatrices(C, C.scalar(MemDesc), M->getLayout(), M->getElementType(), L, &Out,
                        nullptr, From, NumRegs);
}

/// Stores \p V (a block) into the buffer \p MemDesc starts at: with matrix
/// stores where they fit (an epilogue's accumulator: 16-byte rows instead
/// of a word per thread), else in vectors.
void storeBlock(LoweringContext &C, Value *MemDesc, Value *V) {
  if (!storeMatrices(C, C.scalar(MemDesc), memdescOf(MemDesc)->getLayout(), C.layout(V),
                     V->getType(), C.get(V)))
    access(C, MemDesc, C.layout(V), V->getType(), &C.get(V));
}

/// The bytes of the vector at register \p R an asynchronous copy reads:
/// all or none where one mask bit covers it, else as many elements as its
/// mask, a prefix of the vector, holds (Vectorization::MaskRun).
llvm::Value *copiedBytes(llvm::IRBuilder<> &B, const Regs &Masks, unsigned R,
                         const Vectorization &V, unsigned Bytes) {
  if (V.MaskRun >= V.Vec)
    return B.CreateSelect(Masks[R], B.getInt32(V.Vec * Bytes), B.getInt32(0));
  llvm::Value *Count = B.CreateZExt(Masks[R], B.getInt32Ty());
  for (unsigned E = 1; E < V.Vec; ++E)
    Count = B.CreateAdd(Count, B.CreateZExt(Masks[R + E], B.getInt32Ty()));
  return B.CreateMul(Count, B.getInt32(Bytes));
}

/// async_copy: each thread copies its registers' elements in vectors as
/// wide as both sides allow (what a global load of the pointers would use,
/// and consecutive in the buffer), with the target's asynchronous copy
/// where it has one for that size (which may read a prefix of a vector: a
/// mask true on a prefix of each, such as a K tail `k < K` whatever K is,
/// keeps the copies wide), else a predicated load and a store.
void asyncCopy(LoweringContext &C, AsyncCopyInst &I) {
  llvm::IRBuilder<> &B = C.B;
  MemDescType *M = memdescOf(I.getMemDesc());
  Value *Ptr = I.getPtr(), *Mask = I.getMask();
  const LinearLayout &L = C.layout(Ptr);
  unsigned Bytes = M->getElementType()->getScalarSizeInBytes();
  LinearLayout ToOffset = toOffsets(L, M->getLayout());
  // The global side's vectors, no wider than the buffer keeps consecutive.
  unsigned MaxVec = vectorWidth(ToOffset, Bytes);
  Vectorization V = planGlobalAccess(C, Ptr, Mask, M->getElementType(), MaxVec, true);
  bool Async = C.getTarget().canAsyncCopy(V.Vec * Bytes);
  if (!Async)
    V = planGlobalAccess(C, Ptr, Mask, M->getElementType(), MaxVec);
  llvm::Value *Thread = threadOffset(C, ToOffset);
  int32_t Bits = threadBits(ToOffset);
  llvm::Value *Base = C.scalar(I.getMemDesc());
  const Regs &Ptrs = C.get(Ptr);
  const Regs *Masks = Mask ? &C.get(Mask) : nullptr;
  unsigned Total = V.Vec * Bytes;
  for (unsigned R = 0; R < Ptrs.size(); R += V.Vec) {
    llvm::Value *P =
        addressOf(C, Base, Thread, Bits, ToOffset.applyIn(kRegister, int32_t(R))[0], Bytes);
    if (Async) {
      C.getTarget().asyncCopy(B, P, Ptrs[R], Total,
                              Masks ? copiedBytes(B, *Masks, R, V, Bytes) : nullptr);
      continue;
    }
    llvm::Value *Pred = accessPredicate(C, Masks, R, V);
    llvm::Type *WordsTy = llvm::FixedVectorType::get(B.getIntNTy(V.WordBits), V.NumWords);
    llvm::Value *Words = C.getTarget().loadGlobal(B, Ptrs[R], V.NumWords, V.WordBits, Pred,
                                                  Pred ? llvm::Constant::getNullValue(WordsTy)
                                                       : nullptr,
                                                  MemoryHints());
    B.CreateAlignedStore(Words, P, llvm::Align(Total));
  }
}

} // namespace

void tritium::lowerSharedMemory(LoweringContext &C, Instruction &I, bool Deferred) {
  llvm::IRBuilder<> &B = C.B;
  switch (I.getOpcode()) {
  case Opcode::LocalAlloc: {
    const SharedBuffer *Buf = C.getSharedMemory().getAllocation(*I.getResult(0));
    if (!Buf)
      C.unsupported(I, "an allocation that the shared memory analysis did not place");
    C.set(I.getResult(0), {C.constI32(Buf->Offset)});
    if (Value *Init = llvm::cast<LocalAllocInst>(I).getInit()) {
      storeBlock(C, I.getResult(0), Init);
      C.getTarget().fenceForAsyncReaders(B); // a matrix core may read it
    }
    return;
  }
  case Opcode::LocalStore: {
    auto &S = llvm::cast<LocalStoreInst>(I);
    storeBlock(C, S.getMemDesc(), S.getValue());
    C.getTarget().fenceForAsyncReaders(B);
    return;
  }
  case Opcode::LocalLoad: {
    if (!Deferred && isLoadedByUser(I))
      return; // its dot loads it, a K step at a time (DeferredLocalLoad)
    auto &L = llvm::cast<LocalLoadInst>(I);
    const LinearLayout &Layout = C.layout(I.getResult(0));
    Regs Out;
    if (!loadMatrices(C, L.getMemDesc(), Layout, Out)) {
      Out.clear();
      Out = access(C, L.getMemDesc(), Layout, I.getResult(0)->getType(), nullptr);
    }
    C.set(I.getResult(0), std::move(Out));
    return;
  }
  case Opcode::MemDescIndex: {
    auto &X = llvm::cast<MemDescIndexInst>(I);
    MemDescType *M = memdescOf(X.getMemDesc());
    uint64_t BufferBytes =
        uint64_t(M->getBufferElements()) * M->getElementType()->getScalarSizeInBytes();
    C.set(I.getResult(0),
          {B.CreateAdd(C.scalar(X.getMemDesc()),
                       B.CreateMul(C.scalar(X.getIndex()), B.getInt32(uint32_t(BufferBytes))))});
    return;
  }
  case Opcode::MemDescTrans: // a view: the same bytes, the type says how
    C.set(I.getResult(0), {C.scalar(I.getOperand(0))});
    return;
  case Opcode::LocalDealloc:
    return; // the allocator already reuses the memory after the last use
  case Opcode::AsyncCopy:
    asyncCopy(C, llvm::cast<AsyncCopyInst>(I));
    return;
  case Opcode::AsyncCommitGroup:
    C.getTarget().asyncCommitGroup(B);
    return;
  case Opcode::AsyncWait:
    // No proxy fence: cp.async's writes are ordered before wgmma's reads by
    // the wait and the barrier after it, as Triton's fence insertion takes
    // them to be (it fences only a store of registers). A fence here cost
    // a MEMBAR.ALL.CTA per iteration in SASS.
    C.getTarget().asyncWait(B, unsigned(llvm::cast<AsyncWaitInst>(I).getNum()));
    return;
  // The target lowers these itself where it has them (lowerInstruction).
  case Opcode::InitBarrier:
  case Opcode::BarrierExpect:
  case Opcode::WaitBarrier:
  case Opcode::InvalBarrier:
    C.unsupported(I, "mbarriers on a target without them");
  case Opcode::AsyncTMACopy:
  case Opcode::AsyncTMAStore:
    C.unsupported(I, "TMA copies on a target without them");
  default:
    C.unsupported(I, "not a shared memory instruction");
  }
}

bool tritium::storeMatrices(LoweringContext &C, llvm::Value *Base, const LinearLayout &Shared,
                            const LinearLayout &L, Type *BlockTy, const Regs &Vals) {
  return accessMatrices(C, Base, Shared, BlockTy->getScalarType(), L, nullptr, &Vals);
}

bool tritium::isLoadedByUser(const Instruction &LocalLoad) {
  if (LocalLoad.getOpcode() != Opcode::LocalLoad || !LocalLoad.getResult(0)->hasOneUse())
    return false;
  const Use &U = *LocalLoad.getResult(0)->uses().begin();
  const Instruction *Dot = U.getUser();
  if (U.getOperandNo() > 1 || Dot->getParent() != LocalLoad.getParent() ||
      !isMatrixCoreDot(*Dot))
    return false;
  // Reading later must read the same bytes: nothing in between may write
  // shared memory or synchronize (the allocator may hand the buffer's bytes
  // to a later allocation once this load has read them).
  for (auto It = std::next(LocalLoad.getIterator()); &*It != Dot; ++It)
    if (It->getOpcode() != Opcode::LocalLoad &&
        (It->hasSideEffects() || It->mayReadMemory() || It->mayWriteMemory()))
      return false;
  return true;
}

DeferredLocalLoad::DeferredLocalLoad(LoweringContext &C, const Instruction &LocalLoad)
    : C(C), Load(LocalLoad), Layout(C.layout(LocalLoad.getResult(0))),
      Regs(LoweringContext::numRegs(Layout), nullptr) {
  MemDescType *M = memdescOf(LocalLoad.getOperand(0));
  if (std::optional<MatrixLoad> X = matchMatrixLoad(M->getElementType(), M->getLayout(), Layout))
    MatrixGroup = X->registers();
}

llvm::Value *DeferredLocalLoad::get(unsigned Reg) {
  if (Regs[Reg])
    return Regs[Reg];
  Value *MemDesc = Load.getOperand(0);
  LoweringContext::Regs Got;
  unsigned From = Reg;
  if (MatrixGroup) {
    From = Reg / MatrixGroup * MatrixGroup;
    if (!loadMatrices(C, MemDesc, Layout, Got, From, MatrixGroup))
      Got.clear();
  }
  if (Got.empty()) {
    // Plain vectors, as wide as a matrix group would have been.
    unsigned Group = MatrixGroup ? MatrixGroup : 8;
    From = Reg / Group * Group;
    Got = access(C, MemDesc, Layout, Load.getResult(0)->getType(), nullptr, From, Group,
                 Group);
  }
  for (unsigned K = 0; K < Got.size(); ++K)
    Regs[From + K] = Got[K];
  return Regs[Reg];
}

unsigned tritium::fragmentReg(const LinearLayout &L, int64_t Row, int64_t Col) {
  std::optional<int32_t> R = L.findInput(kRegister, {int32_t(Row), int32_t(Col)});
  assert(R && "a matrix-core layout has a register at every fragment coordinate");
  return unsigned(*R);
}

DotOperandRegs::DotOperandRegs(LoweringContext &C, Value *V) {
  Instruction *Def = V->getDefiningInstruction();
  if (Def && isLoadedByUser(*Def))
    Deferred.emplace(C, *Def);
  else
    Ready = &C.get(V);
}
