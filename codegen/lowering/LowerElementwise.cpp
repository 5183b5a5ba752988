//===- LowerElementwise.cpp - Elementwise ops, constants, ranges ----------===//
//
// Every register of the result is computed from the same register of the
// operands (assign-layouts gave them one layout): constants, arithmetic,
// math, comparisons, select, casts, getelementptr, make_range, splat, hints,
// program geometry and extern calls.
//
// Floats: f16, f32 and f64 are native LLVM types; bf16 and fp8 are carried
// as integers and computed on in f32 (FloatConversions.h). f16 is computed
// natively where PTX has the instruction (add, sub, mul, fma, compares) and
// in f32 otherwise. Math on f32 and f64 (exp, log, sin, sqrt, ..., fmod,
// truncation toward zero) is the target's (TargetInfo::unaryMath, fmod,
// truncTowardZero): on NVIDIA, the fast PTX approximations Triton uses and
// libdevice.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/FloatConversions.h"
#include "codegen/lowering/LoweringContext.h"
#include "codegen/transforms/ConstantFold.h"

#include "ir/Diagnostics.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/Support/Error.h"

#include <cmath>

using namespace tritium;

namespace {

using Regs = LoweringContext::Regs;

unsigned numRegsOf(LoweringContext &C, Value *V) {
  return V->getType()->isBlock() ? LoweringContext::numRegs(C.layout(V)) : 1;
}

/// The LLVM constant of an element of type \p T holding \p Val.
llvm::Constant *elementConstant(LoweringContext &C, Type *T, const AttrValue &Val) {
  Type *E = T->getScalarType();
  llvm::Type *LT = C.elemType(E);
  if (E->isInt())
    return llvm::ConstantInt::get(LT, uint64_t(Val.I), /*IsSigned=*/true);
  double D = Val.K == AttrValue::Kind::Float ? Val.F : double(Val.I);
  if (E->isFP8()) // carried as its bits
    return llvm::ConstantInt::get(LT, fp8ConstantBits(D, E->getKind()));
  if (E->getKind() != Type::Kind::BF16)
    return llvm::ConstantFP::get(LT, D);
  bool LosesInfo;
  llvm::APFloat F(D);
  F.convert(llvm::APFloat::BFloat(), llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
  return llvm::ConstantInt::get(LT, F.bitcastToAPInt().getZExtValue());
}

/// a op b for floats, in the element's native type when PTX has it; an
/// \p Approx division as the target's approximate one.
llvm::Value *floatBinary(LoweringContext &C, Opcode Op, Type *E, llvm::Value *L,
                         llvm::Value *R, bool Approx) {
  llvm::IRBuilder<> &B = C.B;
  bool Native = !isCarriedFloat(E) &&
                (E->getKind() != Type::Kind::F16 || Op == Opcode::FAdd ||
                 Op == Opcode::FSub || Op == Opcode::FMul);
  llvm::Value *X = Native ? L : toF32(B, L, E);
  llvm::Value *Y = Native ? R : toF32(B, R, E);
  llvm::Value *Out;
  switch (Op) {
  case Opcode::FAdd: Out = B.CreateFAdd(X, Y); break;
  case Opcode::FSub: Out = B.CreateFSub(X, Y); break;
  case Opcode::FMul: Out = B.CreateFMul(X, Y); break;
  case Opcode::FDiv: Out = Approx ? C.getTarget().approxDiv(B, X, Y) : B.CreateFDiv(X, Y); break;
  case Opcode::FRem:
    // C's fmod, exactly (LLVM's frem expansion is not).
    Out = C.getTarget().fmod(B, X, Y);
    break;
  case Opcode::FMin: Out = B.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, X, Y); break;
  case Opcode::FMax: Out = B.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, X, Y); break;
  case Opcode::FMinimum:
  case Opcode::FMaximum: {
    // NaN wins; otherwise min/max (PTX's min.NaN needs sm_80, this works on all).
    llvm::Value *M = B.CreateBinaryIntrinsic(Op == Opcode::FMinimum
                                                 ? llvm::Intrinsic::minnum
                                                 : llvm::Intrinsic::maxnum,
                                             X, Y);
    M = B.CreateSelect(B.CreateFCmpUNO(Y, Y), Y, M);
    Out = B.CreateSelect(B.CreateFCmpUNO(X, X), X, M);
    break;
  }
  default: llvm_unreachable("not a float binary opcode");
  }
  // f16 math done in f32 rounds back; f64 stayed f64.
  if (Native || E->getKind() == Type::Kind::F64)
    return Out;
  return fromF32(B, Out, E);
}

/// L / R or L % R where the target traps on a zero divisor or on MIN / -1
/// (TargetInfo::trapsOnIntegerDivision): those divide by 1 instead, and a
/// zero divisor gives 0 (MIN / -1 wraps to MIN, MIN % -1 is 0).
llvm::Value *divideWithoutTrap(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *L, llvm::Value *R) {
  llvm::Constant *Zero = llvm::Constant::getNullValue(R->getType());
  llvm::Constant *One = llvm::ConstantInt::get(R->getType(), 1);
  llvm::Value *ByZero = B.CreateICmpEQ(R, Zero);
  llvm::Value *Safe = B.CreateSelect(ByZero, One, R);
  bool Signed = Op == Opcode::SDiv || Op == Opcode::SRem;
  if (Signed) {
    unsigned W = R->getType()->getScalarSizeInBits();
    llvm::Value *Overflows = B.CreateAnd(
        B.CreateICmpEQ(L, llvm::ConstantInt::get(L->getType(), llvm::APInt::getSignedMinValue(W))),
        B.CreateICmpEQ(R, llvm::Constant::getAllOnesValue(R->getType())));
    Safe = B.CreateSelect(Overflows, One, Safe);
  }
  llvm::Value *Q = Op == Opcode::SDiv   ? B.CreateSDiv(L, Safe)
                   : Op == Opcode::UDiv ? B.CreateUDiv(L, Safe)
                   : Signed             ? B.CreateSRem(L, Safe)
                                        : B.CreateURem(L, Safe);
  return B.CreateSelect(ByZero, Zero, Q);
}

llvm::Value *intBinary(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *L, llvm::Value *R,
                       bool GuardDivision) {
  if (GuardDivision &&
      (Op == Opcode::SDiv || Op == Opcode::UDiv || Op == Opcode::SRem || Op == Opcode::URem))
    return divideWithoutTrap(B, Op, L, R);
  switch (Op) {
  case Opcode::Add: return B.CreateAdd(L, R);
  case Opcode::Sub: return B.CreateSub(L, R);
  case Opcode::Mul: return B.CreateMul(L, R);
  case Opcode::SDiv: return B.CreateSDiv(L, R);
  case Opcode::UDiv: return B.CreateUDiv(L, R);
  case Opcode::SRem: return B.CreateSRem(L, R);
  case Opcode::URem: return B.CreateURem(L, R);
  case Opcode::Shl: return B.CreateShl(L, R);
  case Opcode::LShr: return B.CreateLShr(L, R);
  case Opcode::AShr: return B.CreateAShr(L, R);
  case Opcode::And: return B.CreateAnd(L, R);
  case Opcode::Or: return B.CreateOr(L, R);
  case Opcode::Xor: return B.CreateXor(L, R);
  case Opcode::SMin: return B.CreateBinaryIntrinsic(llvm::Intrinsic::smin, L, R);
  case Opcode::SMax: return B.CreateBinaryIntrinsic(llvm::Intrinsic::smax, L, R);
  case Opcode::UMin: return B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, L, R);
  case Opcode::UMax: return B.CreateBinaryIntrinsic(llvm::Intrinsic::umax, L, R);
  case Opcode::UMulHi: {
    unsigned W = L->getType()->getIntegerBitWidth();
    llvm::Type *Wide = B.getIntNTy(2 * W);
    llvm::Value *P = B.CreateMul(B.CreateZExt(L, Wide), B.CreateZExt(R, Wide));
    return B.CreateTrunc(B.CreateLShr(P, W), L->getType());
  }
  default: llvm_unreachable("not an integer binary opcode");
  }
}

/// Whether the binary \p Op on elements \p E is one LLVM instruction on
/// vectors as on scalars.
bool vectorOpcode(Opcode Op, Type *E) {
  switch (Op) {
  case Opcode::FAdd: case Opcode::FSub: case Opcode::FMul: case Opcode::FDiv:
    return E->getKind() == Type::Kind::F32 || E->getKind() == Type::Kind::F64;
  case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::And: case Opcode::Or:
  case Opcode::Xor: case Opcode::SMin: case Opcode::SMax: case Opcode::UMin: case Opcode::UMax:
    return E->isInt();
  default:
    return false;
  }
}

/// Registers [R, R + W) of \p Rs (one register: a splat) as one vector.
llvm::Value *gatherVector(llvm::IRBuilder<> &B, const LoweringContext::Regs &Rs, unsigned R,
                          unsigned W) {
  if (Rs.size() == 1)
    return B.CreateVectorSplat(W, Rs[0]);
  return packRegisters(B, llvm::ArrayRef<llvm::Value *>(Rs).slice(R, W));
}

/// On a target that works in vectors (TargetInfo::registerVectorWidth W >
/// 1: the cpu), \p I's N result registers as one vector instruction
/// (\p Make, on its operands' registers gathered W at a time) per W
/// registers, into \p Out; false (nothing made) elsewhere. Instcombine
/// folds the inserts and extracts around each into its neighbours'
/// vectors, so that SLP need not find the vectors again (most of a cpu
/// compile's time).
template <typename Fn>
bool byVectors(LoweringContext &C, Instruction &I, unsigned N, LoweringContext::Regs &Out,
               Fn Make) {
  unsigned W = C.getTarget().registerVectorWidth();
  if (W <= 1 || N < W || N % W)
    return false;
  llvm::IRBuilder<> &B = C.B;
  llvm::SmallVector<llvm::Value *, 3> Ops(I.getNumOperands());
  for (unsigned R = 0; R < N; R += W) {
    for (unsigned K = 0; K < Ops.size(); ++K)
      Ops[K] = gatherVector(B, C.get(I.getOperand(K)), R, W);
    llvm::Value *V = Make(Ops);
    for (unsigned K = 0; K < W; ++K)
      Out.push_back(B.CreateExtractElement(V, uint64_t(K)));
  }
  return true;
}

llvm::Value *unaryOne(LoweringContext &C, Opcode Op, Type *E, llvm::Value *X) {
  llvm::IRBuilder<> &B = C.B;
  if (E->isInt()) {
    if (Op == Opcode::Neg)
      return B.CreateNeg(X);
    assert(Op == Opcode::Abs && "integer unary is neg or abs");
    return B.CreateBinaryIntrinsic(llvm::Intrinsic::abs, X, B.getFalse());
  }
  // Sign-bit operations work on the carriers directly.
  if (Op == Opcode::Neg || Op == Opcode::Abs) {
    if (isCarriedFloat(E)) {
      llvm::APInt SignBit = llvm::APInt::getSignMask(X->getType()->getScalarSizeInBits());
      return Op == Opcode::Neg ? B.CreateXor(X, llvm::ConstantInt::get(X->getType(), SignBit))
                               : B.CreateAnd(X, llvm::ConstantInt::get(X->getType(), ~SignBit));
    }
    return Op == Opcode::Neg ? B.CreateFNeg(X)
                             : B.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, X);
  }
  // Correctly rounded sqrt, floor and ceil are LLVM's on every target.
  auto Math = [&](llvm::Value *V) -> llvm::Value * {
    switch (Op) {
    case Opcode::SqrtRn: return B.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, V);
    case Opcode::Floor: return B.CreateUnaryIntrinsic(llvm::Intrinsic::floor, V);
    case Opcode::Ceil: return B.CreateUnaryIntrinsic(llvm::Intrinsic::ceil, V);
    default: return C.getTarget().unaryMath(B, Op, V);
    }
  };
  if (E->getKind() == Type::Kind::F64)
    return Math(X);
  return fromF32(B, Math(toF32(B, X, E)), E);
}

/// One element (or a vector of them) cast from \p From to \p To.
llvm::Value *castOne(LoweringContext &C, const CastInst &I, Type *From, Type *To,
                     llvm::Value *X) {
  llvm::IRBuilder<> &B = C.B;
  llvm::Type *LT = X->getType()->getWithNewType(C.elemType(To));
  RoundingMode RM = I.getRounding().value_or(RoundingMode::RTNE);
  switch (I.getOpcode()) {
  case Opcode::Trunc: return B.CreateTrunc(X, LT);
  case Opcode::ZExt: return B.CreateZExt(X, LT);
  case Opcode::SExt: return B.CreateSExt(X, LT);
  case Opcode::FPExt:
    if (isCarriedFloat(From) || isCarriedFloat(To))
      return fromF32(B, toF32(B, X, From), To);
    return B.CreateFPExt(X, LT);
  case Opcode::FPTrunc: {
    if (From->getKind() == Type::Kind::F64 && To->getKind() != Type::Kind::F32)
      X = B.CreateFPTrunc(X, X->getType()->getWithNewType(B.getFloatTy())),
      From = Type::getF32(To->getContext());
    if (isCarriedFloat(To) || isCarriedFloat(From))
      return fromF32(B, toF32(B, X, From), To, RM);
    if (RM == RoundingMode::RTZ)
      return C.getTarget().truncTowardZero(B, X, LT);
    return B.CreateFPTrunc(X, LT);
  }
  case Opcode::FPToSI:
  case Opcode::FPToUI: {
    llvm::Value *F = isCarriedFloat(From) ? toF32(B, X, From) : X;
    return C.getTarget().floatToInt(B, F, LT, I.getOpcode() == Opcode::FPToSI);
  }
  case Opcode::SIToFP:
  case Opcode::UIToFP: {
    bool Carried = isCarriedFloat(To);
    llvm::Type *Via = Carried ? X->getType()->getWithNewType(B.getFloatTy()) : LT;
    llvm::Value *F = I.getOpcode() == Opcode::SIToFP ? B.CreateSIToFP(X, Via)
                                                     : B.CreateUIToFP(X, Via);
    return Carried ? fromF32(B, F, To) : F;
  }
  case Opcode::Bitcast:
    if (X->getType() == LT)
      return X;
    if (X->getType()->isPointerTy() && LT->isPointerTy())
      return B.CreateAddrSpaceCast(X, LT);
    return B.CreateBitCast(X, LT);
  case Opcode::PtrToInt: return B.CreatePtrToInt(X, LT);
  case Opcode::IntToPtr: return B.CreateIntToPtr(X, LT);
  default: llvm_unreachable("not a cast");
  }
}

/// The LLVM element type of a pointer block's pointee, for getelementptr.
llvm::Type *pointeeType(LoweringContext &C, Type *PtrTy) {
  auto *P = llvm::cast<PointerType>(PtrTy->getScalarType());
  Type *E = P->getPointee();
  // i1 is stored as a byte.
  if (E->isBool())
    return C.B.getInt8Ty();
  return C.elemType(E);
}

/// Reports an error unless a thread's \p N register elements split into
/// runs of \p Pack (for \p What, a snippet or function taking that many).
void checkPackFits(const Instruction &I, llvm::StringRef What, unsigned Pack, unsigned N) {
  if (N % Pack != 0)
    reportError(I.getLoc(), What.str() + ": pack=" + std::to_string(Pack) +
                                " needs a multiple of " + std::to_string(Pack) +
                                " elements in each thread; this block gives each " +
                                std::to_string(N));
}

/// tl.inline_asm_elementwise: the snippet once per Pack register elements
/// (Triton's packing: an operand or result of B-bit elements, B < 32,
/// takes Pack / n registers of n = min(Pack, 32 / B) elements, each a
/// <n x T> vector; wider ones one element a register), its outputs (a
/// struct when there are several) split among the results.
void lowerInlineAsm(LoweringContext &C, const InlineAsmInst &I, unsigned N) {
  unsigned Pack = unsigned(I.getPack());
  checkPackFits(I, "inline_asm_elementwise", Pack, N);
  auto PerReg = [&](Type *T) {
    Type *E = T->getScalarType();
    unsigned Bits = E->isPointer() ? 64 : E->getScalarSizeInBits();
    return Bits < 32 ? std::min(Pack, 32 / Bits) : 1u;
  };
  auto RegTy = [&](Type *T) -> llvm::Type * {
    unsigned Per = PerReg(T);
    llvm::Type *E = C.elemType(T);
    return Per > 1 ? llvm::FixedVectorType::get(E, Per) : E;
  };
  llvm::SmallVector<llvm::Type *, 8> Outs, Ins;
  for (Value *R : I.getResults())
    Outs.append(Pack / PerReg(R->getType()), RegTy(R->getType()));
  for (Value *V : I.getOperands())
    Ins.append(Pack / PerReg(V->getType()), RegTy(V->getType()));
  llvm::Type *Ret = Outs.size() == 1 ? Outs[0] : llvm::StructType::get(C.getLLVMContext(), Outs);
  auto *FT = llvm::FunctionType::get(Ret, Ins, false);
  if (llvm::Error E = llvm::InlineAsm::verify(FT, I.getConstraints())) {
    std::string Why = llvm::toString(std::move(E));
    reportError(I.getLoc(), "inline_asm_elementwise: the constraints \"" + I.getConstraints().str() +
                                "\" do not fit its " + std::to_string(Outs.size()) +
                                " output register(s) and " + std::to_string(Ins.size()) +
                                " input register(s): " + Why);
  }
  auto *Asm = llvm::InlineAsm::get(FT, I.getAsm(), I.getConstraints(), !I.isPure());
  llvm::IRBuilder<> &B = C.B;
  std::vector<Regs> Results(I.getNumResults());
  for (unsigned G = 0; G < N; G += Pack) {
    llvm::SmallVector<llvm::Value *, 8> Args;
    for (Value *V : I.getOperands()) {
      const Regs &Rs = C.get(V);
      auto Elem = [&](unsigned R) { return Rs.size() == 1 ? Rs[0] : Rs[R]; };
      unsigned Per = PerReg(V->getType());
      for (unsigned J = 0; J < Pack; J += Per) {
        if (Per == 1) {
          Args.push_back(Elem(G + J));
          continue;
        }
        llvm::Value *Vec = llvm::PoisonValue::get(RegTy(V->getType()));
        for (unsigned E = 0; E < Per; ++E)
          Vec = B.CreateInsertElement(Vec, Elem(G + J + E), uint64_t(E));
        Args.push_back(Vec);
      }
    }
    llvm::Value *Call = B.CreateCall(FT, Asm, Args);
    unsigned Out = 0;
    for (unsigned K = 0; K < I.getNumResults(); ++K) {
      unsigned Per = PerReg(I.getResult(K)->getType());
      for (unsigned J = 0; J < Pack; J += Per) {
        llvm::Value *R = Outs.size() == 1 ? Call : B.CreateExtractValue(Call, Out);
        ++Out;
        for (unsigned E = 0; E < Per; ++E)
          Results[K].push_back(Per == 1 ? R : B.CreateExtractElement(R, uint64_t(E)));
      }
    }
  }
  for (unsigned K = 0; K < I.getNumResults(); ++K)
    C.set(I.getResult(K), std::move(Results[K]));
}

/// tl.map_elementwise: the lowered scalar function called once per pack
/// elements of a thread (LLVM inlines it), pack elements of each operand
/// in order, its results pack elements of each result.
void lowerMapElementwise(LoweringContext &C, const MapElementwiseInst &I, unsigned N) {
  llvm::Function *Fn = C.getLLVMModule().getFunction(I.getCallee());
  if (!Fn)
    C.unsupported(I, "a map_elementwise function that was not lowered");
  unsigned Pack = unsigned(I.getPack());
  checkPackFits(I, "map_elementwise", Pack, N);
  llvm::IRBuilder<> &B = C.B;
  unsigned NumOut = Pack * I.getNumResults();
  std::vector<Regs> Results(I.getNumResults());
  for (unsigned G = 0; G < N; G += Pack) {
    llvm::SmallVector<llvm::Value *, 8> Args;
    for (Value *V : I.getOperands()) {
      const Regs &Rs = C.get(V);
      for (unsigned J = 0; J < Pack; ++J)
        Args.push_back(Rs.size() == 1 ? Rs[0] : Rs[G + J]);
    }
    llvm::Value *Call = B.CreateCall(Fn, Args);
    for (unsigned K = 0; K < I.getNumResults(); ++K)
      for (unsigned J = 0; J < Pack; ++J)
        Results[K].push_back(NumOut == 1 ? Call : B.CreateExtractValue(Call, K * Pack + J));
  }
  for (unsigned K = 0; K < I.getNumResults(); ++K)
    C.set(I.getResult(K), std::move(Results[K]));
}
/// Makes each register of \p Res that AxisInfo proves equal to a lower
/// register the same value: a register bit whose basis is one power of two
/// o along a dimension whose runs of equal elements are longer than o (or
/// no offset at all) pairs elements of one run. `offs_k[:, None] < K - k *
/// BLOCK_K` with K divisible by 16 holds rows r and r + 8 of a thread
/// alike: one compare for both, and LLVM merges what is made of them (a
/// matmul's B copies: one predicate for two rows, as Triton's).
void shareEqualRegisters(LoweringContext &C, const Value *Res, Regs &Out) {
  if (!Res->getType()->isBlock() || Out.size() < 2)
    return;
  const LinearLayout &L = C.layout(Res);
  const AxisInfo &Facts = C.getAxisInfo().get(Res);
  llvm::ArrayRef<LinearLayout::Basis> Bases = L.getBases(kRegister);
  if (Facts.getRank() != L.getOutDims().size() || Out.size() != (size_t(1) << Bases.size()))
    return;
  unsigned Shared = 0;
  for (unsigned Bit = 0; Bit < Bases.size(); ++Bit) {
    unsigned NonZero = 0;
    bool WithinRun = true;
    for (unsigned D = 0; D < Bases[Bit].size(); ++D)
      if (int32_t O = Bases[Bit][D]) {
        ++NonZero;
        WithinRun = (O & (O - 1)) == 0 && O < Facts.Constancy[D];
      }
    if (NonZero == 0 || (NonZero == 1 && WithinRun))
      Shared |= 1u << Bit;
  }
  for (unsigned R = 0; Shared && R < Out.size(); ++R)
    if (R & Shared)
      Out[R] = Out[R & ~Shared];
}

} // namespace

void tritium::lowerElementwise(LoweringContext &C, Instruction &I) {
  llvm::IRBuilder<> &B = C.B;
  Value *Res = I.getNumResults() ? I.getResult(0) : nullptr;
  unsigned N = Res ? numRegsOf(C, Res) : 0;
  Type *RT = Res ? Res->getType() : nullptr;
  auto Op = [&](unsigned K, unsigned R) -> llvm::Value * {
    const Regs &Rs = C.get(I.getOperand(K));
    return Rs.size() == 1 ? Rs[0] : Rs[R];
  };
  Regs Out;
  if (I.getFamily() == OpFamily::InlineAsm)
    return lowerInlineAsm(C, llvm::cast<InlineAsmInst>(I), N);
  if (I.getFamily() == OpFamily::MapElementwise)
    return lowerMapElementwise(C, llvm::cast<MapElementwiseInst>(I), N);

  switch (I.getFamily()) {
  case OpFamily::Constant: {
    llvm::Constant *K = elementConstant(C, RT, *I.getAttr(AttrKey::Value));
    Out.assign(N, K);
    break;
  }
  case OpFamily::Undef:
    // Zero rather than undef: a variable read before any write on some path
    // should not license the optimizer to assume anything.
    Out.assign(N, llvm::Constant::getNullValue(C.elemType(RT)));
    break;
  case OpFamily::Binary: {
    Type *E = RT->getScalarType();
    bool Approx = I.hasAttr(AttrKey::Approx);
    bool Guard = C.getTarget().trapsOnIntegerDivision();
    if (vectorOpcode(I.getOpcode(), E) &&
        byVectors(C, I, N, Out, [&](llvm::ArrayRef<llvm::Value *> V) {
          return E->isFloat() ? floatBinary(C, I.getOpcode(), E, V[0], V[1], Approx)
                              : intBinary(B, I.getOpcode(), V[0], V[1], Guard);
        }))
      break;
    for (unsigned R = 0; R < N; ++R)
      Out.push_back(E->isFloat() ? floatBinary(C, I.getOpcode(), E, Op(0, R), Op(1, R), Approx)
                                 : intBinary(B, I.getOpcode(), Op(0, R), Op(1, R), Guard));
    break;
  }
  case OpFamily::Unary:
    if (byVectors(C, I, N, Out, [&](llvm::ArrayRef<llvm::Value *> V) {
          return unaryOne(C, I.getOpcode(), RT->getScalarType(), V[0]);
        }))
      break;
    for (unsigned R = 0; R < N; ++R)
      Out.push_back(unaryOne(C, I.getOpcode(), RT->getScalarType(), Op(0, R)));
    break;
  case OpFamily::Fma: {
    Type *E = RT->getScalarType();
    for (unsigned R = 0; R < N; ++R) {
      if (isCarriedFloat(E)) {
        llvm::Value *F = B.CreateIntrinsic(
            llvm::Intrinsic::fma, {B.getFloatTy()},
            {toF32(B, Op(0, R), E), toF32(B, Op(1, R), E), toF32(B, Op(2, R), E)});
        Out.push_back(fromF32(B, F, E));
      } else {
        Out.push_back(B.CreateIntrinsic(llvm::Intrinsic::fma, {Op(0, R)->getType()},
                                        {Op(0, R), Op(1, R), Op(2, R)}));
      }
    }
    break;
  }
  case OpFamily::Cmp: {
    auto &Cmp = llvm::cast<CmpInst>(I);
    llvm::CmpInst::Predicate P = Cmp.isFloat() ? llvmPredicate(Cmp.getFPredicate())
                                               : llvmPredicate(Cmp.getIPredicate());
    Type *E = I.getOperand(0)->getType()->getScalarType();
    if (!(Cmp.isFloat() && isCarriedFloat(E)) &&
        byVectors(C, I, N, Out,
                  [&](llvm::ArrayRef<llvm::Value *> V) { return B.CreateCmp(P, V[0], V[1]); }))
      break;
    for (unsigned R = 0; R < N; ++R) {
      llvm::Value *L = Op(0, R), *Rv = Op(1, R);
      if (Cmp.isFloat() && isCarriedFloat(E))
        L = toF32(B, L, E), Rv = toF32(B, Rv, E);
      Out.push_back(B.CreateCmp(P, L, Rv));
    }
    break;
  }
  case OpFamily::Select:
    if (byVectors(C, I, N, Out, [&](llvm::ArrayRef<llvm::Value *> V) {
          return B.CreateSelect(V[0], V[1], V[2]);
        }))
      break;
    for (unsigned R = 0; R < N; ++R)
      Out.push_back(B.CreateSelect(Op(0, R), Op(1, R), Op(2, R)));
    break;
  case OpFamily::Cast: {
    Type *From = I.getOperand(0)->getType()->getScalarType();
    Type *To = RT->getScalarType();
    // In vectors but for pointers and rounding toward zero (a target hook).
    auto &Cast = llvm::cast<CastInst>(I);
    if (!From->isPointer() && !To->isPointer() && Cast.getRounding() != RoundingMode::RTZ &&
        byVectors(C, I, N, Out, [&](llvm::ArrayRef<llvm::Value *> V) {
          return castOne(C, Cast, From, To, V[0]);
        }))
      break;
    for (unsigned R = 0; R < N; ++R)
      Out.push_back(castOne(C, Cast, From, To, Op(0, R)));
    break;
  }
  case OpFamily::GetElementPtr: {
    llvm::Type *ET = pointeeType(C, I.getOperand(0)->getType());
    uint64_t Size = C.getLLVMModule().getDataLayout().getTypeAllocSize(ET);
    for (unsigned R = 0; R < N; ++R) {
      llvm::Value *Off = Op(1, R);
      // A byte offset (an i8 GEP of offset * size) rather than a typed GEP:
      // an offset used by several GEPs then has one widening for all of
      // them, not a sext and a sext * size each, both live across a loop
      // (attention's first). Offsets are signed; i1 offsets are 0 or 1.
      unsigned Bits = Off->getType()->getIntegerBitWidth();
      llvm::Value *Wide = Bits == 1 ? B.CreateZExt(Off, B.getInt64Ty())
                                    : B.CreateSExt(Off, B.getInt64Ty());
      llvm::Value *Bytes = B.CreateMul(Wide, B.getInt64(Size), "", false,
                                       /*HasNSW=*/Bits < 64);
      Out.push_back(B.CreateGEP(B.getInt8Ty(), Op(0, R), Bytes));
    }
    break;
  }
  case OpFamily::MakeRange: {
    auto &MR = llvm::cast<MakeRangeInst>(I);
    std::vector<Regs> Coords = C.coordinates(C.layout(Res));
    for (unsigned R = 0; R < N; ++R)
      Out.push_back(B.CreateAdd(Coords[R][0], C.constI32(MR.getStart())));
    break;
  }
  case OpFamily::Splat:
    Out.assign(N, C.scalar(I.getOperand(0)));
    break;
  case OpFamily::Hint:
    Out = C.get(I.getOperand(0));
    break;
  case OpFamily::ProgramInfo: {
    unsigned Axis = unsigned(I.getIntAttr(AttrKey::Axis));
    Out.push_back(I.getOpcode() == Opcode::GetProgramId
                      ? C.getTarget().programId(B, Axis)
                      : C.getTarget().numPrograms(B, Axis));
    break;
  }
  case OpFamily::ExternElementwise: {
    auto &E = llvm::cast<ExternElementwiseInst>(I);
    llvm::SmallVector<llvm::Type *, 4> Tys;
    for (Value *V : I.getOperands())
      Tys.push_back(C.elemType(V->getType()));
    llvm::FunctionCallee F = C.getLLVMModule().getOrInsertFunction(
        E.getSymbol(), llvm::FunctionType::get(C.elemType(RT), Tys, false));
    if (auto *Fn = llvm::dyn_cast<llvm::Function>(F.getCallee()); Fn && E.isPure()) {
      Fn->setDoesNotAccessMemory();
      Fn->setDoesNotThrow();
    }
    for (unsigned R = 0; R < N; ++R) {
      llvm::SmallVector<llvm::Value *, 4> Args;
      for (unsigned K = 0; K < I.getNumOperands(); ++K)
        Args.push_back(Op(K, R));
      Out.push_back(B.CreateCall(F, Args));
    }
    break;
  }
  default:
    C.unsupported(I, "'" + I.getOpcodeName() + "' here");
  }
  shareEqualRegisters(C, Res, Out);
  C.set(Res, std::move(Out));
}
