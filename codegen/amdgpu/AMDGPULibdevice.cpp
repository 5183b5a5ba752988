//===- AMDGPULibdevice.cpp - libdevice calls on AMD GPUs ------------------===//
//
// tl.extra.libdevice names NVIDIA's functions (__nv_expf, __nv_popc, ...),
// as Triton's kernels do; a kernel compiled for a hip target gets the same
// functions from AMD's libraries. Float functions become ocml's
// (__nv_<f>f -> __ocml_<f>_f32, __nv_<f> -> __ocml_<f>_f64, with the few
// names ocml spells otherwise); integer ones become LLVM's own operations
// (ctpop, ctlz, bitreverse, min/max, abs, the high half of a widened
// multiply). What has no equivalent is an error naming it.
//
//===----------------------------------------------------------------------===//

#include "codegen/amdgpu/AMDGPUDeviceLibs.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"

using namespace tritium;

namespace {

/// libdevice's base names (without __nv_ and the f of f32) that ocml spells
/// otherwise.
const llvm::StringMap<llvm::StringRef> &ocmlNames() {
  static const llvm::StringMap<llvm::StringRef> Names = {
      {"normcdf", "ncdf"},     {"normcdfinv", "ncdfinv"}, {"powi", "pown"},
      {"finite", "isfinite"},  {"isfinited", "isfinite"}, {"isnand", "isnan"},
      {"isinfd", "isinf"},     {"signbitd", "signbit"},   {"fast_exp", "native_exp"},
      {"fast_exp10", "native_exp10"}, {"fast_log", "native_log"},
      {"fast_log2", "native_log2"},   {"fast_log10", "native_log10"},
      {"fast_sin", "native_sin"},     {"fast_cos", "native_cos"},
      {"fast_tan", "tan"},            {"fast_pow", "pow"},
      {"fast_fdivide", "native_divide"}, {"saturate", "saturate"},
  };
  return Names;
}

/// Functions with rounding modes, and others ocml lacks.
bool hasNoOcmlEquivalent(llvm::StringRef Base) {
  for (const char *Op : {"fdiv_", "ddiv_", "fadd_", "dadd_", "fsub_", "dsub_", "fmul_", "dmul_",
                         "fsqrt_", "dsqrt_", "frcp_", "drcp_", "fmaf_", "fma_r"})
    if (Base.startswith(Op))
      return true;
  return false;
}

/// The ocml function for libdevice's float function \p Name of \p F's
/// types, or "" when it is not one.
std::string ocmlFor(llvm::StringRef Name, const llvm::Function &F) {
  if (F.arg_empty() || hasNoOcmlEquivalent(Name))
    return "";
  llvm::Type *T = F.getArg(0)->getType();
  if (!T->isFloatTy() && !T->isDoubleTy())
    return "";
  llvm::StringRef Base = Name;
  if (T->isFloatTy() && Base.endswith("f"))
    Base = Base.drop_back();
  auto It = ocmlNames().find(Base);
  if (It != ocmlNames().end())
    Base = It->second;
  return ("__ocml_" + Base + (T->isFloatTy() ? "_f32" : "_f64")).str();
}

/// Replaces every call of \p F by \p Make(builder, args); erases \p F.
template <typename MakeFn> void replaceCalls(llvm::Function &F, MakeFn Make) {
  for (llvm::User *U : llvm::make_early_inc_range(F.users())) {
    auto *Call = llvm::dyn_cast<llvm::CallInst>(U);
    if (!Call)
      continue;
    llvm::IRBuilder<> B(Call);
    llvm::SmallVector<llvm::Value *, 3> Args(Call->args());
    llvm::Value *V = Make(B, Args);
    Call->replaceAllUsesWith(V);
    Call->eraseFromParent();
  }
  if (F.use_empty())
    F.eraseFromParent();
}

/// The integer functions, as LLVM operations; false if \p Name is none.
bool replaceInteger(llvm::Function &F, llvm::StringRef Name) {
  using llvm::Intrinsic::ID;
  auto Unary = [&](ID Id) {
    replaceCalls(F, [&](llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> A) -> llvm::Value * {
      llvm::Value *R = Id == llvm::Intrinsic::ctlz || Id == llvm::Intrinsic::abs
                           ? B.CreateBinaryIntrinsic(Id, A[0], B.getFalse())
                           : B.CreateUnaryIntrinsic(Id, A[0]);
      return B.CreateZExtOrTrunc(R, F.getReturnType());
    });
  };
  auto Binary = [&](ID Id) {
    replaceCalls(F, [&](llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> A) {
      return B.CreateBinaryIntrinsic(Id, A[0], A[1]);
    });
  };
  auto MulHi = [&](bool Signed) {
    replaceCalls(F, [&](llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> A) {
      llvm::Type *T = A[0]->getType();
      llvm::Type *Wide = B.getIntNTy(2 * T->getIntegerBitWidth());
      auto Ext = [&](llvm::Value *V) {
        return Signed ? B.CreateSExt(V, Wide) : B.CreateZExt(V, Wide);
      };
      llvm::Value *P = B.CreateMul(Ext(A[0]), Ext(A[1]));
      return B.CreateTrunc(B.CreateLShr(P, T->getIntegerBitWidth()), T);
    });
  };
  if (Name == "popc" || Name == "popcll")
    Unary(llvm::Intrinsic::ctpop);
  else if (Name == "clz" || Name == "clzll")
    Unary(llvm::Intrinsic::ctlz);
  else if (Name == "brev" || Name == "brevll")
    Unary(llvm::Intrinsic::bitreverse);
  else if (Name == "abs" || Name == "llabs")
    Unary(llvm::Intrinsic::abs);
  else if (Name == "min" || Name == "llmin")
    Binary(llvm::Intrinsic::smin);
  else if (Name == "umin" || Name == "ullmin")
    Binary(llvm::Intrinsic::umin);
  else if (Name == "max" || Name == "llmax")
    Binary(llvm::Intrinsic::smax);
  else if (Name == "umax" || Name == "ullmax")
    Binary(llvm::Intrinsic::umax);
  else if (Name == "mulhi" || Name == "mul64hi")
    MulHi(true);
  else if (Name == "umulhi" || Name == "umul64hi")
    MulHi(false);
  else
    return false;
  return true;
}

} // namespace

std::string tritium::replaceLibdeviceCalls(llvm::Module &M) {
  for (llvm::Function &F : llvm::make_early_inc_range(M.functions())) {
    if (!F.isDeclaration() || !F.getName().startswith("__nv_"))
      continue;
    std::string Name = F.getName().drop_front(5).str();
    if (replaceInteger(F, Name))
      continue;
    std::string Ocml = ocmlFor(Name, F);
    if (Ocml.empty())
      return "libdevice's " + F.getName().str() +
             " has no AMD equivalent (tl.extra.libdevice on a hip target maps the float "
             "functions to ocml and the integer ones to LLVM's)";
    llvm::Function *To = M.getFunction(Ocml);
    if (!To)
      To = llvm::Function::Create(F.getFunctionType(), llvm::GlobalValue::ExternalLinkage, Ocml, M);
    F.replaceAllUsesWith(To);
    F.eraseFromParent();
  }
  return "";
}
