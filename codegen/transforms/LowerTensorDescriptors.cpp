//===- LowerTensorDescriptors.cpp - Descriptor blocks as pointer blocks ---===//
//
// `lower-tensor-descriptors` turns every descriptor_load and
// descriptor_store into the masked load or store of a block of pointers,
// for targets that read a descriptor's blocks with ordinary loads (all of
// them today; Hopper's TMA will take the ops as they are instead):
//
//   1. The block's first element, a scalar: start = base + sum of
//      sext(offset_d) * stride_d, in 64 bits (a tensor's extent times its
//      stride may pass 2^31).
//   2. For each dimension d of the block (B_d elements), with r = [0, B_d):
//      in bounds where offset_d + r <u smax(shape_d, 0) (one unsigned
//      compare: a negative index is a large unsigned one), and the element offsets
//      sext(r) * stride_d, which do not depend on the offsets (licm takes
//      them out of a K loop: only the start moves, as a pointer kernel's
//      `ptrs += BLOCK_K * stride` does).
//   3. Each of these 1-d blocks expanded to the block's rank (size 1 in
//      every other dimension) and broadcast to the block: the offsets
//      summed, the bounds and-ed, the pointers `start + offset`.
//   4. descriptor_load becomes `load %ptrs, %inbounds, 0` (zeros outside
//      the tensor, on either side, as TMA fills them), descriptor_store
//      `store %ptrs, %value, %inbounds`.
//
// Option keep= leaves some accesses as they are: `tensormaps` those whose
// descriptor has a tensormap (a host-side descriptor's: the default
// pipeline, which does not know the target, leaves them to the layout
// pipeline), `tma` those TMA can copy (tmaCopies: the layout pipeline on
// sm_90a, whose pipeline and lower-tma-copies passes take them).
//
// make_tensor_descriptor is left to dce once nothing reads it. The pass
// runs after inline (a descriptor passed to a device function is then the
// caller's): the descriptor a load or store reads must be a
// make_tensor_descriptor, whose base, shape and strides the pass reads; a
// phi, argument or call result is an error at the access (a descriptor
// the kernel reassigns in a loop or branch).
//
// Requires: verified IR. Preserves: the CFG.
//
//===----------------------------------------------------------------------===//

#include "analysis/AxisInfo.h"
#include "analysis/WGMMALayouts.h"
#include "codegen/transforms/Transforms.h"
#include "ir/Builder.h"
#include "ir/Diagnostics.h"
#include "ir/Function.h"
#include "ir/Dominance.h"
#include "ir/Instructions.h"

using namespace tritium;

namespace {

/// The pointers of the block at \p Offsets of \p Desc and the mask of
/// those inside its tensor, built at \p B's insertion point.
std::pair<Value *, Value *> blockPointers(IRBuilder &B, const MakeTensorDescInst &Desc,
                                          llvm::ArrayRef<Value *> Offsets) {
  auto *T = llvm::cast<TensorDescType>(Desc.getResult()->getType());
  llvm::ArrayRef<int64_t> Block = T->getBlockShape();
  unsigned Rank = unsigned(Block.size());
  // The block's first element: a scalar offset from the base.
  Value *First = nullptr;
  for (unsigned D = 0; D < Rank; ++D) {
    Value *Elems = B.createBinary(Opcode::Mul, B.createCast(Opcode::SExt, Offsets[D], B.getI64Ty()),
                                  Desc.getStride(D));
    First = First ? B.createBinary(Opcode::Add, First, Elems) : Elems;
  }
  Value *Start = B.createGEP(Desc.getBase(), First);
  Value *Offset = nullptr, *InBounds = nullptr;
  for (unsigned D = 0; D < Rank; ++D) {
    llvm::ArrayRef<int64_t> Dim = Block.slice(D, 1);
    Value *Range = B.createMakeRange(0, Block[D]);
    // offset + r in [0, shape): one unsigned compare (a negative index is
    // a large unsigned one), against the shape clamped at 0 (a negative
    // shape holds nothing).
    Value *Index = B.createBinary(Opcode::Add, B.createSplat(Offsets[D], Dim), Range);
    Value *Extent = B.createBinary(Opcode::SMax, Desc.getShape(D), B.getInt32(0));
    Value *In = B.createICmp(ICmpPredicate::ULT, Index, B.createSplat(Extent, Dim));
    // r * stride: the same for every block of the descriptor (licm hoists
    // it out of a K loop, where only the start moves).
    Value *Wide = B.createCast(Opcode::SExt, Range, BlockType::get(B.getI64Ty(), Dim));
    Value *Elems = B.createBinary(Opcode::Mul, Wide, B.createSplat(Desc.getStride(D), Dim));
    // Size 1 in every other dimension, then the whole block.
    for (unsigned E = 0; E < Rank && Rank > 1; ++E)
      if (E != D) {
        In = B.createExpandDims(In, E);
        Elems = B.createExpandDims(Elems, E);
      }
    if (Rank > 1) {
      In = B.createBroadcast(In, Block);
      Elems = B.createBroadcast(Elems, Block);
    }
    Offset = Offset ? B.createBinary(Opcode::Add, Offset, Elems) : Elems;
    InBounds = InBounds ? B.createBinary(Opcode::And, InBounds, In) : In;
  }
  Value *Ptrs = B.createGEP(B.createSplat(Start, Block), Offset);
  return {Ptrs, InBounds};
}

/// Whether \p I's descriptor is a make_tensor_descriptor with a tensormap.
bool hasTensorMap(const Instruction &I) {
  auto *Made = llvm::dyn_cast_or_null<MakeTensorDescInst>(I.getOperand(0)->getDefiningInstruction());
  return Made && Made->getTensorMap();
}

} // namespace

PreservedAnalyses LowerTensorDescriptorsPass::runOnFunction(Function &F, AnalysisManager &AM) {
  const AxisInfoAnalysis *AI = K == Keep::TMA ? &AM.get<AxisInfoAnalysis>(F) : nullptr;
  auto Kept = [&](const Instruction &I) {
    if (K == Keep::None)
      return false;
    return K == Keep::TensorMaps ? hasTensorMap(I) : tmaCopies(I, *AI);
  };
  llvm::SmallVector<Instruction *, 8> Accesses;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if ((I.getOpcode() == Opcode::DescriptorLoad || I.getOpcode() == Opcode::DescriptorStore) &&
          !Kept(I))
        Accesses.push_back(&I);
  if (Accesses.empty())
    return PreservedAnalyses::all();
  IRBuilder B(F.getContext());
  for (Instruction *I : Accesses) {
    B.setInsertPoint(I);
    B.setLoc(I->getLoc());
    auto *Made = llvm::dyn_cast_or_null<MakeTensorDescInst>(
        I->getOperand(0)->getDefiningInstruction());
    if (!Made)
      reportError(I->getLoc(),
                  "this tensor descriptor is not one make_tensor_descriptor on every "
                  "path (a descriptor reassigned in a loop or branch, or an argument): "
                  "make it where it is used");
    const MakeTensorDescInst &Desc = *Made;
    if (auto *L = llvm::dyn_cast<DescriptorLoadInst>(I)) {
      auto [Ptrs, InBounds] = blockPointers(B, Desc, L->getOffsets());
      Type *T = L->getResult()->getType();
      Value *Zeros = T->getScalarType()->isFloat() ? B.getFloatConstant(T, 0.0)
                                                   : B.getIntConstant(T, 0);
      L->getResult()->replaceAllUsesWith(B.createLoad(Ptrs, InBounds, Zeros));
    } else {
      auto *S = llvm::cast<DescriptorStoreInst>(I);
      auto [Ptrs, InBounds] = blockPointers(B, Desc, S->getOffsets());
      B.createStore(Ptrs, S->getValue(), InBounds);
    }
    I->eraseFromParent();
  }
  return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>();
}
