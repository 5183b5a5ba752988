//===- SharedMemory.cpp - Shared memory of a kernel -----------------------===//

#include "analysis/SharedMemory.h"
#include "analysis/LayoutRules.h"
#include "ir/Function.h"
#include "ir/Instructions.h"

using namespace tritium;

unsigned tritium::getSharedElementBytes(Type *T) {
  return std::max(1u, T->getScalarSizeInBits() / 8);
}

bool tritium::conversionNeedsSharedMemory(const LinearLayout &Src,
                                          const LinearLayout &Dst) {
  return !registerMapping(Src, Dst);
}

unsigned tritium::getCrossWarpFactor(const LinearLayout &L, unsigned Axis) {
  unsigned Bits = 0;
  for (const LinearLayout::Basis &B : L.getBases(kWarp))
    if (B[Axis] != 0)
      ++Bits;
  return 1u << Bits;
}

unsigned tritium::getScratchBytes(const Instruction &I) {
  switch (I.getOpcode()) {
  case Opcode::ConvertLayout: {
    const Instruction *Def = I.getOperand(0)->getDefiningInstruction();
    const LinearLayout *Src = Def ? Def->getLayout() : nullptr;
    if (Src && !conversionNeedsSharedMemory(*Src, *I.getLayout()))
      return 0;
    Type *T = I.getResult()->getType();
    return unsigned(T->getNumElements()) * getSharedElementBytes(T);
  }
  case Opcode::Scan: {
    // Scans along lanes or warps go through shared memory, one element per
    // element and operand (see LowerScan.cpp).
    const Instruction *Def = I.getOperand(0)->getDefiningInstruction();
    const LinearLayout *L = Def ? Def->getLayout() : nullptr;
    if (!L)
      return 0;
    unsigned Axis = unsigned(I.getIntAttr(AttrKey::Axis));
    bool InRegisters = true;
    for (const char *Name : {kLane, kWarp})
      for (const LinearLayout::Basis &B : L->getBases(Name))
        InRegisters &= B[Axis] == 0;
    if (InRegisters)
      return 0;
    Type *In = I.getOperand(0)->getType();
    unsigned Bytes = 0;
    for (Value *Op : I.getOperands())
      Bytes += getSharedElementBytes(Op->getType());
    return unsigned(In->getNumElements()) * Bytes;
  }
  case Opcode::Reduce:
  case Opcode::ArgMin:
  case Opcode::ArgMax: {
    const Instruction *Def = I.getOperand(0)->getDefiningInstruction();
    const LinearLayout *L = Def ? Def->getLayout() : nullptr;
    if (!L)
      return 0;
    unsigned Axis = unsigned(I.getIntAttr(AttrKey::Axis));
    unsigned Warps = getCrossWarpFactor(*L, Axis);
    if (Warps == 1)
      return 0;
    // One partial per warp along the axis for every element of the result.
    Type *In = I.getOperand(0)->getType();
    int64_t Slots = In->getNumElements() / In->getShape()[Axis] * Warps;
    unsigned Bytes = 0;
    for (Value *Op : I.getOperands())
      Bytes += getSharedElementBytes(Op->getType());
    if (I.getOpcode() != Opcode::Reduce)
      Bytes += 4; // argmin/argmax carry an i32 index
    return unsigned(Slots) * Bytes;
  }
  case Opcode::Dot: {
    // The FMA dot stages A then B (16-byte aligned) in shared memory.
    Type *A = I.getOperand(0)->getType(), *B = I.getOperand(1)->getType();
    unsigned ABytes = unsigned(A->getNumElements()) * getSharedElementBytes(A);
    return (ABytes + 15) / 16 * 16 +
           unsigned(B->getNumElements()) * getSharedElementBytes(B);
  }
  case Opcode::AtomicRMW:
  case Opcode::AtomicCAS:
    // A scalar atomic runs in one thread, which shares the old value.
    if (!I.getOperand(0)->getType()->isBlock() && !I.use_empty())
      return 8;
    return 0;
  default:
    return 0;
  }
}

SharedMemoryAllocation::SharedMemoryAllocation(Function &F) {
  // Scratch buffers live only while their instruction runs, so they never
  // overlap in time and all start at offset 0.
  for (BasicBlock &B : F)
    for (Instruction &I : B)
      if (unsigned Bytes = getScratchBytes(I)) {
        Offsets[&I] = 0;
        Total = std::max(Total, (Bytes + 15) / 16 * 16);
      }
}

std::optional<unsigned>
SharedMemoryAllocation::getScratchOffset(const Instruction &I) const {
  auto It = Offsets.find(&I);
  if (It == Offsets.end())
    return std::nullopt;
  return It->second;
}
