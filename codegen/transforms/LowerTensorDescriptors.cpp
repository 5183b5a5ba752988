//===- LowerTensorDescriptors.cpp - Descriptor blocks as pointer blocks ---===//
//
// `lower-tensor-descriptors` turns every descriptor_load and
// descriptor_store into the masked load or store of a block of pointers,
// for targets that read a descriptor's blocks with ordinary loads (Hopper's
// TMA takes some of them as they are, below). Tensor descriptors and block
// pointers (tl.make_block_ptr, a descriptor with 64-bit shapes whose
// accesses check the dimensions their `boundary` lists) lower alike:
//
//   1. The block's first element, a scalar: start = base + sum of
//      sext(offset_d) * stride_d, in 64 bits (a tensor's extent times its
//      stride may pass 2^31).
//   2. For each dimension d of the block (B_d elements), with r = [0, B_d):
//      where the access checks d, in bounds where offset_d + r <u
//      smax(shape_d, 0) (one unsigned compare, in the shape's width, or in
//      32 bits where a 64-bit shape is an i32's sext: a negative index is a
//      large unsigned one either way), and the element offsets
//      sext(r) * stride_d, which do not depend on the offsets (licm takes
//      them out of a K loop: only the start moves, as a pointer kernel's
//      `ptrs += BLOCK_K * stride` does).
//   3. Each of these 1-d blocks expanded to the block's rank (size 1 in
//      every other dimension) and broadcast to the block: the offsets
//      summed, the bounds and-ed, the pointers `start + offset`.
//   4. descriptor_load becomes `load %ptrs, %inbounds, 0` (zeros outside
//      the tensor, on either side, as TMA fills them; NaN with padding =
//      nan), descriptor_store `store %ptrs, %value, %inbounds`; an access
//      that checks no dimension has no mask, and the access's cache and
//      eviction hints pass to the load or store.
//
// Option keep= leaves some accesses as they are: `tensormaps` those whose
// descriptor has a tensormap (a host-side descriptor's: the default
// pipeline, which does not know the target, leaves them to the layout
// pipeline), or the name a target registered its tensor copies under
// (analysis/TensorCopies.h) those they take: `tma`, the layout
// pipeline on sm_90a, whose pipeline and lower-tma-copies passes take them.
//
// The pass runs after inline (a descriptor passed to a device function is
// then the caller's). The descriptor an access reads is a
// make_tensor_descriptor or a phi of them (a block pointer advanced in a
// loop or chosen in a branch): each phi of descriptors gets one phi per
// field (base, shapes, strides) beside it, which canonicalize folds where
// every path brings one descriptor. An argument or a call result is an
// error at the access. make_tensor_descriptor and the phis of descriptors
// are left to dce once nothing reads them.
//
// Requires: verified IR. Preserves: the CFG.
//
//===----------------------------------------------------------------------===//

#include "analysis/AxisInfo.h"
#include "analysis/TensorCopies.h"
#include "codegen/transforms/Transforms.h"
#include "ir/Builder.h"
#include "ir/Diagnostics.h"
#include "ir/Function.h"
#include "ir/Dominance.h"
#include "ir/Instructions.h"

#include <cmath>

using namespace tritium;

namespace {

/// What a descriptor is made of: base, shapes and strides.
struct DescFields {
  Value *Base = nullptr;
  llvm::SmallVector<Value *, 5> Shape, Stride;
};

/// The fields of the descriptors reaching each access, through phis.
class DescriptorFields {
public:
  /// The fields of \p Desc, or null where some path brings a descriptor
  /// that no make_tensor_descriptor made.
  const DescFields *get(Value *Desc) {
    auto It = Fields.find(Desc);
    if (It != Fields.end())
      return It->second.get();
    Instruction *Def = Desc->getDefiningInstruction();
    if (auto *Made = llvm::dyn_cast_or_null<MakeTensorDescInst>(Def)) {
      auto F = std::make_unique<DescFields>();
      F->Base = Made->getBase();
      for (unsigned D = 0; D < Made->getRank(); ++D) {
        F->Shape.push_back(Made->getShape(D));
        F->Stride.push_back(Made->getStride(D));
      }
      return (Fields[Desc] = std::move(F)).get();
    }
    auto *Phi = llvm::dyn_cast_or_null<PhiInst>(Def);
    const MakeTensorDescInst *Model = Phi ? someMake(Phi) : nullptr;
    if (!Model)
      return nullptr;
    // One phi per field beside this one, entered before its incoming values
    // are (a loop's phi reaches itself).
    IRBuilder B(Phi->getContext());
    B.setInsertPoint(Phi);
    B.setLoc(Phi->getLoc());
    auto F = std::make_unique<DescFields>();
    llvm::SmallVector<PhiInst *, 11> New;
    auto NewPhi = [&](Value *Like) {
      New.push_back(B.createPhi(Like->getType()));
      return static_cast<Value *>(New.back()->getResult());
    };
    F->Base = NewPhi(Model->getBase());
    for (unsigned D = 0; D < Model->getRank(); ++D)
      F->Shape.push_back(NewPhi(Model->getShape(D)));
    for (unsigned D = 0; D < Model->getRank(); ++D)
      F->Stride.push_back(NewPhi(Model->getStride(D)));
    const DescFields *Result = (Fields[Desc] = std::move(F)).get();
    for (unsigned I = 0; I < Phi->getNumIncoming(); ++I) {
      const DescFields *In = get(Phi->getIncomingValue(I));
      if (!In || In->Shape.size() != Result->Shape.size() ||
          In->Shape[0]->getType() != Result->Shape[0]->getType()) {
        Fields[Desc] = nullptr;
        return nullptr;
      }
      BasicBlock *From = Phi->getIncomingBlock(I);
      New[0]->addIncoming(In->Base, From);
      for (unsigned D = 0; D < In->Shape.size(); ++D) {
        New[1 + D]->addIncoming(In->Shape[D], From);
        New[1 + In->Shape.size() + D]->addIncoming(In->Stride[D], From);
      }
    }
    return Result;
  }

private:
  /// A make_tensor_descriptor reaching \p Phi (the fields' types).
  static const MakeTensorDescInst *someMake(PhiInst *Phi) {
    llvm::SmallPtrSet<PhiInst *, 8> Seen;
    llvm::SmallVector<PhiInst *, 8> Work{Phi};
    while (!Work.empty()) {
      PhiInst *P = Work.pop_back_val();
      if (!Seen.insert(P).second)
        continue;
      for (unsigned I = 0; I < P->getNumIncoming(); ++I) {
        Instruction *Def = P->getIncomingValue(I)->getDefiningInstruction();
        if (auto *Made = llvm::dyn_cast_or_null<MakeTensorDescInst>(Def))
          return Made;
        if (auto *Next = llvm::dyn_cast_or_null<PhiInst>(Def))
          Work.push_back(Next);
      }
    }
    return nullptr;
  }

  llvm::DenseMap<Value *, std::unique_ptr<DescFields>> Fields;
};

/// The pointers of the block at \p Offsets of the descriptor \p Desc of
/// type \p T, and the mask of those inside its tensor along the dimensions
/// \p Access checks (null where it checks none), built at \p B's insertion
/// point.
std::pair<Value *, Value *> blockPointers(IRBuilder &B, TensorDescType *T, const DescFields &Desc,
                                          const Instruction &Access,
                                          llvm::ArrayRef<Value *> Offsets) {
  llvm::ArrayRef<int64_t> Block = T->getBlockShape();
  unsigned Rank = unsigned(Block.size());
  // The block's first element: a scalar offset from the base.
  Value *First = nullptr;
  for (unsigned D = 0; D < Rank; ++D) {
    Value *Elems = B.createBinary(Opcode::Mul, B.createCast(Opcode::SExt, Offsets[D], B.getI64Ty()),
                                  Desc.Stride[D]);
    First = First ? B.createBinary(Opcode::Add, First, Elems) : Elems;
  }
  Value *Start = B.createGEP(Desc.Base, First);
  Value *Offset = nullptr, *InBounds = nullptr;
  for (unsigned D = 0; D < Rank; ++D) {
    llvm::ArrayRef<int64_t> Dim = Block.slice(D, 1);
    Value *Range = B.createMakeRange(0, Block[D]);
    Value *In = nullptr;
    if (checksDimension(Access, D)) {
      // offset + r in [0, shape): one unsigned compare (a negative index is
      // a large unsigned one), against the shape clamped at 0 (a negative
      // shape holds nothing), in the shape's width. A 64-bit shape that is
      // an i32's sext (a block pointer's, from an i32 argument) compares in
      // 32 bits, which gives the same answer for half the registers.
      Value *Index = B.createBinary(Opcode::Add, B.createSplat(Offsets[D], Dim), Range);
      Value *Shape = Desc.Shape[D];
      if (auto *Ext = llvm::dyn_cast_or_null<CastInst>(Shape->getDefiningInstruction()))
        if (Ext->getOpcode() == Opcode::SExt && Ext->getSrc()->getType()->isInt(32))
          Shape = Ext->getSrc();
      Type *Width = Shape->getType();
      if (!Width->isInt(32))
        Index = B.createCast(Opcode::SExt, Index, BlockType::get(Width, Dim));
      Value *Extent = B.createBinary(Opcode::SMax, Shape, B.getIntConstant(Width, 0));
      In = B.createICmp(ICmpPredicate::ULT, Index, B.createSplat(Extent, Dim));
    }
    // r * stride: the same for every block of the descriptor (licm hoists
    // it out of a K loop, where only the start moves).
    Value *Wide = B.createCast(Opcode::SExt, Range, BlockType::get(B.getI64Ty(), Dim));
    Value *Elems = B.createBinary(Opcode::Mul, Wide, B.createSplat(Desc.Stride[D], Dim));
    // Size 1 in every other dimension, then the whole block.
    for (unsigned E = 0; E < Rank && Rank > 1; ++E)
      if (E != D) {
        In = In ? B.createExpandDims(In, E) : nullptr;
        Elems = B.createExpandDims(Elems, E);
      }
    if (Rank > 1) {
      In = In ? B.createBroadcast(In, Block) : nullptr;
      Elems = B.createBroadcast(Elems, Block);
    }
    Offset = Offset ? B.createBinary(Opcode::Add, Offset, Elems) : Elems;
    if (In)
      InBounds = InBounds ? B.createBinary(Opcode::And, InBounds, In) : In;
  }
  Value *Ptrs = B.createGEP(B.createSplat(Start, Block), Offset);
  return {Ptrs, InBounds};
}

/// The cache or eviction hint \p K of a descriptor access, for its load or
/// store.
template <typename Enum> std::optional<Enum> hint(const Instruction &Access, AttrKey K) {
  if (!Access.hasAttr(K))
    return std::nullopt;
  return Enum(Access.getEnumAttr(K));
}

/// Whether \p I's descriptor is a make_tensor_descriptor with a tensormap.
bool hasTensorMap(const Instruction &I) {
  auto *Made = llvm::dyn_cast_or_null<MakeTensorDescInst>(I.getOperand(0)->getDefiningInstruction());
  return Made && Made->getTensorMap();
}

} // namespace

PreservedAnalyses LowerTensorDescriptorsPass::runOnFunction(Function &F, AnalysisManager &AM) {
  const AxisInfoAnalysis *AI = K == Keep::Copies ? &AM.get<AxisInfoAnalysis>(F) : nullptr;
  auto Kept = [&](const Instruction &I) {
    if (K == Keep::None)
      return false;
    return K == Keep::TensorMaps ? hasTensorMap(I) : Copies->Takes(I, *AI);
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
  DescriptorFields Fields;
  for (Instruction *I : Accesses) {
    const DescFields *Desc = Fields.get(I->getOperand(0));
    if (!Desc)
      reportError(I->getLoc(),
                  "this tensor descriptor is not made by make_tensor_descriptor (or "
                  "make_block_ptr) on every path (an argument or a call's result): make it "
                  "where it is used");
    auto *T = llvm::cast<TensorDescType>(I->getOperand(0)->getType());
    B.setInsertPoint(I);
    B.setLoc(I->getLoc());
    if (auto *L = llvm::dyn_cast<DescriptorLoadInst>(I)) {
      auto [Ptrs, InBounds] = blockPointers(B, T, *Desc, *I, L->getOffsets());
      Type *R = L->getResult()->getType();
      Value *Pad = nullptr;
      if (InBounds)
        Pad = !R->getScalarType()->isFloat() ? B.getIntConstant(R, 0)
              : L->padsWithNaN()             ? B.getFloatConstant(R, std::nan(""))
                                             : B.getFloatConstant(R, 0.0);
      LoadOptions Hints;
      Hints.Cache = hint<CacheModifier>(*L, AttrKey::Cache);
      Hints.Evict = hint<EvictionPolicy>(*L, AttrKey::Evict);
      Hints.Volatile = L->hasAttr(AttrKey::Volatile);
      L->getResult()->replaceAllUsesWith(B.createLoad(Ptrs, InBounds, Pad, Hints));
    } else {
      auto *S = llvm::cast<DescriptorStoreInst>(I);
      auto [Ptrs, InBounds] = blockPointers(B, T, *Desc, *I, S->getOffsets());
      StoreOptions Hints;
      Hints.Cache = hint<CacheModifier>(*S, AttrKey::Cache);
      Hints.Evict = hint<EvictionPolicy>(*S, AttrKey::Evict);
      B.createStore(Ptrs, S->getValue(), InBounds, Hints);
    }
    I->eraseFromParent();
  }
  return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>();
}
