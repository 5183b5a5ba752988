//===- LowerScan.cpp - Inclusive scans (associative_scan, cumsum) ---------===//
//
// When the layout keeps the whole scanned axis in each thread's registers,
// the scan is a sequence of combines in coordinate order. Otherwise it goes
// through shared memory: every thread writes its elements at their row-major
// offsets; after a barrier, each line along the axis is scanned in order by
// one thread (lines are dealt round-robin); after another barrier every
// thread reads its elements back. The second form is correct for any layout
// and any associative combine but serial per line; a warp-parallel version
// is future work (scan speed is no goal of the current issue). No barrier
// goes before the first writes: insert-barriers placed one in the IR where
// an earlier access may still be in flight; what follows the writes is
// synchronized here, so only reads are pending when the scan ends.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/LoweringContext.h"

using namespace tritium;

namespace {
using Regs = LoweringContext::Regs;
using Basis = LinearLayout::Basis;

bool axisInRegisters(const LinearLayout &L, unsigned Axis) {
  for (const char *Name : {kLane, kWarp})
    for (const Basis &B : L.getBases(Name))
      if (B[Axis])
        return false;
  return true;
}
} // namespace

void tritium::lowerScan(LoweringContext &C, Instruction &I) {
  auto &S = llvm::cast<ScanInst>(I);
  llvm::IRBuilder<> &B = C.B;
  const LinearLayout &L = C.layout(I.getOperand(0));
  unsigned Axis = unsigned(S.getAxis());
  unsigned NOps = I.getNumOperands();
  unsigned NRegs = LoweringContext::numRegs(L);
  std::vector<Regs> Out(NOps, Regs(NRegs, nullptr));

  if (axisInRegisters(L, Axis)) {
    // Registers grouped by their coordinates off the axis, scanned in order.
    for (auto &[Key, Members] : registersAlongAxis(L, Axis)) {
      if (S.isReverse())
        std::reverse(Members.begin(), Members.end());
      Regs Acc;
      for (auto [Along, R] : Members) {
        Regs X;
        for (unsigned K = 0; K < NOps; ++K)
          X.push_back(C.get(I.getOperand(K))[R]);
        Acc = Acc.empty() ? X : combineTuples(C, S, Acc, X);
        for (unsigned K = 0; K < NOps; ++K)
          Out[K][R] = Acc[K];
      }
    }
  } else {
    Type *T = I.getOperand(0)->getType();
    llvm::ArrayRef<int64_t> Shape = T->getShape();
    unsigned Rank = Shape.size();
    int64_t Numel = T->getNumElements(), Len = Shape[Axis];
    int64_t Stride = 1;
    for (unsigned D = Axis + 1; D < Rank; ++D)
      Stride *= Shape[D];
    int64_t Lines = Numel / Len;
    // One region per operand, row-major.
    llvm::SmallVector<unsigned, 4> Regions;
    llvm::SmallVector<llvm::Type *, 4> Tys;
    unsigned Off = C.scratchOffset(I);
    for (unsigned K = 0; K < NOps; ++K) {
      llvm::Type *Ty = C.get(I.getOperand(K))[0]->getType();
      Tys.push_back(Ty);
      Regions.push_back(Off);
      Off += unsigned(Numel) * LoweringContext::sharedBytes(Ty);
    }
    auto Addr = [&](unsigned K, llvm::Value *Elem) {
      unsigned Bytes = LoweringContext::sharedBytes(Tys[K]);
      return C.sharedPtr(B.CreateAdd(B.getInt32(Regions[K]),
                                     B.CreateMul(Elem, B.getInt32(Bytes))));
    };
    auto Linear = [&](const Regs &Co) {
      llvm::Value *E = Co[0];
      for (unsigned D = 1; D < Rank; ++D)
        E = B.CreateAdd(B.CreateMul(E, B.getInt32(Shape[D])), Co[D]);
      return E;
    };
    std::vector<Regs> Coords = C.coordinates(L);
    for (unsigned R = 0; R < NRegs; ++R)
      for (unsigned K = 0; K < NOps; ++K)
        B.CreateStore(C.get(I.getOperand(K))[R], Addr(K, Linear(Coords[R])));
    C.getTarget().barrier(B);
    // Thread t scans lines t, t + threads, ... in a loop.
    llvm::Function *Fn = B.GetInsertBlock()->getParent();
    llvm::LLVMContext &Ctx = C.getLLVMContext();
    unsigned Threads = C.getOptions().NumWarps * C.getOptions().warpSize();
    llvm::Value *Tid = B.CreateAdd(B.CreateMul(C.warpId(), B.getInt32(C.getOptions().warpSize())),
                                   C.laneId());
    llvm::BasicBlock *Pre = B.GetInsertBlock();
    auto *Head = llvm::BasicBlock::Create(Ctx, "scan.line", Fn);
    auto *Body = llvm::BasicBlock::Create(Ctx, "scan.body", Fn);
    auto *Exit = llvm::BasicBlock::Create(Ctx, "scan.done", Fn);
    B.CreateBr(Head);
    B.SetInsertPoint(Head);
    llvm::PHINode *Line = B.CreatePHI(B.getInt32Ty(), 2);
    Line->addIncoming(Tid, Pre);
    B.CreateCondBr(B.CreateICmpSLT(Line, B.getInt32(Lines)), Body, Exit);
    B.SetInsertPoint(Body);
    // The line's first element: (line / Stride) * Len * Stride + line % Stride.
    llvm::Value *Outer = B.CreateUDiv(Line, B.getInt32(Stride));
    llvm::Value *Inner = B.CreateURem(Line, B.getInt32(Stride));
    llvm::Value *Start = B.CreateAdd(B.CreateMul(Outer, B.getInt32(Len * Stride)), Inner);
    // The walk along the line: its first element stays, then a loop folds
    // in the others (a loop, not an unroll: a line may hold 2^20 elements).
    auto Element = [&](llvm::Value *J) {
      llvm::Value *Pos = S.isReverse() ? B.CreateSub(B.getInt32(Len - 1), J) : J;
      return B.CreateAdd(Start, B.CreateMul(Pos, B.getInt32(Stride)));
    };
    auto LoadAt = [&](llvm::Value *E) {
      Regs X;
      for (unsigned K = 0; K < NOps; ++K)
        X.push_back(B.CreateLoad(Tys[K], Addr(K, E)));
      return X;
    };
    Regs First = LoadAt(Element(B.getInt32(0)));
    if (Len > 1) {
      llvm::BasicBlock *WalkPre = B.GetInsertBlock();
      auto *Walk = llvm::BasicBlock::Create(Ctx, "scan.walk", Fn);
      auto *Walked = llvm::BasicBlock::Create(Ctx, "scan.walked", Fn);
      B.CreateBr(Walk);
      B.SetInsertPoint(Walk);
      llvm::PHINode *J = B.CreatePHI(B.getInt32Ty(), 2);
      J->addIncoming(B.getInt32(1), WalkPre);
      Regs Acc;
      for (unsigned K = 0; K < NOps; ++K) {
        llvm::PHINode *P = B.CreatePHI(Tys[K], 2);
        P->addIncoming(First[K], WalkPre);
        Acc.push_back(P);
      }
      llvm::Value *E = Element(J);
      Regs Next = combineTuples(C, S, Acc, LoadAt(E));
      for (unsigned K = 0; K < NOps; ++K)
        B.CreateStore(Next[K], Addr(K, E));
      llvm::Value *NextJ = B.CreateAdd(J, B.getInt32(1));
      for (unsigned K = 0; K < NOps; ++K)
        llvm::cast<llvm::PHINode>(Acc[K])->addIncoming(Next[K], B.GetInsertBlock());
      J->addIncoming(NextJ, B.GetInsertBlock());
      B.CreateCondBr(B.CreateICmpSLT(NextJ, B.getInt32(Len)), Walk, Walked);
      B.SetInsertPoint(Walked);
    }
    Line->addIncoming(B.CreateAdd(Line, B.getInt32(Threads)), B.GetInsertBlock());
    B.CreateBr(Head);
    B.SetInsertPoint(Exit);
    C.getTarget().barrier(B);
    for (unsigned R = 0; R < NRegs; ++R)
      for (unsigned K = 0; K < NOps; ++K)
        Out[K][R] = B.CreateLoad(Tys[K], Addr(K, Linear(Coords[R])));
  }
  for (unsigned K = 0; K < NOps; ++K)
    C.set(I.getResult(K), std::move(Out[K]));
}
