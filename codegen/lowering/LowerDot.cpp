//===- LowerDot.cpp - dot as fused multiply-adds --------------------------===//
//
// The FMA dot: assign-layouts gave A and B layouts in which every thread
// holds, for each result element it owns, the whole row of A and column of
// B it needs (fmaOperandLayout). Each result register accumulates
// sum_k a[m, k] * b[k, n] in increasing k; the registers of a and b are found
// by solving the operand layouts for (m, k) and (k, n). Products are formed
// and accumulated in f32 for float inputs narrower than the accumulator
// (exact for fp16/bf16/fp8 products), in i32 for i8. Tensor cores come with
// the tensor-core issue.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/FloatConversions.h"
#include "codegen/lowering/LoweringContext.h"

using namespace tritium;

namespace {
using Regs = LoweringContext::Regs;
using Basis = LinearLayout::Basis;

Basis registerCoords(const LinearLayout &L, uint32_t R) {
  llvm::ArrayRef<Basis> Bases = L.getBases(kRegister);
  Basis Co(L.getOutDims().size(), 0);
  for (unsigned Bit = 0; Bit < Bases.size(); ++Bit)
    if (R >> Bit & 1)
      for (unsigned D = 0; D < Co.size(); ++D)
        Co[D] ^= Bases[Bit][D];
  return Co;
}
} // namespace

void tritium::lowerDot(LoweringContext &C, Instruction &I) {
  llvm::IRBuilder<> &B = C.B;
  auto &Dot = llvm::cast<DotInst>(I);
  const LinearLayout &LA = C.layout(Dot.getA()), &LB = C.layout(Dot.getB());
  const LinearLayout &LC = C.layout(I.getResult());
  const Regs &A = C.get(Dot.getA()), &Bv = C.get(Dot.getB());
  const Regs &Acc = C.get(Dot.getAcc());
  Type *AT = Dot.getA()->getType()->getScalarType();
  Type *BT = Dot.getB()->getType()->getScalarType();
  Type *CT = I.getResult()->getType()->getScalarType();
  unsigned Rank = LC.getOutDims().size();
  unsigned M = Rank - 2, N = Rank - 1;
  int64_t K = Dot.getA()->getType()->getShape()[N];
  bool Int = CT->isInt();
  // The type products are summed in.
  llvm::Type *Work = Int ? B.getInt32Ty()
                         : CT->getKind() == Type::Kind::F64 ? B.getDoubleTy()
                                                            : B.getFloatTy();
  auto Widen = [&](llvm::Value *V, Type *E) -> llvm::Value * {
    if (Int)
      return B.CreateSExt(V, Work);
    if (isCarriedFloat(E))
      return toF32(B, V, E);
    return B.CreateFPCast(V, Work);
  };
  auto Reg = [&](const LinearLayout &L, const Basis &Co, const char *What) {
    std::optional<int32_t> R = L.findInput(kRegister, Co);
    if (!R)
      C.unsupported(I, llvm::Twine("a dot whose ") + What +
                           " operand is not in its FMA layout");
    return *R;
  };
  Regs Out;
  for (uint32_t R = 0; R < LoweringContext::numRegs(LC); ++R) {
    Basis Co = registerCoords(LC, R);
    llvm::Value *Sum = Int || C.elemType(CT) == Work ? Acc[R] : Widen(Acc[R], CT);
    for (int64_t Kk = 0; Kk < K; ++Kk) {
      Basis CoA = Co, CoB = Co;
      CoA[N] = int32_t(Kk);
      CoB[M] = int32_t(Kk);
      llvm::Value *X = Widen(A[Reg(LA, CoA, "first")], AT);
      llvm::Value *Y = Widen(Bv[Reg(LB, CoB, "second")], BT);
      Sum = Int ? B.CreateAdd(Sum, B.CreateMul(X, Y))
                : B.CreateIntrinsic(llvm::Intrinsic::fma, {Work}, {X, Y, Sum});
    }
    if (!Int && Sum->getType() != C.elemType(CT))
      Sum = isCarriedFloat(CT) ? fromF32(B, Sum, CT) : B.CreateFPCast(Sum, C.elemType(CT));
    Out.push_back(Sum);
  }
  C.set(I.getResult(), std::move(Out));
}
