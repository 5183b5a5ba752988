//===- SharedMemory.cpp - Shared memory buffers of a kernel ---------------===//
//
// See SharedMemory.h for the model (buffers, program order, liveness, first
// fit, accesses).
//
//===----------------------------------------------------------------------===//

#include "analysis/SharedMemory.h"
#include "analysis/LoopInfo.h"
#include "analysis/MatrixCores.h"
#include "analysis/Layouts.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/PassManager.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace tritium;

char SharedMemoryAllocation::ID;

//===----------------------------------------------------------------------===//
// Scratch sizes (in the terms of codegen/lowering/Lower*.cpp)
//===----------------------------------------------------------------------===//

const Value &tritium::stripMemDescViews(const Value &MemDesc) {
  const Value *V = &MemDesc;
  while (const Instruction *Def = V->getDefiningInstruction()) {
    if (Def->getOpcode() != Opcode::MemDescTrans)
      break;
    V = Def->getOperand(0);
  }
  return *V;
}

bool tritium::conversionNeedsSharedMemory(const LinearLayout &Src, const LinearLayout &Dst) {
  return !registerMapping(Src, Dst);
}

unsigned tritium::getCrossWarpFactor(const LinearLayout &L, unsigned Axis) {
  unsigned Bits = 0;
  for (const LinearLayout::Basis &B : L.getBases(kWarp))
    if (B[Axis] != 0)
      ++Bits;
  return 1u << Bits;
}

namespace {

const LinearLayout *operandLayout(const Instruction &I) {
  const Instruction *Def = I.getOperand(0)->getDefiningInstruction();
  return Def ? Def->getLayout() : nullptr;
}

/// Bytes of every element of \p T, at their row-major offsets.
unsigned elementBytes(const Type *T) {
  return unsigned(T->getNumElements()) * T->getScalarSizeInBytes();
}

/// Bytes of one element of every operand together (a reduction or scan
/// stores one region per operand).
unsigned operandElementBytes(const Instruction &I) {
  unsigned Bytes = 0;
  for (Value *Op : I.getOperands())
    Bytes += Op->getType()->getScalarSizeInBytes();
  return Bytes;
}

/// The largest element an instruction stores in its scratch, which its
/// buffer's start must be aligned to. Conversions and the dot access
/// vectors of up to 16 bytes.
unsigned scratchAlignment(const Instruction &I) {
  switch (I.getOpcode()) {
  case Opcode::Reduce:
  case Opcode::ArgMin:
  case Opcode::ArgMax:
  case Opcode::Scan: {
    unsigned Align = I.getFamily() == OpFamily::ArgMinMax ? 4 : 1;
    for (Value *Op : I.getOperands())
      Align = std::max(Align, Op->getType()->getScalarSizeInBytes());
    return unsigned(llvm::PowerOf2Ceil(Align));
  }
  case Opcode::AtomicRMW:
  case Opcode::AtomicCAS:
    return 8;
  default:
    return 16;
  }
}

} // namespace

bool tritium::atomicSharesResult(const Instruction &I) {
  if (I.use_empty())
    return false;
  if (!I.getResult()->getType()->isBlock())
    return true;
  const LinearLayout *L = I.getLayout();
  if (!L)
    return false;
  for (const char *Name : {kLane, kWarp})
    for (const LinearLayout::Basis &B : L->getBases(Name))
      if (llvm::all_of(B, [](int32_t X) { return X == 0; }))
        return true;
  return false;
}

unsigned tritium::getScratchBytes(const Instruction &I) {
  switch (I.getOpcode()) {
  case Opcode::ConvertLayout: {
    // LowerShape.cpp: every element at its row-major offset.
    const LinearLayout *Src = operandLayout(I);
    if (Src && !conversionNeedsSharedMemory(*Src, *I.getLayout()))
      return 0;
    return elementBytes(I.getResult()->getType());
  }
  case Opcode::Gather:
    // LowerShape.cpp: the source, every element at its row-major offset.
    return elementBytes(I.getOperand(0)->getType());
  case Opcode::Scan: {
    // LowerScan.cpp: scans along lanes or warps go through shared memory,
    // one region per operand with every element at its row-major offset.
    const LinearLayout *L = operandLayout(I);
    if (!L)
      return 0;
    unsigned Axis = unsigned(I.getIntAttr(AttrKey::Axis));
    bool InRegisters = true;
    for (const char *Name : {kLane, kWarp})
      for (const LinearLayout::Basis &B : L->getBases(Name))
        InRegisters &= B[Axis] == 0;
    if (InRegisters)
      return 0;
    return unsigned(I.getOperand(0)->getType()->getNumElements()) * operandElementBytes(I);
  }
  case Opcode::Reduce:
  case Opcode::ArgMin:
  case Opcode::ArgMax: {
    // LowerReduce.cpp: one partial per warp along the axis for every
    // element of the result, one region per tuple member.
    const LinearLayout *L = operandLayout(I);
    if (!L)
      return 0;
    unsigned Axis = unsigned(I.getIntAttr(AttrKey::Axis));
    unsigned Warps = getCrossWarpFactor(*L, Axis);
    if (Warps == 1)
      return 0;
    Type *In = I.getOperand(0)->getType();
    int64_t Slots = In->getNumElements() / In->getShape()[Axis] * Warps;
    // One region per tuple member, each starting 8-byte aligned.
    unsigned Total = 0;
    for (Value *Op : I.getOperands())
      Total += unsigned(llvm::alignTo(Slots * Op->getType()->getScalarSizeInBytes(), 8));
    if (I.getFamily() == OpFamily::ArgMinMax)
      Total += unsigned(llvm::alignTo(Slots * 4, 8)); // the i32 index
    return Total;
  }
  case Opcode::Dot: {
    // A dot on matrix cores takes its operands in registers.
    if (isMatrixCoreDot(I))
      return 0;
    // LowerDot.cpp's FMA dot: A, then B at the next 16-byte boundary.
    return unsigned(llvm::alignTo(elementBytes(I.getOperand(0)->getType()), 16)) +
           elementBytes(I.getOperand(1)->getType());
  }
  case Opcode::AtomicRMW:
  case Opcode::AtomicCAS: {
    // LowerMemory.cpp: the owners share the old values, each element at
    // its row-major slot (a scalar's in one 8-byte slot).
    if (!atomicSharesResult(I))
      return 0;
    Type *T = I.getResult()->getType();
    return T->isBlock() ? elementBytes(T) : 8;
  }
  default:
    return 0;
  }
}

//===----------------------------------------------------------------------===//
// Program order and liveness
//===----------------------------------------------------------------------===//

void Interval::print(llvm::raw_ostream &OS) const {
  OS << '[' << Start << ", ";
  if (End == Max)
    OS << "max";
  else
    OS << End;
  OS << ')';
}

ProgramOrder::ProgramOrder(const Function &F, const DominatorTree &DT)
    : ProgramOrder(F, DT, LoopInfo(F, DT)) {}

namespace {
/// Appends the blocks of \p RPO that lie in \p Ctx (all of them for null)
/// to \p Out in reverse post-order, except that each loop directly inside
/// \p Ctx goes out whole, at its header, before anything after it.
void appendLoopContiguous(llvm::ArrayRef<BasicBlock *> RPO, const LoopInfo &LI, const Loop *Ctx,
                          llvm::SmallPtrSetImpl<const BasicBlock *> &Emitted,
                          llvm::SmallVectorImpl<BasicBlock *> &Out) {
  for (BasicBlock *B : RPO) {
    if ((Ctx && !Ctx->contains(B)) || Emitted.count(B))
      continue;
    const Loop *L = LI.getLoopFor(B);
    if (L == Ctx) {
      Emitted.insert(B);
      Out.push_back(B);
      continue;
    }
    // The first block of a loop in reverse post-order is its header, which
    // dominates the rest.
    while (L->getParent() != Ctx)
      L = L->getParent();
    appendLoopContiguous(RPO, LI, L, Emitted, Out);
  }
}
} // namespace

ProgramOrder::ProgramOrder(const Function &F, const DominatorTree &DT, const LoopInfo &LI) {
  // Reverse post-order alone may put a loop's body after the code that
  // follows the loop (the exit is visited first), and then the loop's
  // interval would cover that code: everything live in the loop would
  // interfere with everything after it.
  llvm::SmallVector<BasicBlock *, 32> Order;
  llvm::SmallPtrSet<const BasicBlock *, 32> Emitted;
  appendLoopContiguous(DT.getReversePostOrder(), LI, nullptr, Emitted, Order);
  for (BasicBlock *B : Order) {
    unsigned First = NumPositions;
    for (const Instruction &I : *B)
      Positions[&I] = NumPositions++;
    Blocks[B] = {First, NumPositions};
  }
  // Each natural loop as the hull of its blocks' positions.
  for (const Loop *L : LI.getLoopsInnermostFirst()) {
    Interval Extent;
    for (const BasicBlock *B : L->getBlocks())
      Extent = Extent.hull(getBlockRange(*B));
    Loops.push_back(Extent);
  }
  llvm::stable_sort(Loops, [](Interval A, Interval B) { return A.size() < B.size(); });
}

unsigned ProgramOrder::getPosition(const Instruction &I) const {
  auto It = Positions.find(&I);
  assert(It != Positions.end() && "instruction in an unreachable block has no position");
  return It->second;
}

Interval ProgramOrder::getBlockRange(const BasicBlock &B) const {
  auto It = Blocks.find(&B);
  assert(It != Blocks.end() && "unreachable block has no positions");
  return It->second;
}

Interval ProgramOrder::closeOverLoops(Interval R) const {
  if (R.empty())
    return R;
  bool Grew = true;
  while (Grew) {
    Grew = false;
    for (Interval L : Loops)
      if (R.intersects(L) && !L.contains(R) && !R.contains(L)) {
        R = R.hull(L);
        Grew = true;
      }
  }
  return R;
}

Interval ProgramOrder::getLiveRange(const Value &V) const {
  Interval R;
  if (const Instruction *Def = V.getDefiningInstruction()) {
    if (!hasPosition(*Def))
      return {};
    unsigned P = getPosition(*Def);
    R = {P, P + 1};
  } else {
    R = {0, 1};
  }
  for (const Use &U : V.uses()) {
    const Instruction *User = U.getUser();
    if (const auto *Phi = llvm::dyn_cast<PhiInst>(User)) {
      // A phi reads its operand at the end of the incoming block.
      const BasicBlock *From = Phi->getIncomingBlock(U.getOperandNo());
      if (Blocks.count(From)) {
        unsigned End = getBlockRange(*From).End;
        R = R.hull({End - 1, End});
      }
      continue;
    }
    if (hasPosition(*User)) {
      unsigned P = getPosition(*User);
      R = R.hull({P, P + 1});
    }
  }
  return closeOverLoops(R);
}

//===----------------------------------------------------------------------===//
// Offsets
//===----------------------------------------------------------------------===//

unsigned tritium::assignSharedOffsets(llvm::MutableArrayRef<SharedBuffer> Buffers) {
  llvm::SmallVector<unsigned, 16> Order;
  for (unsigned K = 0; K < Buffers.size(); ++K)
    Order.push_back(K);
  llvm::stable_sort(Order, [&](unsigned A, unsigned B) {
    const SharedBuffer &X = Buffers[A], &Y = Buffers[B];
    if (X.Size != Y.Size)
      return X.Size > Y.Size;
    return X.Live.Start < Y.Live.Start;
  });
  unsigned Total = 0;
  llvm::SmallVector<Interval, 16> Taken;
  for (unsigned N = 0; N < Order.size(); ++N) {
    SharedBuffer &Buf = Buffers[Order[N]];
    assert(llvm::isPowerOf2_32(Buf.Alignment) && "alignment must be a power of two");
    // The bytes of the interfering buffers placed so far, by start; one
    // sweep suffices: once the candidate lies wholly before or after a
    // taken interval, later (higher-starting) ones never move it back.
    Taken.clear();
    for (unsigned M = 0; M < N; ++M) {
      const SharedBuffer &Other = Buffers[Order[M]];
      if (Other.Live.intersects(Buf.Live) && Other.Size)
        Taken.push_back(Other.bytes());
    }
    llvm::sort(Taken, [](Interval A, Interval B) { return A.Start < B.Start; });
    unsigned Offset = 0;
    for (Interval T : Taken)
      if (T.intersects({Offset, Offset + std::max(Buf.Size, 1u)}))
        Offset = unsigned(llvm::alignTo(T.End, Buf.Alignment));
    Buf.Offset = Offset;
    Total = std::max(Total, Offset + Buf.Size);
  }
  return unsigned(llvm::alignTo(Total, 16));
}

//===----------------------------------------------------------------------===//
// The analysis
//===----------------------------------------------------------------------===//

SharedMemoryAllocation SharedMemoryAllocation::run(Function &F, AnalysisManager &AM) {
  return SharedMemoryAllocation(F, AM.get<DominatorTreeAnalysis>(F), AM.get<LoopAnalysis>(F));
}

namespace {
/// The local_alloc a memdesc value comes from: through memdesc_index and
/// memdesc_trans, and through phis whose incoming memdescs all come from
/// one; null otherwise.
const Instruction *allocationOf(const Value &V) {
  llvm::SmallPtrSet<const Value *, 8> Seen;
  llvm::SmallVector<const Value *, 8> Work = {&V};
  const Instruction *Alloc = nullptr;
  while (!Work.empty()) {
    const Value *X = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    const Instruction *Def = X->getDefiningInstruction();
    if (!Def)
      return nullptr; // an argument
    switch (Def->getOpcode()) {
    case Opcode::LocalAlloc:
      if (Alloc && Alloc != Def)
        return nullptr;
      Alloc = Def;
      break;
    case Opcode::MemDescIndex:
    case Opcode::MemDescTrans:
      Work.push_back(Def->getOperand(0));
      break;
    case Opcode::Phi:
      for (const Value *In : Def->getOperands())
        Work.push_back(In);
      break;
    default:
      return nullptr;
    }
  }
  return Alloc;
}

/// Where an allocation's memory is live: the hull of the live ranges of its
/// memdesc and of every memdesc derived from it.
Interval allocationLiveRange(const Instruction &Alloc, const ProgramOrder &Order) {
  Interval R;
  llvm::SmallPtrSet<const Value *, 8> Seen;
  llvm::SmallVector<const Value *, 8> Work = {Alloc.getResult(0)};
  while (!Work.empty()) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    R = R.hull(Order.getLiveRange(*V));
    for (const Use &U : V->uses()) {
      const Instruction *User = U.getUser();
      if (User->getOpcode() == Opcode::MemDescIndex || User->getOpcode() == Opcode::MemDescTrans ||
          User->getOpcode() == Opcode::Phi)
        Work.push_back(User->getResult(0));
    }
  }
  return Order.closeOverLoops(R);
}
} // namespace

SharedMemoryAllocation::SharedMemoryAllocation(const Function &F, const DominatorTree &DT)
    : SharedMemoryAllocation(F, DT, LoopInfo(F, DT)) {}

SharedMemoryAllocation::SharedMemoryAllocation(const Function &F, const DominatorTree &DT,
                                               const LoopInfo &LI) {
  ProgramOrder Order(F, DT, LI);
  for (BasicBlock *B : DT.getReversePostOrder())
    for (const Instruction &I : *B) {
      if (I.getOpcode() == Opcode::LocalAlloc) {
        auto *M = llvm::cast<MemDescType>(I.getResult(0)->getType());
        uint64_t BufferBytes =
            uint64_t(M->getBufferElements()) * M->getElementType()->getScalarSizeInBytes();
        SharedBuffer Buf;
        Buf.BufferKind = SharedBuffer::Kind::Allocation;
        Buf.Owner = &I;
        Buf.Size = unsigned(BufferBytes * uint64_t(M->getNumBuffers()));
        Buf.Alignment = unsigned(std::clamp<uint64_t>(llvm::PowerOf2Ceil(BufferBytes), 16, 1024));
        Buf.Live = allocationLiveRange(I, Order);
        AllocationOf[&I] = Buffers.size();
        Buffers.push_back(Buf);
        continue;
      }
      if (unsigned Bytes = getScratchBytes(I)) {
        SharedBuffer Buf;
        Buf.BufferKind = SharedBuffer::Kind::Scratch;
        Buf.Owner = &I;
        Buf.Size = Bytes;
        Buf.Alignment = scratchAlignment(I);
        unsigned P = Order.getPosition(I);
        Buf.Live = {P, P + 1};
        ScratchOf[&I] = Buffers.size();
        Buffers.push_back(Buf);
      }
    }
  Total = assignSharedOffsets(Buffers);
}

const SharedBuffer *SharedMemoryAllocation::getAllocation(const Value &MemDesc) const {
  const Instruction *Alloc = allocationOf(MemDesc);
  if (!Alloc)
    return nullptr;
  auto It = AllocationOf.find(Alloc);
  return It == AllocationOf.end() ? nullptr : &Buffers[It->second];
}

const SharedBuffer *SharedMemoryAllocation::getScratchBuffer(const Instruction &I) const {
  auto It = ScratchOf.find(&I);
  return It == ScratchOf.end() ? nullptr : &Buffers[It->second];
}

std::optional<unsigned> SharedMemoryAllocation::getScratchOffset(const Instruction &I) const {
  if (const SharedBuffer *Buf = getScratchBuffer(I))
    return Buf->Offset;
  return std::nullopt;
}

namespace {
/// Whether a call to \p Callee may touch shared memory: it has a scratch
/// buffer or calls something (which is not followed).
bool mayUseSharedMemory(const Function *Callee) {
  if (!Callee)
    return false;
  for (const BasicBlock &B : *Callee)
    for (const Instruction &I : B)
      if (I.getFamily() == OpFamily::Call || I.getOpcode() == Opcode::LocalAlloc ||
          getScratchBytes(I))
        return true;
  return false;
}

/// `(Base + Offset) mod Count` when \p Index is `urem`/`srem` of `Base` or
/// of `Base + c` (either order) by the constant \p Count.
RingSlot ringSlotOf(const Value *Index, int64_t Count) {
  const Instruction *Rem = Index->getDefiningInstruction();
  if (!Rem || (Rem->getOpcode() != Opcode::URem && Rem->getOpcode() != Opcode::SRem) ||
      getConstantIntValue(Rem->getOperand(1)) != Count)
    return {};
  const Value *Base = Rem->getOperand(0);
  int64_t Offset = 0;
  if (const Instruction *Add = Base->getDefiningInstruction();
      Add && Add->getOpcode() == Opcode::Add) {
    for (unsigned K = 0; K < 2; ++K)
      if (std::optional<int64_t> C = getConstantIntValue(Add->getOperand(K))) {
        Base = Add->getOperand(1 - K);
        Offset = *C;
        break;
      }
  }
  if (getConstantIntValue(Base))
    return {};
  return {Base, unsigned(((Offset % Count) + Count) % Count), unsigned(Count)};
}

/// \p A's bytes are those of \p Buf; where \p MemDesc is one buffer of it
/// (a memdesc_index straight off the allocation), narrows them to that
/// buffer for a constant index, or names the ring's slot for a remainder.
void narrowToBuffer(const Value &MemDesc, const SharedBuffer &Buf, SharedAccess &A) {
  const Instruction *Index = stripMemDescViews(MemDesc).getDefiningInstruction();
  if (!Index || Index->getOpcode() != Opcode::MemDescIndex ||
      Index->getOperand(0)->getDefiningInstruction() != Buf.Owner)
    return;
  auto *Ring = llvm::cast<MemDescType>(Index->getOperand(0)->getType());
  int64_t Count = Ring->getNumBuffers();
  unsigned BufferBytes = Buf.Size / unsigned(Count);
  if (std::optional<int64_t> K = getConstantIntValue(Index->getOperand(1))) {
    if (*K >= 0 && *K < Count)
      A.Bytes = {Buf.Offset + unsigned(*K) * BufferBytes,
                 Buf.Offset + unsigned(*K + 1) * BufferBytes};
    return;
  }
  A.Slot = ringSlotOf(Index->getOperand(1), Count);
}
} // namespace

SharedAccesses SharedMemoryAllocation::getAccesses(const Instruction &I) const {
  using K = SharedAccess::Kind;
  if (const SharedBuffer *Buf = getScratchBuffer(I))
    // Every scratch user writes, synchronizes, then reads (and may write
    // and synchronize again before its last reads, as a scan does).
    return {{K::Write, Buf->bytes()}, {K::Barrier, {}}, {K::Read, Buf->bytes()}};
  if (const auto *Call = llvm::dyn_cast<CallInst>(&I))
    if (mayUseSharedMemory(Call->getCalledFunction()))
      return {{K::Opaque, Interval::all()}};
  auto Access = [&](K Kind, const Value *MemDesc) {
    const SharedBuffer *Buf = getAllocation(*MemDesc);
    SharedAccess A{Kind, Buf ? Buf->bytes() : Interval::all()};
    if (Buf)
      narrowToBuffer(*MemDesc, *Buf, A);
    return SharedAccesses{A};
  };
  switch (I.getOpcode()) {
  case Opcode::LocalAlloc:
    if (I.getNumOperands())
      return Access(K::Write, I.getResult(0));
    return {};
  case Opcode::LocalStore:
    return Access(K::Write, I.getOperand(0));
  case Opcode::LocalLoad:
    return Access(K::Read, I.getOperand(0));
  case Opcode::AsyncCopy:
    return Access(K::AsyncWrite, I.getOperand(0));
  case Opcode::AsyncCommitGroup:
    return {{K::CommitGroup, {}}};
  case Opcode::AsyncWait:
    return {{K::Wait, {}, unsigned(llvm::cast<AsyncWaitInst>(I).getNum())}};
  // Thread 0 initializes a barrier that every thread then reads.
  case Opcode::InitBarrier:
  case Opcode::InvalBarrier:
    return Access(K::Write, I.getOperand(0));
  case Opcode::BarrierExpect:
  case Opcode::WaitBarrier:
    return Access(K::Read, I.getOperand(0));
  case Opcode::AsyncTMAStore: // read (and waited for) by thread 0's TMA
    return Access(K::Read, I.getOperand(I.getNumOperands() - 1));
  case Opcode::AsyncTMACopy: {
    SharedAccesses Steps = Access(K::Read, I.getOperand(1));
    Steps.append(Access(K::TMAWrite, I.getOperand(0)));
    return Steps;
  }
  default:
    return {};
  }
}

void SharedMemoryAllocation::print(llvm::raw_ostream &OS) const {
  OS << "  total " << Total << " bytes\n";
  for (const SharedBuffer &Buf : Buffers) {
    OS << "  ";
    switch (Buf.BufferKind) {
    case SharedBuffer::Kind::Scratch: {
      OS << "scratch of ";
      if (Buf.Owner->getNumResults()) {
        Buf.Owner->getResult(0)->printAsOperand(OS);
        OS << " = ";
      }
      OS << Buf.Owner->getOpcodeName();
      break;
    }
    case SharedBuffer::Kind::Allocation:
      OS << "allocation ";
      Buf.Owner->getResult(0)->printAsOperand(OS);
      break;
    }
    OS << ": offset " << Buf.Offset << ", size " << Buf.Size << ", align " << Buf.Alignment
       << ", live ";
    Buf.Live.print(OS);
    OS << '\n';
  }
}
