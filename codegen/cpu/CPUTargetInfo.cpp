//===- CPUTargetInfo.cpp - Lowering primitives for the host CPU -----------===//

#include "codegen/cpu/CPUTargetInfo.h"

#include "codegen/lowering/LoweringContext.h"
#include "ir/Diagnostics.h"

#include "llvm/Analysis/VectorUtils.h"
#include "llvm/IR/Module.h"

using namespace tritium;

namespace {

/// A call of the runtime's function \p Name that reads no memory: LLVM may
/// merge and hoist its calls within a program.
llvm::Value *callConstant(llvm::IRBuilder<> &B, llvm::StringRef Name, llvm::Type *Ret,
                          llvm::ArrayRef<llvm::Value *> Args) {
  auto *Call = llvm::cast<llvm::CallInst>(callLibrary(B, Name, Ret, Args));
  llvm::Function *F = Call->getCalledFunction();
  F->setDoesNotAccessMemory();
  F->setDoesNotThrow();
  F->setWillReturn();
  return Call;
}

/// The mask of \p N lanes: \p Pred, a bit per lane or one for all (i1).
llvm::Value *laneMask(llvm::IRBuilder<> &B, llvm::Value *Pred, unsigned N) {
  return Pred->getType()->isVectorTy() ? Pred : B.CreateVectorSplat(N, Pred);
}

} // namespace

llvm::Value *CPUTargetInfo::threadId(llvm::IRBuilder<> &B) const {
  return Threads == 1 ? B.getInt32(0) : callConstant(B, CPUThreadId, B.getInt32Ty(), {});
}

void CPUTargetInfo::barrier(llvm::IRBuilder<> &) const {
  // One thread has nothing to wait for; threads of a loop cannot wait.
  if (Threads > 1)
    reportError({}, "internal error: a barrier in a cpu program of " + std::to_string(Threads) +
                        " threads");
}

llvm::Value *CPUTargetInfo::programId(llvm::IRBuilder<> &B, unsigned Axis) const {
  return callConstant(B, CPUProgramId, B.getInt32Ty(), {B.getInt32(Axis)});
}

llvm::Value *CPUTargetInfo::numPrograms(llvm::IRBuilder<> &B, unsigned Axis) const {
  return callConstant(B, CPUNumPrograms, B.getInt32Ty(), {B.getInt32(Axis)});
}

llvm::Value *CPUTargetInfo::sharedMemoryBase(llvm::IRBuilder<> &B) const {
  return callConstant(B, CPUShared, B.getPtrTy(), {});
}

llvm::Value *CPUTargetInfo::loadGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr,
                                       unsigned NumWords, unsigned WordBits, llvm::Value *Pred,
                                       llvm::Value *Other, const MemoryHints &Hints) const {
  auto *Ty = llvm::FixedVectorType::get(B.getIntNTy(WordBits), NumWords);
  if (!Pred || !Pred->getType()->isVectorTy())
    return LLVMTargetInfo::loadGlobal(B, Ptr, NumWords, WordBits, Pred, Other, Hints);
  llvm::Value *Out = Other ? Other : llvm::Constant::getNullValue(Ty);
  if (Hints.Volatile) {
    // No volatile masked load: each element under its own branch.
    for (unsigned K = 0; K < NumWords; ++K)
      Out = B.CreateInsertElement(
          Out,
          whereHolds(
              B, B.CreateExtractElement(Pred, K), "load",
              [&]() -> llvm::Value * {
                llvm::LoadInst *L = B.CreateAlignedLoad(
                    Ty->getElementType(), B.CreateConstGEP1_32(Ty->getElementType(), Ptr, K),
                    llvm::Align(WordBits / 8));
                L->setVolatile(true);
                return L;
              },
              [&](llvm::Type *) { return B.CreateExtractElement(Out, K); }),
          K);
    return Out;
  }
  // A masked load reads nothing where the mask is off (AVX's masked moves
  // do not fault there): no branch for LLVM's vectorizers to stop at.
  return B.CreateMaskedLoad(Ty, Ptr, llvm::Align(WordBits / 8),
                            laneMask(B, Pred, NumWords), Out);
}

void CPUTargetInfo::storeGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr, llvm::Value *Words,
                                llvm::Value *Pred, const MemoryHints &Hints) const {
  auto *Ty = llvm::cast<llvm::FixedVectorType>(Words->getType());
  if (!Pred)
    return LLVMTargetInfo::storeGlobal(B, Ptr, Words, Pred, Hints);
  B.CreateMaskedStore(Words, Ptr, llvm::Align(Ty->getScalarSizeInBits() / 8),
                      laneMask(B, Pred, Ty->getNumElements()));
}

void CPUTargetInfo::printf(llvm::IRBuilder<> &B, llvm::StringRef Format,
                           llvm::ArrayRef<llvm::Value *> Args) const {
  llvm::Module *M = B.GetInsertBlock()->getModule();
  llvm::FunctionCallee Printf = M->getOrInsertFunction(
      "printf", llvm::FunctionType::get(B.getInt32Ty(), {B.getPtrTy()}, /*isVarArg=*/true));
  llvm::SmallVector<llvm::Value *, 8> CallArgs = {B.CreateGlobalStringPtr(Format, "printf_format")};
  CallArgs.append(Args.begin(), Args.end());
  B.CreateCall(Printf, CallArgs);
}

void CPUTargetInfo::assertFail(llvm::IRBuilder<> &B, llvm::Value *Failed,
                               llvm::StringRef Message, llvm::StringRef File, unsigned Line,
                               llvm::StringRef Func) const {
  emitIf(B, Failed, "assert.fail", "assert.cont", [&] {
    callLibrary(B, CPUAssertFail, B.getVoidTy(),
                {B.CreateGlobalStringPtr(Message), B.CreateGlobalStringPtr(File),
                 B.getInt32(Line), B.CreateGlobalStringPtr(Func)});
  });
}

llvm::Value *CPUTargetInfo::vectorMath(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *X) const {
  auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(X->getType());
  if (!MathLanes || !VT || !VT->getElementType()->isFloatTy() ||
      VT->getNumElements() % MathLanes)
    return nullptr;
  const char *Name = nullptr;
  switch (Op) {
  case Opcode::Exp: Name = "expf"; break;
  case Opcode::Exp2: Name = "exp2f"; break;
  case Opcode::Log: Name = "logf"; break;
  case Opcode::Log2: Name = "log2f"; break;
  case Opcode::Sin: Name = "sinf"; break;
  case Opcode::Cos: Name = "cosf"; break;
  case Opcode::Erf: Name = "erff"; break;
  default: return nullptr;
  }
  // The vector function ABI's names: e = AVX-512 (zmm), d = AVX2 (ymm).
  std::string Fn = (MathLanes == 16 ? "_ZGVeN16v_" : "_ZGVdN8v_") + std::string(Name);
  auto *Part = llvm::FixedVectorType::get(B.getFloatTy(), MathLanes);
  llvm::Module *M = B.GetInsertBlock()->getModule();
  llvm::FunctionCallee Callee = M->getOrInsertFunction(Fn, Part, Part);
  auto *F = llvm::cast<llvm::Function>(Callee.getCallee());
  F->setDoesNotAccessMemory();
  F->setDoesNotThrow();
  F->setWillReturn();
  // zmm arguments: 512-bit vectors must stay legal in the caller.
  if (MathLanes == 16)
    B.GetInsertBlock()->getParent()->addFnAttr("min-legal-vector-width", "512");
  llvm::SmallVector<llvm::Value *, 4> Parts;
  for (unsigned K = 0; K < VT->getNumElements(); K += MathLanes)
    Parts.push_back(B.CreateCall(
        Callee, {VT->getNumElements() == MathLanes
                     ? X
                     : B.CreateShuffleVector(X, llvm::createSequentialMask(K, MathLanes, 0))}));
  return Parts.size() == 1 ? Parts[0] : llvm::concatenateVectors(B, Parts);
}

llvm::Value *CPUTargetInfo::unaryMath(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *X) const {
  if (llvm::Value *V = vectorMath(B, Op, X))
    return V;
  using namespace llvm::Intrinsic;
  auto Unary = [&](ID Id) { return B.CreateUnaryIntrinsic(Id, X); };
  switch (Op) {
  case Opcode::Exp: return Unary(exp);
  case Opcode::Exp2: return Unary(exp2);
  case Opcode::Log: return Unary(log);
  case Opcode::Log2: return Unary(log2);
  case Opcode::Sqrt: return Unary(sqrt);
  case Opcode::Rsqrt: return B.CreateFDiv(llvm::ConstantFP::get(X->getType(), 1.0), Unary(sqrt));
  case Opcode::Sin: return Unary(sin);
  case Opcode::Cos: return Unary(cos);
  case Opcode::Erf: {
    // The C library's, a lane at a time (a vector's lanes where libmvec had none).
    llvm::Type *T = X->getType()->getScalarType();
    const char *Name = T->isDoubleTy() ? "erf" : "erff";
    auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(X->getType());
    if (!VT)
      return callLibrary(B, Name, T, {X});
    llvm::Value *R = llvm::PoisonValue::get(VT);
    for (unsigned K = 0; K < VT->getNumElements(); ++K)
      R = B.CreateInsertElement(R, callLibrary(B, Name, T, {B.CreateExtractElement(X, K)}), K);
    return R;
  }
  default: llvm_unreachable("not a math opcode");
  }
}

bool CPUTargetInfo::lowerInstruction(LoweringContext &C, Instruction &I) const {
  if (I.getOpcode() == Opcode::InlineAsm)
    C.unsupported(I, "inline assembly (inline_asm_elementwise holds a GPU's assembly; write the "
                     "operation with tl functions)");
  return I.getOpcode() == Opcode::Dot && lowerCPUDot(C, I);
}
