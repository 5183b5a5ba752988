//===- Builder.cpp - Creating instructions --------------------------------===//

#include "ir/Builder.h"
#include "ir/Diagnostics.h"
#include "ir/Function.h"

using namespace tritium;

namespace {
Attribute attr(AttrKey K, AttrValue V) { return {K, std::move(V)}; }
Attribute enumAttr(AttrKey K, unsigned V) {
  return {K, AttrValue::enumerator(V)};
}
Attribute intAttr(AttrKey K, int64_t V) { return {K, AttrValue::integer(V)}; }
Attribute unitAttr(AttrKey K) { return {K, AttrValue::unit()}; }

/// An operand list: the values and lists of values \p Parts, in order.
template <typename... Ts> llvm::SmallVector<Value *, 8> operands(const Ts &...Parts) {
  llvm::SmallVector<Value *, 8> Ops;
  (llvm::append_range(Ops, llvm::ArrayRef<Value *>(Parts)), ...);
  return Ops;
}

/// An optional operand of operands(): none where \p V is null.
llvm::ArrayRef<Value *> optional(Value *const &V) {
  return V ? llvm::ArrayRef<Value *>(V) : llvm::ArrayRef<Value *>();
}

/// The cache and eviction attributes of a load or store.
AttrList cacheAttrs(std::optional<CacheModifier> Cache, std::optional<EvictionPolicy> Evict) {
  AttrList Attrs;
  if (Cache)
    Attrs.push_back(enumAttr(AttrKey::Cache, unsigned(*Cache)));
  if (Evict)
    Attrs.push_back(enumAttr(AttrKey::Evict, unsigned(*Evict)));
  return Attrs;
}

/// The pointee type shaped like the pointer operand; null if not a pointer.
Type *pointeeOf(Value *Ptr) {
  Type *T = Ptr->getType();
  auto *P = llvm::dyn_cast<PointerType>(T->getScalarType());
  return P ? T->withElement(P->getPointee()) : nullptr;
}
} // namespace

Instruction *IRBuilder::insert(Instruction *I) {
  std::string Err = I->checkTypes();
  if (!Err.empty()) {
    delete I;
    reportError(CurLoc, Err);
  }
  if (Block)
    Block->insert(Point, I);
  return I;
}

Instruction *IRBuilder::create(Opcode Op, llvm::ArrayRef<Type *> ResultTypes,
                               llvm::ArrayRef<Value *> Operands, AttrList Attrs,
                               llvm::ArrayRef<BasicBlock *> Blocks) {
  return insert(Instruction::create(Ctx, Op, ResultTypes, Operands,
                                    std::move(Attrs), Blocks, CurLoc));
}

//===----------------------------------------------------------------------===//
// Constants and arithmetic
//===----------------------------------------------------------------------===//

Value *IRBuilder::getIntConstant(Type *T, int64_t V) {
  return single(create(Opcode::Constant, {T}, {},
                       {attr(AttrKey::Value, AttrValue::integer(V))}));
}

Value *IRBuilder::getFloatConstant(Type *T, double V) {
  return single(create(Opcode::Constant, {T}, {},
                       {attr(AttrKey::Value, AttrValue::floating(V))}));
}

Value *IRBuilder::createUndef(Type *T) {
  return single(create(Opcode::Undef, {T}, {}));
}

Value *IRBuilder::createBinary(Opcode Op, Value *L, Value *R) {
  return single(create(Op, {L->getType()}, {L, R}));
}

Value *IRBuilder::createUnary(Opcode Op, Value *V) {
  return single(create(Op, {V->getType()}, {V}));
}

Value *IRBuilder::createFma(Value *A, Value *B, Value *C) {
  return single(create(Opcode::Fma, {A->getType()}, {A, B, C}));
}

Value *IRBuilder::createICmp(ICmpPredicate P, Value *L, Value *R) {
  return single(create(Opcode::ICmp, {L->getType()->withElement(getI1Ty())},
                       {L, R}, {enumAttr(AttrKey::IPredicate, unsigned(P))}));
}

Value *IRBuilder::createFCmp(FCmpPredicate P, Value *L, Value *R) {
  return single(create(Opcode::FCmp, {L->getType()->withElement(getI1Ty())},
                       {L, R}, {enumAttr(AttrKey::FPredicate, unsigned(P))}));
}

Value *IRBuilder::createSelect(Value *C, Value *T, Value *F) {
  return single(create(Opcode::Select, {T->getType()}, {C, T, F}));
}

Value *IRBuilder::createCast(Opcode Op, Value *V, Type *To,
                             std::optional<RoundingMode> Rounding) {
  AttrList Attrs;
  if (Rounding)
    Attrs.push_back(enumAttr(AttrKey::Rounding, unsigned(*Rounding)));
  return single(create(Op, {To}, {V}, std::move(Attrs)));
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

Value *IRBuilder::createGEP(Value *Ptr, Value *Offset) {
  return single(create(Opcode::GetElementPtr, {Ptr->getType()}, {Ptr, Offset}));
}

Value *IRBuilder::createLocalAlloc(Type *MemDesc, Value *Init) {
  return single(create(Opcode::LocalAlloc, {MemDesc}, optional(Init)));
}

Value *IRBuilder::createLocalLoad(Value *MemDesc) {
  auto *M = llvm::dyn_cast<MemDescType>(MemDesc->getType());
  if (!M)
    reportError(CurLoc, "'local_load' operand must be a memdesc, got " +
                            MemDesc->getType()->str());
  return single(create(Opcode::LocalLoad,
                       {BlockType::get(M->getElementType(), M->getBufferShape())}, {MemDesc}));
}

Instruction *IRBuilder::createAsyncCopy(Value *MemDesc, Value *Ptr, Value *Mask) {
  return create(Opcode::AsyncCopy, {}, operands(MemDesc, Ptr, optional(Mask)));
}

Value *IRBuilder::createMakeTensorDesc(TensorDescType *Ty, Value *Base,
                                      llvm::ArrayRef<Value *> Shape,
                                      llvm::ArrayRef<Value *> Strides, Value *TensorMap) {
  return single(
      create(Opcode::MakeTensorDesc, {Ty}, operands(Base, Shape, Strides, optional(TensorMap))));
}

Value *IRBuilder::createDescriptorLoad(Value *Desc, llvm::ArrayRef<Value *> Offsets) {
  auto *D = llvm::dyn_cast<TensorDescType>(Desc->getType());
  if (!D)
    reportError(CurLoc, "'descriptor_load' operand must be a tensordesc, got " +
                            Desc->getType()->str());
  return single(create(Opcode::DescriptorLoad, {D->getBlockType()}, operands(Desc, Offsets)));
}

Instruction *IRBuilder::createDescriptorStore(Value *Desc, llvm::ArrayRef<Value *> Offsets,
                                              Value *Val) {
  return create(Opcode::DescriptorStore, {}, operands(Desc, Offsets, Val));
}

Instruction *IRBuilder::createAsyncCommitGroup() {
  return create(Opcode::AsyncCommitGroup, {}, {});
}

Instruction *IRBuilder::createAsyncWait(int64_t Num) {
  return create(Opcode::AsyncWait, {}, {}, {intAttr(AttrKey::Num, Num)});
}

Value *IRBuilder::createBarrierAlloc(unsigned Slots) {
  // One 8-byte word per barrier: the shared layout of one element (its
  // output named as the parser names a layout's dimensions).
  LinearLayout One = LinearLayout::identity1D(1, "offset", "dim0");
  llvm::SmallVector<int64_t, 2> Shape;
  if (Slots)
    Shape.push_back(Slots);
  Shape.push_back(1);
  return createLocalAlloc(MemDescType::get(getI64Ty(), Shape, One, true));
}

Instruction *IRBuilder::createInitBarrier(Value *Barrier, int64_t Count) {
  return create(Opcode::InitBarrier, {}, {Barrier}, {intAttr(AttrKey::Num, Count)});
}

Instruction *IRBuilder::createBarrierExpect(Value *Barrier, Value *Pred, int64_t Bytes) {
  return create(Opcode::BarrierExpect, {}, {Barrier, Pred}, {intAttr(AttrKey::Num, Bytes)});
}

Instruction *IRBuilder::createWaitBarrier(Value *Barrier, Value *Phase) {
  return create(Opcode::WaitBarrier, {}, {Barrier, Phase});
}

Instruction *IRBuilder::createInvalBarrier(Value *Barrier) {
  return create(Opcode::InvalBarrier, {}, {Barrier});
}

Instruction *IRBuilder::createAsyncTMAStore(Value *Desc, llvm::ArrayRef<Value *> Offsets,
                                            Value *MemDesc) {
  return create(Opcode::AsyncTMAStore, {}, operands(Desc, Offsets, MemDesc));
}

Instruction *IRBuilder::createAsyncTMACopy(Value *MemDesc, Value *Barrier, Value *Desc,
                                           llvm::ArrayRef<Value *> Offsets, Value *Pred) {
  return create(Opcode::AsyncTMACopy, {}, operands(MemDesc, Barrier, Desc, Offsets, Pred));
}

Value *IRBuilder::createMemDescIndex(Value *MemDesc, Value *Index) {
  auto *M = llvm::dyn_cast<MemDescType>(MemDesc->getType());
  if (!M || !M->hasBufferDim())
    reportError(CurLoc, "'memdesc_index' needs a memdesc of several buffers, got " +
                            MemDesc->getType()->str());
  return single(create(Opcode::MemDescIndex, {M->getBufferType()}, {MemDesc, Index}));
}

Value *IRBuilder::createMemDescTrans(Value *MemDesc, llvm::ArrayRef<int64_t> Order) {
  auto *M = llvm::dyn_cast<MemDescType>(MemDesc->getType());
  if (!M || M->hasBufferDim() || Order.size() != M->getBufferShape().size())
    reportError(CurLoc, "'memdesc_trans' needs one buffer of as many dimensions as the order, got " +
                            MemDesc->getType()->str());
  return single(create(Opcode::MemDescTrans, {M->getTransposed(Order)}, {MemDesc},
                       {attr(AttrKey::Order, AttrValue::intList(Order))}));
}

Value *IRBuilder::createLoad(Value *Ptr, Value *Mask, Value *Other,
                             const LoadOptions &Opts) {
  Type *T = pointeeOf(Ptr);
  if (!T)
    reportError(CurLoc, "'load' expects a pointer or a block of pointers, got " +
                            Ptr->getType()->str());
  assert((Mask || !Other) && "'other' needs a mask");
  AttrList Attrs = cacheAttrs(Opts.Cache, Opts.Evict);
  if (Opts.Volatile)
    Attrs.push_back(unitAttr(AttrKey::Volatile));
  return single(create(Opcode::Load, {T}, operands(Ptr, optional(Mask), optional(Other)),
                       std::move(Attrs)));
}

Instruction *IRBuilder::createStore(Value *Ptr, Value *Val, Value *Mask,
                                    const StoreOptions &Opts) {
  return create(Opcode::Store, {}, operands(Ptr, Val, optional(Mask)),
                cacheAttrs(Opts.Cache, Opts.Evict));
}

Value *IRBuilder::createAtomicRMW(AtomicKind K, Value *Ptr, Value *Val,
                                  Value *Mask, MemSem Sem, MemScope Scope) {
  return single(create(Opcode::AtomicRMW, {Val->getType()}, operands(Ptr, Val, optional(Mask)),
                       {enumAttr(AttrKey::RMWKind, unsigned(K)),
                        enumAttr(AttrKey::Sem, unsigned(Sem)),
                        enumAttr(AttrKey::Scope, unsigned(Scope))}));
}

Value *IRBuilder::createAtomicCAS(Value *Ptr, Value *Cmp, Value *Val,
                                  Value *Mask, MemSem Sem, MemScope Scope) {
  return single(create(Opcode::AtomicCAS, {Val->getType()},
                       operands(Ptr, Cmp, Val, optional(Mask)),
                       {enumAttr(AttrKey::Sem, unsigned(Sem)),
                        enumAttr(AttrKey::Scope, unsigned(Scope))}));
}

//===----------------------------------------------------------------------===//
// Blocks of values
//===----------------------------------------------------------------------===//

Value *IRBuilder::createMakeRange(int64_t Start, int64_t End) {
  std::string Err = End > Start ? BlockType::checkShape({End - Start})
                                : "'make_range' needs start < end";
  if (!Err.empty())
    reportError(CurLoc, Err);
  return single(create(Opcode::MakeRange,
                       {BlockType::get(getI32Ty(), {End - Start})}, {},
                       {intAttr(AttrKey::Start, Start),
                        intAttr(AttrKey::End, End)}));
}

namespace {
/// Validates a shape before a BlockType is made of it.
void checkShape(Loc L, llvm::ArrayRef<int64_t> Shape) {
  std::string Err = BlockType::checkShape(Shape);
  if (!Err.empty())
    reportError(L, Err);
}
} // namespace

Value *IRBuilder::createSplat(Value *V, llvm::ArrayRef<int64_t> Shape) {
  checkShape(CurLoc, Shape);
  if (!V->getType()->isScalar())
    reportError(CurLoc, "'splat' operand must be a scalar, got " +
                            V->getType()->str());
  return single(create(Opcode::Splat, {BlockType::get(V->getType(), Shape)}, {V}));
}

Value *IRBuilder::createBroadcast(Value *V, llvm::ArrayRef<int64_t> Shape) {
  checkShape(CurLoc, Shape);
  return single(create(Opcode::Broadcast,
                       {BlockType::get(V->getType()->getScalarType(), Shape)},
                       {V}));
}

Value *IRBuilder::createReshape(Value *V, llvm::ArrayRef<int64_t> Shape,
                                bool AllowReorder) {
  // No shape: the one element of a block as a scalar.
  if (!Shape.empty())
    checkShape(CurLoc, Shape);
  AttrList Attrs;
  if (AllowReorder)
    Attrs.push_back(unitAttr(AttrKey::AllowReorder));
  return single(create(Opcode::Reshape, {getShapedType(V->getType()->getScalarType(), Shape)},
                       {V}, std::move(Attrs)));
}

Value *IRBuilder::createExpandDims(Value *V, int64_t Axis) {
  Shape Dims(V->getType()->getShape().begin(), V->getType()->getShape().end());
  if (Axis < 0 || Axis > int64_t(Dims.size()))
    reportError(CurLoc, "'expand_dims' axis " + std::to_string(Axis) +
                            " is out of range");
  Dims.insert(Dims.begin() + Axis, 1);
  return single(create(Opcode::ExpandDims,
                       {BlockType::get(V->getType()->getScalarType(), Dims)},
                       {V}, {intAttr(AttrKey::Axis, Axis)}));
}

Value *IRBuilder::createTrans(Value *V, llvm::ArrayRef<int64_t> Order) {
  llvm::ArrayRef<int64_t> S = V->getType()->getShape();
  Shape Dims;
  for (int64_t D : Order) {
    if (D < 0 || D >= int64_t(S.size()))
      reportError(CurLoc, "'trans' order is not a permutation of the dimensions");
    Dims.push_back(S[D]);
  }
  Type *R = Dims.empty() ? V->getType()
                         : BlockType::get(V->getType()->getScalarType(), Dims);
  return single(create(Opcode::Trans, {R}, {V},
                       {attr(AttrKey::Order, AttrValue::intList(Order))}));
}

Value *IRBuilder::createJoin(Value *L, Value *R) {
  Shape Dims(L->getType()->getShape().begin(), L->getType()->getShape().end());
  Dims.push_back(2);
  checkShape(CurLoc, Dims);
  return single(create(Opcode::Join,
                       {BlockType::get(L->getType()->getScalarType(), Dims)},
                       {L, R}));
}

std::pair<Value *, Value *> IRBuilder::createSplit(Value *V) {
  Type *T = V->getType();
  if (!T->isBlock() || T->getShape().back() != 2)
    reportError(CurLoc, "'split' operand must be a block whose last dimension "
                        "is 2, got " + T->str());
  Type *Half = getShapedType(T->getScalarType(), T->getShape().drop_back());
  Instruction *I = create(Opcode::Split, {Half, Half}, {V});
  return {I->getResult(0), I->getResult(1)};
}

Value *IRBuilder::createCat(Value *L, Value *R) {
  Type *T = L->getType();
  if (!T->isBlock())
    reportError(CurLoc, "'cat' operands must be blocks, got " + T->str());
  Shape Dims(T->getShape().begin(), T->getShape().end());
  Dims[0] *= 2;
  checkShape(CurLoc, Dims);
  return single(create(Opcode::Cat, {BlockType::get(T->getScalarType(), Dims)},
                       {L, R}));
}

Value *IRBuilder::createDot(Value *A, Value *B, Value *Acc, DotPrecision P,
                            int64_t MaxNumImpreciseAcc) {
  AttrList Attrs = {enumAttr(AttrKey::Precision, unsigned(P))};
  if (MaxNumImpreciseAcc >= 0)
    Attrs.push_back(intAttr(AttrKey::MaxNumImpreciseAcc, MaxNumImpreciseAcc));
  return single(create(Opcode::Dot, {Acc->getType()}, {A, B, Acc},
                       std::move(Attrs)));
}

namespace {
/// The types of \p Vs without dimension \p Axis; \p Op names the opcode in
/// errors.
llvm::SmallVector<Type *, 2> reducedTypes(Loc L, Opcode Op,
                                          llvm::ArrayRef<Value *> Vs,
                                          int64_t Axis) {
  llvm::SmallVector<Type *, 2> Types;
  for (Value *V : Vs) {
    Type *T = V->getType();
    if (Axis < 0 || Axis >= int64_t(T->getRank()))
      reportError(L, "'" + getOpcodeName(Op) + "' axis " +
                         std::to_string(Axis) + " is out of range for " +
                         T->str());
    Shape Dims(T->getShape().begin(), T->getShape().end());
    Dims.erase(Dims.begin() + Axis);
    Types.push_back(getShapedType(T->getScalarType(), Dims));
  }
  return Types;
}
} // namespace

Value *IRBuilder::createReduce(Value *V, int64_t Axis, CombineKind K) {
  return single(create(Opcode::Reduce,
                       reducedTypes(CurLoc, Opcode::Reduce, {V}, Axis), {V},
                       {intAttr(AttrKey::Axis, Axis),
                        enumAttr(AttrKey::Kind, unsigned(K))}));
}

llvm::SmallVector<Value *, 2>
IRBuilder::createReduce(llvm::ArrayRef<Value *> Vs, int64_t Axis,
                        llvm::StringRef Combine) {
  return create(Opcode::Reduce, reducedTypes(CurLoc, Opcode::Reduce, Vs, Axis), Vs,
                {intAttr(AttrKey::Axis, Axis), attr(AttrKey::Combine, AttrValue::symbol(Combine))})
      ->getResults();
}

Value *IRBuilder::createScan(Value *V, int64_t Axis, CombineKind K,
                             bool Reverse) {
  AttrList Attrs = {intAttr(AttrKey::Axis, Axis),
                    enumAttr(AttrKey::Kind, unsigned(K))};
  if (Reverse)
    Attrs.push_back(unitAttr(AttrKey::Reverse));
  return single(create(Opcode::Scan, {V->getType()}, {V}, std::move(Attrs)));
}

llvm::SmallVector<Value *, 2>
IRBuilder::createScan(llvm::ArrayRef<Value *> Vs, int64_t Axis,
                      llvm::StringRef Combine, bool Reverse) {
  auto Types = llvm::to_vector<2>(llvm::map_range(Vs, [](Value *V) { return V->getType(); }));
  AttrList Attrs = {intAttr(AttrKey::Axis, Axis),
                    attr(AttrKey::Combine, AttrValue::symbol(Combine))};
  if (Reverse)
    Attrs.push_back(unitAttr(AttrKey::Reverse));
  return create(Opcode::Scan, Types, Vs, std::move(Attrs))->getResults();
}

Value *IRBuilder::createArgMinMax(bool IsMax, Value *V, int64_t Axis,
                                  bool TieBreakLeft, bool Unsigned) {
  Opcode Op = IsMax ? Opcode::ArgMax : Opcode::ArgMin;
  Type *T = reducedTypes(CurLoc, Op, {V}, Axis)[0]->withElement(getI32Ty());
  AttrList Attrs = {intAttr(AttrKey::Axis, Axis)};
  if (TieBreakLeft)
    Attrs.push_back(unitAttr(AttrKey::TieBreakLeft));
  if (Unsigned)
    Attrs.push_back(unitAttr(AttrKey::Unsigned));
  return single(create(Op, {T}, {V}, std::move(Attrs)));
}

Value *IRBuilder::createProgramId(int64_t Axis) {
  return single(create(Opcode::GetProgramId, {getI32Ty()}, {},
                       {intAttr(AttrKey::Axis, Axis)}));
}

Value *IRBuilder::createNumPrograms(int64_t Axis) {
  return single(create(Opcode::GetNumPrograms, {getI32Ty()}, {},
                       {intAttr(AttrKey::Axis, Axis)}));
}

//===----------------------------------------------------------------------===//
// Control flow and the rest
//===----------------------------------------------------------------------===//

llvm::SmallVector<Value *, 2> IRBuilder::createCall(Function *Callee,
                                                    llvm::ArrayRef<Value *> Args) {
  FunctionType *FT = Callee->getFunctionType();
  if (FT->getParams().size() != Args.size())
    reportError(CurLoc, "call to @" + Callee->getName() + " passes " +
                            std::to_string(Args.size()) + " arguments, expected " +
                            std::to_string(FT->getParams().size()));
  for (unsigned I = 0; I < Args.size(); ++I)
    if (Args[I]->getType() != FT->getParams()[I])
      reportError(CurLoc, "call to @" + Callee->getName() + ": argument " +
                              std::to_string(I) + " has type " +
                              Args[I]->getType()->str() + ", expected " +
                              FT->getParams()[I]->str());
  return create(Opcode::Call, FT->getResults(), Args,
                {attr(AttrKey::Callee, AttrValue::symbol(Callee->getName()))})
      ->getResults();
}

Instruction *IRBuilder::createRet(llvm::ArrayRef<Value *> Vals) {
  return create(Opcode::Ret, {}, Vals);
}

Instruction *IRBuilder::createBr(BasicBlock *Dest) {
  return create(Opcode::Br, {}, {}, {}, {Dest});
}

Instruction *IRBuilder::createCondBr(Value *Cond, BasicBlock *T, BasicBlock *F) {
  return create(Opcode::CondBr, {}, {Cond}, {}, {T, F});
}

PhiInst *IRBuilder::createPhi(Type *T) {
  return llvm::cast<PhiInst>(create(Opcode::Phi, {T}, {}));
}

Instruction *IRBuilder::createBarrier() { return create(Opcode::Barrier, {}, {}); }

Instruction *IRBuilder::createGridDepControl(bool Wait) {
  return create(Wait ? Opcode::GdcWait : Opcode::GdcLaunchDependents, {}, {});
}

Instruction *IRBuilder::createPrint(llvm::StringRef Prefix,
                                    llvm::ArrayRef<Value *> Vals, bool Hex,
                                    llvm::ArrayRef<int64_t> UnsignedOperands) {
  AttrList Attrs = {attr(AttrKey::Prefix, AttrValue::string(Prefix))};
  if (Hex)
    Attrs.push_back(unitAttr(AttrKey::Hex));
  if (!UnsignedOperands.empty())
    Attrs.push_back(attr(AttrKey::UnsignedOperands, AttrValue::intList(UnsignedOperands)));
  return create(Opcode::Print, {}, Vals, std::move(Attrs));
}

Instruction *IRBuilder::createAssert(Value *Cond, llvm::StringRef Message) {
  return create(Opcode::Assert, {}, {Cond},
                {attr(AttrKey::Message, AttrValue::string(Message))});
}

Value *IRBuilder::createGather(Value *Src, Value *Index, unsigned Axis) {
  Type *T = BlockType::get(Src->getType()->getScalarType(), Index->getType()->getShape());
  return single(create(Opcode::Gather, {T}, {Src, Index},
                       {attr(AttrKey::Axis, AttrValue::integer(int64_t(Axis)))}));
}

Instruction *IRBuilder::createMapElementwise(llvm::StringRef Callee,
                                             llvm::ArrayRef<Value *> Args,
                                             llvm::ArrayRef<Type *> Results, int64_t Pack) {
  AttrList Attrs = {attr(AttrKey::Callee, AttrValue::symbol(Callee))};
  if (Pack != 1)
    Attrs.push_back(attr(AttrKey::Pack, AttrValue::integer(Pack)));
  return create(Opcode::MapElementwise, Results, Args, std::move(Attrs));
}

Instruction *IRBuilder::createInlineAsm(llvm::StringRef Asm, llvm::StringRef Constraints,
                                        llvm::ArrayRef<Value *> Args,
                                        llvm::ArrayRef<Type *> Results, bool Pure,
                                        int64_t Pack) {
  AttrList Attrs = {attr(AttrKey::Asm, AttrValue::string(Asm)),
                    attr(AttrKey::Constraints, AttrValue::string(Constraints))};
  if (Pure)
    Attrs.push_back(unitAttr(AttrKey::Pure));
  if (Pack != 1)
    Attrs.push_back(attr(AttrKey::Pack, AttrValue::integer(Pack)));
  return create(Opcode::InlineAsm, Results, Args, std::move(Attrs));
}

Value *IRBuilder::createExternElementwise(llvm::StringRef Symbol,
                                          llvm::ArrayRef<Value *> Args,
                                          Type *Result, bool Pure) {
  AttrList Attrs = {attr(AttrKey::Symbol, AttrValue::string(Symbol))};
  if (Pure)
    Attrs.push_back(unitAttr(AttrKey::Pure));
  return single(create(Opcode::ExternElementwise, {Result}, Args,
                       std::move(Attrs)));
}

Value *IRBuilder::createHint(Opcode Op, Value *V, llvm::ArrayRef<int64_t> Values) {
  assert(getOpFamily(Op) == OpFamily::Hint && "not a hint opcode");
  return single(create(Op, {V->getType()}, {V},
                       {attr(AttrKey::Values, AttrValue::intList(Values))}));
}
