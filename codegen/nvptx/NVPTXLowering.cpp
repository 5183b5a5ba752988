//===- NVPTXLowering.cpp - What NVIDIA GPUs lower themselves -------------===//

#include "codegen/nvptx/NVPTXLowering.h"

using namespace tritium;

bool NVPTXTargetInfo::lowerInstruction(LoweringContext &C, Instruction &I) const {
  if (I.getOpcode() == Opcode::Dot)
    return lowerWGMMADot(C, I, *this) || lowerMMADot(C, I, *this);
  return lowerTMAInstruction(C, I, *this);
}
