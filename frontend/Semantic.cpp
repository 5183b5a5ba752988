//===- Semantic.cpp - Functions, blocks, variables and calls ---------------===//
//
// The part of the semantic layer that is not about one family of operations:
// the stack of functions under construction, blocks and branches, Python
// variables as SSA values (through SSABuilder), calls, errors, and the
// language type of every value, phis included.
//
// A phi's dtype is not stored: SSA construction deletes trivial phis and a
// new value may reuse the address. It is inferred from what flows in instead,
// through chains of phis; a phi read before anything flows in (a loop header
// not sealed yet) is assumed to have the variable's type, and sealing checks
// the assumption.
//
//===----------------------------------------------------------------------===//

#include "frontend/Promotion.h"
#include "frontend/Semantic.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"

using namespace tritium;

struct Semantic::FunctionState {
  FunctionState(Function *F, Context &Ctx) : F(F), SSA(Ctx) {}

  Function *F;
  SSABuilder SSA;
  /// Where the builder stood in the function that was current before.
  BasicBlock *RestoreBlock = nullptr;
  BasicBlock::iterator RestorePoint;
  /// The dtype each variable was last written with in each block.
  llvm::StringMap<llvm::DenseMap<BasicBlock *, DType *>> DefTypes;
  /// Phis of unsealed blocks handed out while nothing flowed into them, with
  /// the dtype assumed and the variable; sealing the block checks the
  /// assumption. (Only unsealed blocks: their phis are deleted no earlier
  /// than their sealing, which drops the entries first.)
  llvm::DenseMap<Value *, std::pair<DType *, std::string>> Assumed;

  /// The dtype \p Var holds at the end of \p BB, searching backwards like
  /// SSABuilder; null if no write reaches it.
  DType *typeAtEnd(llvm::StringRef Var, BasicBlock *BB) const {
    auto It = DefTypes.find(Var);
    if (It == DefTypes.end())
      return nullptr;
    if (DType *T = It->second.lookup(BB))
      return T;
    return reachingTypes(Var, BB).first;
  }

  /// The dtypes of the writes of \p Var that reach \p BB through its
  /// predecessors, nearest first (breadth-first, as SSABuilder searches):
  /// the first one found and the first that differs from it (or null).
  std::pair<DType *, DType *> reachingTypes(llvm::StringRef Var,
                                            BasicBlock *BB) const {
    auto It = DefTypes.find(Var);
    if (It == DefTypes.end())
      return {nullptr, nullptr};
    llvm::SmallVector<BasicBlock *, 16> Work(BB->predecessors().begin(),
                                             BB->predecessors().end());
    llvm::SmallPtrSet<BasicBlock *, 16> Visited = {BB};
    DType *First = nullptr;
    for (size_t I = 0; I < Work.size(); ++I) {
      BasicBlock *P = Work[I];
      if (!Visited.insert(P).second)
        continue;
      if (DType *T = It->second.lookup(P)) {
        if (!First)
          First = T;
        else if (T != First)
          return {First, T};
        continue;
      }
      Work.append(P->predecessors().begin(), P->predecessors().end());
    }
    return {First, nullptr};
  }
};

Semantic::Semantic(Module &M) : M(M), B(M.getContext()) {}

Semantic::~Semantic() = default;

Semantic::FunctionState &Semantic::cur() const {
  // The binding lets Python call in any order: an error, not an abort.
  if (Stack.empty())
    reportError(getLoc(), "no function is being built (call begin_function first)");
  return *Stack.back();
}

void Semantic::error(const llvm::Twine &Msg) const {
  reportError(getLoc(), Msg);
}

void Semantic::setLoc(Loc L) {
  B.setLoc(L);
  // Phis, undefs and SSA errors carry the location too.
  for (auto &S : Stack)
    S->SSA.setLoc(L);
}

TValue Semantic::make(Value *V, DType *Ty) {
  assert(V && Ty && "a language value needs an IR value and a dtype");
  assert(Ty->toIR(getContext()) == V->getType() &&
         "dtype does not lower to the value's type");
  DTypes[V] = Ty;
  return {V, Ty};
}

DType *Semantic::typeOf(const Operand &O) const {
  return O.isValue() ? O.getValue().Ty : O.getLiteralType();
}

//===----------------------------------------------------------------------===//
// Language types of values
//===----------------------------------------------------------------------===//

namespace {
PhiInst *asPhi(Value *V) {
  return llvm::dyn_cast_or_null<PhiInst>(V->getDefiningInstruction());
}

std::string variableName(llvm::StringRef Var) {
  return Var.empty() ? std::string("a variable") : "variable '" + Var.str() + "'";
}

/// SSA construction gives a variable `undef` on paths where it was never
/// written; those paths do not type it.
bool isUndef(Value *V) {
  Instruction *I = V->getDefiningInstruction();
  return I && I->getOpcode() == Opcode::Undef;
}

[[noreturn]] void typeClash(const Semantic &S, llvm::StringRef Var, DType *A,
                            DType *B) {
  S.error(variableName(Var) + " has type " + A->getName() +
          " on one path and " + B->getName() +
          " on another; give it one type on every path (cast with .to())");
}
} // namespace

DType *Semantic::getDType(Value *V) {
  auto It = DTypes.find(V);
  if (It != DTypes.end())
    return It->second;
  if (PhiInst *Phi = asPhi(V))
    if (DType *T = inferPhi(Phi, Phi->getResult()->getName()))
      return T;
  return DType::fromIR(V->getType());
}

DType *Semantic::assumedType(Value *Phi) const {
  for (const auto &S : Stack) {
    auto It = S->Assumed.find(Phi);
    if (It != S->Assumed.end())
      return It->second.first;
  }
  return nullptr;
}

DType *Semantic::inferPhi(PhiInst *Root, llvm::StringRef Var) {
  // Walk the web of phis reachable through incoming values; every non-phi
  // value (and every phi with an assumed type) in it must have one dtype.
  llvm::SmallVector<PhiInst *, 8> Work = {Root};
  llvm::SmallPtrSet<PhiInst *, 8> Seen = {Root};
  DType *Found = nullptr;
  auto Meet = [&](DType *T) {
    if (Found && Found != T)
      typeClash(*this, Var, Found, T);
    Found = T;
  };
  while (!Work.empty()) {
    PhiInst *P = Work.pop_back_val();
    if (DType *T = assumedType(P->getResult()))
      Meet(T);
    for (unsigned I = 0; I < P->getNumIncoming(); ++I) {
      Value *In = P->getIncomingValue(I);
      if (PhiInst *Q = asPhi(In)) {
        if (Seen.insert(Q).second)
          Work.push_back(Q);
        continue;
      }
      if (isUndef(In))
        continue;
      auto It = DTypes.find(In);
      Meet(It != DTypes.end() ? It->second : DType::fromIR(In->getType()));
    }
  }
  return Found;
}

void Semantic::checkPhis(BasicBlock *BB) {
  for (PhiInst *Phi : BB->phis())
    inferPhi(Phi, Phi->getResult()->getName());
}

//===----------------------------------------------------------------------===//
// Functions
//===----------------------------------------------------------------------===//

Function *Semantic::beginFunction(llvm::StringRef Name,
                                  llvm::ArrayRef<DType *> Params,
                                  llvm::ArrayRef<std::string> ParamNames,
                                  bool IsKernel) {
  if (!ParamNames.empty() && ParamNames.size() != Params.size())
    error("begin_function needs one name per parameter: " + llvm::Twine(Params.size()) +
          " parameters, " + llvm::Twine(ParamNames.size()) + " names");
  llvm::SmallVector<Type *, 8> IRParams;
  for (DType *P : Params)
    IRParams.push_back(P->toIR(getContext()));
  Function *F =
      M.createFunction(Name, FunctionType::get(getContext(), IRParams, {}));
  if (!F)
    error("function '" + Name + "' is already defined in this module");
  F->setKernel(IsKernel);
  F->setLoc(getLoc());
  Signatures[F].Params.assign(Params.begin(), Params.end());

  auto S = std::make_unique<FunctionState>(F, getContext());
  S->SSA.setLoc(getLoc());
  S->RestoreBlock = B.getInsertBlock();
  S->RestorePoint = B.getInsertPoint();
  Stack.push_back(std::move(S));

  BasicBlock *Entry = F->createBlock("entry");
  B.setInsertPoint(Entry);
  cur().SSA.sealBlock(Entry);
  for (unsigned I = 0; I < Params.size(); ++I) {
    Argument *A = F->getArg(I);
    DTypes[A] = Params[I];
    if (!ParamNames.empty()) {
      A->setName(ParamNames[I]);
      writeVar(ParamNames[I], {A, Params[I]});
    }
  }
  return F;
}

void Semantic::setResultTypes(llvm::ArrayRef<DType *> Results) {
  llvm::SmallVector<Type *, 2> IR;
  for (DType *R : Results)
    IR.push_back(R->toIR(getContext()));
  Function *F = getFunction();
  F->setResultTypes(IR);
  Signatures[F].Results.assign(Results.begin(), Results.end());
}

void Semantic::endFunction() {
  FunctionState &S = cur();
  for (BasicBlock &BB : *S.F)
    if (!S.SSA.isSealed(&BB))
      seal(&BB);
  for (std::unique_ptr<Instruction> &Phi : S.SSA.takeRemovedPhis())
    RemovedPhis.push_back(std::move(Phi));
  B.setInsertPoint(S.RestoreBlock, S.RestorePoint);
  Stack.pop_back();
}

Function *Semantic::getFunction() const { return cur().F; }

TValue Semantic::getArg(unsigned I) const {
  Function *F = getFunction();
  assert(I < F->getNumArgs() && "argument index out of range");
  auto It = Signatures.find(F);
  return {F->getArg(I), It->second.Params[I]};
}

//===----------------------------------------------------------------------===//
// Blocks and branches
//===----------------------------------------------------------------------===//

BasicBlock *Semantic::createBlock(llvm::StringRef Name) {
  return getFunction()->createBlock(Name);
}

void Semantic::setInsertBlock(BasicBlock *BB) { B.setInsertPoint(BB); }

bool Semantic::isTerminated() const {
  BasicBlock *BB = B.getInsertBlock();
  return BB && BB->getTerminator();
}

void Semantic::br(BasicBlock *Dest) { B.createBr(Dest); }

void Semantic::condBr(Operand Cond, BasicBlock *T, BasicBlock *F,
                      std::optional<int64_t> NumStages, bool DisableLicm) {
  TValue C = toValue(Cond);
  if (C.Ty->isBlock() && C.Ty->getNumElements() != 1)
    error("Boolean value of Tensor with more than one value is ambiguous: "
          "the condition is a block " +
          C.Ty->getName() + ", not a scalar");
  C = unsplat(C); // a one-element block's value, as in Triton
  if (NumStages)
    if (std::string Why = checkNumStages(*NumStages); !Why.empty())
      error(Why);
  Instruction *Br = B.createCondBr(toBool(C).V, T, F);
  if (NumStages)
    Br->setAttr(AttrKey::NumStages, AttrValue::integer(*NumStages));
  if (DisableLicm)
    Br->setAttr(AttrKey::DisableLicm, AttrValue::unit());
}

void Semantic::seal(BasicBlock *BB) {
  FunctionState &S = cur();
  if (S.SSA.isSealed(BB))
    return;
  // The phis read while BB was unsealed assumed the type of what came in
  // first (from before a loop); what comes in over the new edges (a loop's
  // back edge) must have it too. Checked before sealing so the message is
  // in dtypes, not IR types; the entries go first, as sealing may delete
  // the phis.
  llvm::SmallVector<std::pair<DType *, std::string>, 4> Checks;
  for (PhiInst *Phi : BB->phis()) {
    auto It = S.Assumed.find(Phi->getResult());
    if (It == S.Assumed.end())
      continue;
    Checks.push_back(It->second);
    S.Assumed.erase(It);
  }
  for (auto &[Want, Var] : Checks)
    for (BasicBlock *P : BB->predecessors())
      if (DType *Got = S.typeAtEnd(Var, P); Got && Got != Want)
        error("loop-carried " + variableName(Var) + " has type " +
              Want->getName() + " on entry but " + Got->getName() +
              " after an iteration; give it one type (cast with .to())");
  S.SSA.sealBlock(BB);
  checkPhis(BB);
}

void Semantic::ret(llvm::ArrayRef<TValue> Vals) {
  llvm::SmallVector<Value *, 2> Vs;
  for (const TValue &V : Vals)
    Vs.push_back(V.V);
  B.createRet(Vs);
}

//===----------------------------------------------------------------------===//
// Variables
//===----------------------------------------------------------------------===//

void Semantic::writeVar(llvm::StringRef Name, TValue V) {
  FunctionState &S = cur();
  if (!asPhi(V.V))
    DTypes.try_emplace(V.V, V.Ty);
  S.SSA.writeVariable(Name, B.getInsertBlock(), V.V);
  S.DefTypes[Name][B.getInsertBlock()] = V.Ty;
}

std::optional<TValue> Semantic::readVar(llvm::StringRef Name) {
  FunctionState &S = cur();
  BasicBlock *BB = B.getInsertBlock();
  // Writes of different dtypes meeting here are an error in the user's
  // terms (SSA construction would only see different IR types).
  auto Defs = S.DefTypes.find(Name);
  if (Defs != S.DefTypes.end() && !Defs->second.count(BB)) {
    auto [First, Other] = S.reachingTypes(Name, BB);
    if (Other)
      typeClash(*this, Name, First, Other);
  }
  Value *V = S.SSA.readVariable(Name, BB);
  if (!V)
    return std::nullopt;
  PhiInst *Phi = asPhi(V);
  if (!Phi)
    return TValue{V, getDType(V)};
  if (DType *T = inferPhi(Phi, Name))
    return TValue{V, T};
  // Nothing flows in yet (the phi's block, or the blocks before it, are
  // unsealed): the dtype of the writes that reach it so far, which gave the
  // phi its IR type.
  DType *T = S.typeAtEnd(Name, BB);
  if (!T || T->toIR(getContext()) != V->getType())
    T = DType::fromIR(V->getType());
  if (!S.SSA.isSealed(Phi->getParent()))
    S.Assumed[V] = {T, Name.str()};
  return TValue{V, T};
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

std::vector<TValue> Semantic::call(Function *Callee,
                                   llvm::ArrayRef<TValue> Args) {
  auto It = Signatures.find(Callee);
  const Signature *Sig = It == Signatures.end() ? nullptr : &It->second;
  if (Sig && Sig->Params.size() == Args.size())
    for (unsigned I = 0; I < Args.size(); ++I)
      if (Args[I].Ty != Sig->Params[I])
        error("call to '" + Callee->getName() + "': argument " +
              llvm::Twine(I) + " has type " + Args[I].Ty->getName() +
              ", expected " + Sig->Params[I]->getName());
  llvm::SmallVector<Value *, 8> Vs;
  for (const TValue &A : Args)
    Vs.push_back(A.V);
  llvm::SmallVector<Value *, 2> Rs = B.createCall(Callee, Vs);
  std::vector<TValue> Out;
  for (unsigned I = 0; I < Rs.size(); ++I) {
    bool Known = Sig && Sig->Results.size() == Rs.size();
    Out.push_back(make(Rs[I], Known ? Sig->Results[I]
                                    : DType::fromIR(Rs[I]->getType())));
  }
  return Out;
}
