//===- LowerDot.cpp - dot as fused multiply-adds --------------------------===//
//
// The FMA dot. A and B are staged in shared memory, row-major (A as [M][K],
// B as [K][N], after a batch index), whatever layouts they come in; after a
// barrier, a loop over K in chunks reads, for every row of C this thread
// owns, a vector of A along K, and for every column of B the chunk's values,
// and accumulates with fma into the thread's C registers (C keeps the layout
// assign-layouts gave it). Keeping A and B in shared memory rather than
// registers bounds register use by the C tile, and the loop (rather than a
// full unroll) keeps the LLVM IR small, so compile time stays low.
//
// The barrier before the staging writes is not emitted here: insert-barriers
// placed one in the IR where an earlier access of the scratch may still be
// in flight (codegen/layouts/InsertBarriers.cpp).
//
// Products are formed and summed in f32 for float inputs (exact for fp16,
// bf16 and fp8 products), f64 for f64, i32 for i8. Dots the target lowers
// on its matrix cores (TargetInfo::lowerInstruction) never come here.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/FloatConversions.h"
#include "codegen/lowering/LoweringContext.h"

#include <map>

using namespace tritium;

namespace {
using Regs = LoweringContext::Regs;
using Basis = LinearLayout::Basis;

/// Writes every element of a block this thread holds to shared memory at
/// \p Base + row-major offset (copies held by several threads write the same
/// value to the same place).
void stage(LoweringContext &C, Value *V, unsigned Base) {
  llvm::IRBuilder<> &B = C.B;
  unsigned Bytes = V->getType()->getScalarSizeInBytes();
  Regs Offsets = C.elementOffsets(C.layout(V));
  const Regs &Vals = C.get(V);
  for (unsigned R = 0; R < Vals.size(); ++R) {
    llvm::Value *Off = B.CreateAdd(B.CreateMul(Offsets[R], B.getInt32(Bytes)), B.getInt32(Base));
    B.CreateStore(Vals[R], C.sharedPtr(Off));
  }
}
} // namespace

DotSums::DotSums(LoweringContext &C, Type *Result)
    : C(C), Result(Result), Int(Result->isInt()),
      Work(Int ? C.B.getInt32Ty()
               : Result->getKind() == Type::Kind::F64 ? C.B.getDoubleTy() : C.B.getFloatTy()) {}

llvm::Value *DotSums::widen(llvm::Value *V, Type *Elem) const {
  llvm::Type *To = V->getType()->getWithNewType(Work); // a vector widens lane by lane
  if (V->getType() == To)
    return V;
  if (Int)
    return C.B.CreateSExt(V, To);
  return isCarriedFloat(Elem) ? toF32(C.B, V, Elem) : C.B.CreateFPCast(V, To);
}

llvm::Value *DotSums::narrow(llvm::Value *Sum) const {
  llvm::Type *T = Sum->getType()->getWithNewType(C.elemType(Result));
  if (Int || Sum->getType() == T)
    return Sum;
  return isCarriedFloat(Result) ? fromF32(C.B, Sum, Result) : C.B.CreateFPCast(Sum, T);
}

void tritium::lowerDot(LoweringContext &C, Instruction &I) {
  // The FMA dot reads its operands' registers: a local_load its matrix-core
  // lowering would have read itself is read now.
  for (Value *Op : {llvm::cast<DotInst>(I).getA(), llvm::cast<DotInst>(I).getB()})
    if (Instruction *Def = Op->getDefiningInstruction(); Def && isLoadedByUser(*Def))
      lowerSharedMemory(C, *Def, /*Deferred=*/true);
  llvm::IRBuilder<> &B = C.B;
  auto &Dot = llvm::cast<DotInst>(I);
  Value *AV = Dot.getA(), *BV = Dot.getB();
  const LinearLayout &LC = C.layout(I.getResult());
  Type *AT = AV->getType()->getScalarType(), *BT = BV->getType()->getScalarType();
  Type *CT = I.getResult()->getType()->getScalarType();
  llvm::ArrayRef<int64_t> AShape = AV->getType()->getShape();
  llvm::ArrayRef<int64_t> BShape = BV->getType()->getShape();
  unsigned Rank = AShape.size();
  bool Batched = Rank == 3;
  unsigned M = Rank - 2, N = Rank - 1;
  int64_t K = AShape[N];
  DotSums Summing(C, CT);
  bool Int = Summing.Int;
  llvm::Type *Work = Summing.Work;
  llvm::Type *ALL = C.elemType(AT), *BLL = C.elemType(BT);
  auto Widen = [&](llvm::Value *V, Type *E) { return Summing.widen(V, E); };

  // Stage A and B.
  unsigned Base = C.scratchOffset(I);
  unsigned ABytes = AV->getType()->getScalarSizeInBytes();
  unsigned BBytes = BV->getType()->getScalarSizeInBytes();
  unsigned BBase = Base + (unsigned(AV->getType()->getNumElements()) * ABytes + 15) / 16 * 16;
  stage(C, AV, Base);
  stage(C, BV, BBase);
  C.getTarget().barrier(B);

  // This thread's rows and columns of C (and batch), from its registers.
  std::vector<Regs> Coords = C.coordinates(LC);
  unsigned NRegs = Coords.size();
  std::map<std::pair<int32_t, int32_t>, unsigned> RowIds, ColIds;
  llvm::SmallVector<std::pair<llvm::Value *, llvm::Value *>, 8> Rows, Cols; // (batch, m|n)
  llvm::SmallVector<std::pair<unsigned, unsigned>, 32> RegRC;
  for (unsigned R = 0; R < NRegs; ++R) {
    Basis Co = LC.applyIn(kRegister, int32_t(R));
    int32_t Batch = Batched ? Co[0] : 0;
    auto RowKey = std::make_pair(Batch, Co[M]), ColKey = std::make_pair(Batch, Co[N]);
    llvm::Value *BatchV = Batched ? Coords[R][0] : nullptr;
    if (!RowIds.count(RowKey)) {
      RowIds[RowKey] = Rows.size();
      Rows.push_back({BatchV, Coords[R][M]});
    }
    if (!ColIds.count(ColKey)) {
      ColIds[ColKey] = Cols.size();
      Cols.push_back({BatchV, Coords[R][N]});
    }
    RegRC.push_back({RowIds[RowKey], ColIds[ColKey]});
  }

  // The K loop, in chunks of KC: a 16-byte vector of A along K when it
  // fits, fewer when the chunk's A and B values would crowd out the C tile
  // (about 48 live values per chunk). A 64x64 tile on 4 warps takes KC = 4:
  // 128 fmas a trip, 128 registers; KC = 8 took 156 registers and twice
  // ptxas's time for no fewer instructions per fma.
  int64_t KC = std::min<int64_t>(K, std::max<int64_t>(1, 16 / ABytes));
  int64_t Budget = std::max<int64_t>(1, 48 / int64_t(Rows.size() + Cols.size()));
  while (KC > 1 && KC > Budget)
    KC /= 2;
  llvm::Function *Fn = B.GetInsertBlock()->getParent();
  llvm::BasicBlock *Pre = B.GetInsertBlock();
  auto *Loop = llvm::BasicBlock::Create(C.getLLVMContext(), "dot.k", Fn);
  auto *Exit = llvm::BasicBlock::Create(C.getLLVMContext(), "dot.done", Fn);
  const Regs &Acc = C.get(Dot.getAcc());
  Regs Init;
  for (unsigned R = 0; R < NRegs; ++R)
    Init.push_back(Int || C.elemType(CT) == Work ? Acc[R] : Widen(Acc[R], CT));
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  llvm::PHINode *K0 = B.CreatePHI(B.getInt32Ty(), 2);
  K0->addIncoming(B.getInt32(0), Pre);
  llvm::SmallVector<llvm::PHINode *, 32> Phis;
  for (unsigned R = 0; R < NRegs; ++R) {
    Phis.push_back(B.CreatePHI(Work, 2));
    Phis.back()->addIncoming(Init[R], Pre);
  }
  // A[b][m][k0 .. k0 + KC) as one vector per row.
  std::vector<Regs> AVals(Rows.size());
  for (unsigned Rw = 0; Rw < Rows.size(); ++Rw) {
    auto [BatchV, Mv] = Rows[Rw];
    llvm::Value *Row = Batched ? B.CreateAdd(B.CreateMul(BatchV, B.getInt32(AShape[M])), Mv) : Mv;
    llvm::Value *Elem = B.CreateAdd(B.CreateMul(Row, B.getInt32(K)), K0);
    llvm::Value *Ptr = C.sharedPtr(B.CreateAdd(B.CreateMul(Elem, B.getInt32(ABytes)),
                                               B.getInt32(Base)));
    auto *VT = llvm::FixedVectorType::get(ALL, unsigned(KC));
    llvm::Value *Vec = B.CreateAlignedLoad(VT, Ptr, llvm::Align(std::min<int64_t>(16, KC * ABytes)));
    for (int64_t Kk = 0; Kk < KC; ++Kk)
      AVals[Rw].push_back(Widen(B.CreateExtractElement(Vec, Kk), AT));
  }
  // B[b][k0 + kk][n] for every column.
  std::vector<Regs> BVals(Cols.size());
  for (unsigned Cl = 0; Cl < Cols.size(); ++Cl) {
    auto [BatchV, Nv] = Cols[Cl];
    for (int64_t Kk = 0; Kk < KC; ++Kk) {
      llvm::Value *KRow = B.CreateAdd(K0, B.getInt32(Kk));
      if (Batched)
        KRow = B.CreateAdd(B.CreateMul(BatchV, B.getInt32(BShape[M])), KRow);
      llvm::Value *Elem = B.CreateAdd(B.CreateMul(KRow, B.getInt32(BShape[N])), Nv);
      llvm::Value *Ptr = C.sharedPtr(B.CreateAdd(B.CreateMul(Elem, B.getInt32(BBytes)),
                                                 B.getInt32(BBase)));
      BVals[Cl].push_back(Widen(B.CreateLoad(BLL, Ptr), BT));
    }
  }
  Regs Sums(Phis.begin(), Phis.end());
  for (int64_t Kk = 0; Kk < KC; ++Kk)
    for (unsigned R = 0; R < NRegs; ++R) {
      llvm::Value *X = AVals[RegRC[R].first][Kk], *Y = BVals[RegRC[R].second][Kk];
      Sums[R] = Int ? B.CreateAdd(Sums[R], B.CreateMul(X, Y))
                    : B.CreateIntrinsic(llvm::Intrinsic::fma, {Work}, {X, Y, Sums[R]});
    }
  llvm::Value *Next = B.CreateAdd(K0, B.getInt32(KC));
  llvm::BasicBlock *Latch = B.GetInsertBlock();
  K0->addIncoming(Next, Latch);
  for (unsigned R = 0; R < NRegs; ++R)
    Phis[R]->addIncoming(Sums[R], Latch);
  llvm::BranchInst *Back = B.CreateCondBr(B.CreateICmpSLT(Next, B.getInt32(K)), Loop, Exit);
  // One chunk is already |C tile| x KC fmas: unrolling the loop would only
  // grow the code (and the compile time).
  llvm::LLVMContext &Ctx = C.getLLVMContext();
  llvm::MDNode *Disable = llvm::MDNode::get(
      Ctx, {llvm::MDString::get(Ctx, "llvm.loop.unroll.disable")});
  llvm::MDNode *LoopID = llvm::MDNode::getDistinct(Ctx, {nullptr, Disable});
  LoopID->replaceOperandWith(0, LoopID);
  Back->setMetadata(llvm::LLVMContext::MD_loop, LoopID);
  B.SetInsertPoint(Exit);
  Regs Out;
  for (unsigned R = 0; R < NRegs; ++R)
    Out.push_back(Summing.narrow(Sums[R]));
  C.set(I.getResult(), std::move(Out));
}
