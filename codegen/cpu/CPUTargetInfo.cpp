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

namespace {
/// e^X or 2^X of f32 lanes, inline: no call, so that a row's vectors stay
/// in registers around it (libmvec's calls clobber them all). 2^n * e^r
/// with n = round(X log2 e) (2^X: round(X)) and r = X - n ln 2 in two FMAs
/// (ln 2 split in a high part of 16 bits and the rest, as Cody and Waite),
/// |r| <= ln 2 / 2; e^r = 1 + r + r^2 q(r), q of degree 4 fitted to e^r's
/// relative error there (3e-9; 0.86 ulp in all, measured against numpy
/// over [-160, 130], where libmvec's expf was 2.5); 2^n as two normal
/// factors, so that results down to the subnormals round once. X is
/// clamped first to where the results are 0 and inf anyway (NaN goes
/// through: it fails both compares, and a product with it is NaN).
llvm::Value *inlineExp(llvm::IRBuilder<> &B, llvm::Value *X, bool Base2) {
  llvm::Type *T = X->getType();
  llvm::Type *I = T->getWithNewType(B.getInt32Ty());
  auto K = [&](double V) { return llvm::ConstantFP::get(T, V); };
  auto KI = [&](int32_t V) { return llvm::ConstantInt::get(I, V); };
  auto Fma = [&](llvm::Value *A, llvm::Value *M, llvm::Value *C) {
    return B.CreateIntrinsic(llvm::Intrinsic::fma, {T}, {A, M, C});
  };
  // e^-104 and 2^-150 round to 0; e^89 and 2^128 are inf.
  llvm::Value *Lo = K(Base2 ? -150 : -104), *Hi = K(Base2 ? 128 : 89);
  llvm::Value *C = B.CreateSelect(B.CreateFCmpOLT(X, Lo), Lo, X);
  C = B.CreateSelect(B.CreateFCmpOGT(C, Hi), Hi, C);
  // round(C log2 e) in the low bits of Shifted: adding 1.5 * 2^23 leaves no
  // bits for a fraction.
  const double Magic = 12582912.0;
  llvm::Value *Shifted = Base2 ? B.CreateFAdd(C, K(Magic)) : Fma(C, K(1.4426950408889634), K(Magic));
  llvm::Value *N = B.CreateFSub(Shifted, K(Magic));
  llvm::Value *R;
  if (Base2) {
    R = B.CreateFMul(B.CreateFSub(C, N), K(0.6931471805599453));
  } else {
    llvm::Value *NegN = B.CreateFNeg(N);
    R = Fma(NegN, K(0.693145751953125), C);
    R = Fma(NegN, K(1.428606765330187e-06), R);
  }
  llvm::Value *P = K(0.0013814613);
  for (double Coeff : {0.0083687101, 0.041668389, 0.16666521, 0.49999994, 1.0, 1.0})
    P = Fma(P, R, K(Coeff));
  llvm::Value *Exponent = B.CreateSub(B.CreateBitCast(Shifted, I), KI(0x4B400000));
  llvm::Value *Half = B.CreateAShr(Exponent, KI(1));
  auto Pow2 = [&](llvm::Value *E) { // 2^E, E in [-75, 64]
    return B.CreateBitCast(B.CreateShl(B.CreateAdd(E, KI(127)), KI(23)), T);
  };
  return B.CreateFMul(B.CreateFMul(P, Pow2(Half)), Pow2(B.CreateSub(Exponent, Half)));
}
} // namespace

llvm::Value *CPUTargetInfo::unaryMath(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *X) const {
  if ((Op == Opcode::Exp || Op == Opcode::Exp2) && X->getType()->getScalarType()->isFloatTy())
    return inlineExp(B, X, Op == Opcode::Exp2);
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
