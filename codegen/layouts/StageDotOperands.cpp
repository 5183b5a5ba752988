//===- StageDotOperands.cpp - mma.sync operands through shared memory -----===//
//
// stage-dot-operands turns the conversions that bring a dot's A and B into
// the operand layouts of a target's matrix units (analysis/MatrixCores.h:
// mma.sync's, MFMA's) into a trip through shared memory the hardware is
// built for:
//
//   %a2 = convert_layout %a {layout = <A operand>}
//   %b2 = convert_layout %b {layout = <B operand>}
//   %d  = dot %a2, %b2, %c
//     becomes
//   %sa = local_alloc %a : memdesc<MxK x f16, <swizzled>>
//   %sb = local_alloc %b : memdesc<KxN x f16, <swizzled>>
//   %a2 = local_load %sa {layout = <A operand>}
//   %b2 = local_load %sb {layout = <B operand>}
//   %d  = dot %a2, %b2, %c
//
// (both writes, then both reads: one barrier between them, and the two
// buffers live at once so that they do not share bytes).
//
// The shared layout keeps the dimension the source holds contiguous in
// registers contiguous in memory too (so each thread writes 16-byte
// vectors), in XOR-swizzled 16-byte chunks (so those writes and the reads
// are free of bank conflicts). The lowering then reads it with ldmatrix:
// plain where the dimension the fragment pairs its registers along (K of
// A, K of B) is contiguous, .trans where the other one is
// (codegen/lowering/LowerSharedMemory.cpp). A conversion that is only a
// renaming of registers (the P of attention, from one dot's accumulator to
// the next one's A) stays: it costs nothing.
//
// An operand that is `trans %x` (b.T of a loaded [N, K] tile) is stored as
// %x, in that layout with its dimensions permuted back, and read through
// `memdesc_trans`: the same bytes, and %x stays a load the pipeliner can
// stage:
//
//   %sb = local_alloc %x : memdesc<NxK x f16, <swizzled, permuted>>
//   %bt = memdesc_trans %sb {order = [1, 0]} : memdesc<KxN x f16, <swizzled>>
//   %b2 = local_load %bt {layout = <B operand>}
//
// Option <units>=1 names the target's matrix units (analysis/MatrixCores.h):
// where they read an operand from shared memory themselves, it takes the
// shared layout they answer instead (sharedOperandLayout). On sm_90a,
// wgmma=1: the operands of a dot placed for wgmma take the NVMMA layout,
// which wgmma reads through matrix descriptors (it is the layout above for
// rows of 128 bytes; longer rows are split into 128-byte column blocks);
// rows of 64 or 32 bytes (a K tile of 32 fp16 or 64 fp8, attention's fp8
// tiles) take wgmma's 64- or 32-byte swizzle where K is the contiguous
// dimension (K-major, the only kind 8-bit inputs have); where no NVMMA
// layout fits the block, the swizzled one stays and the dot falls back to
// mma.sync.
//
// Requires: layouts assigned, conversions final (after
// remove-layout-conversions and licm), before insert-barriers. Preserves:
// the CFG.
//
//===----------------------------------------------------------------------===//

#include "analysis/DotLayouts.h"
#include "analysis/MatrixCores.h"
#include "codegen/layouts/LayoutPasses.h"
#include "ir/Builder.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/PassManager.h"

using namespace tritium;

namespace {

/// The dimension \p L keeps most consecutive along in a thread's registers
/// (the last on a tie).
unsigned contiguousDim(const LinearLayout &L) {
  return L.getNumConsecutiveInOut(kRegister, outDimName(0)) >
                 L.getNumConsecutiveInOut(kRegister, outDimName(1))
             ? 0
             : 1;
}

/// Whether the conversion \p Def is one of registers only.
bool isRenaming(const Instruction &Convert) {
  const Instruction *SrcDef = Convert.getOperand(0)->getDefiningInstruction();
  return SrcDef && SrcDef->getLayout() &&
         registerMapping(*SrcDef->getLayout(), *Convert.getLayout());
}

/// The local_alloc of the source of \p Convert, operand \p OpIdx of \p Dot,
/// before \p B's insertion point, in the swizzled layout that keeps its
/// register-contiguous dimension contiguous, or the one \p Cores read the
/// operand in from shared memory; a `trans %x` source as the header says.
Value *allocate(IRBuilder &B, Instruction &Convert, const Instruction &Dot, unsigned OpIdx,
               const MatrixCores *Cores) {
  Value *Src = Convert.getOperand(0);
  Instruction *SrcDef = Src->getDefiningInstruction();
  const LinearLayout &From = SrcDef ? *SrcDef->getLayout() : *Convert.getLayout();
  Type *T = Src->getType();
  unsigned Contiguous = contiguousDim(From), Bytes = T->getScalarSizeInBytes();
  std::optional<LinearLayout> ForCores;
  if (Cores)
    ForCores = Cores->sharedOperandLayout(Dot, OpIdx, T->getShape(), Contiguous, Bytes);
  LinearLayout Shared =
      ForCores ? *ForCores : swizzledSharedLayout(T->getShape(), Contiguous, Bytes);
  auto *Ty = MemDescType::get(T->getScalarType(), T->getShape(), Shared, false);
  auto *Trans = llvm::dyn_cast_or_null<TransInst>(SrcDef);
  if (!Trans)
    return B.createLocalAlloc(Ty, Src);
  llvm::ArrayRef<int64_t> Order = Trans->getOrder();
  llvm::SmallVector<int64_t, 4> Inverse(Order.size());
  for (unsigned I = 0; I < Order.size(); ++I)
    Inverse[Order[I]] = I;
  Value *Stored = B.createLocalAlloc(Ty->getTransposed(Inverse), Trans->getSrc());
  return B.createMemDescTrans(Stored, Order);
}

/// Erases \p Convert, and the `trans` it read if nothing else reads that
/// (so that a load it transposed has the local_alloc as its one user).
void eraseConversion(Instruction *Convert) {
  Instruction *Src = Convert->getOperand(0)->getDefiningInstruction();
  Convert->eraseFromParent();
  if (Src && Src->getOpcode() == Opcode::Trans && Src->getResult(0)->use_empty())
    Src->eraseFromParent();
}

/// A local_load of \p Mem at \p B's insertion point in \p Convert's
/// layout: the value the conversion made.
Value *readAs(IRBuilder &B, Value *Mem, const Instruction &Convert) {
  Value *Loaded = B.createLocalLoad(Mem);
  Loaded->getDefiningInstruction()->setLayout(*Convert.getLayout());
  return Loaded;
}

/// Stages the operands of \p Dot that arrive through conversions. Those
/// converted in the dot's block go together right before the dot: both
/// local_allocs first, then both local_loads, so that one barrier separates
/// the writes from the reads and the two buffers, live at once, do not
/// share bytes. A conversion elsewhere (hoisted out of the loop by licm,
/// as attention's Q) is allocated where it is, once (\p Hoisted maps it to
/// its buffer), and read right before each dot that uses it: the lowering
/// then reads it a K step at a time, so that it holds no registers across
/// the loop (Triton does the same; Q in registers would cost attention 32
/// to 64 of them per thread).
bool stageOperands(Instruction &Dot, llvm::DenseMap<Instruction *, Value *> &Hoisted,
                   const MatrixCores *Cores) {
  llvm::SmallVector<unsigned, 2> AtDot;
  llvm::SmallVector<std::pair<unsigned, Value *>, 2> ReadAtDot;
  IRBuilder B(Dot.getParent()->getParent()->getContext());
  for (unsigned K = 0; K < 2; ++K) {
    Instruction *Def = Dot.getOperand(K)->getDefiningInstruction();
    if (!Def || Def->getOpcode() != Opcode::ConvertLayout || isRenaming(*Def))
      continue;
    if (Def->getParent() == Dot.getParent()) {
      AtDot.push_back(K);
      continue;
    }
    Value *&Mem = Hoisted[Def];
    if (!Mem) {
      B.setInsertPoint(Def);
      B.setLoc(Def->getLoc());
      Mem = allocate(B, *Def, Dot, K, Cores);
    }
    ReadAtDot.push_back({K, Mem});
  }
  if (AtDot.empty() && ReadAtDot.empty())
    return false;
  B.setInsertPoint(&Dot);
  B.setLoc(Dot.getLoc());
  // The operands allocated here are read first, the hoisted ones last:
  // the barrier their writes need then comes before every read, none
  // between a hoisted read and the dot that lowers it (isLoadedByUser).
  llvm::SmallVector<std::pair<unsigned, Value *>, 2> Reads;
  for (unsigned K : AtDot)
    Reads.push_back({K, allocate(B, *Dot.getOperand(K)->getDefiningInstruction(), Dot, K, Cores)});
  Reads.append(ReadAtDot.begin(), ReadAtDot.end());
  for (auto [K, Mem] : Reads) {
    Instruction *Convert = Dot.getOperand(K)->getDefiningInstruction();
    Dot.setOperand(K, readAs(B, Mem, *Convert));
    if (Convert->getResult()->use_empty() && !Hoisted.count(Convert))
      eraseConversion(Convert);
  }
  return true;
}

/// Replaces what is left of the hoisted conversion \p Convert (uses that
/// are not dot operands) by a read of its buffer \p Mem, and erases it.
void finishHoisted(Instruction &Convert, Value *Mem) {
  if (!Convert.getResult()->use_empty()) {
    IRBuilder B(Convert.getParent()->getParent()->getContext());
    B.setInsertPoint(&Convert);
    B.setLoc(Convert.getLoc());
    Convert.getResult()->replaceAllUsesWith(readAs(B, Mem, Convert));
  }
  eraseConversion(&Convert);
}

class StageDotOperandsPass : public FunctionPass {
  const MatrixCores *Cores;

public:
  explicit StageDotOperandsPass(const MatrixCores *Cores) : Cores(Cores) {}
  llvm::StringRef getName() const override { return "stage-dot-operands"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &) override {
    llvm::SmallVector<Instruction *, 8> Dots;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (isMatrixCoreDot(I))
          Dots.push_back(&I);
    bool Changed = false;
    llvm::DenseMap<Instruction *, Value *> Hoisted;
    for (Instruction *Dot : Dots)
      Changed |= stageOperands(*Dot, Hoisted, Cores);
    for (auto [Convert, Mem] : Hoisted)
      finishHoisted(*Convert, Mem);
    if (!Changed)
      return PreservedAnalyses::all();
    return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>();
  }
};

} // namespace

std::unique_ptr<Pass> tritium::createStageDotOperandsPass(const MatrixCores *Cores) {
  return std::make_unique<StageDotOperandsPass>(Cores);
}
