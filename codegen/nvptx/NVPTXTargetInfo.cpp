//===- NVPTXTargetInfo.cpp - Lowering primitives for NVIDIA GPUs ----------===//
//
// NVVM intrinsics where LLVM has them; inline PTX for what it lacks or does
// not let us control: predicated vector loads and stores with cache hints
// (the 2019 Triton emitted the same `@p ld.global.v4.b32`), and atomics with
// explicit semantics and scope.
//
//===----------------------------------------------------------------------===//

#include "codegen/nvptx/NVPTXTargetInfo.h"
#include "codegen/lowering/FloatConversions.h"
#include "codegen/nvptx/MMALayouts.h"

#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"

using namespace tritium;

namespace {

llvm::Value *sreg(llvm::IRBuilder<> &B, llvm::Intrinsic::ID X, llvm::Intrinsic::ID Y,
                  llvm::Intrinsic::ID Z, unsigned Axis) {
  llvm::Intrinsic::ID IDs[] = {X, Y, Z};
  return B.CreateIntrinsic(IDs[Axis], {}, {});
}

/// The inline-asm constraint letter of a register of \p Bits bits (bytes
/// travel in 16-bit registers).
char constraintFor(unsigned Bits) {
  switch (Bits) {
  case 8:
  case 16: return 'h';
  case 64: return 'l';
  default: return 'r';
  }
}

std::string vecSuffix(unsigned N) {
  return N == 1 ? "" : ".v" + std::to_string(N);
}

std::string cacheSuffix(const MemoryHints &H) {
  // PTX has one form with a cache operator and one with an eviction
  // priority; a cache operator, when given, wins.
  if (H.Cache)
    return "." + stringify(*H.Cache).str();
  if (H.Evict)
    return *H.Evict == EvictionPolicy::EvictFirst ? ".L1::evict_first"
                                                  : ".L1::evict_last";
  return "";
}

/// An atom's qualifiers after its state space, in the order Triton's PTX
/// has them (ptxas takes any; people and Triton's tests grep for them):
/// scope then semantics for read-modify-writes (atom.global.gpu.acq_rel.add),
/// semantics then scope for cas (atom.global.acq_rel.gpu.cas).
std::string semScope(MemSem Sem, MemScope Scope, bool SemFirst = false) {
  std::string SemS = "." + stringify(Sem).str();
  std::string ScopeS = Scope == MemScope::CTA ? ".cta" : Scope == MemScope::Sys ? ".sys" : ".gpu";
  return SemFirst ? SemS + ScopeS : ScopeS + SemS;
}

} // namespace

llvm::Value *NVPTXTargetInfo::threadId(llvm::IRBuilder<> &B) const {
  return B.CreateIntrinsic(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x, {}, {});
}

llvm::Value *NVPTXTargetInfo::programId(llvm::IRBuilder<> &B, unsigned Axis) const {
  return sreg(B, llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x,
              llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_y,
              llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_z, Axis);
}

llvm::Value *NVPTXTargetInfo::numPrograms(llvm::IRBuilder<> &B, unsigned Axis) const {
  return sreg(B, llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_x,
              llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_y,
              llvm::Intrinsic::nvvm_read_ptx_sreg_nctaid_z, Axis);
}

void NVPTXTargetInfo::barrier(llvm::IRBuilder<> &B) const {
  B.CreateIntrinsic(llvm::Intrinsic::nvvm_barrier0, {}, {});
}

void NVPTXTargetInfo::gridDepControl(llvm::IRBuilder<> &B, bool Wait) const {
  // griddepcontrol is sm_90's (PTX 7.8); LLVM 16 has no intrinsic for it.
  // The wait clobbers memory: no load may move above it, no store below.
  if (GPU.getNumber() < 90)
    return;
  if (Wait)
    callAsm(B, {}, {}, "griddepcontrol.wait;", "~{memory}", true);
  else
    callAsm(B, {}, {}, "griddepcontrol.launch_dependents;", "", true);
}

llvm::Value *NVPTXTargetInfo::shuffleXor(llvm::IRBuilder<> &B, llvm::Value *V,
                                         unsigned Mask) const {
  return by32Bits(B, V, [&](llvm::Value *W) {
    return B.CreateIntrinsic(llvm::Intrinsic::nvvm_shfl_sync_bfly_i32, {},
                             {B.getInt32(0xffffffff), W, B.getInt32(Mask),
                              B.getInt32(0x1f)});
  });
}

llvm::Value *NVPTXTargetInfo::shuffleIdx(llvm::IRBuilder<> &B, llvm::Value *V,
                                         llvm::Value *Lane) const {
  return by32Bits(B, V, [&](llvm::Value *W) {
    return B.CreateIntrinsic(llvm::Intrinsic::nvvm_shfl_sync_idx_i32, {},
                             {B.getInt32(0xffffffff), W, Lane, B.getInt32(0x1f)});
  });
}

llvm::Value *NVPTXTargetInfo::shuffleUp(llvm::IRBuilder<> &B, llvm::Value *V,
                                        unsigned Delta) const {
  return by32Bits(B, V, [&](llvm::Value *W) {
    return B.CreateIntrinsic(llvm::Intrinsic::nvvm_shfl_sync_up_i32, {},
                             {B.getInt32(0xffffffff), W, B.getInt32(Delta),
                              B.getInt32(0)});
  });
}

namespace {
/// The state space a memory instruction through \p Ptr names: ".global"
/// for a global pointer, else "" (generic addressing, which reaches shared
/// memory too; a shared pointer is made generic first).
std::string stateSpace(llvm::IRBuilder<> &B, llvm::Value *&Ptr) {
  unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (AS == PointerType::Global)
    return ".global";
  if (AS != PointerType::Generic)
    Ptr = B.CreateAddrSpaceCast(Ptr, llvm::PointerType::get(B.getContext(), PointerType::Generic));
  return "";
}
} // namespace

llvm::Value *NVPTXTargetInfo::loadGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                                         unsigned NumWords, unsigned WordBits,
                                         llvm::Value *Pred, llvm::Value *Other,
                                         const MemoryHints &Hints) const {
  llvm::Type *WordTy = B.getIntNTy(WordBits);
  // PTX registers are at least 16 bits wide; bytes load into .b16.
  llvm::Type *RegTy = B.getIntNTy(std::max(16u, WordBits));
  // Outputs $0..$N-1, then the address, the predicate, and the values of
  // masked-off lanes tied to the outputs.
  std::string Regs = NumWords == 1 ? "$0" : "{" + asmOperands(0, NumWords) + "}";
  std::string Cons;
  for (unsigned W = 0; W < NumWords; ++W)
    Cons += std::string(W ? "," : "") + "=" + constraintFor(WordBits);
  std::string Addr = "[ $" + std::to_string(NumWords) + " + 0 ]";
  std::string Space = stateSpace(B, Ptr);
  // A volatile load takes no cache operator or eviction priority in PTX.
  std::string Op = std::string(Hints.Volatile ? "ld.volatile" : "ld") + Space +
                   (Hints.Volatile ? "" : cacheSuffix(Hints)) + vecSuffix(NumWords) + ".b" +
                   std::to_string(WordBits);
  llvm::SmallVector<llvm::Value *, 8> Ins = {Ptr};
  Cons += ",l";
  std::string Asm;
  if (Pred) {
    Ins.push_back(Pred);
    Cons += ",b";
    Asm = "@$" + std::to_string(NumWords + 1) + " " + Op + " " + Regs + ", " + Addr + ";";
    llvm::Value *O = Other ? Other : llvm::Constant::getNullValue(
                                         llvm::FixedVectorType::get(WordTy, NumWords));
    for (unsigned W = 0; W < NumWords; ++W) {
      Ins.push_back(B.CreateZExt(B.CreateExtractElement(O, W), RegTy));
      Cons += "," + std::to_string(W);
    }
  } else {
    Asm = Op + " " + Regs + ", " + Addr + ";";
  }
  llvm::SmallVector<llvm::Type *, 4> Outs(NumWords, RegTy);
  llvm::Value *R = callAsm(B, Outs, Ins, Asm, Cons, /*SideEffects=*/Hints.Volatile);
  llvm::Value *Vec = llvm::PoisonValue::get(llvm::FixedVectorType::get(WordTy, NumWords));
  for (unsigned W = 0; W < NumWords; ++W) {
    llvm::Value *Word = NumWords == 1 ? R : B.CreateExtractValue(R, W);
    Vec = B.CreateInsertElement(Vec, B.CreateTrunc(Word, WordTy), W);
  }
  return Vec;
}

void NVPTXTargetInfo::storeGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                                  llvm::Value *Words, llvm::Value *Pred,
                                  const MemoryHints &Hints) const {
  auto *VT = llvm::cast<llvm::FixedVectorType>(Words->getType());
  unsigned N = VT->getNumElements(), Bits = VT->getElementType()->getIntegerBitWidth();
  llvm::Type *RegTy = B.getIntNTy(std::max(16u, Bits));
  llvm::SmallVector<llvm::Value *, 8> Ins;
  std::string Cons, Regs = N == 1 ? "$0" : "{" + asmOperands(0, N) + "}";
  for (unsigned W = 0; W < N; ++W) {
    Ins.push_back(B.CreateZExt(B.CreateExtractElement(Words, W), RegTy));
    Cons += std::string(W ? "," : "") + constraintFor(Bits);
  }
  std::string Space = stateSpace(B, Ptr);
  Ins.push_back(Ptr);
  Cons += ",l";
  std::string Op = "st" + Space + cacheSuffix(Hints) + vecSuffix(N) + ".b" +
                   std::to_string(Bits) + " [ $" + std::to_string(N) + " + 0 ], " +
                   Regs + ";";
  if (Pred) {
    Ins.push_back(Pred);
    Cons += ",b";
    Op = "@$" + std::to_string(N + 1) + " " + Op;
  }
  callAsm(B, {}, Ins, Op, Cons + ",~{memory}", /*SideEffects=*/true);
}

namespace {

/// `atom<state space><Qualifiers> $0, [ $1 + 0 ], $2[, $3]` on \p Operands
/// (integers of the element's width) where \p Pred (may be null) holds:
/// the old value, 0 where Pred is false.
llvm::Value *atom(llvm::IRBuilder<> &B, llvm::Value *Ptr, const std::string &Qualifiers,
                  llvm::ArrayRef<llvm::Value *> Operands, llvm::Value *Pred) {
  unsigned Bits = Operands[0]->getType()->getIntegerBitWidth();
  char K = constraintFor(Bits);
  std::string Inst = "atom" + stateSpace(B, Ptr) + Qualifiers + " $0, [ $1 + 0 ]";
  llvm::SmallVector<llvm::Value *, 4> Ins = {Ptr};
  std::string Cons = std::string("=") + K + ",l";
  for (llvm::Value *V : Operands) {
    Inst += ", $" + std::to_string(Ins.size() + 1);
    Ins.push_back(V);
    Cons += std::string(",") + K;
  }
  Inst += ";";
  if (Pred) {
    Inst = "@$" + std::to_string(Ins.size() + 1) + " " + Inst;
    Ins.push_back(Pred);
    Cons += ",b";
  }
  std::string Asm = "mov.b" + std::to_string(Bits) + " $0, 0;\n\t" + Inst;
  return callAsm(B, {B.getIntNTy(Bits)}, Ins, Asm, Cons + ",~{memory}", true);
}

/// The old value at \p Ptr after replacing it atomically with
/// \p Update(old) where \p Pred (may be null) holds, by a loop of
/// atom.cas: for the read-modify-writes PTX's atom lacks. \p Update takes
/// and returns the \p Bits-bit integer; the old value is 0 where Pred is
/// false, as for the other atomics.
llvm::Value *casLoop(const NVPTXTargetInfo &T, llvm::IRBuilder<> &B, llvm::Value *Ptr,
                     unsigned Bits, llvm::Value *Pred, MemSem Sem, MemScope Scope,
                     llvm::function_ref<llvm::Value *(llvm::Value *)> Update) {
  llvm::LLVMContext &Ctx = B.getContext();
  llvm::Function *Fn = B.GetInsertBlock()->getParent();
  llvm::Type *IntTy = B.getIntNTy(Bits);
  auto *Loop = llvm::BasicBlock::Create(Ctx, "atomic.cas.loop", Fn);
  auto *Done = llvm::BasicBlock::Create(Ctx, "atomic.cas.done", Fn);
  llvm::BasicBlock *Entry = B.GetInsertBlock();
  if (Pred)
    B.CreateCondBr(Pred, Loop, Done);
  else
    B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  // The first attempt guesses 0; a failed attempt returns the value seen,
  // which is the next guess.
  llvm::PHINode *Expected = B.CreatePHI(IntTy, 2);
  Expected->addIncoming(llvm::ConstantInt::get(IntTy, 0), Entry);
  llvm::Value *Seen =
      T.atomicCAS(B, Ptr, Expected, Update(Expected), nullptr, Sem, Scope);
  Expected->addIncoming(Seen, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpEQ(Seen, Expected), Done, Loop);
  llvm::BasicBlock *Last = B.GetInsertBlock();
  B.SetInsertPoint(Done);
  if (!Pred)
    return Seen;
  llvm::PHINode *Old = B.CreatePHI(IntTy, 2);
  Old->addIncoming(llvm::ConstantInt::get(IntTy, 0), Entry);
  Old->addIncoming(Seen, Last);
  return Old;
}

} // namespace

llvm::Value *NVPTXTargetInfo::atomicRMW(llvm::IRBuilder<> &B, AtomicKind Kind,
                                        llvm::Value *Ptr, llvm::Value *Val,
                                        llvm::Value *Pred, MemSem Sem,
                                        MemScope Scope, Type *Elem) const {
  llvm::Type *T = Val->getType();
  unsigned Bits = T->getPrimitiveSizeInBits();
  bool BF16 = Elem->getScalarType()->getKind() == Type::Kind::BF16;
  // PTX has no 16-bit atom.exch, and atom.add.bf16 needs sm_90: both become
  // a loop of 16-bit atom.cas (sm_70); bf16 adds in f32 and rounds to
  // nearest even, as the arithmetic on bf16 does.
  bool BF16Add = BF16 && Kind == AtomicKind::FAdd;
  if ((Bits == 16 && Kind == AtomicKind::Xchg) || (BF16Add && !GPU.has(Target::BF16Atomics))) {
    llvm::Type *I16 = B.getInt16Ty();
    llvm::Value *V = T->isIntegerTy() ? Val : B.CreateBitCast(Val, I16);
    llvm::Value *Old = casLoop(*this, B, Ptr, 16, Pred, Sem, Scope, [&](llvm::Value *Cur) {
      if (Kind == AtomicKind::Xchg)
        return V;
      return f32ToBF16(B, B.CreateFAdd(bf16ToF32(B, Cur), bf16ToF32(B, V)));
    });
    return T->isIntegerTy() ? Old : B.CreateBitCast(Old, T);
  }
  std::string Op, Ty;
  bool Float = T->isFloatingPointTy();
  switch (Kind) {
  case AtomicKind::Add: Op = "add"; Ty = "u"; break;
  case AtomicKind::FAdd: Op = Bits == 16 ? "add.noftz" : "add"; Ty = "f"; break; // f16, bf16
  case AtomicKind::Max: Op = "max"; Ty = "s"; break;
  case AtomicKind::Min: Op = "min"; Ty = "s"; break;
  case AtomicKind::UMax: Op = "max"; Ty = "u"; break;
  case AtomicKind::UMin: Op = "min"; Ty = "u"; break;
  case AtomicKind::And: Op = "and"; Ty = "b"; break;
  case AtomicKind::Or: Op = "or"; Ty = "b"; break;
  case AtomicKind::Xor: Op = "xor"; Ty = "b"; break;
  case AtomicKind::Xchg: Op = "exch"; Ty = "b"; break;
  }
  // Integers move as integers; floats are passed in integer registers of
  // their width and the instruction's type says how to read them.
  llvm::Value *Arg = Float ? B.CreateBitCast(Val, B.getIntNTy(Bits)) : Val;
  std::string FT = BF16 && Kind == AtomicKind::FAdd ? "bf16" : Ty + std::to_string(Bits);
  if (Kind == AtomicKind::Xchg)
    FT = "b" + std::to_string(Bits);
  llvm::Value *R = atom(B, Ptr, semScope(Sem, Scope) + "." + Op + "." + FT, {Arg}, Pred);
  return Float ? B.CreateBitCast(R, T) : R;
}

llvm::Value *NVPTXTargetInfo::atomicCAS(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                                        llvm::Value *Cmp, llvm::Value *Val,
                                        llvm::Value *Pred, MemSem Sem,
                                        MemScope Scope) const {
  llvm::Type *T = Val->getType();
  unsigned Bits = T->getPrimitiveSizeInBits();
  llvm::Type *IntTy = B.getIntNTy(Bits);
  bool Float = T->isFloatingPointTy();
  llvm::Value *C = Float ? B.CreateBitCast(Cmp, IntTy) : Cmp;
  llvm::Value *V = Float ? B.CreateBitCast(Val, IntTy) : Val;
  llvm::Value *R = atom(B, Ptr, semScope(Sem, Scope, true) + ".cas.b" + std::to_string(Bits),
                        {C, V}, Pred);
  return Float ? B.CreateBitCast(R, T) : R;
}

void NVPTXTargetInfo::printf(llvm::IRBuilder<> &B, llvm::StringRef Format,
                             llvm::ArrayRef<llvm::Value *> Args) const {
  llvm::Module *M = B.GetInsertBlock()->getModule();
  llvm::LLVMContext &Ctx = M->getContext();
  llvm::Type *Ptr = llvm::PointerType::get(Ctx, 0);
  llvm::FunctionCallee VPrintf = M->getOrInsertFunction(
      "vprintf", llvm::FunctionType::get(B.getInt32Ty(), {Ptr, Ptr}, false));
  llvm::Value *Fmt = B.CreateGlobalStringPtr(Format, "printf_format", 0, M);
  llvm::Value *Buf = llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(Ptr));
  if (!Args.empty()) {
    llvm::SmallVector<llvm::Type *, 8> Tys;
    for (llvm::Value *A : Args)
      Tys.push_back(A->getType());
    auto *ST = llvm::StructType::get(Ctx, Tys);
    llvm::Value *Slot;
    {
      // Allocas belong in the entry block.
      llvm::IRBuilderBase::InsertPointGuard G(B);
      llvm::Function *F = B.GetInsertBlock()->getParent();
      B.SetInsertPoint(&F->getEntryBlock(), F->getEntryBlock().begin());
      Slot = B.CreateAlloca(ST);
    }
    for (unsigned I = 0; I < Args.size(); ++I)
      B.CreateStore(Args[I], B.CreateStructGEP(ST, Slot, I));
    Buf = Slot;
  }
  B.CreateCall(VPrintf, {Fmt, Buf});
}

void NVPTXTargetInfo::assertFail(llvm::IRBuilder<> &B, llvm::Value *Failed,
                                 llvm::StringRef Message, llvm::StringRef File,
                                 unsigned Line, llvm::StringRef Func) const {
  llvm::Module *M = B.GetInsertBlock()->getModule();
  llvm::LLVMContext &Ctx = M->getContext();
  llvm::Type *Ptr = llvm::PointerType::get(Ctx, 0);
  llvm::FunctionCallee Fail = M->getOrInsertFunction(
      "__assertfail",
      llvm::FunctionType::get(B.getVoidTy(),
                              {Ptr, Ptr, B.getInt32Ty(), Ptr, B.getInt64Ty()}, false));
  emitIf(B, Failed, "assert.fail", "assert.cont", [&] {
    B.CreateCall(Fail, {B.CreateGlobalStringPtr(Message, "assert_message", 0, M),
                        B.CreateGlobalStringPtr(File, "assert_file", 0, M), B.getInt32(Line),
                        B.CreateGlobalStringPtr(Func, "assert_function", 0, M),
                        B.getInt64(1)});
  });
}

void NVPTXTargetInfo::annotateKernel(llvm::Function *F, unsigned NumThreads,
                                     unsigned MaxRegisters) const {
  llvm::Module *M = F->getParent();
  llvm::LLVMContext &Ctx = M->getContext();
  llvm::NamedMDNode *MD = M->getOrInsertNamedMetadata("nvvm.annotations");
  auto *I32 = llvm::Type::getInt32Ty(Ctx);
  auto Annotate = [&](const char *Key, unsigned Value) {
    MD->addOperand(llvm::MDNode::get(
        Ctx, {llvm::ValueAsMetadata::get(F), llvm::MDString::get(Ctx, Key),
              llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(I32, Value))}));
  };
  Annotate("kernel", 1);
  Annotate("maxntidx", NumThreads);
  // The NVPTX backend prints it as .maxnreg.
  if (MaxRegisters)
    Annotate("maxnreg", MaxRegisters);
}

//===----------------------------------------------------------------------===//
// Math: PTX's fast approximations for f32, as Triton; libdevice for f64, erf
// and fmod.
//===----------------------------------------------------------------------===//

namespace {

llvm::Value *approx(llvm::IRBuilder<> &B, llvm::Intrinsic::ID ID, llvm::Value *X) {
  return B.CreateIntrinsic(ID, {}, {X});
}

} // namespace

llvm::Value *NVPTXTargetInfo::unaryMath(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *X) const {
  if (X->getType()->isDoubleTy()) {
    if (Op == Opcode::Sqrt)
      return B.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, X);
    return callLibrary(B, ("__nv_" + getOpcodeName(Op)).str(), X->getType(), {X});
  }
  auto *F32 = B.getFloatTy();
  switch (Op) {
  case Opcode::Exp:
    return approx(B, llvm::Intrinsic::nvvm_ex2_approx_f,
                  B.CreateFMul(X, llvm::ConstantFP::get(F32, 1.4426950408889634)));
  case Opcode::Exp2:
    // As Triton's exp2 (libdevice's exp2f, which flushes denormals under
    // __CUDA_FTZ=1, its default): ex2 without .ftz costs three more
    // instructions each, and attention's softmax is made of them.
    return approx(B, FlushDenormals ? llvm::Intrinsic::nvvm_ex2_approx_ftz_f
                                    : llvm::Intrinsic::nvvm_ex2_approx_f,
                  X);
  case Opcode::Log:
    return B.CreateFMul(approx(B, llvm::Intrinsic::nvvm_lg2_approx_f, X),
                        llvm::ConstantFP::get(F32, 0.6931471805599453));
  case Opcode::Log2: return approx(B, llvm::Intrinsic::nvvm_lg2_approx_f, X);
  case Opcode::Sqrt: return approx(B, llvm::Intrinsic::nvvm_sqrt_approx_f, X);
  case Opcode::Rsqrt: return approx(B, llvm::Intrinsic::nvvm_rsqrt_approx_f, X);
  case Opcode::Sin: return approx(B, llvm::Intrinsic::nvvm_sin_approx_f, X);
  case Opcode::Cos: return approx(B, llvm::Intrinsic::nvvm_cos_approx_f, X);
  case Opcode::Erf: return callLibrary(B, "__nv_erff", F32, {X});
  default: llvm_unreachable("not a math opcode");
  }
}

llvm::Value *NVPTXTargetInfo::fmod(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Y) const {
  // LLVM expands frem as x - trunc(x / y) * y, which rounds for large
  // quotients and loses the sign of -0.0 % y: libdevice's is exact.
  return callLibrary(B, X->getType()->isDoubleTy() ? "__nv_fmod" : "__nv_fmodf", X->getType(),
                   {X, Y});
}

llvm::Value *NVPTXTargetInfo::truncTowardZero(llvm::IRBuilder<> &B, llvm::Value *X,
                                              llvm::Type *To) const {
  bool ToHalf = To->isHalfTy();
  std::string Asm = ToHalf ? "cvt.rz.f16.f32 $0, $1;" : "cvt.rz.f32.f64 $0, $1;";
  auto *FT = llvm::FunctionType::get(To, {X->getType()}, false);
  return B.CreateCall(llvm::InlineAsm::get(FT, Asm, ToHalf ? "=h,f" : "=f,d", false), {X});
}

bool NVPTXTargetInfo::canAsyncCopy(unsigned Bytes) const {
  return GPU.has(Target::CpAsync) && (Bytes == 4 || Bytes == 8 || Bytes == 16);
}

void NVPTXTargetInfo::asyncCopy(llvm::IRBuilder<> &B, llvm::Value *Shared, llvm::Value *Global,
                                unsigned Bytes, llvm::Value *SrcBytes) const {
  // Inline PTX: LLVM 16's cp.async intrinsics have no source-size operand,
  // which is how a masked copy writes zeros (src-size 0 reads nothing, a
  // smaller one a prefix). 16 bytes bypass L1 (.cg, as Triton); 4 and 8
  // can only go through it. A 32-bit shared address (the state space's
  // own width), as ld.shared and ldmatrix take: half the registers of a
  // 64-bit one.
  llvm::Value *Dst = B.CreatePtrToInt(Shared, B.getInt32Ty());
  llvm::Value *Src = B.CreatePtrToInt(
      B.CreateAddrSpaceCast(Global, llvm::PointerType::get(B.getContext(), 1)), B.getInt64Ty());
  std::string Op = std::string("cp.async.") + (Bytes == 16 ? "cg" : "ca") +
                   ".shared.global [$0], [$1], " + std::to_string(Bytes);
  if (!SrcBytes)
    callAsm(B, {}, {Dst, Src}, Op + ";", "r,l,~{memory}", true);
  else
    callAsm(B, {}, {Dst, Src, SrcBytes}, Op + ", $2;", "r,l,r,~{memory}", true);
}

void NVPTXTargetInfo::asyncCommitGroup(llvm::IRBuilder<> &B) const {
  if (GPU.has(Target::CpAsync))
    B.CreateIntrinsic(llvm::Intrinsic::nvvm_cp_async_commit_group, {}, {});
}

void NVPTXTargetInfo::asyncWait(llvm::IRBuilder<> &B, unsigned Num) const {
  if (GPU.has(Target::CpAsync))
    B.CreateIntrinsic(llvm::Intrinsic::nvvm_cp_async_wait_group, {}, {B.getInt32(Num)});
}

bool NVPTXTargetInfo::loadMatrices(llvm::IRBuilder<> &B, llvm::Value *Ptr, unsigned Count,
                                   bool Trans,
                                   llvm::SmallVectorImpl<llvm::Value *> &Words) const {
  if (!GPU.has(Target::MMASync))
    return false;
  using namespace llvm::Intrinsic;
  static const ID Plain[] = {nvvm_ldmatrix_sync_aligned_m8n8_x1_b16,
                             nvvm_ldmatrix_sync_aligned_m8n8_x2_b16,
                             nvvm_ldmatrix_sync_aligned_m8n8_x4_b16};
  static const ID Transposed[] = {nvvm_ldmatrix_sync_aligned_m8n8_x1_trans_b16,
                                  nvvm_ldmatrix_sync_aligned_m8n8_x2_trans_b16,
                                  nvvm_ldmatrix_sync_aligned_m8n8_x4_trans_b16};
  unsigned Log = llvm::Log2_32(Count);
  llvm::Value *R = B.CreateIntrinsic(Trans ? Transposed[Log] : Plain[Log], {Ptr->getType()}, {Ptr});
  if (Count == 1) {
    Words.push_back(R);
    return true;
  }
  for (unsigned I = 0; I < Count; ++I)
    Words.push_back(B.CreateExtractValue(R, I));
  return true;
}

llvm::Value *NVPTXTargetInfo::approxDiv(llvm::IRBuilder<> &B, llvm::Value *X,
                                        llvm::Value *Y) const {
  // div.full.f32, as Triton's `/`: full range, 2 ulp, no slow path (div.rn's
  // is a subroutine call and a third of a small kernel's ptxas time). LLVM
  // 16 has no intrinsic for it; pure asm, so LLVM may merge or drop it.
  if (!X->getType()->isFloatTy())
    return B.CreateFDiv(X, Y);
  return callAsm(B, {B.getFloatTy()}, {X, Y}, "div.full.f32 $0, $1, $2;", "=f,f,f", false);
}

bool NVPTXTargetInfo::storeMatrices(llvm::IRBuilder<> &B, llvm::Value *Ptr, bool Trans,
                                    llvm::ArrayRef<llvm::Value *> Words) const {
  if (!GPU.has(Target::StMatrix))
    return false;
  // Inline PTX: LLVM 16 has no stmatrix intrinsic. A 32-bit shared address,
  // as cp.async's.
  unsigned Count = Words.size();
  llvm::SmallVector<llvm::Value *, 5> Ins = {B.CreatePtrToInt(Ptr, B.getInt32Ty())};
  std::string Regs, Cons = "r";
  for (unsigned I = 0; I < Count; ++I) {
    Ins.push_back(B.CreateBitCast(Words[I], B.getInt32Ty()));
    Regs += (I ? ", $" : "$") + std::to_string(I + 1);
    Cons += ",r";
  }
  callAsm(B, {}, Ins,
          "stmatrix.sync.aligned.m8n8.x" + std::to_string(Count) + (Trans ? ".trans" : "") +
              ".shared.b16 [$0], {" + Regs + "};",
          Cons + ",~{memory}", true);
  return true;
}

bool NVPTXTargetInfo::mmaSync(llvm::IRBuilder<> &B, const MMAInstr &X,
                              llvm::ArrayRef<llvm::Value *> A, llvm::ArrayRef<llvm::Value *> Bw,
                              llvm::ArrayRef<llvm::Value *> C,
                              llvm::SmallVectorImpl<llvm::Value *> &D) const {
  if (!GPU.has(Target::MMASync))
    return false;
  using namespace llvm::Intrinsic;
  using In = MMAInstr::Input;
  bool HalfAcc = X.Acc == MMAInstr::Accum::F16;
  ID Op = X.In == In::BF16   ? nvvm_mma_m16n8k16_row_col_bf16
          : X.In == In::TF32 ? nvvm_mma_m16n8k8_row_col_tf32
          : X.In == In::S8   ? nvvm_mma_m16n8k32_row_col_satfinite_s8
          : HalfAcc          ? nvvm_mma_m16n8k16_row_col_f16_f16
                             : nvvm_mma_m16n8k16_row_col_f32_f32;
  // The f16 forms take <2 x half> words, the others i32; an f16
  // accumulator is two <2 x half> words.
  llvm::Type *Half2 = llvm::FixedVectorType::get(B.getHalfTy(), 2);
  llvm::SmallVector<llvm::Value *, 12> Args;
  for (llvm::Value *W : llvm::concat<llvm::Value *const>(A, Bw))
    Args.push_back(X.In == In::F16 ? B.CreateBitCast(W, Half2) : W);
  if (HalfAcc) {
    for (unsigned I = 0; I < 4; I += 2) {
      llvm::Value *V = B.CreateInsertElement(llvm::PoisonValue::get(Half2), C[I], uint64_t(0));
      Args.push_back(B.CreateInsertElement(V, C[I + 1], uint64_t(1)));
    }
  } else {
    Args.append(C.begin(), C.end());
  }
  llvm::Value *R = B.CreateIntrinsic(Op, {}, Args);
  for (unsigned I = 0; I < 4; ++I)
    D.push_back(HalfAcc ? B.CreateExtractElement(B.CreateExtractValue(R, I / 2), uint64_t(I % 2))
                        : B.CreateExtractValue(R, I));
  return true;
}

std::string tritium::asmOperands(unsigned First, unsigned N) {
  std::string S;
  for (unsigned K = 0; K < N; ++K)
    S += (K ? ", $" : "$") + std::to_string(First + K);
  return S;
}

llvm::Value *tritium::callAsm(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Type *> Outs,
                              llvm::ArrayRef<llvm::Value *> Ins, llvm::StringRef Asm,
                              llvm::StringRef Constraints, bool SideEffects) {
  llvm::Type *Ret = Outs.empty()      ? B.getVoidTy()
                    : Outs.size() == 1 ? Outs[0]
                                       : llvm::StructType::get(B.getContext(), Outs);
  llvm::SmallVector<llvm::Type *, 8> InTys;
  for (llvm::Value *V : Ins)
    InTys.push_back(V->getType());
  auto *FT = llvm::FunctionType::get(Ret, InTys, false);
  auto *IA = llvm::InlineAsm::get(FT, Asm, Constraints, SideEffects);
  return B.CreateCall(IA, Ins);
}

unsigned NVPTXTargetInfo::sharedMemoryAlignment() const {
  // wgmma's 128-byte swizzle works on address bits 4-9: its buffers start
  // at multiples of 1024 bytes (the allocator's alignment).
  return GPU.has(Target::WGMMA) ? 1024 : 16;
}
