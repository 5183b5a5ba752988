//===- Debug.cpp - Hints, printing, assertions, external functions ---------===//

#include "frontend/Promotion.h"
#include "frontend/Semantic.h"

using namespace tritium;

std::string tritium::checkHint(llvm::StringRef Name, DType *X, llvm::ArrayRef<int64_t> Values) {
  DType *E = X->getScalar();
  if (!E->isInt() && !E->isPointer())
    return (Name + " expects integers or pointers, got " + X->getName()).str();
  size_t Want = std::max<size_t>(1, X->getShape().size());
  if (Values.size() != Want)
    return ("Shape of input to " + Name + " does not match the length of values: " +
            X->getName() + " needs " + llvm::Twine(Want) + (Want == 1 ? " value" : " values") +
            ", got " + formatShape(Values))
        .str();
  for (int64_t V : Values)
    if (V <= 0)
      return (Name + " values must be positive, got " + formatShape(Values)).str();
  return "";
}

TValue Semantic::hint(Opcode Op, TValue X, llvm::ArrayRef<int64_t> Values) {
  assert(getOpFamily(Op) == OpFamily::Hint && "not a hint opcode");
  std::string Err = checkHint(getOpcodeName(Op), X.Ty, Values);
  if (!Err.empty())
    error(Err);
  return make(B.createHint(Op, X.V, Values), X.Ty);
}

void Semantic::debugBarrier() { B.createBarrier(); }

void Semantic::gridDepControl(bool Wait) { B.createGridDepControl(Wait); }

void Semantic::devicePrint(llvm::StringRef Prefix, llvm::ArrayRef<TValue> Vals,
                           bool Hex) {
  // Triton's spelling: a prefix followed by values ends in ": ", and a
  // longer one starts with a space.
  std::string P = Prefix.str();
  if (!Vals.empty()) {
    if (P.empty() || P.back() != ' ')
      P += ' ';
    if (P.size() < 2 || P.compare(P.size() - 2, 2, ": ") != 0)
      P = P.substr(0, P.size() - 1) + ": ";
  }
  if (P.size() > 2 && P.front() != ' ')
    P = " " + P;
  llvm::SmallVector<Value *, 4> Vs;
  llvm::SmallVector<int64_t, 4> Unsigned;
  const TValue *Block = nullptr;
  for (const TValue &V : Vals) {
    // Each line prints one element of every block: they need one shape.
    if (V.Ty->isBlock()) {
      if (Block && Block->Ty->getShape() != V.Ty->getShape())
        error("device_print of blocks of different shapes (" +
              formatShape(Block->Ty->getShape()) + " and " + formatShape(V.Ty->getShape()) +
              ") is not supported: print them in separate calls");
      Block = &V;
    }
    DType *E = V.Ty->getScalar();
    if (E->isInt() && !E->isSigned() && E->getBitWidth() > 1)
      Unsigned.push_back(int64_t(Vs.size()));
    Vs.push_back(V.V);
  }
  B.createPrint(P, Vs, Hex, Unsigned);
}

void Semantic::deviceAssert(Operand Cond, llvm::StringRef Message,
                            std::optional<Operand> Mask) {
  TValue C = toBool(toValue(Cond));
  if (Mask) {
    // Masked-off lanes pass: cond | !mask.
    TValue NotMask = unary(UnaryOp::Not, toBool(toValue(*Mask)));
    C = binary(BinOp::BitOr, C, NotMask);
  }
  B.createAssert(C.V, Message);
}

std::string tritium::checkExternElementwise(llvm::StringRef Symbol,
                                           llvm::ArrayRef<DType *> Args, DType *Result) {
  Shape S;
  for (DType *A : Args) {
    if (!A->getScalar()->isInt() && !A->getScalar()->isFloat())
      return ("extern_elementwise '" + Symbol + "' expects numbers, got " +
              A->getScalar()->getName())
          .str();
    std::string Err = checkCommonShape(S, A->getShape(), Symbol);
    if (!Err.empty())
      return Err;
    S = *broadcastShapes(S, A->getShape());
  }
  Result = Result->getScalar();
  if (!Result->isInt() && !Result->isFloat())
    return ("extern_elementwise '" + Symbol + "' must return a number, not " +
            Result->getName())
        .str();
  return "";
}

llvm::SmallVector<TValue, 4> Semantic::broadcastAll(llvm::ArrayRef<Operand> Args,
                                                    llvm::StringRef What, Shape &S) {
  llvm::SmallVector<TValue, 4> Vs;
  S.clear();
  for (const Operand &A : Args) {
    Vs.push_back(toValue(A));
    S = commonShape(S, Vs.back().Ty->getShape(), What);
  }
  for (TValue &V : Vs)
    V = expandToShape(V, S);
  return Vs;
}

void Semantic::checkPack(llvm::StringRef What, int64_t Pack) const {
  if (Pack < 1 || (Pack & (Pack - 1)) != 0)
    error(What + ": pack must be a power of two, got " + llvm::Twine(Pack));
}

std::vector<TValue> Semantic::makeResults(Instruction *I, llvm::ArrayRef<DType *> Types) {
  std::vector<TValue> Out;
  for (unsigned K = 0; K < Types.size(); ++K)
    Out.push_back(make(I->getResult(K), Types[K]));
  return Out;
}

std::vector<TValue> Semantic::inlineAsm(llvm::StringRef Asm, llvm::StringRef Constraints,
                                        llvm::ArrayRef<Operand> Args,
                                        llvm::ArrayRef<DType *> Results, bool Pure, int64_t Pack) {
  checkPack("inline_asm_elementwise", Pack);
  if (Results.empty())
    error("inline_asm_elementwise needs at least one result dtype");
  Shape S;
  llvm::SmallVector<TValue, 4> Vs = broadcastAll(Args, "inline_asm_elementwise", S);
  // Pointers go to the snippet as they are (an `l` register: Triton's
  // test_inline_asm_with_pointers loads and stores through them).
  llvm::SmallVector<DType *, 4> Numbers;
  llvm::SmallVector<Value *, 4> IR;
  for (const TValue &V : Vs) {
    IR.push_back(V.V);
    if (!V.Ty->getScalar()->isPointer())
      Numbers.push_back(V.Ty);
  }
  llvm::SmallVector<Type *, 4> RT;
  llvm::SmallVector<DType *, 4> RD;
  for (DType *R : Results) {
    std::string Err = checkExternElementwise("inline_asm_elementwise", Numbers, R);
    if (!Err.empty())
      error(Err);
    RD.push_back(DType::getShaped(R->getScalar(), S));
    RT.push_back(RD.back()->toIR(getContext()));
  }
  return makeResults(B.createInlineAsm(Asm, Constraints, IR, RT, Pure, Pack), RD);
}

std::vector<TValue> Semantic::mapElementwise(Function *Fn, llvm::ArrayRef<Operand> Args,
                                             int64_t Pack) {
  checkPack("map_elementwise", Pack);
  auto It = Signatures.find(Fn);
  if (It == Signatures.end())
    error("map_elementwise: the scalar function has no signature");
  const Signature &Sig = It->second;
  Shape S;
  llvm::SmallVector<TValue, 4> Vs = broadcastAll(Args, "map_elementwise", S);
  size_t P = size_t(Pack);
  if (Sig.Params.size() != Vs.size() * P)
    error("map_elementwise: the scalar function takes " + llvm::Twine(Sig.Params.size()) +
          " argument(s); " + llvm::Twine(Vs.size()) + " tensor(s) with pack=" + llvm::Twine(Pack) +
          " give " + llvm::Twine(Vs.size() * P));
  if (Sig.Results.empty() || Sig.Results.size() % P != 0)
    error("map_elementwise: the scalar function returns " + llvm::Twine(Sig.Results.size()) +
          " value(s), not a multiple of pack=" + llvm::Twine(Pack));
  llvm::SmallVector<Value *, 4> IR;
  for (const TValue &V : Vs)
    IR.push_back(V.V);
  llvm::SmallVector<Type *, 4> RT;
  llvm::SmallVector<DType *, 4> RD;
  for (size_t K = 0; K < Sig.Results.size(); K += P) {
    for (size_t J = K + 1; J < K + P; ++J)
      if (Sig.Results[J] != Sig.Results[K])
        error("map_elementwise: the " + llvm::Twine(P) + " values of output " +
              llvm::Twine(K / P) + " must have one type, got " + Sig.Results[K]->getName() +
              " and " + Sig.Results[J]->getName());
    RD.push_back(DType::getShaped(Sig.Results[K]->getScalar(), S));
    RT.push_back(RD.back()->toIR(getContext()));
  }
  return makeResults(B.createMapElementwise(Fn->getName(), IR, RT, Pack), RD);
}

TValue Semantic::externElementwise(llvm::StringRef Symbol,
                                   llvm::ArrayRef<Operand> Args, DType *Result,
                                   bool Pure) {
  llvm::SmallVector<TValue, 4> Vs;
  Shape S;
  llvm::SmallVector<DType *, 4> Types;
  for (const Operand &A : Args) {
    Vs.push_back(toValue(A));
    Types.push_back(Vs.back().Ty);
  }
  std::string Err = checkExternElementwise(Symbol, Types, Result);
  if (!Err.empty())
    error(Err);
  for (const TValue &V : Vs)
    S = *broadcastShapes(S, V.Ty->getShape());
  Result = Result->getScalar();
  llvm::SmallVector<Value *, 4> IR;
  for (TValue &V : Vs)
    IR.push_back(expandToShape(V, S).V);
  DType *Ty = DType::getShaped(Result, S);
  return make(B.createExternElementwise(Symbol, IR, Ty->toIR(getContext()),
                                        Pure),
              Ty);
}
