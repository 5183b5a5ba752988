//===- NVPTXLowerTMA.cpp - mbarriers and TMA copies on sm_90a -------------===//
//
// The IR's barriers (init_barrier, barrier_expect, wait_barrier,
// inval_barrier) and its TMA copies (async_tma_copy, async_tma_store) as
// Hopper's mbarriers and cp.async.bulk.tensor (NVPTXTMA.cpp). One thread
// of the block acts for it where the PTX ISA wants one (initializing a
// barrier, announcing its bytes, issuing a copy); every thread waits. A
// copy moves the buffer one box of 128-byte rows at a time: the box the
// host encoded in the tensor map.
//
//===----------------------------------------------------------------------===//

#include "codegen/nvptx/WGMMALayouts.h"
#include "codegen/nvptx/NVPTXLowering.h"

using namespace tritium;

namespace {

/// Whether this thread is thread 0 of the block (the one that acts for it)
/// and \p Pred holds.
llvm::Value *firstThreadAnd(LoweringContext &C, llvm::Value *Pred) {
  llvm::Value *First = C.owner();
  return Pred ? C.B.CreateAnd(First, Pred) : First;
}

void mbarrier(LoweringContext &C, const MBarrierInst &I, const NVPTXTargetInfo &T) {
  llvm::IRBuilder<> &B = C.B;
  llvm::Value *Bar = C.sharedPtr(C.scalar(I.getBarrier()));
  if (I.getOpcode() == Opcode::InitBarrier)
    T.mbarrierInit(B, Bar, unsigned(I.getNum()), firstThreadAnd(C, nullptr));
  else if (I.getOpcode() == Opcode::InvalBarrier)
    T.mbarrierInval(B, Bar, firstThreadAnd(C, nullptr));
  else if (I.getOpcode() == Opcode::BarrierExpect)
    T.mbarrierExpect(B, Bar, unsigned(I.getNum()), firstThreadAnd(C, C.scalar(I.getPred())));
  else
    T.mbarrierWait(B, Bar, C.scalar(I.getPhase()));
}

/// The tensor map of \p Desc's make_tensor_descriptor.
llvm::Value *tensorMapOf(LoweringContext &C, const Instruction &I, Value *Desc,
                         const NVPTXTargetInfo &T) {
  auto *Made = llvm::dyn_cast_or_null<MakeTensorDescInst>(Desc->getDefiningInstruction());
  if (!Made || !Made->getTensorMap())
    C.unsupported(I, "a TMA copy of a descriptor that is not a make_tensor_descriptor with a "
                     "tensormap");
  auto *Param = llvm::cast<llvm::Argument>(C.scalar(Made->getTensorMap()));
  return T.tensorMapAddress(C.B, Param);
}

/// \p Each(box's shared address, its coordinates innermost first) for
/// each 128-byte column block of the NVMMA buffer \p MemDesc at \p Offsets
/// (the box the host encoded: tools/tensor_descriptor.py's tma_box), each
/// rows x 128 bytes after the last.
void forEachBox(LoweringContext &C, const Instruction &I, Value *MemDesc, Value *Row, Value *Col,
                llvm::function_ref<void(llvm::Value *, llvm::ArrayRef<llvm::Value *>)> Each) {
  llvm::IRBuilder<> &B = C.B;
  auto *M = llvm::cast<MemDescType>(MemDesc->getType());
  llvm::ArrayRef<int64_t> Shape = M->getBufferShape();
  if (nvmmaContiguousDim(*M) != 1u ||
      nvmmaSwizzleBytes(Shape[1] * M->getElementType()->getScalarSizeInBytes()) != 128)
    C.unsupported(I, "a TMA copy's buffer must be in the 128-byte NVMMA layout with its rows "
                     "contiguous");
  int64_t BoxInner = 128 / M->getElementType()->getScalarSizeInBytes(), Rows = Shape[0];
  for (int64_t J = 0; J * BoxInner < Shape[1]; ++J) {
    llvm::Value *Coords[2] = {B.CreateAdd(C.scalar(Col), B.getInt32(J * BoxInner)),
                              C.scalar(Row)};
    Each(C.sharedPtr(C.scalar(MemDesc), uint32_t(J * Rows * 128)), Coords);
  }
}

void tmaCopy(LoweringContext &C, const AsyncTMACopyInst &I, const NVPTXTargetInfo &T) {
  llvm::Value *Map = tensorMapOf(C, I, I.getDesc(), T);
  llvm::Value *Bar = C.sharedPtr(C.scalar(I.getBarrier()));
  llvm::Value *Pred = firstThreadAnd(C, C.scalar(I.getPred()));
  forEachBox(C, I, I.getMemDesc(), I.getOffset(0), I.getOffset(1),
             [&](llvm::Value *Box, llvm::ArrayRef<llvm::Value *> Coords) {
               T.tmaLoad(C.B, Box, Map, Coords, Bar, Pred);
             });
}

void tmaStore(LoweringContext &C, const AsyncTMAStoreInst &I, const NVPTXTargetInfo &T) {
  llvm::Value *Map = tensorMapOf(C, I, I.getDesc(), T);
  llvm::Value *Pred = firstThreadAnd(C, nullptr);
  forEachBox(C, I, I.getMemDesc(), I.getOffset(0), I.getOffset(1),
             [&](llvm::Value *Box, llvm::ArrayRef<llvm::Value *> Coords) {
               T.tmaStore(C.B, Map, Coords, Box, Pred);
             });
  T.tmaStoreWait(C.B, Pred);
}

} // namespace

bool tritium::lowerTMAInstruction(LoweringContext &C, Instruction &I, const NVPTXTargetInfo &T) {
  if (!T.hasTMA())
    return false;
  switch (I.getOpcode()) {
  case Opcode::InitBarrier:
  case Opcode::BarrierExpect:
  case Opcode::WaitBarrier:
  case Opcode::InvalBarrier:
    mbarrier(C, llvm::cast<MBarrierInst>(I), T);
    return true;
  case Opcode::AsyncTMACopy:
    tmaCopy(C, llvm::cast<AsyncTMACopyInst>(I), T);
    return true;
  case Opcode::AsyncTMAStore:
    tmaStore(C, llvm::cast<AsyncTMAStoreInst>(I), T);
    return true;
  default:
    return false;
  }
}
