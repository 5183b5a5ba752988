//===- Instructions.h - One class per opcode family --------------*- C++ -*-===//
//
// Each family of opcodes (see Ops.def) has a subclass of Instruction with
// typed accessors and its type rules (checkFamilyTypes, in Instructions.cpp).
// The classes add no data, so `isa<LoadInst>(I)` and `cast<LoadInst>(I)`
// work on any instruction and generic code never needs them.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_INSTRUCTIONS_H
#define TRITIUM_IR_INSTRUCTIONS_H

#include "ir/Instruction.h"

namespace tritium {

/// The members every family class declares; \p Base is its direct base
/// class (Instruction, or CombineInstBase for reduce and scan).
#define TRITIUM_FAMILY_CLASS_OF(Name, Base)                                    \
public:                                                                        \
  static bool classof(const Instruction *I) {                                  \
    return I->getFamily() == OpFamily::Name;                                   \
  }                                                                            \
                                                                               \
protected:                                                                     \
  using Base::Base;                                                            \
  friend class Instruction;                                                    \
  std::string checkFamilyTypes() const override;                               \
                                                                               \
public:
#define TRITIUM_FAMILY_CLASS(Name) TRITIUM_FAMILY_CLASS_OF(Name, Instruction)

/// `%r = constant 42 : i32`, `%r = constant 0.0 : <128 x f32>` (a splat).
class ConstantInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Constant)
  bool isFloat() const;
  int64_t getIntValue() const { return getIntAttr(AttrKey::Value); }
  double getFloatValue() const;
};

/// An unspecified value of a type, for variables not defined on every path.
class UndefInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Undef)
};

class BinaryInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Binary)
  Value *getLHS() const { return getOperand(0); }
  Value *getRHS() const { return getOperand(1); }
};

class UnaryInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Unary)
  Value *getSrc() const { return getOperand(0); }
};

/// a * b + c with a single rounding.
class FmaInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Fma)
};

class CmpInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Cmp)
  bool isFloat() const { return getOpcode() == Opcode::FCmp; }
  ICmpPredicate getIPredicate() const {
    return ICmpPredicate(getEnumAttr(AttrKey::IPredicate));
  }
  FCmpPredicate getFPredicate() const {
    return FCmpPredicate(getEnumAttr(AttrKey::FPredicate));
  }
  Value *getLHS() const { return getOperand(0); }
  Value *getRHS() const { return getOperand(1); }
};

class SelectInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Select)
  Value *getCondition() const { return getOperand(0); }
  Value *getTrueValue() const { return getOperand(1); }
  Value *getFalseValue() const { return getOperand(2); }
};

class CastInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Cast)
  Value *getSrc() const { return getOperand(0); }
  std::optional<RoundingMode> getRounding() const {
    return getOptionalEnumAttr<RoundingMode>(AttrKey::Rounding);
  }
};

/// Pointer plus an element offset, elementwise over blocks.
class GetElementPtrInst : public Instruction {
  TRITIUM_FAMILY_CLASS(GetElementPtr)
  Value *getPtr() const { return getOperand(0); }
  Value *getOffset() const { return getOperand(1); }
};

/// `load %ptr[, %mask[, %other]]`: masked-off lanes give `other` (undefined
/// without it).
class LoadInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Load)
  Value *getPtr() const { return getOperand(0); }
  Value *getMask() const { return getNumOperands() > 1 ? getOperand(1) : nullptr; }
  Value *getOther() const { return getNumOperands() > 2 ? getOperand(2) : nullptr; }
  std::optional<CacheModifier> getCache() const {
    return getOptionalEnumAttr<CacheModifier>(AttrKey::Cache);
  }
  std::optional<EvictionPolicy> getEvict() const {
    return getOptionalEnumAttr<EvictionPolicy>(AttrKey::Evict);
  }
  bool isVolatile() const { return hasAttr(AttrKey::Volatile); }
};

/// %m = local_alloc [%init] : memdesc<...>: a buffer in shared memory,
/// initialized from a block (then usually immutable) or left for stores.
class LocalAllocInst : public Instruction {
  TRITIUM_FAMILY_CLASS(LocalAlloc)
  Value *getInit() const { return getNumOperands() ? getOperand(0) : nullptr; }
  MemDescType *getMemDescType() const;
};

/// %v = local_load %m : <...>: the buffer's block, into registers.
class LocalLoadInst : public Instruction {
  TRITIUM_FAMILY_CLASS(LocalLoad)
  Value *getMemDesc() const { return getOperand(0); }
};

/// local_store %m, %v: a block into a mutable buffer.
class LocalStoreInst : public Instruction {
  TRITIUM_FAMILY_CLASS(LocalStore)
  Value *getMemDesc() const { return getOperand(0); }
  Value *getValue() const { return getOperand(1); }
};

/// %b = memdesc_index %m, %i : memdesc<...>: buffer %i of several.
class MemDescIndexInst : public Instruction {
  TRITIUM_FAMILY_CLASS(MemDescIndex)
  Value *getMemDesc() const { return getOperand(0); }
  Value *getIndex() const { return getOperand(1); }
};

/// %t = memdesc_trans %m {order = [1, 0]} : memdesc<...>: the buffer %m
/// with its dimensions permuted (result dimension i is %m's Order[i]): the
/// same bytes, a view. A dot reads a transposed operand through it where
/// the operand was stored as it was loaded.
class MemDescTransInst : public Instruction {
  TRITIUM_FAMILY_CLASS(MemDescTrans)
  Value *getMemDesc() const { return getOperand(0); }
  llvm::ArrayRef<int64_t> getOrder() const { return getIntListAttr(AttrKey::Order); }
};

/// local_dealloc %m: the allocation's end (its buffer may be reused after).
class LocalDeallocInst : public Instruction {
  TRITIUM_FAMILY_CLASS(LocalDealloc)
  Value *getMemDesc() const { return getOperand(0); }
};

/// async_copy %m, %ptrs[, %mask]: starts copying the block %ptrs points at
/// into the mutable buffer %m (zeros where %mask is false), in the
/// distributed layout of %ptrs. The bytes land by the async_wait that
/// retires the copy's group; nothing may read them before.
class AsyncCopyInst : public Instruction {
  TRITIUM_FAMILY_CLASS(AsyncCopy)
  Value *getMemDesc() const { return getOperand(0); }
  Value *getPtr() const { return getOperand(1); }
  Value *getMask() const { return getNumOperands() > 2 ? getOperand(2) : nullptr; }
};

/// async_commit_group: closes the group of this thread's async_copies
/// since the last one.
class AsyncCommitGroupInst : public Instruction {
  TRITIUM_FAMILY_CLASS(AsyncCommitGroup)
};

/// async_wait {num=N}: waits until at most the N most recent committed
/// groups are in flight (the copies of the older ones have landed, for
/// this thread; a barrier makes them visible to the others).
class AsyncWaitInst : public Instruction {
  TRITIUM_FAMILY_CLASS(AsyncWait)
  int64_t getNum() const { return getIntAttr(AttrKey::Num); }
};

/// %d = make_tensor_descriptor %base, %shape..., %strides...[, %tmap] :
/// tensordesc<B0 x ... x T>: the tensor of the given shape (i32 each, or
/// i64 each: a block pointer's) and element strides (i64 each) at %base
/// (ptr<T>), read and written by blocks of B0 x ...; one shape and one
/// stride per block dimension.
/// %tmap, a kernel argument with the tensormap attribute, is the same
/// tensor's CUtensorMap (a host-side descriptor's), which TMA copies read.
class MakeTensorDescInst : public Instruction {
  TRITIUM_FAMILY_CLASS(MakeTensorDesc)
  Value *getBase() const { return getOperand(0); }
  unsigned getRank() const { return (getNumOperands() - 1) / 2; }
  Value *getShape(unsigned D) const { return getOperand(1 + D); }
  Value *getStride(unsigned D) const { return getOperand(1 + getRank() + D); }
  Value *getTensorMap() const {
    return getNumOperands() % 2 == 0 ? getOperand(getNumOperands() - 1) : nullptr;
  }
};

/// Whether a descriptor access checks the bounds of dimension \p D: all of
/// them without a `boundary` attribute, those it lists with one.
inline bool checksDimension(const Instruction &Access, unsigned D) {
  return !Access.hasAttr(AttrKey::Boundary) ||
         llvm::is_contained(Access.getIntListAttr(AttrKey::Boundary), int64_t(D));
}

/// %v = descriptor_load %d, %offsets... [{boundary = [dims], padding = nan}]
/// : <B0 x ... x T>: the block whose first element is at %offsets (i32
/// each, in elements) of %d's tensor; elements outside the tensor (either
/// side) read as zero, or NaN with padding = nan. With `boundary` only the
/// dimensions it lists are checked (a block pointer's boundary_check: an
/// access outside the others is undefined, as in Triton).
class DescriptorLoadInst : public Instruction {
  TRITIUM_FAMILY_CLASS(DescriptorLoad)
  Value *getDesc() const { return getOperand(0); }
  bool padsWithNaN() const {
    return hasAttr(AttrKey::Padding) && getEnumAttr(AttrKey::Padding) == unsigned(PaddingOption::NaN);
  }
  unsigned getRank() const { return getNumOperands() - 1; }
  Value *getOffset(unsigned D) const { return getOperand(1 + D); }
  llvm::SmallVector<Value *, 5> getOffsets() const {
    return llvm::SmallVector<Value *, 5>(llvm::ArrayRef(getOperands()).slice(1, getRank()));
  }
};

/// descriptor_store %d, %offsets..., %v [{boundary = [dims]}]: writes the
/// block %v at %offsets of %d's tensor, its elements inside the tensor only
/// (along the dimensions `boundary` lists, when it is there).
class DescriptorStoreInst : public Instruction {
  TRITIUM_FAMILY_CLASS(DescriptorStore)
  Value *getDesc() const { return getOperand(0); }
  unsigned getRank() const { return getNumOperands() - 2; }
  Value *getOffset(unsigned D) const { return getOperand(1 + D); }
  llvm::SmallVector<Value *, 5> getOffsets() const {
    return llvm::SmallVector<Value *, 5>(llvm::ArrayRef(getOperands()).slice(1, getRank()));
  }
  Value *getValue() const { return getOperand(getNumOperands() - 1); }
};

/// The mbarrier ops (sm_90); %b is a mutable memdesc<1 x i64> of shared
/// memory, the barrier:
///   init_barrier %b {num = C}   thread 0 makes it a barrier of C arrivals,
///                               in phase 0
///   barrier_expect %b, %pred {num = N}   where %pred, one thread arrives
///                               and announces N bytes that will land on it
///   wait_barrier %b, %phase     each thread waits until the phase of
///                               parity %phase (i32, 0 or 1) has completed
///   inval_barrier %b            thread 0 ends it (its bytes may then be
///                               reused as other memory)
class MBarrierInst : public Instruction {
  TRITIUM_FAMILY_CLASS(MBarrier)
  Value *getBarrier() const { return getOperand(0); }
  int64_t getNum() const { return getIntAttr(AttrKey::Num); }
  Value *getPred() const { return getOperand(1); } // barrier_expect
  Value *getPhase() const { return getOperand(1); } // wait_barrier
};

/// async_tma_copy %m, %b, %d, %offsets..., %pred: where %pred, one thread
/// starts the TMA copies of the block at %offsets of %d (whose
/// make_tensor_descriptor has a tensormap) into the mutable buffer %m, in
/// its NVMMA layout (one copy per 128-byte column block); their bytes land
/// on barrier %b, whose wait_barrier makes them visible.
class AsyncTMACopyInst : public Instruction {
  TRITIUM_FAMILY_CLASS(AsyncTMACopy)
  Value *getMemDesc() const { return getOperand(0); }
  Value *getBarrier() const { return getOperand(1); }
  Value *getDesc() const { return getOperand(2); }
  unsigned getRank() const { return getNumOperands() - 4; }
  Value *getOffset(unsigned D) const { return getOperand(3 + D); }
  Value *getPred() const { return getOperand(getNumOperands() - 1); }
};

/// async_tma_store %d, %offsets..., %m: one thread copies the block held
/// by the buffer %m (its NVMMA layout, rows contiguous) to %offsets of %d's
/// tensor with TMA (the elements inside it; its make_tensor_descriptor has
/// a tensormap) and waits until TMA has read %m.
class AsyncTMAStoreInst : public Instruction {
  TRITIUM_FAMILY_CLASS(AsyncTMAStore)
  Value *getDesc() const { return getOperand(0); }
  unsigned getRank() const { return getNumOperands() - 2; }
  Value *getOffset(unsigned D) const { return getOperand(1 + D); }
  Value *getMemDesc() const { return getOperand(getNumOperands() - 1); }
};

class StoreInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Store)
  Value *getPtr() const { return getOperand(0); }
  Value *getValue() const { return getOperand(1); }
  Value *getMask() const { return getNumOperands() > 2 ? getOperand(2) : nullptr; }
  std::optional<CacheModifier> getCache() const {
    return getOptionalEnumAttr<CacheModifier>(AttrKey::Cache);
  }
  std::optional<EvictionPolicy> getEvict() const {
    return getOptionalEnumAttr<EvictionPolicy>(AttrKey::Evict);
  }
};

/// `atomic_rmw add %ptr, %val[, %mask]`; returns the old values.
class AtomicRMWInst : public Instruction {
  TRITIUM_FAMILY_CLASS(AtomicRMW)
  AtomicKind getKind() const { return AtomicKind(getEnumAttr(AttrKey::RMWKind)); }
  Value *getPtr() const { return getOperand(0); }
  Value *getVal() const { return getOperand(1); }
  Value *getMask() const { return getNumOperands() > 2 ? getOperand(2) : nullptr; }
  MemSem getSem() const {
    return MemSem(getEnumAttr(AttrKey::Sem, unsigned(MemSem::AcqRel)));
  }
  MemScope getScope() const {
    return MemScope(getEnumAttr(AttrKey::Scope, unsigned(MemScope::GPU)));
  }
};

/// `atomic_cas %ptr, %cmp, %val[, %mask]`; returns the old values.
class AtomicCASInst : public Instruction {
  TRITIUM_FAMILY_CLASS(AtomicCAS)
  Value *getPtr() const { return getOperand(0); }
  Value *getCmp() const { return getOperand(1); }
  Value *getVal() const { return getOperand(2); }
  Value *getMask() const { return getNumOperands() > 3 ? getOperand(3) : nullptr; }
  MemSem getSem() const {
    return MemSem(getEnumAttr(AttrKey::Sem, unsigned(MemSem::AcqRel)));
  }
  MemScope getScope() const {
    return MemScope(getEnumAttr(AttrKey::Scope, unsigned(MemScope::GPU)));
  }
};

/// The i32 block [start, end).
class MakeRangeInst : public Instruction {
  TRITIUM_FAMILY_CLASS(MakeRange)
  int64_t getStart() const { return getIntAttr(AttrKey::Start); }
  int64_t getEnd() const { return getIntAttr(AttrKey::End); }
};

/// Scalar to block.
class SplatInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Splat)
  Value *getSrc() const { return getOperand(0); }
};

/// Repeats dimensions of size 1.
class BroadcastInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Broadcast)
  Value *getSrc() const { return getOperand(0); }
};

/// Same elements in row-major order, new shape; with allow_reorder the
/// order of elements may change (the compiler picks the cheapest).
class ReshapeInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Reshape)
  Value *getSrc() const { return getOperand(0); }
  bool allowsReorder() const { return hasAttr(AttrKey::AllowReorder); }
};

/// Inserts a dimension of size 1 before dimension `axis`.
class ExpandDimsInst : public Instruction {
  TRITIUM_FAMILY_CLASS(ExpandDims)
  Value *getSrc() const { return getOperand(0); }
  int64_t getAxis() const { return getIntAttr(AttrKey::Axis); }
};

/// Permutes dimensions: result dimension i is source dimension order[i].
class TransInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Trans)
  Value *getSrc() const { return getOperand(0); }
  llvm::ArrayRef<int64_t> getOrder() const { return getIntListAttr(AttrKey::Order); }
};

/// Stacks two values along a new last dimension of size 2.
class JoinInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Join)
  Value *getLHS() const { return getOperand(0); }
  Value *getRHS() const { return getOperand(1); }
};

/// The inverse of join: splits a last dimension of size 2 into two results.
class SplitInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Split)
  Value *getSrc() const { return getOperand(0); }
};

/// Concatenates two blocks along dimension 0.
class CatInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Cat)
  Value *getLHS() const { return getOperand(0); }
  Value *getRHS() const { return getOperand(1); }
};

/// %r = gather %src, %index {axis = A}: the block of %index's shape whose
/// element at coordinates c is %src's at c with c[A] replaced by the index
/// there (tl.gather; an index outside [0, src's extent along A) is
/// undefined, as in Triton). %src and %index have one rank and the same
/// extents but along A; %index is integers.
class GatherInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Gather)
  Value *getSrc() const { return getOperand(0); }
  Value *getIndex() const { return getOperand(1); }
  unsigned getAxis() const { return unsigned(getIntAttr(AttrKey::Axis)); }
};

/// acc + a @ b, for <M x K>, <K x N>, <M x N> (or with a leading batch
/// dimension).
class DotInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Dot)
  Value *getA() const { return getOperand(0); }
  Value *getB() const { return getOperand(1); }
  Value *getAcc() const { return getOperand(2); }
  DotPrecision getPrecision() const {
    return DotPrecision(getEnumAttr(AttrKey::Precision, unsigned(DotPrecision::IEEE)));
  }
  /// fp8 operands: how many K elements tensor cores may add up in their
  /// own (imprecise) accumulation before the sum goes into the f32
  /// accumulator (0: each instruction's); none: no limit (Hopper's default).
  std::optional<int64_t> getMaxNumImpreciseAcc() const {
    return getOptionalIntAttr(AttrKey::MaxNumImpreciseAcc);
  }
};

/// Shared accessors of reduce and scan: `axis` and either a built-in `kind`
/// or a `combine` function taking two elements per operand.
class CombineInstBase : public Instruction {
public:
  int64_t getAxis() const { return getIntAttr(AttrKey::Axis); }
  std::optional<CombineKind> getKind() const {
    return getOptionalEnumAttr<CombineKind>(AttrKey::Kind);
  }
  /// The combine function's name, or "" for a built-in kind.
  llvm::StringRef getCombine() const { return getStringAttr(AttrKey::Combine); }
  static bool classof(const Instruction *I) {
    return I->getFamily() == OpFamily::Reduce || I->getFamily() == OpFamily::Scan;
  }

protected:
  using Instruction::Instruction;
  std::string checkCombine() const;
};

class ReduceInst : public CombineInstBase {
  TRITIUM_FAMILY_CLASS_OF(Reduce, CombineInstBase)
};

class ScanInst : public CombineInstBase {
  TRITIUM_FAMILY_CLASS_OF(Scan, CombineInstBase)
  bool isReverse() const { return hasAttr(AttrKey::Reverse); }
};

/// Index (i32) of the minimum or maximum along `axis`.
class ArgMinMaxInst : public Instruction {
  TRITIUM_FAMILY_CLASS(ArgMinMax)
  Value *getSrc() const { return getOperand(0); }
  int64_t getAxis() const { return getIntAttr(AttrKey::Axis); }
  bool isMax() const { return getOpcode() == Opcode::ArgMax; }
  bool tieBreakLeft() const { return hasAttr(AttrKey::TieBreakLeft); }
  /// Integers compare as unsigned (the IR's integers are signless).
  bool isUnsigned() const { return hasAttr(AttrKey::Unsigned); }
};

/// get_program_id / get_num_programs along axis 0, 1 or 2.
class ProgramInfoInst : public Instruction {
  TRITIUM_FAMILY_CLASS(ProgramInfo)
  int64_t getAxis() const { return getIntAttr(AttrKey::Axis); }
};

class CallInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Call)
  llvm::StringRef getCallee() const { return getStringAttr(AttrKey::Callee); }
  /// The callee in this instruction's module, or null.
  Function *getCalledFunction() const;
};

class RetInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Ret)
};

class BrInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Br)
};

/// The predicate that holds for (b, a) where \p P holds for (a, b): a < b
/// is b > a (eq and ne stay).
ICmpPredicate getSwappedPredicate(ICmpPredicate P);

/// The most pipeline stages a loop may ask for (each one a shared-memory
/// buffer of its operands).
inline constexpr int64_t kMaxNumStages = 16;
/// "" if \p N stages may be asked for (0 to kMaxNumStages), else
/// "num_stages must be from 0 to 16, got N".
std::string checkNumStages(int64_t N);

class CondBrInst : public Instruction {
  TRITIUM_FAMILY_CLASS(CondBr)
  Value *getCondition() const { return getOperand(0); }
  /// The num_stages a loop controlled by this branch asked for.
  std::optional<int64_t> getNumStages() const {
    return getOptionalIntAttr(AttrKey::NumStages);
  }
  /// Whether the loop controlled by this branch keeps its invariant code.
  bool disablesLicm() const { return hasAttr(AttrKey::DisableLicm); }
  BasicBlock *getTrueDest() const { return getBlockOperand(0); }
  BasicBlock *getFalseDest() const { return getBlockOperand(1); }
};

/// Operand i flows in from block operand i.
class PhiInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Phi)
  unsigned getNumIncoming() const { return getNumOperands(); }
  Value *getIncomingValue(unsigned I) const { return getOperand(I); }
  BasicBlock *getIncomingBlock(unsigned I) const { return getBlockOperand(I); }
  void addIncoming(Value *V, BasicBlock *B) {
    addOperand(V);
    addBlockOperand(B);
  }
  void removeIncoming(unsigned I) {
    removeOperand(I);
    removeBlockOperand(I);
  }
  /// The value flowing in from \p B, or null.
  Value *getIncomingValueForBlock(const BasicBlock *B) const;
};

class BarrierInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Barrier)
};

class PrintInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Print)
  llvm::StringRef getPrefix() const { return getStringAttr(AttrKey::Prefix); }
  bool isHex() const { return hasAttr(AttrKey::Hex); }
  /// Whether operand \p I is an unsigned integer (the IR's are signless).
  bool isUnsignedOperand(unsigned I) const {
    return hasAttr(AttrKey::UnsignedOperands) &&
           llvm::is_contained(getIntListAttr(AttrKey::UnsignedOperands), int64_t(I));
  }
};

class AssertInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Assert)
  Value *getCondition() const { return getOperand(0); }
  llvm::StringRef getMessage() const { return getStringAttr(AttrKey::Message); }
};

/// An elementwise call of a device-library function (libdevice, ocml).
class ExternElementwiseInst : public Instruction {
  TRITIUM_FAMILY_CLASS(ExternElementwise)
  llvm::StringRef getSymbol() const { return getStringAttr(AttrKey::Symbol); }
  bool isPure() const { return hasAttr(AttrKey::Pure); }
};

/// %r... = inline_asm %a... {asm = "...", constraints = "=r,r"[, pure]}:
/// the assembly snippet run once per element, or per `pack` elements
/// (tl.inline_asm_elementwise): operands (numbers or pointers) and results
/// (numbers) are blocks of one shape (or scalars), bound to the
/// constraints' `$n` in order, outputs first; with pack > 1 each takes
/// pack / n registers of n elements (n = 32 / bits for narrower ones).
class InlineAsmInst : public Instruction {
  TRITIUM_FAMILY_CLASS(InlineAsm)
  llvm::StringRef getAsm() const { return getStringAttr(AttrKey::Asm); }
  llvm::StringRef getConstraints() const { return getStringAttr(AttrKey::Constraints); }
  bool isPure() const { return hasAttr(AttrKey::Pure); }
  int64_t getPack() const { return hasAttr(AttrKey::Pack) ? getIntAttr(AttrKey::Pack) : 1; }
};

/// %r... = map_elementwise %a... {callee = @f[, pack = P]}: the scalar
/// function @f of the module (not a kernel) run on each element, or on
/// each P elements of a thread (tl.map_elementwise): its parameters are P
/// elements of the first operand, P of the next...; its results P of the
/// first result, P of the next... Operands and results are blocks of one
/// shape (or scalars). Pure: what @f writes is not kept for its own sake.
class MapElementwiseInst : public Instruction {
  TRITIUM_FAMILY_CLASS(MapElementwise)
  llvm::StringRef getCallee() const { return getStringAttr(AttrKey::Callee); }
  int64_t getPack() const { return hasAttr(AttrKey::Pack) ? getIntAttr(AttrKey::Pack) : 1; }
};

/// multiple_of / max_contiguous / max_constancy: returns its operand and
/// tells the axis analysis a fact per dimension.
class HintInst : public Instruction {
  TRITIUM_FAMILY_CLASS(Hint)
  Value *getSrc() const { return getOperand(0); }
  llvm::ArrayRef<int64_t> getValues() const { return getIntListAttr(AttrKey::Values); }
};

/// The same block in another layout (`layout` attribute): a register
/// permutation, warp shuffles or a round trip through shared memory,
/// whichever the two layouts allow.
class ConvertLayoutInst : public Instruction {
  TRITIUM_FAMILY_CLASS(ConvertLayout)
  Value *getSrc() const { return getOperand(0); }
};

#undef TRITIUM_FAMILY_CLASS
#undef TRITIUM_FAMILY_CLASS_OF

/// The integer a `constant` defines (scalar or splat), if \p V is one.
std::optional<int64_t> getConstantIntValue(const Value *V);
/// The float a `constant` defines (scalar or splat), if \p V is one.
std::optional<double> getConstantFloatValue(const Value *V);

} // namespace tritium

#endif // TRITIUM_IR_INSTRUCTIONS_H
