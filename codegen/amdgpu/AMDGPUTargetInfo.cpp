//===- AMDGPUTargetInfo.cpp - Lowering primitives for AMD GPUs ------------===//
//
// Everything through LLVM's AMDGPU backend, which schedules the waitcnts and
// turns branches on divergent predicates into exec masks: so predicated
// loads, stores and atomics are plain LLVM memory operations under a branch.
// Math, the number of programs and printf come from the ROCm device
// libraries (linked by AMDGPUBackend.cpp).
//
//===----------------------------------------------------------------------===//

#include "codegen/amdgpu/AMDGPUTargetInfo.h"
#include "codegen/lowering/FloatConversions.h"
#include "codegen/lowering/LoweringContext.h"

#include "llvm/IR/IntrinsicsAMDGPU.h"
#include "llvm/IR/Module.h"

using namespace tritium;

namespace {

/// \p V moved from lane \p Src of the wavefront (ds_bpermute moves 32 bits).
llvm::Value *fromLane(llvm::IRBuilder<> &B, llvm::Value *V, llvm::Value *Src) {
  llvm::Value *Addr = B.CreateShl(Src, 2);
  return by32Bits(B, V, [&](llvm::Value *X) {
    return B.CreateIntrinsic(llvm::Intrinsic::amdgcn_ds_bpermute, {}, {Addr, X});
  });
}

} // namespace

llvm::Value *AMDGPUTargetInfo::threadId(llvm::IRBuilder<> &B) const {
  return B.CreateIntrinsic(llvm::Intrinsic::amdgcn_workitem_id_x, {}, {});
}

llvm::Value *AMDGPUTargetInfo::programId(llvm::IRBuilder<> &B, unsigned Axis) const {
  llvm::Intrinsic::ID IDs[] = {llvm::Intrinsic::amdgcn_workgroup_id_x,
                               llvm::Intrinsic::amdgcn_workgroup_id_y,
                               llvm::Intrinsic::amdgcn_workgroup_id_z};
  return B.CreateIntrinsic(IDs[Axis], {}, {});
}

llvm::Value *AMDGPUTargetInfo::numPrograms(llvm::IRBuilder<> &B, unsigned Axis) const {
  return B.CreateTrunc(callLibrary(B, "__ockl_get_num_groups", B.getInt64Ty(), {B.getInt32(Axis)}),
                       B.getInt32Ty());
}

void AMDGPUTargetInfo::barrier(llvm::IRBuilder<> &B) const {
  // s_barrier orders execution only: the fences make LDS writes before it
  // visible to reads after it, across the workgroup.
  llvm::SyncScope::ID WG = B.getContext().getOrInsertSyncScopeID("workgroup");
  B.CreateFence(llvm::AtomicOrdering::Release, WG);
  B.CreateIntrinsic(llvm::Intrinsic::amdgcn_s_barrier, {}, {});
  B.CreateFence(llvm::AtomicOrdering::Acquire, WG);
}

llvm::Value *AMDGPUTargetInfo::shuffleXor(llvm::IRBuilder<> &B, llvm::Value *V,
                                          unsigned Mask) const {
  llvm::Value *Lane = B.CreateAnd(threadId(B), GPU.getWarpSize() - 1);
  return fromLane(B, V, B.CreateXor(Lane, Mask));
}

llvm::Value *AMDGPUTargetInfo::shuffleIdx(llvm::IRBuilder<> &B, llvm::Value *V,
                                          llvm::Value *Lane) const {
  return fromLane(B, V, Lane);
}

llvm::Value *AMDGPUTargetInfo::shuffleUp(llvm::IRBuilder<> &B, llvm::Value *V,
                                         unsigned Delta) const {
  llvm::Value *Lane = B.CreateAnd(threadId(B), GPU.getWarpSize() - 1);
  llvm::Value *Below = B.CreateICmpULT(Lane, B.getInt32(Delta));
  llvm::Value *Src = B.CreateSelect(Below, Lane, B.CreateSub(Lane, B.getInt32(Delta)));
  return fromLane(B, V, Src);
}

llvm::SyncScope::ID AMDGPUTargetInfo::syncScope(llvm::LLVMContext &Ctx, MemScope Scope) const {
  switch (Scope) {
  case MemScope::CTA: return Ctx.getOrInsertSyncScopeID("workgroup");
  case MemScope::GPU: return Ctx.getOrInsertSyncScopeID("agent");
  case MemScope::Sys: return llvm::SyncScope::System;
  }
  return llvm::SyncScope::System;
}

void AMDGPUTargetInfo::printf(llvm::IRBuilder<> &B, llvm::StringRef Format,
                              llvm::ArrayRef<llvm::Value *> Args) const {
  // ockl's hostcall printf: the format as a string, then the arguments in
  // groups of at most seven 64-bit slots, the last call marked last.
  llvm::Module *M = B.GetInsertBlock()->getModule();
  llvm::Type *I32 = B.getInt32Ty(), *I64 = B.getInt64Ty();
  llvm::Value *Desc = callLibrary(B, "__ockl_printf_begin", I64, {B.getInt64(0)});
  llvm::Value *Fmt = B.CreateGlobalStringPtr(Format, "printf_format", AMDConstant, M);
  llvm::Value *FlatFmt = B.CreateAddrSpaceCast(Fmt, llvm::PointerType::get(B.getContext(), AMDFlat));
  Desc = callLibrary(B, "__ockl_printf_append_string_n", I64,
                   {Desc, FlatFmt, B.getInt64(Format.size() + 1), B.getInt32(Args.empty())});
  for (size_t First = 0; First < Args.size(); First += 7) {
    size_t N = std::min<size_t>(7, Args.size() - First);
    llvm::SmallVector<llvm::Value *, 10> Call = {Desc, B.getInt32(unsigned(N))};
    for (size_t K = 0; K < 7; ++K) {
      if (K >= N) {
        Call.push_back(B.getInt64(0));
        continue;
      }
      llvm::Value *A = Args[First + K];
      llvm::Type *T = A->getType();
      if (T->isPointerTy())
        A = B.CreatePtrToInt(A, I64);
      else if (T->isFloatingPointTy())
        A = B.CreateBitCast(B.CreateFPExt(A, B.getDoubleTy()), I64);
      else
        A = B.CreateZExt(A, I64);
      Call.push_back(A);
    }
    Call.push_back(llvm::ConstantInt::get(I32, First + N == Args.size()));
    Desc = callLibrary(B, "__ockl_printf_append_args", I64, Call);
  }
}

void AMDGPUTargetInfo::assertFail(llvm::IRBuilder<> &B, llvm::Value *Failed,
                                  llvm::StringRef Message, llvm::StringRef File, unsigned Line,
                                  llvm::StringRef Func) const {
  // No __assertfail in the device libraries: print the message, then trap.
  std::string Fmt = (File + ":" + llvm::Twine(Line) + ": " + Func + ": Assertion `" + Message +
                     "` failed.\n")
                        .str();
  std::string Escaped;
  for (char C : Fmt)
    Escaped += C == '%' ? std::string("%%") : std::string(1, C);
  emitIf(B, Failed, "assert.fail", "assert.cont", [&] {
    printf(B, Escaped, {});
    B.CreateIntrinsic(llvm::Intrinsic::trap, {}, {});
  });
}

void AMDGPUTargetInfo::annotateKernel(llvm::Function *F, unsigned NumThreads,
                                      unsigned MaxRegisters) const {
  F->setCallingConv(llvm::CallingConv::AMDGPU_KERNEL);
  F->addFnAttr("amdgpu-flat-work-group-size", "1," + std::to_string(NumThreads));
  // Float atomic adds use the hardware's (gfx90a and later) instead of a
  // compare-and-swap loop, as Triton does; those do not work on fine-grained
  // (host-coherent) memory, which device tensors are not.
  F->addFnAttr("amdgpu-unsafe-fp-atomics", "true");
  (void)MaxRegisters; // maxnreg is NVIDIA's option (waves_per_eu is AMD's)
}

llvm::Value *AMDGPUTargetInfo::unaryMath(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *X) const {
  bool Double = X->getType()->isDoubleTy();
  return callLibrary(B, ("__ocml_" + getOpcodeName(Op) + (Double ? "_f64" : "_f32")).str(),
                   X->getType(), {X});
}

llvm::Value *AMDGPUTargetInfo::fmod(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Y) const {
  return callLibrary(B, X->getType()->isDoubleTy() ? "__ocml_fmod_f64" : "__ocml_fmod_f32",
                   X->getType(), {X, Y});
}

// MFMA: gfx90a's and gfx940's instructions of LLVM 16 (llvm.amdgcn.mfma.*).
// gfx940 renamed the bf16 ones (the .1k intrinsics select v_mfma_f32_*_bf16
// there) and replaced the i8 ones by instructions taking 8 K elements a lane.

unsigned AMDGPUTargetInfo::mfmaKWidth(Type *Elem) const {
  llvm::StringRef Arch = GPU.getArchName();
  if (!GPU.has(Target::MFMA) || (Arch != "gfx90a" && Arch != "gfx940"))
    return 0;
  switch (Elem->getKind()) {
  case Type::Kind::F16:
  case Type::Kind::BF16:
    return 4;
  case Type::Kind::F32:
    return 1;
  case Type::Kind::Int:
    return Elem->getScalarSizeInBits() == 8 ? (Arch == "gfx940" ? 8 : 4) : 0;
  default:
    return 0;
  }
}

bool AMDGPUTargetInfo::mfma(llvm::IRBuilder<> &B, Type *Elem, unsigned T,
                            llvm::ArrayRef<llvm::Value *> A, llvm::ArrayRef<llvm::Value *> Bv,
                            llvm::ArrayRef<llvm::Value *> C,
                            llvm::SmallVectorImpl<llvm::Value *> &D) const {
  unsigned KWidth = mfmaKWidth(Elem);
  if (!KWidth || A.size() != KWidth || Bv.size() != KWidth || (T != 32 && T != 16))
    return false;
  bool Big = T == 32;
  bool Int = Elem->getKind() == Type::Kind::Int;
  using namespace llvm::Intrinsic;
  ID Id;
  switch (Elem->getKind()) {
  case Type::Kind::F16: Id = Big ? amdgcn_mfma_f32_32x32x8f16 : amdgcn_mfma_f32_16x16x16f16; break;
  case Type::Kind::BF16:
    Id = Big ? amdgcn_mfma_f32_32x32x8bf16_1k : amdgcn_mfma_f32_16x16x16bf16_1k;
    break;
  case Type::Kind::F32: Id = Big ? amdgcn_mfma_f32_32x32x2f32 : amdgcn_mfma_f32_16x16x4f32; break;
  default:
    if (KWidth == 8)
      Id = Big ? amdgcn_mfma_i32_32x32x16_i8 : amdgcn_mfma_i32_16x16x32_i8;
    else
      Id = Big ? amdgcn_mfma_i32_32x32x8i8 : amdgcn_mfma_i32_16x16x16i8;
    break;
  }
  // The operands: one f32, or a vector of the elements (i8 ones as one
  // 32- or 64-bit integer).
  auto Pack = [&](llvm::ArrayRef<llvm::Value *> Vals) -> llvm::Value * {
    if (Vals.size() == 1)
      return Vals[0];
    llvm::Value *V = llvm::PoisonValue::get(
        llvm::FixedVectorType::get(Vals[0]->getType(), unsigned(Vals.size())));
    for (unsigned I = 0; I < Vals.size(); ++I)
      V = B.CreateInsertElement(V, Vals[I], uint64_t(I));
    if (Int)
      return B.CreateBitCast(V, B.getIntNTy(8 * unsigned(Vals.size())));
    return V;
  };
  llvm::Type *AccTy = llvm::FixedVectorType::get(Int ? B.getInt32Ty() : B.getFloatTy(),
                                                 unsigned(C.size()));
  llvm::Value *Acc = llvm::PoisonValue::get(AccTy);
  for (unsigned I = 0; I < C.size(); ++I)
    Acc = B.CreateInsertElement(Acc, C[I], uint64_t(I));
  llvm::Value *R = B.CreateIntrinsic(Id, {}, {Pack(A), Pack(Bv), Acc, B.getInt32(0),
                                              B.getInt32(0), B.getInt32(0)});
  for (unsigned I = 0; I < C.size(); ++I)
    D.push_back(B.CreateExtractElement(R, uint64_t(I)));
  return true;
}

bool AMDGPUTargetInfo::lowerInstruction(LoweringContext &C, Instruction &I) const {
  return I.getOpcode() == Opcode::Dot && lowerMFMADot(C, I, *this);
}
