//===- LoweringContext.cpp - State shared by the lowering files -----------===//

#include "codegen/lowering/LoweringContext.h"
#include "ir/BasicBlock.h"
#include "ir/Diagnostics.h"

#include "llvm/IR/Dominators.h"

using namespace tritium;

LoweringContext::LoweringContext(llvm::Module &LLM, llvm::Function *LLF, Function &F,
                                 const LoweringOptions &Opts,
                                 const TargetInfo &Target, AxisInfoAnalysis &AI,
                                 const SharedMemoryAllocation &Smem)
    : B(Builder), LLM(LLM), LLF(LLF), F(F), Opts(Opts), Target(Target), AI(AI),
      Smem(Smem), Builder(LLM.getContext()) {
  // The thread's lane and warp, once, at the top of the entry block.
  llvm::BasicBlock *Entry = llvm::BasicBlock::Create(LLM.getContext(), "entry", LLF);
  B.SetInsertPoint(Entry);
  llvm::Value *Tid = Target.threadId(B);
  unsigned LaneBits = llvm::Log2_32(Opts.warpSize());
  Lane = B.CreateAnd(Tid, B.getInt32(Opts.warpSize() - 1), "lane");
  Warp = B.CreateLShr(Tid, B.getInt32(LaneBits), "warp");
}

const LoweringContext::Regs &LoweringContext::get(const Value *V) const {
  auto It = Values.find(V);
  assert(It != Values.end() && "value used before it was lowered");
  return It->second;
}

llvm::Value *LoweringContext::scalar(const Value *V) const {
  const Regs &R = get(V);
  assert(R.size() == 1 && "not a scalar");
  return R[0];
}

void LoweringContext::set(const Value *V, Regs R) {
  assert((!V->getType()->isBlock() || R.size() == numRegs(layout(V))) &&
         "register count does not match the layout");
  Values[V] = std::move(R);
}

const LinearLayout &LoweringContext::layout(const Value *V) const {
  const Instruction *I = V->getDefiningInstruction();
  const LinearLayout *L = I ? I->getLayout() : nullptr;
  if (!L)
    reportError(I ? I->getLoc() : Loc{},
                "internal error: a block value without a layout reached lowering "
                "(run assign-layouts first)");
  return *L;
}

llvm::Type *tritium::elementType(llvm::LLVMContext &Ctx, Type *T) {
  Type *E = T->getScalarType();
  switch (E->getKind()) {
  case Type::Kind::Int: return llvm::IntegerType::get(Ctx, E->getScalarSizeInBits());
  case Type::Kind::F8E4M3:
  case Type::Kind::F8E5M2:
  case Type::Kind::F8E4M3B15: return llvm::Type::getInt8Ty(Ctx);
  case Type::Kind::BF16: return llvm::Type::getInt16Ty(Ctx);
  case Type::Kind::F16: return llvm::Type::getHalfTy(Ctx);
  case Type::Kind::F32: return llvm::Type::getFloatTy(Ctx);
  case Type::Kind::F64: return llvm::Type::getDoubleTy(Ctx);
  case Type::Kind::Pointer:
    return llvm::PointerType::get(Ctx, llvm::cast<PointerType>(E)->getAddressSpace());
  case Type::Kind::MemDesc: return llvm::Type::getInt32Ty(Ctx);
  default: return nullptr;
  }
}

void tritium::forEachConstantRun(llvm::ArrayRef<llvm::Value *> Offsets, unsigned MaxRun,
                                 llvm::function_ref<void(unsigned, unsigned)> Run) {
  auto Const = [&](unsigned R) -> std::optional<int64_t> {
    if (auto *K = llvm::dyn_cast<llvm::ConstantInt>(Offsets[R]))
      return K->getSExtValue();
    return std::nullopt;
  };
  for (unsigned First = 0; First < Offsets.size();) {
    unsigned Count = 1;
    if (std::optional<int64_t> Start = Const(First))
      while (First + Count < Offsets.size() && Count < MaxRun &&
             Const(First + Count) == *Start + int64_t(Count))
        ++Count;
    Run(First, Count);
    First += Count;
  }
}

llvm::Value *tritium::packRegisters(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> Regs) {
  auto *First = llvm::dyn_cast<llvm::ExtractElementInst>(Regs[0]);
  auto *Start = First ? llvm::dyn_cast<llvm::ConstantInt>(First->getIndexOperand()) : nullptr;
  bool Lanes = Start != nullptr;
  for (unsigned K = 1; Lanes && K < Regs.size(); ++K) {
    auto *E = llvm::dyn_cast<llvm::ExtractElementInst>(Regs[K]);
    auto *Idx = E ? llvm::dyn_cast<llvm::ConstantInt>(E->getIndexOperand()) : nullptr;
    Lanes = Idx && E->getVectorOperand() == First->getVectorOperand() &&
            Idx->getZExtValue() == Start->getZExtValue() + K;
  }
  if (Lanes) {
    llvm::Value *Src = First->getVectorOperand();
    if (llvm::cast<llvm::FixedVectorType>(Src->getType())->getNumElements() == Regs.size())
      return Src;
    llvm::SmallVector<int, 16> Mask;
    for (unsigned K = 0; K < Regs.size(); ++K)
      Mask.push_back(int(Start->getZExtValue() + K));
    return B.CreateShuffleVector(Src, Mask);
  }
  llvm::Value *V =
      llvm::PoisonValue::get(llvm::FixedVectorType::get(Regs[0]->getType(), Regs.size()));
  for (unsigned K = 0; K < Regs.size(); ++K)
    V = B.CreateInsertElement(V, Regs[K], uint64_t(K));
  return V;
}

LoweringContext::ThreadPart &LoweringContext::threadPart(const LinearLayout &L) {
  std::string Key = L.str();
  auto It = ThreadParts.find(Key);
  if (It != ThreadParts.end())
    return It->second;
  ThreadPart Part = inEntry([&] {
    unsigned Rank = L.getOutDims().size();
    Regs R(Rank, nullptr);
    std::vector<int32_t> Used(Rank, 0); // bits of R[D] that may be set
    // Per dimension, the XOR of the bases of the set lane and warp bits.
    // Runs of id bits whose bases are consecutive powers of two (the
    // blocked layouts' whole story) become one shift-and-mask, and terms
    // with disjoint bits combine with `or`: the IR stays small, so LLVM's
    // InstCombine does not spend its time re-deriving this.
    for (auto [Name, Id] : {std::pair<const char *, llvm::Value *>{kLane, Lane},
                            {kWarp, Warp}}) {
      llvm::ArrayRef<LinearLayout::Basis> Bases = L.getBases(Name);
      for (unsigned D = 0; D < Rank; ++D) {
        for (unsigned Bit = 0; Bit < Bases.size();) {
          int32_t Base = Bases[Bit][D];
          if (!Base) {
            ++Bit;
            continue;
          }
          unsigned Run = 1;
          bool Pow2 = llvm::isPowerOf2_32(uint32_t(Base));
          while (Pow2 && Bit + Run < Bases.size() &&
                 Bases[Bit + Run][D] == int32_t(uint32_t(Base) << Run))
            ++Run;
          llvm::Value *Term;
          int32_t Bits;
          if (Pow2) {
            unsigned To = llvm::Log2_32(uint32_t(Base));
            uint32_t Mask = ((1u << Run) - 1) << Bit;
            Term = B.CreateAnd(Id, Mask);
            if (To > Bit)
              Term = B.CreateShl(Term, To - Bit);
            else if (To < Bit)
              Term = B.CreateLShr(Term, Bit - To);
            Bits = int32_t(((1u << Run) - 1) << To);
          } else {
            Term = B.CreateMul(B.CreateAnd(B.CreateLShr(Id, Bit), 1), B.getInt32(Base));
            Bits = Base;
          }
          if (!R[D])
            R[D] = Term;
          else if (Used[D] & Bits)
            R[D] = B.CreateXor(R[D], Term);
          else
            R[D] = B.CreateOr(R[D], Term);
          Used[D] |= Bits;
          Bit += Run;
        }
      }
    }
    for (unsigned D = 0; D < Rank; ++D)
      if (!R[D])
        R[D] = B.getInt32(0);
    return ThreadPart{std::move(R), std::move(Used), nullptr};
  });
  return ThreadParts.emplace(Key, std::move(Part)).first->second;
}

std::vector<LoweringContext::Regs> LoweringContext::coordinates(const LinearLayout &L) {
  const ThreadPart &Part = threadPart(L);
  const Regs &Thread = Part.Offsets;
  const std::vector<int32_t> &Used = Part.Bits;
  unsigned Rank = L.getOutDims().size();
  llvm::ArrayRef<LinearLayout::Basis> Bases = L.getBases(kRegister);
  std::vector<Regs> Out;
  for (uint32_t R = 0; R < (1u << Bases.size()); ++R) {
    LinearLayout::Basis Reg = L.applyIn(kRegister, int32_t(R));
    Regs C;
    for (unsigned D = 0; D < Rank; ++D) {
      // Register bits disjoint from the thread's: `or`, which LLVM can fold
      // into addressing as an add.
      bool Disjoint = !(Reg[D] & Used[D]);
      C.push_back(!Reg[D]    ? Thread[D]
                  : Disjoint ? B.CreateOr(Thread[D], B.getInt32(Reg[D]))
                             : B.CreateXor(Thread[D], B.getInt32(Reg[D])));
    }
    Out.push_back(std::move(C));
  }
  return Out;
}

LoweringContext::Regs LoweringContext::elementOffsets(const LinearLayout &L) {
  ThreadPart &Part = threadPart(L);
  const Regs &Thread = Part.Offsets;
  const std::vector<int32_t> &Used = Part.Bits;
  llvm::ArrayRef<LinearLayout::OutDim> Outs = L.getOutDims();
  unsigned Rank = Outs.size();
  llvm::SmallVector<int64_t, 4> Stride(Rank, 1);
  for (unsigned D = Rank; D-- > 1;)
    Stride[D - 1] = Stride[D] * Outs[D].Size;
  auto Linear = [&](llvm::ArrayRef<llvm::Value *> Co) {
    llvm::Value *Off = Co[0];
    for (unsigned D = 1; D < Rank; ++D)
      Off = B.CreateAdd(B.CreateMul(Off, B.getInt32(Outs[D].Size)), Co[D]);
    return Off;
  };
  // The thread's part once (entry block); a register whose bits are
  // disjoint from it in every dimension adds a constant (thread | reg ==
  // thread + reg there, and the row-major offset is linear in the
  // coordinates), which addressing folds into an immediate.
  if (!Part.RowMajor)
    Part.RowMajor = inEntry([&] { return Linear(Thread); });
  llvm::Value *ThreadLinear = Part.RowMajor;
  llvm::ArrayRef<LinearLayout::Basis> Bases = L.getBases(kRegister);
  Regs Out;
  std::vector<Regs> Slow;
  for (uint32_t R = 0; R < (1u << Bases.size()); ++R) {
    LinearLayout::Basis Reg = L.applyIn(kRegister, int32_t(R));
    bool Disjoint = true;
    int64_t Const = 0;
    for (unsigned D = 0; D < Rank; ++D) {
      Disjoint &= !(Reg[D] & Used[D]);
      Const += Reg[D] * Stride[D];
    }
    if (Disjoint) {
      Out.push_back(Const ? B.CreateAdd(ThreadLinear, B.getInt32(int32_t(Const))) : ThreadLinear);
      continue;
    }
    if (Slow.empty())
      Slow = coordinates(L);
    Out.push_back(Linear(Slow[R]));
  }
  return Out;
}

llvm::Value *LoweringContext::owner(const LinearLayout *L) {
  if (!L)
    return B.CreateICmpEQ(B.CreateOr(Lane, Warp), B.getInt32(0));
  llvm::Value *Own = B.getTrue();
  for (auto [Name, Id] : {std::pair<const char *, llvm::Value *>{kLane, Lane}, {kWarp, Warp}}) {
    uint32_t Free = 0;
    llvm::ArrayRef<LinearLayout::Basis> Bases = L->getBases(Name);
    for (unsigned Bit = 0; Bit < Bases.size(); ++Bit)
      if (llvm::all_of(Bases[Bit], [](int32_t X) { return X == 0; }))
        Free |= 1u << Bit;
    if (Free)
      Own = B.CreateAnd(Own, B.CreateICmpEQ(B.CreateAnd(Id, Free), B.getInt32(0)));
  }
  return Own;
}

llvm::Value *LoweringContext::sharedPtr(llvm::Value *ByteOffset) {
  return B.CreateGEP(B.getInt8Ty(), Target.sharedMemoryBase(B), ByteOffset);
}

llvm::Value *LoweringContext::sharedPtr(llvm::Value *ByteOffset, uint32_t ConstBytes) {
  llvm::Value *P = sharedPtr(ByteOffset);
  return ConstBytes ? B.CreateInBoundsGEP(B.getInt8Ty(), P, B.getInt32(ConstBytes)) : P;
}

unsigned LoweringContext::scratchOffset(const Instruction &I) const {
  std::optional<unsigned> Off = Smem.getScratchOffset(I);
  assert(Off && "instruction has no scratch buffer");
  return *Off;
}

void LoweringContext::unsupported(const Instruction &I, const llvm::Twine &What) const {
  reportError(I.getLoc(), "the " + Opts.GPU.str() + " backend does not support " + What);
}

void LoweringContext::flushPendingDot(const Instruction *Next) {
  if (!Pending.Dot)
    return;
  // What may run while the dot is in flight: the asynchronous copies
  // into other ring slots and the pure arithmetic of their addresses and
  // masks, none of it reading the dot's result.
  bool ReadsResult = false;
  for (unsigned K = 0; Next && K < Next->getNumOperands(); ++K)
    ReadsResult |= Next->getOperand(K) == Pending.Dot->getResult(0);
  if (Next && !ReadsResult && !Next->hasSideEffects() && !Next->mayReadMemory() &&
      !Next->mayWriteMemory()) {
    switch (Next->getFamily()) {
    case OpFamily::Constant:
    case OpFamily::Binary:
    case OpFamily::Cmp:
    case OpFamily::Select:
    case OpFamily::Cast:
    case OpFamily::GetElementPtr:
    case OpFamily::MakeRange:
    case OpFamily::Splat:
    case OpFamily::Broadcast:
    case OpFamily::ExpandDims:
    case OpFamily::MemDescIndex:
    case OpFamily::MemDescTrans:
      return;
    default:
      break;
    }
  }
  if (Next && !ReadsResult &&
      (Next->getFamily() == OpFamily::AsyncCopy ||
       Next->getFamily() == OpFamily::AsyncCommitGroup))
    return;
  if (Pending.InFlight) {
    // The group before this one (the previous iteration's) is done; this
    // one's registers go to the header's phi as they are.
    Target.waitAsyncDots(B, 1, {});
    const Value *Phi = Pending.Dot->getOperand(2);
    const BasicBlock *Header = Phi->getDefiningInstruction()->getParent();
    for (BasicBlock *S : Header->successors())
      if (S != Pending.Dot->getParent())
        InFlightExits.push_back({Phi, S});
    Pending = PendingDot();
    return;
  }
  Regs Acc = get(Pending.Dot->getResult(0));
  llvm::SmallVector<llvm::Value *, 128> Waited;
  for (unsigned R : Pending.Regs)
    Waited.push_back(Acc[R]);
  Target.waitAsyncDots(B, 0, Waited);
  for (unsigned X = 0; X < Pending.Regs.size(); ++X)
    Acc[Pending.Regs[X]] = Waited[X];
  const Value *Result = Pending.Dot->getResult(0);
  Pending = PendingDot();
  set(Result, std::move(Acc));
}

void LoweringContext::waitAtLoopExits() {
  if (InFlightExits.empty())
    return;
  llvm::SmallVector<std::pair<llvm::Value *, llvm::Value *>, 128> Replace;
  for (auto [Phi, Exit] : InFlightExits) {
    llvm::BasicBlock *At = getBlock(Exit);
    B.SetInsertPoint(At, At->getFirstInsertionPt());
    const Regs &Acc = get(Phi);
    llvm::SmallVector<llvm::Value *, 128> Waited(Acc.begin(), Acc.end());
    Target.waitAsyncDots(B, 0, Waited);
    for (unsigned K = 0; K < Acc.size(); ++K)
      Replace.push_back({Acc[K], Waited[K]});
  }
  // Every use the wait dominates reads the waited value.
  llvm::DominatorTree DT(*B.GetInsertBlock()->getParent());
  for (auto [Old, New] : Replace) {
    auto *NewI = llvm::cast<llvm::Instruction>(New);
    Old->replaceUsesWithIf(New, [&](llvm::Use &U) {
      auto *User = llvm::dyn_cast<llvm::Instruction>(U.getUser());
      return User && User != NewI &&
             DT.dominates(NewI, U);
    });
  }
}
