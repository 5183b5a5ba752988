//===- LoweringContext.cpp - State shared by the lowering files -----------===//

#include "codegen/lowering/LoweringContext.h"
#include "ir/Diagnostics.h"

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
  unsigned LaneBits = llvm::Log2_32(Opts.WarpSize);
  Lane = B.CreateAnd(Tid, B.getInt32(Opts.WarpSize - 1), "lane");
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

llvm::Type *LoweringContext::elemType(Type *T) const {
  Type *E = T->getScalarType();
  llvm::LLVMContext &Ctx = LLM.getContext();
  switch (E->getKind()) {
  case Type::Kind::Int: return llvm::IntegerType::get(Ctx, E->getScalarSizeInBits());
  case Type::Kind::F8E4M3:
  case Type::Kind::F8E5M2: return llvm::Type::getInt8Ty(Ctx);
  case Type::Kind::BF16: return llvm::Type::getInt16Ty(Ctx);
  case Type::Kind::F16: return llvm::Type::getHalfTy(Ctx);
  case Type::Kind::F32: return llvm::Type::getFloatTy(Ctx);
  case Type::Kind::F64: return llvm::Type::getDoubleTy(Ctx);
  case Type::Kind::Pointer:
    return llvm::PointerType::get(Ctx,
                                  llvm::cast<PointerType>(E)->getAddressSpace());
  default:
    llvm_unreachable("no LLVM type for this element");
  }
}

const LoweringContext::Regs &LoweringContext::threadOffsets(const LinearLayout &L) {
  std::string Key = L.str();
  auto It = Offsets.find(Key);
  if (It != Offsets.end())
    return It->second;
  Regs Offs = inEntry([&] {
    unsigned Rank = L.getOutDims().size();
    Regs R(Rank, B.getInt32(0));
    // XOR of the bases of the set lane and warp bits. For the usual layouts
    // the bases are distinct powers of two and LLVM folds this to shifts and
    // masks.
    for (auto [Name, Id] : {std::pair<const char *, llvm::Value *>{kLane, Lane},
                            {kWarp, Warp}}) {
      llvm::ArrayRef<LinearLayout::Basis> Bases = L.getBases(Name);
      for (unsigned Bit = 0; Bit < Bases.size(); ++Bit) {
        llvm::Value *Set = B.CreateAnd(B.CreateLShr(Id, Bit), 1);
        for (unsigned D = 0; D < Rank; ++D)
          if (Bases[Bit][D])
            R[D] = B.CreateXor(R[D], B.CreateMul(Set, B.getInt32(Bases[Bit][D])));
      }
    }
    return R;
  });
  return Offsets.emplace(Key, std::move(Offs)).first->second;
}

std::vector<LoweringContext::Regs> LoweringContext::coordinates(const LinearLayout &L) {
  const Regs &Thread = threadOffsets(L);
  unsigned Rank = L.getOutDims().size();
  llvm::ArrayRef<LinearLayout::Basis> Bases = L.getBases(kRegister);
  std::vector<Regs> Out;
  for (uint32_t R = 0; R < (1u << Bases.size()); ++R) {
    LinearLayout::Basis Reg(Rank, 0);
    for (unsigned Bit = 0; Bit < Bases.size(); ++Bit)
      if (R >> Bit & 1)
        for (unsigned D = 0; D < Rank; ++D)
          Reg[D] ^= Bases[Bit][D];
    Regs C;
    for (unsigned D = 0; D < Rank; ++D)
      C.push_back(Reg[D] ? B.CreateXor(Thread[D], B.getInt32(Reg[D])) : Thread[D]);
    Out.push_back(std::move(C));
  }
  return Out;
}

llvm::Value *LoweringContext::sharedPtr(llvm::Value *ByteOffset) {
  unsigned AS = Target.sharedAddressSpace();
  llvm::GlobalVariable *G = LLM.getGlobalVariable("global_smem");
  if (!G) {
    auto *Ty = llvm::ArrayType::get(B.getInt8Ty(), 0);
    G = new llvm::GlobalVariable(LLM, Ty, false, llvm::GlobalValue::ExternalLinkage,
                                 nullptr, "global_smem", nullptr,
                                 llvm::GlobalValue::NotThreadLocal, AS);
    G->setAlignment(llvm::Align(16));
  }
  return B.CreateGEP(B.getInt8Ty(), G, ByteOffset);
}

unsigned LoweringContext::scratchOffset(const Instruction &I) const {
  std::optional<unsigned> Off = Smem.getScratchOffset(I);
  assert(Off && "instruction has no scratch buffer");
  return *Off;
}

void LoweringContext::unsupported(const Instruction &I, const llvm::Twine &What) const {
  reportError(I.getLoc(), "the NVIDIA backend does not support " + What);
}
