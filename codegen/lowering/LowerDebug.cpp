//===- LowerDebug.cpp - barrier, device_print, device_assert --------------===//
//
// device_print prints one line per element a thread owns (copies held by
// other lanes or warps stay quiet): the program id, the element's index and
// the values, as Triton does. Scalars print once per program, from thread 0.
// device_assert is compiled only with debug: a thread whose elements fail
// calls the target's assert-fail with the message and the kernel location.
//
//===----------------------------------------------------------------------===//

#include "codegen/lowering/FloatConversions.h"
#include "codegen/lowering/LoweringContext.h"
#include "ir/Module.h"

using namespace tritium;

namespace {
using Regs = LoweringContext::Regs;

/// A printf conversion and the C-vararg-promoted value.
std::pair<std::string, llvm::Value *> formatted(LoweringContext &C, llvm::Value *V,
                                                Type *E, bool Hex, bool Unsigned) {
  llvm::IRBuilder<> &B = C.B;
  if (E->isFloat())
    return {"%f", B.CreateFPExt(toF32(B, V, E), B.getDoubleTy())};
  if (E->isPointer())
    return {"%p", V};
  unsigned W = E->getScalarSizeInBits();
  if (W == 64)
    return {Hex ? "0x%llx" : Unsigned ? "%llu" : "%lld", V};
  bool Zero = W == 1 || Unsigned || Hex;
  llvm::Value *Wide = Zero ? B.CreateZExt(V, B.getInt32Ty()) : B.CreateSExt(V, B.getInt32Ty());
  return {Hex ? "0x%x" : Unsigned ? "%u" : "%d", Wide};
}

void lowerPrint(LoweringContext &C, PrintInst &P) {
  llvm::IRBuilder<> &B = C.B;
  // The element positions come from the first block operand.
  Value *Shaper = nullptr;
  for (Value *V : P.getOperands())
    if (V->getType()->isBlock()) {
      Shaper = V;
      break;
    }
  const LinearLayout *L = Shaper ? &C.layout(Shaper) : nullptr;
  unsigned N = L ? LoweringContext::numRegs(*L) : 1;
  std::vector<Regs> Coords;
  if (L)
    Coords = C.coordinates(*L);
  llvm::Value *Own = C.owner(L);
  for (unsigned R = 0; R < N; ++R) {
    std::string Fmt = "pid (%d, %d, %d)";
    llvm::SmallVector<llvm::Value *, 8> Args;
    for (unsigned A = 0; A < 3; ++A)
      Args.push_back(C.getTarget().programId(B, A));
    if (L) {
      Fmt += " idx (";
      for (unsigned D = 0; D < Coords[R].size(); ++D) {
        Fmt += D ? ", %d" : "%d";
        Args.push_back(Coords[R][D]);
      }
      Fmt += ")";
    }
    // The prefix is text, not format: its % signs print as themselves.
    Fmt += " ";
    for (char Ch : P.getPrefix())
      Fmt += Ch == '%' ? std::string("%%") : std::string(1, Ch);
    bool First = true;
    for (unsigned K = 0; K < P.getNumOperands(); ++K) {
      Value *V = P.getOperand(K);
      const Regs &Vals = C.get(V);
      auto [Conv, Arg] = formatted(C, Vals.size() == 1 ? Vals[0] : Vals[R],
                                   V->getType()->getScalarType(), P.isHex(),
                                   P.isUnsignedOperand(K));
      Fmt += (First ? "" : ", ") + Conv;
      First = false;
      Args.push_back(Arg);
    }
    Fmt += "\n";
    // Only owners print.
    emitIf(B, Own, "print", "print.cont", [&] { C.getTarget().printf(B, Fmt, Args); });
  }
}

void lowerAssert(LoweringContext &C, AssertInst &A) {
  if (!C.getOptions().Debug)
    return;
  llvm::IRBuilder<> &B = C.B;
  llvm::Value *Failed = B.getFalse();
  for (llvm::Value *V : C.get(A.getCondition()))
    Failed = B.CreateOr(Failed, B.CreateNot(V));
  Loc L = A.getLoc();
  std::string Func = A.getFunction() ? A.getFunction()->getName().str() : "kernel";
  C.getTarget().assertFail(B, Failed, A.getMessage(), L.isKnown() ? L.File : "unknown",
                           L.Line, Func);
}
} // namespace

void tritium::lowerDebug(LoweringContext &C, Instruction &I) {
  switch (I.getOpcode()) {
  case Opcode::Barrier:
    C.getTarget().barrier(C.B);
    return;
  case Opcode::GdcWait:
  case Opcode::GdcLaunchDependents:
    C.getTarget().gridDepControl(C.B, I.getOpcode() == Opcode::GdcWait);
    return;
  case Opcode::Print:
    lowerPrint(C, llvm::cast<PrintInst>(I));
    return;
  case Opcode::Assert:
    lowerAssert(C, llvm::cast<AssertInst>(I));
    return;
  default:
    C.unsupported(I, "'" + I.getOpcodeName() + "'");
  }
}
