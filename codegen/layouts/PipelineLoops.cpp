//===- PipelineLoops.cpp - Multi-stage software pipelining with cp.async --===//
//
// pipeline hides the latency of a loop's global loads behind its compute:
// the loads that stage-dot-operands turned into `local_alloc %x` of a
// `%x = load %ptrs, %mask` become asynchronous copies into a ring of S
// shared buffers (S = num_stages), issued S - 1 iterations ahead:
//
//   preheader:  %ring = local_alloc : memdesc<S x ...>
//               for k in 0 .. S-2:  (the addresses and masks of iteration k)
//                 async_copy %ring[k], %ptrs_k, %mask_k && k < trip count
//                 async_commit_group
//   header:     %n = phi [0, preheader], [%n + 1, latch]
//               %v.ahead = phi [v at iteration S-1], [its next value]  (each
//                           loop-carried value the addresses depend on)
//   body:       async_wait {num = S-2}    (iteration i's group has landed)
//               %cur = memdesc_index %ring, %n mod S   (the local_alloc's uses;
//                           a memdesc_trans of it is made again of %cur)
//               async_copy %ring[(%n + S-1) mod S], %ptrs_{i+S-1}, ...
//               async_commit_group
//               ... local_load %cur, dot ...
//   exit:       async_wait {num=0}        (the drain: no copy outlives the loop)
//
// A loop qualifies when it is counted (analysis/LoopInfo.h) with a
// preheader and one latch, asks for S >= 2 stages (its `num_stages`, else the
// pass option), and has staged loads: in a block run by every iteration
// (dominating the latch, in no inner loop), not volatile, used only by
// their local_alloc (in such a block too), with no `other` or a zero one
// (a masked-off copy writes zeros). A loop left from more than one block
// (a break or a return inside it) is not counted: it stays unpipelined,
// with a remark to the pass manager's remark stream (the dump knob's).
// What the pointers and masks depend on must be pure
// instructions of the loop and header phis whose updates are such again:
// that slice is cloned for each prologue iteration, and once in the body
// on the `.ahead` phis, which carry the phis' values S - 1 iterations
// ahead. The copies are masked by `iv pred bound` at their own iteration,
// so a loop shorter than S copies nothing past its end; the extra copies
// of the last S - 1 iterations are masked off (cp.async with src-size 0
// reads nothing and writes zeros). The ring's slots are remainders of %n by
// S, which insert-barriers tells apart (RingSlot), so the steady state has
// one barrier, after its wait. The slice left in the loop dies (dce) where
// nothing else uses it. Too many stages for the device's shared memory is
// the lowering's OutOfResources error, which names the bytes.
//
// Option register-copies=1, for targets without asynchronous copies
// (AMDGPU), stages through registers instead, as Triton's AMD stream
// pipeliner does: each copy is a `load` of iteration i + S - 1 (the
// load's own `other`, cache and eviction hints) issued where the
// async_copy would be (before this iteration's local_loads and dot) and a
// `local_store` of it into its slot at the end of the body, so that the
// global load is in flight while the dot runs; the prologue loads and
// stores iterations 0 .. S-2; no groups, waits or drain. insert-barriers
// orders the store before the next iteration's reads of that slot and
// after the previous iteration's.
//
// Option <units>=1 names the target's matrix units (analysis/MatrixCores.h).
// In a loop whose staged loads feed a dot they run asynchronously, reading
// its operands from shared memory (sm_90a, wgmma=1: wgmma's dots on NVMMA
// buffers), the body's copies go after the last such dot instead, so that
// they are issued while it runs (the lowering waits for it after them:
// they write the slot the previous iteration read, which the barrier
// after the wait has freed). Where the dot may stay in flight into the
// next iteration (staysInFlight; wgmma: a matmul's K loop), a barrier goes
// between the dot and the copies: the lowering waits there for the
// previous iteration's dot, which read the slot they write, and the
// barrier makes every warpgroup's wait come first.
//
// Tensor copies (analysis/TensorCopies.h; sm_90a: TMA): a descriptor_load
// that lower-tensor-descriptors kept, staged into a buffer the copies fill
// (TMA: the NVMMA layout with its rows contiguous), is copied by them
// instead: the preheader also allocates one mbarrier per slot and
// init_barriers them; each iteration's copies are one barrier_expect of
// all their bytes on the slot's barrier and one async_tma_copy per load,
// masked by `iv pred bound` like the cp.async copies (a copy past the end
// never starts, so nothing is left to drain); the body waits with
// wait_barrier on its slot's barrier for phase (n / S) mod 2, which
// makes the bytes visible to each thread without a barrier. A loop may mix
// both kinds; cp.async groups and waits are made only for pointer loads.
//
// Requires: layout-level IR after stage-dot-operands (and licm, which makes
// preheaders), before insert-barriers. Preserves: the CFG.
//
//===----------------------------------------------------------------------===//

#include "analysis/LoopInfo.h"
#include "analysis/SharedMemory.h"
#include "analysis/MatrixCores.h"
#include "analysis/TensorCopies.h"
#include "codegen/layouts/LayoutPasses.h"
#include "ir/Builder.h"
#include "ir/Dominance.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/PassManager.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <cmath>

using namespace tritium;

namespace {

using ValueMap = llvm::DenseMap<const Value *, Value *>;

Value *lookup(const ValueMap &M, Value *V) {
  auto It = M.find(V);
  return It == M.end() ? V : It->second;
}

/// Whether \p V is absent or a constant zero (what a masked-off copy
/// writes).
bool isZeroOrAbsent(const Value *V) {
  if (!V)
    return true;
  if (std::optional<double> F = getConstantFloatValue(V))
    return *F == 0.0 && !std::signbit(*F);
  return getConstantIntValue(V) == 0;
}

/// A global load whose block only goes to shared memory for a dot: a load
/// (cp.async copies) or a descriptor_load (TMA copies).
struct StagedLoad {
  Instruction *Load;
  Instruction *Alloc; // local_alloc %load
  Value *Ring = nullptr;
  bool isTMA() const { return Load->getOpcode() == Opcode::DescriptorLoad; }
};

class LoopPipeliner {
public:
  LoopPipeliner(Function &F, Loop &L, const DominatorTree &DT, const LoopInfo &LI,
                unsigned Stages, const MatrixCores *Cores, bool RegisterCopies)
      : L(L), DT(DT), LI(LI), Stages(Stages), Cores(Cores), RegisterCopies(RegisterCopies),
        B(F.getContext()) {}

  bool run() {
    if (!qualifies())
      return false;
    build();
    return true;
  }

private:
  bool qualifies() {
    if (!L.getCounted() || L.getLatches().size() != 1 || !L.getPreheader())
      return false;
    Counted = &*L.getCounted();
    Header = L.getHeader();
    Latch = L.getLatches().front();
    Preheader = L.getPreheader();
    for (BasicBlock *BB : L.getBlocks()) {
      if (LI.getLoopFor(BB) != &L || !DT.dominates(BB, Latch))
        continue;
      for (Instruction &I : *BB)
        if (Instruction *Alloc = stagingAlloc(I))
          // The copies go at the alloc: a block every iteration runs too
          // (not one a continue or an if may skip).
          if (DT.dominates(Alloc->getParent(), Latch))
            Loads.push_back({&I, Alloc});
    }
    if (Loads.empty() || !visitWithUpdates({Counted->IV->getResult(0)}))
      return false;
    // Each load on its own: one whose addresses cannot be recomputed ahead
    // stays a load, the others are still pipelined.
    llvm::erase_if(Loads, [&](const StagedLoad &S) {
      auto Saved = std::make_tuple(Seen, Phis, Slice);
      if (visitWithUpdates(S.Load->getOperands()))
        return false;
      std::tie(Seen, Phis, Slice) = Saved;
      return true;
    });
    if (Loads.empty())
      return false;
    for (BasicBlock *BB : L.getBlocks())
      for (Instruction &I : *BB)
        if (Slice.count(&I))
          Ordered.push_back(&I);
    return true;
  }

  /// The local_alloc that is \p I's only user, if \p I is a load that can
  /// become an asynchronous copy into it: a load, or a descriptor_load
  /// (which lower-tensor-descriptors left for the target's tensor copies)
  /// into a buffer they fill.
  Instruction *stagingAlloc(Instruction &I) {
    auto *Load = llvm::dyn_cast<LoadInst>(&I);
    // A masked-off async copy writes zeros; a register copy is the load
    // itself, whatever its `other`.
    if (Load ? Load->isVolatile() || (!RegisterCopies && !isZeroOrAbsent(Load->getOther()))
             : I.getOpcode() != Opcode::DescriptorLoad)
      return nullptr;
    Value *R = I.getResult(0);
    if (!R->hasOneUse())
      return nullptr;
    Instruction *User = R->uses().begin()->getUser();
    if (User->getOpcode() != Opcode::LocalAlloc)
      return nullptr;
    if (!Load && !tensorCopiesFill(*llvm::cast<MemDescType>(User->getResult(0)->getType())))
      return nullptr;
    return User;
  }

  /// visit()s \p Vs and then the updates of the phis they reach, until no
  /// new phi turns up.
  bool visitWithUpdates(llvm::ArrayRef<Value *> Vs) {
    for (Value *V : Vs)
      if (!visit(V))
        return false;
    for (unsigned K = 0; K < Phis.size(); ++K)
      if (!visit(Phis[K]->getIncomingValueForBlock(Latch)))
        return false;
    return true;
  }

  /// Adds what \p V depends on inside the loop to the slice; false where
  /// that is not a pure instruction of this loop or a header phi.
  bool visit(Value *V) {
    if (L.isInvariant(V))
      return true;
    Instruction *I = V->getDefiningInstruction();
    if (!Seen.insert(I).second)
      return true;
    if (auto *Phi = llvm::dyn_cast<PhiInst>(I)) {
      if (I->getParent() != Header)
        return false;
      Phis.push_back(Phi);
      return true;
    }
    if (I->hasSideEffects() || I->mayReadMemory() || LI.getLoopFor(I->getParent()) != &L)
      return false;
    for (Value *Op : I->getOperands())
      if (!visit(Op))
        return false;
    Slice.insert(I);
    return true;
  }

  /// Clones the slice at the builder's insertion point, with the phis
  /// taking the values \p M gives; returns \p M with every slice value.
  ValueMap cloneSlice(ValueMap M) {
    for (Instruction *I : Ordered) {
      Instruction *C = I->clone();
      for (unsigned K = 0; K < C->getNumOperands(); ++K)
        C->setOperand(K, lookup(M, C->getOperand(K)));
      B.insert(C);
      for (unsigned R = 0; R < I->getNumResults(); ++R) {
        C->getResult(R)->setName(""); // the names stay with the loop's values
        M[I->getResult(R)] = C->getResult(R);
      }
    }
    return M;
  }

  /// The phis' values one iteration after those \p M holds (its slice
  /// included).
  ValueMap nextIteration(const ValueMap &M) {
    ValueMap Next;
    for (PhiInst *P : Phis)
      Next[P->getResult(0)] = lookup(M, P->getIncomingValueForBlock(Latch));
    return Next;
  }

  /// The copies of one iteration (whose values \p M holds) into slot
  /// \p Slot of each ring, masked by the user's mask and by the iteration
  /// being one the loop runs, as one group (register copies: their loads,
  /// whose stores storeCopies makes).
  void issueCopies(const ValueMap &M, Value *Slot) {
    Value *Runs =
        B.createICmp(Counted->Pred, lookup(M, Counted->IV->getResult(0)), Counted->Bound);
    if (Barriers) {
      // One thread announces the bytes of every TMA copy of the iteration
      // on the slot's barrier, then starts them.
      Value *Barrier = B.createMemDescIndex(Barriers, Slot);
      B.createBarrierExpect(Barrier, Runs, TMABytes);
      for (const StagedLoad &S : Loads)
        if (S.isTMA()) {
          llvm::SmallVector<Value *, 5> Offsets;
          for (Value *Offset : llvm::cast<DescriptorLoadInst>(S.Load)->getOffsets())
            Offsets.push_back(lookup(M, Offset));
          B.createAsyncTMACopy(B.createMemDescIndex(S.Ring, Slot), Barrier,
                               lookup(M, S.Load->getOperand(0)), Offsets, Runs);
        }
    }
    if (!hasPointerLoads())
      return; // no cp.async group
    for (const StagedLoad &S : Loads) {
      if (S.isTMA())
        continue;
      auto *Load = llvm::cast<LoadInst>(S.Load);
      Type *T = S.Load->getResult(0)->getType();
      const LinearLayout &Layout = *S.Load->getLayout();
      Value *Mask = B.createSplat(Runs, T->getShape());
      Mask->getDefiningInstruction()->setLayout(Layout);
      if (Value *UserMask = Load->getMask()) {
        Mask = B.createBinary(Opcode::And, lookup(M, UserMask), Mask);
        Mask->getDefiningInstruction()->setLayout(Layout);
      }
      if (RegisterCopies) {
        Value *V = B.createLoad(lookup(M, Load->getPtr()), Mask, lookup(M, Load->getOther()),
                                {Load->getCache(), Load->getEvict()});
        V->getDefiningInstruction()->setLayout(Layout);
        Loaded.push_back({V, S.Ring});
        continue;
      }
      B.createAsyncCopy(B.createMemDescIndex(S.Ring, Slot), lookup(M, Load->getPtr()), Mask);
    }
    if (!RegisterCopies)
      B.createAsyncCommitGroup();
  }

  /// Register copies: stores what the last issueCopies loaded into slot
  /// \p Slot of its ring.
  void storeCopies(Value *Slot) {
    for (auto [V, Ring] : Loaded)
      B.create(Opcode::LocalStore, {}, {B.createMemDescIndex(Ring, Slot), V});
    Loaded.clear();
  }

  void build() {
    // The rings and the prologue: iterations 0 .. S-2.
    B.setInsertPoint(Preheader->getTerminator());
    B.setLoc(Loads.front().Load->getLoc());
    for (StagedLoad &S : Loads) {
      auto *One = llvm::cast<MemDescType>(S.Alloc->getResult(0)->getType());
      llvm::SmallVector<int64_t, 4> Dims{int64_t(Stages)};
      llvm::append_range(Dims, One->getAllocShape());
      S.Ring = B.createLocalAlloc(
          MemDescType::get(One->getElementType(), Dims, One->getLayout(), true));
      if (S.isTMA())
        TMABytes += bytesOf(S);
    }
    if (TMABytes) {
      // One barrier per slot, for the TMA copies of the iteration it holds.
      Barriers = B.createBarrierAlloc(Stages);
      for (unsigned K = 0; K < Stages; ++K)
        B.createInitBarrier(B.createMemDescIndex(Barriers, B.getInt32(K)), 1);
    }
    ValueMap AtK;
    for (PhiInst *P : Phis)
      AtK[P->getResult(0)] = P->getIncomingValueForBlock(Preheader);
    for (unsigned K = 0; K + 1 < Stages; ++K) {
      ValueMap M = cloneSlice(AtK);
      issueCopies(M, B.getInt32(K));
      storeCopies(B.getInt32(K));
      AtK = nextIteration(M);
    }
    Value *Zero = B.getInt32(0);

    // The header: the iteration counter and the phis S - 1 iterations ahead.
    B.setInsertPoint(&Header->front());
    PhiInst *Iter = B.createPhi(B.getI32Ty());
    Iter->getResult(0)->setName("pipeline.iter");
    Iter->addIncoming(Zero, Preheader);
    ValueMap Ahead;
    for (PhiInst *P : Phis) {
      PhiInst *A = B.createPhi(P->getResult(0)->getType());
      if (const LinearLayout *Layout = P->getLayout())
        A->setLayout(*Layout);
      A->getResult(0)->setName(P->getResult(0)->getName().str() + ".ahead");
      A->addIncoming(AtK.lookup(P->getResult(0)), Preheader);
      Ahead[P->getResult(0)] = A->getResult(0);
    }

    // The body: wait for this iteration's group, read its slot, copy for
    // iteration i + S - 1 into the slot the previous iteration read.
    // The first staged alloc (they all dominate the latch, so one
    // dominates the others).
    Instruction *First = Loads.front().Alloc;
    for (const StagedLoad &S : Loads)
      if (DT.dominates(S.Alloc->getResult(0), First))
        First = S.Alloc;
    B.setInsertPoint(First);
    B.setLoc(First->getLoc());
    bool CpAsync = hasPointerLoads() && !RegisterCopies;
    if (CpAsync)
      B.createAsyncWait(int64_t(Stages) - 2);
    Value *N = Iter->getResult(0), *S = B.getInt32(Stages);
    Value *ReadSlot = B.createBinary(Opcode::URem, N, S);
    if (Barriers) {
      // Iteration n's slot completes its (n / S)-th phase.
      Value *Phase = B.createBinary(Opcode::And, B.createBinary(Opcode::UDiv, N, S), B.getInt32(1));
      B.createWaitBarrier(B.createMemDescIndex(Barriers, ReadSlot), Phase);
    }
    for (StagedLoad &SL : Loads) {
      B.setInsertPoint(SL.Alloc);
      replaceBuffer(SL.Alloc->getResult(0), B.createMemDescIndex(SL.Ring, ReadSlot));
    }
    B.setInsertPoint(First);
    if (Instruction *Dot = lastAsynchronousDot(First)) {
      B.setInsertPoint(Dot->getNextNode());
      // A dot whose group stays in flight into the next iteration still
      // reads its slot there: the copies wait for every warpgroup to have
      // retired the one before it, which read the slot they write.
      if (Cores->staysInFlight(*Dot))
        B.createBarrier();
    }
    // Made where the copies go (after a dot that follows the allocs).
    Value *WriteSlot =
        B.createBinary(Opcode::URem, B.createBinary(Opcode::Add, N, B.getInt32(Stages - 1)), S);
    ValueMap M = cloneSlice(Ahead);
    issueCopies(M, WriteSlot);
    ValueMap Next = nextIteration(M);
    B.setInsertPoint(Latch->getTerminator());
    storeCopies(WriteSlot);
    Iter->addIncoming(B.createBinary(Opcode::Add, N, B.getInt32(1)), Latch);
    for (PhiInst *P : Phis)
      llvm::cast<PhiInst>(Ahead[P->getResult(0)]->getDefiningInstruction())
          ->addIncoming(Next.lookup(P->getResult(0)), Latch);
    for (StagedLoad &SL : Loads) {
      SL.Alloc->eraseFromParent();
      SL.Load->eraseFromParent();
    }

    // The drain. TMA's copies need none (every copy started was waited
    // for; those of iterations past the end never started): its barriers
    // end, so that their bytes may become other buffers.
    for (BasicBlock *Succ : Header->successors())
      if (!L.contains(Succ)) {
        B.setInsertPoint(Succ, Succ->getFirstNonPhi());
        if (CpAsync)
          B.createAsyncWait(0);
        for (unsigned K = 0; Barriers && K < Stages; ++K)
          B.createInvalBarrier(B.createMemDescIndex(Barriers, B.getInt32(K)));
      }
  }

  /// Replaces the buffer \p Old by the ring slot \p New: the views of
  /// \p Old (memdesc_trans, a transposed operand) are made again of
  /// \p New, as a view's type follows its operand's (a slot is mutable).
  void replaceBuffer(Value *Old, Value *New) {
    llvm::SmallVector<Instruction *, 2> Views;
    for (const Use &U : Old->uses())
      if (U.getUser()->getOpcode() == Opcode::MemDescTrans)
        Views.push_back(U.getUser());
    for (Instruction *View : Views) {
      B.setInsertPoint(View);
      B.setLoc(View->getLoc());
      replaceBuffer(View->getResult(0),
                    B.createMemDescTrans(New, llvm::cast<MemDescTransInst>(View)->getOrder()));
      View->eraseFromParent();
    }
    Old->replaceAllUsesWith(New);
  }

  static int64_t bytesOf(const StagedLoad &S) {
    Type *T = S.Load->getResult(0)->getType();
    return T->getNumElements() * T->getScalarSizeInBytes();
  }
  /// Whether some staged loads are cp.async copies (pointer loads).
  bool hasPointerLoads() const {
    return llvm::any_of(Loads, [](const StagedLoad &S) { return !S.isTMA(); });
  }

  /// The last dot after \p From in its block that the matrix units run
  /// asynchronously, reading both operands from shared memory. One before
  /// it (attention's QK^T when only V is staged) would put the copies
  /// ahead of this iteration's async_wait, which would then wait for them
  /// too.
  Instruction *lastAsynchronousDot(Instruction *From) const {
    Instruction *Last = nullptr;
    if (!Cores)
      return Last;
    for (Instruction *I = From; I; I = I->getNextNode())
      if (I->getOpcode() == Opcode::Dot && Cores->runsAsynchronously(*I))
        Last = I;
    return Last;
  }

  Loop &L;
  const DominatorTree &DT;
  const LoopInfo &LI;
  unsigned Stages;
  const MatrixCores *Cores;
  bool RegisterCopies;
  IRBuilder B;
  const CountedLoop *Counted = nullptr;
  BasicBlock *Header = nullptr, *Latch = nullptr, *Preheader = nullptr;
  llvm::SmallVector<StagedLoad, 2> Loads;
  Value *Barriers = nullptr; // the TMA copies' mbarriers, one per slot
  int64_t TMABytes = 0;      // what one iteration's TMA copies write
  /// Register copies loaded by issueCopies, with their rings.
  llvm::SmallVector<std::pair<Value *, Value *>, 2> Loaded;
  llvm::SmallPtrSet<const Instruction *, 32> Seen;
  llvm::SmallVector<PhiInst *, 4> Phis;
  llvm::SmallPtrSet<const Instruction *, 32> Slice;
  llvm::SmallVector<Instruction *, 32> Ordered;
};

class PipelineLoopsPass : public FunctionPass {
public:
  PipelineLoopsPass(unsigned NumStages, const MatrixCores *Cores, bool RegisterCopies)
      : NumStages(NumStages), Cores(Cores), RegisterCopies(RegisterCopies) {}
  llvm::StringRef getName() const override { return "pipeline"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override {
    const DominatorTree &DT = AM.get<DominatorTreeAnalysis>(F);
    const LoopInfo &LI = AM.get<LoopAnalysis>(F);
    bool Changed = false;
    // Innermost first: an outer loop's loads are not in an inner one's.
    for (Loop *L : LI.getLoopsInnermostFirst()) {
      int64_t S = L->getNumStages().value_or(NumStages);
      if (S < 2)
        continue;
      if (L->getExitingBlocks().size() > 1) {
        remarkLeavesEarly(*L, AM.getRemarkStream());
        continue;
      }
      Changed |= LoopPipeliner(F, *L, DT, LI, unsigned(S), Cores, RegisterCopies).run();
    }
    if (!Changed)
      return PreservedAnalyses::all();
    return PreservedAnalyses::none().preserve<DominatorTreeAnalysis>().preserve<LoopAnalysis>();
  }

private:
  /// A loop left by a break or a return is not counted: it stays a loop of
  /// plain loads, which the dumps say.
  static void remarkLeavesEarly(const Loop &L, llvm::raw_ostream *OS) {
    if (!OS)
      return;
    *OS << "// remark: pipeline: the loop of block '" << L.getHeader()->getName() << "'";
    if (Loc At = L.getHeader()->getTerminator()->getLoc(); At.isKnown()) {
      *OS << " at ";
      At.print(*OS);
    }
    *OS << " is not pipelined: it is left from more than one place (a break or a return)\n";
  }

  unsigned NumStages;
  const MatrixCores *Cores;
  bool RegisterCopies;
};

} // namespace

std::unique_ptr<Pass> tritium::createPipelineLoopsPass(unsigned NumStages,
                                                      const MatrixCores *Cores,
                                                      bool RegisterCopies) {
  return std::make_unique<PipelineLoopsPass>(NumStages, Cores, RegisterCopies);
}
