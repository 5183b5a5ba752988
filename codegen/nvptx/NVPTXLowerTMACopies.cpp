//===- NVPTXLowerTMACopies.cpp - Descriptor accesses left for TMA --------===//
//
// lower-tma-copies copies each descriptor_load that lower-tensor-descriptors
// kept for TMA (on sm_90a) and the pipeliner did not stage (a load outside
// a pipelined loop, or one whose block does not go to shared memory for a
// dot) with one TMA copy, right where it is:
//
//   %v = descriptor_load %d, %i, %j
//     becomes
//   %buf = local_alloc : memdesc<64 x 64 x f16, <NVMMA, rows contiguous>, mutable>
//   %bar = local_alloc : memdesc<1 x i64, ..., mutable>
//   init_barrier %bar {num = 1}
//   barrier_expect %bar, true {num = bytes of the block}
//   async_tma_copy %buf, %bar, %d, %i, %j, true
//   wait_barrier %bar, 0
//   inval_barrier %bar              (its bytes may become other buffers)
//   %v = local_load %buf            (in the load's layout)
//
// A local_alloc of %v in the same NVMMA layout (a dot's operand, staged by
// stage-dot-operands) reads %buf instead: the block goes to shared memory
// once. insert-barriers puts the barriers around init_barrier (written by
// thread 0, read by all) and before a copy that overwrites bytes still
// being read, and between the waits and inval_barrier. The barrier is
// initialized for each copy, so phase 0 is the one to wait for.
//
// A descriptor_store it kept goes through shared memory the other way:
//
//   descriptor_store %d, %i, %j, %v
//     becomes
//   %buf = local_alloc %v : memdesc<..., <NVMMA, rows contiguous>>
//   async_tma_store %d, %i, %j, %buf
//
// (the registers' writes are fenced for the async proxy by local_alloc's
// lowering; insert-barriers puts the barrier between them and thread 0's
// store, and one before whatever writes those bytes next, after thread
// 0 has waited for TMA to read them).
//
// Requires: layout-level IR after pipeline, before insert-barriers.
// Preserves: the CFG. A pass of the NVIDIA target's layout pipeline,
// registered from its folder (registerTargetPasses, codegen/Passes.h).
//
//===----------------------------------------------------------------------===//

#include "analysis/TensorCopies.h"
#include "codegen/nvptx/WGMMALayouts.h"
#include "codegen/Passes.h"
#include "ir/Builder.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/PassManager.h"

using namespace tritium;

namespace {

void copyWithTMA(DescriptorLoadInst &Load) {
  IRBuilder B(Load.getParent()->getParent()->getContext());
  B.setInsertPoint(&Load);
  B.setLoc(Load.getLoc());
  Type *T = Load.getResult()->getType();
  unsigned Bytes = T->getScalarSizeInBytes();
  // lower-tensor-descriptors kept only blocks this layout fits (tmaCopies).
  LinearLayout Shared = *nvmmaSharedLayout(T->getShape(), 1, Bytes);
  Value *Buf = B.createLocalAlloc(MemDescType::get(T->getScalarType(), T->getShape(), Shared, true));
  Value *Bar = B.createBarrierAlloc();
  B.createInitBarrier(Bar, 1);
  Value *True = B.getIntConstant(Type::getInt(B.getContext(), 1), 1);
  B.createBarrierExpect(Bar, True, T->getNumElements() * Bytes);
  B.createAsyncTMACopy(Buf, Bar, Load.getDesc(), Load.getOffsets(), True);
  B.createWaitBarrier(Bar, B.getInt32(0));
  B.createInvalBarrier(Bar);
  // Staged for a dot in the layout TMA writes: that buffer is this one.
  for (Use &U : llvm::make_early_inc_range(Load.getResult()->uses())) {
    Instruction *User = U.getUser();
    if (User->getOpcode() == Opcode::LocalAlloc &&
        llvm::cast<MemDescType>(User->getResult(0)->getType())->getLayout() == Shared) {
      User->getResult(0)->replaceAllUsesWith(Buf);
      User->eraseFromParent();
    }
  }
  if (!Load.getResult()->use_empty()) {
    Value *Read = B.createLocalLoad(Buf);
    Read->getDefiningInstruction()->setLayout(*Load.getLayout());
    Load.getResult()->replaceAllUsesWith(Read);
  }
  Load.eraseFromParent();
}

void storeWithTMA(DescriptorStoreInst &Store) {
  IRBuilder B(Store.getParent()->getParent()->getContext());
  B.setInsertPoint(&Store);
  B.setLoc(Store.getLoc());
  Type *T = Store.getValue()->getType();
  LinearLayout Shared = *nvmmaSharedLayout(T->getShape(), 1, T->getScalarSizeInBytes());
  Value *Buf = B.createLocalAlloc(
      MemDescType::get(T->getScalarType(), T->getShape(), Shared, false), Store.getValue());
  B.createAsyncTMAStore(Store.getDesc(), Store.getOffsets(), Buf);
  Store.eraseFromParent();
}

class LowerTMACopiesPass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "lower-tma-copies"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &) override {
    llvm::SmallVector<Instruction *, 4> Accesses;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (I.getOpcode() == Opcode::DescriptorLoad || I.getOpcode() == Opcode::DescriptorStore)
          Accesses.push_back(&I);
    for (Instruction *I : Accesses) {
      if (auto *L = llvm::dyn_cast<DescriptorLoadInst>(I))
        copyWithTMA(*L);
      else
        storeWithTMA(*llvm::cast<DescriptorStoreInst>(I));
    }
    if (Accesses.empty())
      return PreservedAnalyses::all();
    return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>();
  }
};

bool tmaFills(const MemDescType &M) { return nvmmaContiguousDim(M) == 1u; }

const bool Registered = (registerTensorCopies("tma", {&tmaCopies, &tmaFills}), addTargetPasses([](PassRegistry &R) {
                           R.add("lower-tma-copies",
                                 "Copy the descriptor loads kept for TMA that no pipeline "
                                 "staged with one TMA copy each (into the NVMMA buffer a dot "
                                 "reads, or a local_load), and the kept stores with TMA stores "
                                 "from such a buffer",
                                 [] { return std::make_unique<LowerTMACopiesPass>(); });
                         }),
                         true);
} // namespace
