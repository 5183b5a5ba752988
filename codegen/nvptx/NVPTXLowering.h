//===- NVPTXLowering.h - What NVIDIA GPUs lower themselves -----*- C++ -*-===//
//
// NVPTXTargetInfo::lowerInstruction's parts, one file each: dots on
// Hopper's wgmma (NVPTXLowerWGMMA.cpp) and on mma.sync
// (NVPTXLowerMMA.cpp), mbarriers and TMA copies (NVPTXLowerTMA.cpp). Each
// returns false, having emitted nothing, where the instruction is not one
// it lowers on this GPU; the generic lowering then takes it.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_NVPTX_NVPTXLOWERING_H
#define TRITIUM_CODEGEN_NVPTX_NVPTXLOWERING_H

#include "codegen/lowering/LoweringContext.h"
#include "codegen/nvptx/NVPTXTargetInfo.h"

namespace tritium {

/// A dot placed for wgmma with NVMMA operands.
bool lowerWGMMADot(LoweringContext &C, Instruction &I, const NVPTXTargetInfo &T);
/// A dot in mma.sync's layouts (codegen/nvptx/MMALayouts.h).
bool lowerMMADot(LoweringContext &C, Instruction &I, const NVPTXTargetInfo &T);
/// \p E (1, 2 or 4 elements of 32 bits in all) as one i32 word of an
/// mma.sync (or wgmma) fragment; two f32 rounded to f16 take one
/// cvt.rn.f16x2.
llvm::Value *packMMAWord(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> E);
/// init_barrier, barrier_expect, wait_barrier, inval_barrier,
/// async_tma_copy and async_tma_store on a GPU with TMA.
bool lowerTMAInstruction(LoweringContext &C, Instruction &I, const NVPTXTargetInfo &T);

} // namespace tritium

#endif // TRITIUM_CODEGEN_NVPTX_NVPTXLOWERING_H
