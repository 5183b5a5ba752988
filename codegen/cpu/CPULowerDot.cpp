//===- CPULowerDot.cpp - dot as row updates in vectors ---------------------===//
//
// The cpu target's dot. The generic FMA dot keeps the C tile in registers
// across its K loop: on a GPU a thread owns a few elements of it, but the
// cpu's one thread owns all of them, and a 64x64 tile made thousands of
// live values that LLVM spilled and took seconds to compile. Here A, B and
// C go to stack buffers, row-major and widened to the type products are
// summed in (f32 for float inputs, f64 for f64, i32 for i8), and a loop
// nest updates C one row at a time:
//
//   for b, m in steps of R:  c[r] = C[b][m + r][:]          (vectors of N)
//       for k:  row = B[b][k][:]
//               c[r] += splat(A[b][m + r][k]) * row      for r < R
//       C[b][m + r][:] = c[r]
//
// (fma for floats). LLVM splits the N-vectors into the host's registers; R
// rows at once (as many as keep R x N sums in 16 of them) reuse each row of
// B R times: a 64-wide f32 row on AVX-512 is 16 fmas for 4 loads of B and 4
// broadcasts, where one row was 4 fmas for 5 (bench_cpu's 1,024^3 matmul
// moved within the noise: the tiles' loads and trips through these buffers
// cost more than the loop). The loops stay loops, so the code and the
// compile time do not grow with M or K. The tile's registers are read back
// from C.
//
//===----------------------------------------------------------------------===//

#include "codegen/cpu/CPUTargetInfo.h"
#include "codegen/lowering/LoweringContext.h"

using namespace tritium;

namespace {
using Regs = LoweringContext::Regs;

/// A counted loop `for (i = 0; i < N; ++i)` around what \p Body emits at
/// the builder (given i); the builder goes on after the loop.
void emitLoop(llvm::IRBuilder<> &B, int64_t N, const llvm::Twine &Name,
              llvm::function_ref<void(llvm::Value *)> Body) {
  llvm::Function *Fn = B.GetInsertBlock()->getParent();
  llvm::BasicBlock *Pre = B.GetInsertBlock();
  auto *Head = llvm::BasicBlock::Create(B.getContext(), Name, Fn);
  auto *Exit = llvm::BasicBlock::Create(B.getContext(), Name + ".done", Fn);
  B.CreateBr(Head);
  B.SetInsertPoint(Head);
  llvm::PHINode *I = B.CreatePHI(B.getInt32Ty(), 2);
  I->addIncoming(B.getInt32(0), Pre);
  Body(I);
  llvm::Value *Next = B.CreateAdd(I, B.getInt32(1));
  I->addIncoming(Next, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpSLT(Next, B.getInt32(uint32_t(N))), Head, Exit);
  B.SetInsertPoint(Exit);
}
} // namespace

bool tritium::lowerCPUDot(LoweringContext &C, Instruction &I) {
  auto &Dot = llvm::cast<DotInst>(I);
  for (Value *Op : {Dot.getA(), Dot.getB()})
    if (Instruction *Def = Op->getDefiningInstruction(); Def && isLoadedByUser(*Def))
      lowerSharedMemory(C, *Def, /*Deferred=*/true);
  llvm::IRBuilder<> &B = C.B;
  Value *AV = Dot.getA(), *BV = Dot.getB(), *CV = Dot.getAcc();
  Type *AT = AV->getType()->getScalarType(), *BT = BV->getType()->getScalarType();
  Type *CT = I.getResult()->getType()->getScalarType();
  llvm::ArrayRef<int64_t> AShape = AV->getType()->getShape();
  bool Batched = AShape.size() == 3;
  int64_t Batch = Batched ? AShape[0] : 1, M = AShape[Batched], K = AShape[Batched + 1];
  int64_t N = BV->getType()->getShape()[Batched + 1];
  DotSums Summing(C, CT);
  bool Int = Summing.Int;
  llvm::Type *Work = Summing.Work;
  auto Widen = [&](llvm::Value *V, Type *E) { return Summing.widen(V, E); };

  // The buffers, in the entry block: their size is known.
  llvm::Function *Fn = B.GetInsertBlock()->getParent();
  llvm::IRBuilder<> Entry(&Fn->getEntryBlock(), Fn->getEntryBlock().begin());
  auto Buffer = [&](int64_t Elems, const char *Name) {
    llvm::AllocaInst *A = Entry.CreateAlloca(llvm::ArrayType::get(Work, uint64_t(Elems)), nullptr, Name);
    A->setAlignment(llvm::Align(64));
    return A;
  };
  llvm::Value *ABuf = Buffer(Batch * M * K, "dot.a"), *BBuf = Buffer(Batch * K * N, "dot.b");
  llvm::Value *CBuf = Buffer(Batch * M * N, "dot.c");
  auto At = [&](llvm::Value *Buf, llvm::Value *Elem) { return B.CreateGEP(Work, Buf, Elem); };
  llvm::Align WorkAlign(Work->getPrimitiveSizeInBits() / 8);
  // Every register at its element's row-major place (copies write alike),
  // widened 16 at a time and stored as one vector where their places are
  // consecutive, else scattered: thousands of scalar stores kept
  // InstCombine busy for seconds, and a transposed fp8 operand (no two
  // registers side by side) widened and stored element by element made
  // 120k lines of LLVM IR and two minutes of compile.
  auto Spill = [&](Value *V, Type *E, llvm::Value *Buf) {
    Regs Offsets = C.elementOffsets(C.layout(V));
    const Regs &Vals = C.get(V);
    for (unsigned Chunk = 0; Chunk < Vals.size(); Chunk += 16) {
      unsigned Size = std::min<unsigned>(16, unsigned(Vals.size()) - Chunk);
      auto Part = llvm::ArrayRef<llvm::Value *>(Vals).slice(Chunk, Size);
      auto Places = llvm::ArrayRef<llvm::Value *>(Offsets).slice(Chunk, Size);
      if (Size == 1) {
        B.CreateAlignedStore(Widen(Part[0], E), At(Buf, Places[0]), WorkAlign);
        continue;
      }
      llvm::Value *Wide = Widen(packRegisters(B, Part), E);
      unsigned Runs = 0;
      forEachConstantRun(Places, 16, [&](unsigned, unsigned) { ++Runs; });
      if (Runs == 1)
        B.CreateAlignedStore(Wide, At(Buf, Places[0]), WorkAlign);
      else
        B.CreateMaskedScatter(Wide, At(Buf, packRegisters(B, Places)), WorkAlign);
    }
  };
  Spill(AV, AT, ABuf);
  Spill(BV, BT, BBuf);
  Spill(CV, CT, CBuf);

  auto *Row = llvm::FixedVectorType::get(Work, unsigned(N));
  // Rows a step: R x N sums in 16 of the host's vector registers, R <= 8
  // and dividing M.
  int64_t RowBits = N * int64_t(Work->getPrimitiveSizeInBits());
  int64_t R = std::clamp<int64_t>(16 * 8 * int64_t(C.getTarget().maxAccessBytes()) / RowBits, 1, 8);
  while (M % R)
    R /= 2;
  emitLoop(B, Batch * M / R, "dot.m", [&](llvm::Value *Step) {
    llvm::Value *BM = B.CreateMul(Step, B.getInt32(uint32_t(R))); // b * M + m
    llvm::SmallVector<llvm::Value *, 8> CRows, Acc;
    for (int64_t Rr = 0; Rr < R; ++Rr) {
      CRows.push_back(At(CBuf, B.CreateMul(B.CreateAdd(BM, B.getInt32(uint32_t(Rr))),
                                           B.getInt32(uint32_t(N)))));
      Acc.push_back(B.CreateAlignedLoad(Row, CRows.back(), WorkAlign));
    }
    llvm::BasicBlock *Pre = B.GetInsertBlock();
    llvm::Value *BBase = B.CreateMul(B.CreateUDiv(BM, B.getInt32(uint32_t(M))),
                                     B.getInt32(uint32_t(K * N)));
    emitLoop(B, K, "dot.k", [&](llvm::Value *Kk) {
      llvm::SmallVector<llvm::PHINode *, 8> Sums;
      for (int64_t Rr = 0; Rr < R; ++Rr) {
        Sums.push_back(B.CreatePHI(Row, 2));
        Sums.back()->addIncoming(Acc[Rr], Pre);
      }
      llvm::Value *BRow = B.CreateAlignedLoad(
          Row, At(BBuf, B.CreateAdd(BBase, B.CreateMul(Kk, B.getInt32(uint32_t(N))))),
          WorkAlign);
      for (int64_t Rr = 0; Rr < R; ++Rr) {
        llvm::Value *ARow = B.CreateAdd(BM, B.getInt32(uint32_t(Rr)));
        llvm::Value *A = B.CreateAlignedLoad(
            Work, At(ABuf, B.CreateAdd(B.CreateMul(ARow, B.getInt32(uint32_t(K))), Kk)),
            WorkAlign);
        llvm::Value *Splat = B.CreateVectorSplat(unsigned(N), A);
        llvm::Value *Next =
            Int ? B.CreateAdd(Sums[Rr], B.CreateMul(Splat, BRow))
                : B.CreateIntrinsic(llvm::Intrinsic::fma, {Row}, {Splat, BRow, Sums[Rr]});
        Sums[Rr]->addIncoming(Next, B.GetInsertBlock());
        Acc[Rr] = Next;
      }
    });
    for (int64_t Rr = 0; Rr < R; ++Rr)
      B.CreateAlignedStore(Acc[Rr], CRows[Rr], WorkAlign);
  });

  Regs Offsets = C.elementOffsets(C.layout(I.getResult()));
  Regs Out;
  forEachConstantRun(Offsets, 16, [&](unsigned First, unsigned Count) {
    auto *VT = llvm::FixedVectorType::get(Work, Count);
    llvm::Value *Vec = B.CreateAlignedLoad(VT, At(CBuf, Offsets[First]), WorkAlign);
    Vec = Summing.narrow(Vec);
    for (unsigned K = 0; K < Count; ++K)
      Out.push_back(B.CreateExtractElement(Vec, K));
  });
  C.set(I.getResult(), std::move(Out));
  return true;
}
