//===- LowerSharedMemory.cpp - local_alloc, local_load, local_store -------===//
//
// A memdesc value lowers to one i32: the byte offset of its buffer in the
// kernel's shared memory (its allocation's offset, plus the buffer index
// times the buffer's bytes after memdesc_index). An element's place in the
// buffer is the shared layout's inverse at its coordinates; composed with
// the distributed layout of the block loaded or stored, that is a linear
// map from (register, lane, warp) to the element offset, so each thread
// computes the XOR of its lane and warp bits' offsets once and each register
// adds a constant. Loads and stores go element by element (wider accesses
// and ldmatrix come with the tensor-core lowering); insert-barriers placed
// the barriers between writes and reads, and local_dealloc emits nothing.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/FloatConversions.h"
#include "codegen/lowering/LoweringContext.h"

using namespace tritium;

namespace {

using Regs = LoweringContext::Regs;

MemDescType *memdescOf(const Value *V) { return llvm::cast<MemDescType>(V->getType()); }

/// For each register of a block in distributed layout \p L, the offset (in
/// elements, i32) of its element in a buffer laid out by \p Shared.
Regs sharedOffsets(LoweringContext &C, const LinearLayout &L, const LinearLayout &Shared) {
  llvm::IRBuilder<> &B = C.B;
  LinearLayout ToOffset = L.compose(Shared.invert());
  // The thread's part: the XOR of the offsets of its set lane and warp bits.
  llvm::Value *Thread = B.getInt32(0);
  for (auto [Name, Id] : {std::pair<const char *, llvm::Value *>{kLane, C.laneId()},
                          {kWarp, C.warpId()}}) {
    llvm::ArrayRef<LinearLayout::Basis> Bases = ToOffset.getBases(Name);
    for (unsigned Bit = 0; Bit < Bases.size(); ++Bit) {
      if (Bases[Bit][0] == 0)
        continue;
      llvm::Value *Set = B.CreateAnd(B.CreateLShr(Id, Bit), 1);
      Thread = B.CreateXor(Thread, B.CreateMul(Set, B.getInt32(uint32_t(Bases[Bit][0]))));
    }
  }
  Regs Out;
  for (unsigned R = 0, N = LoweringContext::numRegs(L); R < N; ++R) {
    int32_t Reg = ToOffset.applyIn(kRegister, int32_t(R))[0];
    Out.push_back(Reg ? B.CreateXor(Thread, B.getInt32(uint32_t(Reg))) : Thread);
  }
  return Out;
}

/// The addresses of the elements a block in layout \p L holds in the buffer
/// \p MemDesc starts at.
Regs addresses(LoweringContext &C, Value *MemDesc, const LinearLayout &L) {
  llvm::IRBuilder<> &B = C.B;
  MemDescType *M = memdescOf(MemDesc);
  unsigned Bytes = getSharedElementBytes(M->getElementType());
  llvm::Value *Base = C.scalar(MemDesc);
  Regs Out;
  for (llvm::Value *Off : sharedOffsets(C, L, M->getLayout()))
    Out.push_back(C.sharedPtr(B.CreateAdd(Base, B.CreateMul(Off, B.getInt32(Bytes)))));
  return Out;
}

/// Stores \p V (a block) into the buffer \p MemDesc starts at.
void storeBlock(LoweringContext &C, Value *MemDesc, Value *V) {
  const Regs &Vals = C.get(V);
  Regs Ptrs = addresses(C, MemDesc, C.layout(V));
  for (unsigned R = 0; R < Vals.size(); ++R)
    C.B.CreateStore(Vals[R], Ptrs[R]);
}

} // namespace

void tritium::lowerSharedMemory(LoweringContext &C, Instruction &I) {
  llvm::IRBuilder<> &B = C.B;
  switch (I.getOpcode()) {
  case Opcode::LocalAlloc: {
    const SharedBuffer *Buf = C.getSharedMemory().getAllocation(*I.getResult(0));
    if (!Buf)
      C.unsupported(I, "an allocation that the shared memory analysis did not place");
    C.set(I.getResult(0), {C.constI32(Buf->Offset)});
    if (Value *Init = llvm::cast<LocalAllocInst>(I).getInit())
      storeBlock(C, I.getResult(0), Init);
    return;
  }
  case Opcode::LocalStore: {
    auto &S = llvm::cast<LocalStoreInst>(I);
    storeBlock(C, S.getMemDesc(), S.getValue());
    return;
  }
  case Opcode::LocalLoad: {
    auto &L = llvm::cast<LocalLoadInst>(I);
    llvm::Type *Ty = C.elemType(I.getResult(0)->getType());
    Regs Out;
    for (llvm::Value *P : addresses(C, L.getMemDesc(), C.layout(I.getResult(0))))
      Out.push_back(B.CreateLoad(Ty, P));
    C.set(I.getResult(0), std::move(Out));
    return;
  }
  case Opcode::MemDescIndex: {
    auto &X = llvm::cast<MemDescIndexInst>(I);
    MemDescType *M = memdescOf(X.getMemDesc());
    uint64_t BufferBytes =
        uint64_t(M->getBufferElements()) * getSharedElementBytes(M->getElementType());
    C.set(I.getResult(0),
          {B.CreateAdd(C.scalar(X.getMemDesc()),
                       B.CreateMul(C.scalar(X.getIndex()), B.getInt32(uint32_t(BufferBytes))))});
    return;
  }
  case Opcode::LocalDealloc:
    return; // the allocator already reuses the memory after the last use
  default:
    C.unsupported(I, "not a shared memory instruction");
  }
}
