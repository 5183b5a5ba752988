//===- Builder.h - Creating instructions -------------------------*- C++ -*-===//
//
// IRBuilder creates instructions at an insertion point, computing result
// types from operands. Every instruction's types are checked as it is
// created; a violation throws CompileError at the builder's current location
// (the frontend checks user-level rules before building, so this is the net
// under it, and it keeps bad IR from ever existing).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_BUILDER_H
#define TRITIUM_IR_BUILDER_H

#include "ir/BasicBlock.h"
#include "ir/Context.h"
#include "ir/Instructions.h"

#include <optional>
#include <utility>

namespace tritium {

struct LoadOptions {
  std::optional<CacheModifier> Cache;
  std::optional<EvictionPolicy> Evict;
  bool Volatile = false;
};

struct StoreOptions {
  std::optional<CacheModifier> Cache;
  std::optional<EvictionPolicy> Evict;
};

class IRBuilder {
public:
  explicit IRBuilder(Context &C) : Ctx(C) {}

  Context &getContext() const { return Ctx; }

  // Insertion point.
  /// Insert at the end of \p B.
  void setInsertPoint(BasicBlock *B) { setInsertPoint(B, B->end()); }
  void setInsertPoint(BasicBlock *B, BasicBlock::iterator It) {
    Block = B;
    Point = It;
  }
  /// Insert right before \p I.
  void setInsertPoint(Instruction *I) {
    setInsertPoint(I->getParent(), I->getIterator());
  }
  BasicBlock *getInsertBlock() const { return Block; }
  BasicBlock::iterator getInsertPoint() const { return Point; }

  /// Location given to the instructions created from now on.
  void setLoc(Loc L) { CurLoc = L; }
  Loc getLoc() const { return CurLoc; }

  /// Checks \p I's types and inserts it at the insertion point (if there is
  /// one). On a type error deletes \p I and throws CompileError.
  Instruction *insert(Instruction *I);
  /// Creates an instruction from its generic parts and inserts it.
  Instruction *create(Opcode Op, llvm::ArrayRef<Type *> ResultTypes,
                      llvm::ArrayRef<Value *> Operands, AttrList Attrs = {},
                      llvm::ArrayRef<BasicBlock *> Blocks = {});

  // Types.
  Type *getI1Ty() const { return Type::getI1(Ctx); }
  Type *getI32Ty() const { return Type::getI32(Ctx); }
  Type *getI64Ty() const { return Type::getI64(Ctx); }
  Type *getF32Ty() const { return Type::getF32(Ctx); }

  // Constants (scalar, or a splat when \p T is a block type).
  Value *getIntConstant(Type *T, int64_t V);
  Value *getFloatConstant(Type *T, double V);
  Value *getInt32(int64_t V) { return getIntConstant(getI32Ty(), V); }
  Value *getInt64(int64_t V) { return getIntConstant(getI64Ty(), V); }
  Value *getBool(bool V) { return getIntConstant(getI1Ty(), V); }
  Value *createUndef(Type *T);

  // Arithmetic.
  Value *createBinary(Opcode Op, Value *L, Value *R);
  Value *createUnary(Opcode Op, Value *V);
  Value *createFma(Value *A, Value *B, Value *C);
  Value *createICmp(ICmpPredicate P, Value *L, Value *R);
  Value *createFCmp(FCmpPredicate P, Value *L, Value *R);
  Value *createSelect(Value *C, Value *T, Value *F);
  /// \p To is the full result type (a block type for a block operand).
  Value *createCast(Opcode Op, Value *V, Type *To,
                    std::optional<RoundingMode> Rounding = std::nullopt);

  // Memory.
  Value *createGEP(Value *Ptr, Value *Offset);
  Value *createLoad(Value *Ptr, Value *Mask = nullptr, Value *Other = nullptr,
                    const LoadOptions &Opts = {});
  Instruction *createStore(Value *Ptr, Value *Val, Value *Mask = nullptr,
                           const StoreOptions &Opts = {});
  Value *createAtomicRMW(AtomicKind K, Value *Ptr, Value *Val,
                         Value *Mask = nullptr, MemSem Sem = MemSem::AcqRel,
                         MemScope Scope = MemScope::GPU);
  // Shared memory. \p MemDesc is the allocation's memdesc type.
  Value *createLocalAlloc(Type *MemDesc, Value *Init = nullptr);
  Value *createLocalLoad(Value *MemDesc);
  Instruction *createAsyncCopy(Value *MemDesc, Value *Ptr, Value *Mask = nullptr);
  Instruction *createAsyncCommitGroup();
  /// make_tensor_descriptor: \p Shape i32 and \p Strides i64, one each per
  /// dimension of \p Ty's block.
  Value *createMakeTensorDesc(TensorDescType *Ty, Value *Base, llvm::ArrayRef<Value *> Shape,
                              llvm::ArrayRef<Value *> Strides, Value *TensorMap = nullptr);
  Value *createDescriptorLoad(Value *Desc, llvm::ArrayRef<Value *> Offsets);
  Instruction *createDescriptorStore(Value *Desc, llvm::ArrayRef<Value *> Offsets, Value *Val);
  Instruction *createAsyncWait(int64_t Num);
  // mbarriers and TMA (MBarrierInst, AsyncTMACopyInst).
  /// A local_alloc of one mbarrier (memdesc<1 x i64>), or of \p Slots of
  /// them (memdesc<Slots x 1 x i64>), uninitialized.
  Value *createBarrierAlloc(unsigned Slots = 0);
  Instruction *createInitBarrier(Value *Barrier, int64_t Count);
  Instruction *createBarrierExpect(Value *Barrier, Value *Pred, int64_t Bytes);
  Instruction *createWaitBarrier(Value *Barrier, Value *Phase);
  Instruction *createInvalBarrier(Value *Barrier);
  Instruction *createAsyncTMAStore(Value *Desc, llvm::ArrayRef<Value *> Offsets, Value *MemDesc);
  Instruction *createAsyncTMACopy(Value *MemDesc, Value *Barrier, Value *Desc,
                                  llvm::ArrayRef<Value *> Offsets, Value *Pred);
  Value *createMemDescIndex(Value *MemDesc, Value *Index);
  Value *createMemDescTrans(Value *MemDesc, llvm::ArrayRef<int64_t> Order);
  Value *createAtomicCAS(Value *Ptr, Value *Cmp, Value *Val,
                         Value *Mask = nullptr, MemSem Sem = MemSem::AcqRel,
                         MemScope Scope = MemScope::GPU);

  // Blocks of values.
  Value *createMakeRange(int64_t Start, int64_t End);
  Value *createSplat(Value *V, llvm::ArrayRef<int64_t> Shape);
  Value *createBroadcast(Value *V, llvm::ArrayRef<int64_t> Shape);
  Value *createReshape(Value *V, llvm::ArrayRef<int64_t> Shape,
                       bool AllowReorder = false);
  Value *createExpandDims(Value *V, int64_t Axis);
  Value *createTrans(Value *V, llvm::ArrayRef<int64_t> Order);
  Value *createJoin(Value *L, Value *R);
  std::pair<Value *, Value *> createSplit(Value *V);
  Value *createCat(Value *L, Value *R);
  Value *createDot(Value *A, Value *B, Value *Acc,
                   DotPrecision P = DotPrecision::IEEE,
                   int64_t MaxNumImpreciseAcc = -1);
  Value *createReduce(Value *V, int64_t Axis, CombineKind K);
  llvm::SmallVector<Value *, 2> createReduce(llvm::ArrayRef<Value *> Vs,
                                             int64_t Axis,
                                             llvm::StringRef Combine);
  Value *createScan(Value *V, int64_t Axis, CombineKind K, bool Reverse = false);
  llvm::SmallVector<Value *, 2> createScan(llvm::ArrayRef<Value *> Vs,
                                           int64_t Axis, llvm::StringRef Combine,
                                           bool Reverse = false);
  Value *createArgMinMax(bool IsMax, Value *V, int64_t Axis,
                         bool TieBreakLeft = true, bool Unsigned = false);

  // Program geometry.
  Value *createProgramId(int64_t Axis);
  Value *createNumPrograms(int64_t Axis);

  // Control flow.
  llvm::SmallVector<Value *, 2> createCall(Function *Callee,
                                           llvm::ArrayRef<Value *> Args);
  Instruction *createRet(llvm::ArrayRef<Value *> Vals = {});
  Instruction *createBr(BasicBlock *Dest);
  Instruction *createCondBr(Value *Cond, BasicBlock *T, BasicBlock *F);
  /// An empty phi at the insertion point; add incoming values afterwards.
  PhiInst *createPhi(Type *T);

  // Synchronization, debugging, external code, hints.
  Instruction *createBarrier();
  /// gdc_wait (\p Wait) or gdc_launch_dependents.
  Instruction *createGridDepControl(bool Wait);
  /// \p UnsignedOperands: the operands (by index) that are unsigned
  /// integers, printed as such.
  Instruction *createPrint(llvm::StringRef Prefix, llvm::ArrayRef<Value *> Vals,
                           bool Hex = false, llvm::ArrayRef<int64_t> UnsignedOperands = {});
  Instruction *createAssert(Value *Cond, llvm::StringRef Message);
  Value *createGather(Value *Src, Value *Index, unsigned Axis);
  /// One result per type of \p Results (all of the operands' shape).
  Instruction *createMapElementwise(llvm::StringRef Callee, llvm::ArrayRef<Value *> Args,
                                    llvm::ArrayRef<Type *> Results, int64_t Pack);
  Instruction *createInlineAsm(llvm::StringRef Asm, llvm::StringRef Constraints,
                               llvm::ArrayRef<Value *> Args, llvm::ArrayRef<Type *> Results,
                               bool Pure, int64_t Pack = 1);
  Value *createExternElementwise(llvm::StringRef Symbol,
                                 llvm::ArrayRef<Value *> Args, Type *Result,
                                 bool Pure = true);
  /// \p Op is MultipleOf, MaxContiguous or MaxConstancy.
  Value *createHint(Opcode Op, Value *V, llvm::ArrayRef<int64_t> Values);

private:
  Value *single(Instruction *I) { return I->getResult(); }
  Context &Ctx;
  BasicBlock *Block = nullptr;
  BasicBlock::iterator Point;
  Loc CurLoc;
};

} // namespace tritium

#endif // TRITIUM_IR_BUILDER_H
