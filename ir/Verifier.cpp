//===- Verifier.cpp - Checking a module's invariants ----------------------===//
//
// The invariants every pass may assume and must keep. The verifier checks
// all of them and reports every violation, not just the first, each as
//
//   in @fn, bb2, '%5 = add %3, %4 : i32': operand %4 does not dominate this use
//
// naming the function, the block and the printed instruction with the ids
// the printer uses. Messages about a whole function or one of its arguments
// stop at `in @fn` or `in @fn, argument %a`.
//
// Function
//   F1  It has at least one block; the first is the entry.
//   F2  The entry block has no predecessors and no phis.
//   F3  A kernel returns nothing.
//   F4  Argument attributes fit the argument's type: divisibility is a
//       positive power of two, on an integer or pointer; equal_to_1 and
//       constant only on integers, the constant fitting the width; noalias
//       only on pointers; tensormap only on a kernel's ptr<i8>, with no
//       other attribute (its lowering passes it by value).
//   F5  No argument or result has type void.
//   F6  A kernel's arguments are not memdescs (shared memory is the
//       kernel's own).
// Block
//   B1  It ends with exactly one terminator and has none elsewhere.
//   B2  Phis come before every other instruction.
//   B3  A phi's incoming blocks are the block's predecessors as a multiset
//       (a block branching here twice appears twice), and the edges from one
//       block carry the same value.
// Instruction
//   I1  checkTypes() holds: the type rules of its family (Instructions.cpp).
//   I2  Every operand is an argument of this function or a result of an
//       instruction in one of its blocks.
//   I3  Every block operand (branch target, phi incoming block) is a block of
//       this function.
//   I4  Every definition dominates its uses. A phi uses an operand at the end
//       of the corresponding incoming block. Uses in blocks unreachable from
//       the entry are not checked, as nothing there runs.
//   I5  `ret` returns values of the function's result types.
//   I6  `call` names a function of the module that is not a kernel; the
//       argument and result types match its signature.
//   I7  The `combine` function of a reduce or scan over N operands with
//       element types E0..EN-1 exists, is not a kernel and has the type
//       (E0, .., EN-1, E0, .., EN-1) -> (E0, .., EN-1).
//   I8  An `extern_elementwise` symbol does not name a function of the
//       module nor start with `llvm.`, and all uses of one symbol in the
//       module have one signature (operand and result element types).
//   I9  `local_dealloc` frees what a `local_alloc` returned.
// Module
//   M1  No function name starts with `llvm.` (LLVM's intrinsics).
//
// I5 to I9 are checked only on instructions that pass I1. Not required:
// unique value or block names (the printer falls back to ids), the cached
// predecessor lists (kept up to date by the IR itself), absence of
// recursion.
//
//===----------------------------------------------------------------------===//

#include "ir/Verifier.h"
#include "ir/Diagnostics.h"
#include "ir/Dominance.h"
#include "ir/Instructions.h"
#include "ir/Module.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

using namespace tritium;

namespace {

std::string plural(size_t N, const char *What) {
  return std::to_string(N) + " " + What + (N == 1 ? "" : "s");
}

std::string typeStr(const Type *T) { return T->str(); }

llvm::SmallVector<Type *, 4> getTypes(llvm::ArrayRef<Value *> Vs) {
  return llvm::to_vector<4>(llvm::map_range(Vs, [](Value *V) { return V->getType(); }));
}

std::string resultsStr(llvm::ArrayRef<Type *> Types) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  printResultTypes(OS, Types);
  return S;
}

/// The signature of each extern_elementwise symbol seen so far in the
/// module (I8): the first use's.
using ExternSignatures = llvm::StringMap<std::string>;

class FunctionVerifier {
public:
  FunctionVerifier(const Function &F, std::vector<std::string> &Errors,
                   ExternSignatures &Externs)
      : F(F), Errors(Errors), Externs(Externs), DT(F) {}

  void run();

private:
  void verifyArgument(const Argument &A);
  void verifyBlock(const BasicBlock &B);
  void verifyPhiEdges(const PhiInst &Phi);
  void verifyOperands(const Instruction &I);
  void verifyCall(const CallInst &I);
  /// \p Got against \p Want, the types \p Owner takes or returns: "'op'
  /// <Counting> N <Noun>s, but @owner <Verb> M", or "'op' <Noun> K has type
  /// T, but @owner <Verb> U" for each that differs.
  void verifySignature(const Instruction &I, llvm::ArrayRef<Type *> Got,
                       llvm::ArrayRef<Type *> Want, const Function &Owner,
                       const char *Counting, const char *Noun, const char *Verb);
  /// The function of the module \p I calls by \p Name (its \p What: callee,
  /// combine function), or null when there is none or it is a kernel
  /// (reported, the kernel case with \p KernelWhy after it).
  Function *calledFunction(const Instruction &I, llvm::StringRef Name,
                           const char *What, const char *KernelWhy = "");
  /// Reports unless \p Fn (\p I's \p What) has type \p Want.
  void verifyCalleeType(const Instruction &I, const Function &Fn, const char *What,
                        FunctionType *Want);
  void verifyCombine(const CombineInstBase &I);
  void verifyMap(const MapElementwiseInst &I);
  void verifyExtern(const ExternElementwiseInst &I);

  /// Records "in @fn[, block[, 'inst']]: Msg".
  void report(const BasicBlock *B, const Instruction *I, const llvm::Twine &Msg);
  void report(const Instruction &I, const llvm::Twine &Msg) {
    report(I.getParent(), &I, Msg);
  }
  /// \p X (a value or a block) as the printer shows it in an operand list.
  template <typename T> static std::string str(const T *X) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    X->printAsOperand(OS);
    return S;
  }

  const Function &F;
  std::vector<std::string> &Errors;
  ExternSignatures &Externs;
  DominatorTree DT;
  /// Predecessor edges computed from the terminators, one entry per edge.
  llvm::DenseMap<const BasicBlock *, llvm::SmallVector<const BasicBlock *, 2>>
      Preds;
};

void FunctionVerifier::report(const BasicBlock *B, const Instruction *I,
                              const llvm::Twine &Msg) {
  std::string S;
  llvm::raw_string_ostream OS(S);
  OS << "in @" << F.getName();
  if (B)
    OS << ", " << str(B);
  if (I)
    OS << ", '" << *I << "'";
  OS << ": " << Msg;
  Errors.push_back(std::move(S));
}

void FunctionVerifier::run() {
  // Messages print values and blocks by id.
  const_cast<Function &>(F).renumber();

  if (F.getName().startswith("llvm."))
    report(nullptr, nullptr, "function names starting with 'llvm.' are LLVM's intrinsics");
  for (const Argument *A : F.args())
    verifyArgument(*A);
  for (Type *T : F.getResultTypes())
    if (T->isVoid())
      report(nullptr, nullptr, "a function returns no void values (write no result type)");
  if (F.isKernel() && !F.getResultTypes().empty())
    report(nullptr, nullptr,
           "a kernel returns nothing, but its type returns " +
               resultsStr(F.getResultTypes()));
  if (F.empty()) {
    report(nullptr, nullptr, "function has no blocks");
    return;
  }

  for (const BasicBlock &B : F)
    if (Instruction *T = B.getTerminator())
      for (BasicBlock *S : T->getBlockOperands())
        if (S && S->getParent() == &F)
          Preds[S].push_back(&B);

  const BasicBlock &Entry = F.front();
  llvm::SmallPtrSet<const BasicBlock *, 4> Reported;
  for (const BasicBlock *P : Preds.lookup(&Entry))
    if (Reported.insert(P).second)
      report(&Entry, nullptr, "the entry block has a predecessor, " + str(P));

  for (const BasicBlock &B : F)
    verifyBlock(B);
}

void FunctionVerifier::verifyArgument(const Argument &A) {
  const ArgAttrs &At = A.getAttrs();
  Type *T = A.getType();
  auto Bad = [&](const llvm::Twine &Msg) {
    Errors.push_back(("in @" + F.getName() + ", argument " + str(&A) + ": " +
                      Msg)
                         .str());
  };
  if (T->isVoid())
    Bad("an argument cannot be void");
  if (T->isMemDesc() && F.isKernel())
    Bad("a kernel's argument cannot be a memdesc (shared memory is the kernel's own)");
  if (At.Divisibility) {
    if (!T->isInt() && !T->isPointer())
      Bad("divisibility applies to integers and pointers, not " + typeStr(T));
    else if (At.Divisibility < 0 || !llvm::isPowerOf2_64(At.Divisibility))
      Bad("divisibility " + llvm::Twine(At.Divisibility) +
          " is not a positive power of two");
  }
  if (At.EqualTo1 && !T->isInt())
    Bad("equal_to_1 applies to integers, not " + typeStr(T));
  if (At.ConstantValue) {
    // Like the `constant` opcode: the signed or the unsigned range.
    if (!T->isInt())
      Bad("constant applies to integers, not " + typeStr(T));
    else if (!llvm::cast<IntType>(T)->fits(*At.ConstantValue))
      Bad("constant " + llvm::Twine(*At.ConstantValue) + " does not fit in " + typeStr(T));
  }
  if (At.NoAlias && !T->isPointer())
    Bad("noalias applies to pointers, not " + typeStr(T));
  if (At.TensorMap) {
    ArgAttrs Plain;
    Plain.TensorMap = true;
    if (!F.isKernel() || T != PointerType::get(Type::getI8(T->getContext()), PointerType::Global))
      Bad("tensormap applies to a kernel's ptr<i8>, not " + typeStr(T));
    else if (!(At == Plain))
      Bad("a tensormap argument takes no other attribute");
  }
}

void FunctionVerifier::verifyBlock(const BasicBlock &B) {
  const Instruction *Term = B.getTerminator();
  if (!Term)
    report(&B, nullptr, "block does not end with a terminator");

  bool SeenNonPhi = false;
  for (const Instruction &I : B) {
    if (I.isTerminator() && &I != Term)
      report(I, "terminator in the middle of a block");
    if (auto *Phi = llvm::dyn_cast<PhiInst>(&I)) {
      if (&B == &F.front()) {
        // Its edges would only repeat the entry's predecessor message.
        report(I, "the entry block cannot have phis");
      } else {
        if (SeenNonPhi)
          report(I, "phi after a non-phi instruction; phis come first");
        verifyPhiEdges(*Phi);
      }
    } else {
      SeenNonPhi = true;
    }

    std::string TypeErr = I.checkTypes();
    if (!TypeErr.empty())
      report(I, TypeErr);
    verifyOperands(I);
    if (!TypeErr.empty())
      continue;
    if (I.getOpcode() == Opcode::Ret)
      // A kernel's type returning values is reported once, for the function.
      verifySignature(I, getTypes(I.getOperands()),
                      F.isKernel() ? llvm::ArrayRef<Type *>() : F.getResultTypes(), F,
                      "returns", "value", "returns");
    else if (auto *Call = llvm::dyn_cast<CallInst>(&I))
      verifyCall(*Call);
    else if (auto *C = llvm::dyn_cast<CombineInstBase>(&I))
      verifyCombine(*C);
    else if (auto *Map = llvm::dyn_cast<MapElementwiseInst>(&I))
      verifyMap(*Map);
    else if (auto *E = llvm::dyn_cast<ExternElementwiseInst>(&I))
      verifyExtern(*E);
    else if (auto *D = llvm::dyn_cast<LocalDeallocInst>(&I)) {
      const Instruction *Def = D->getMemDesc()->getDefiningInstruction();
      if (!Def || Def->getOpcode() != Opcode::LocalAlloc)
        report(I, "'local_dealloc' frees what a 'local_alloc' returned");
    }
  }
}

void FunctionVerifier::verifyExtern(const ExternElementwiseInst &I) {
  llvm::StringRef Sym = I.getSymbol();
  if (Sym.startswith("llvm."))
    return report(I, "symbol '" + Sym + "' is an LLVM intrinsic, not a library function");
  if (F.getParent() && F.getParent()->getFunction(Sym))
    return report(I, "symbol '" + Sym + "' names a function of this module, not a library one");
  std::string Sig;
  llvm::raw_string_ostream OS(Sig);
  OS << '(';
  for (unsigned K = 0; K < I.getNumOperands(); ++K)
    OS << (K ? ", " : "") << typeStr(I.getOperand(K)->getType()->getScalarType());
  OS << ") -> " << typeStr(I.getResult(0)->getType()->getScalarType());
  auto [It, New] = Externs.try_emplace(Sym, OS.str());
  if (!New && It->second != OS.str())
    report(I, "symbol '" + Sym + "' is used as " + OS.str() + " here but as " + It->second +
                  " elsewhere in the module");
}

void FunctionVerifier::verifyPhiEdges(const PhiInst &Phi) {
  // Edges per block: (from the CFG, in the phi), in a deterministic order.
  llvm::MapVector<const BasicBlock *, std::pair<unsigned, unsigned>> Edges;
  for (const BasicBlock *P : Preds.lookup(Phi.getParent()))
    ++Edges[P].first;
  llvm::DenseMap<const BasicBlock *, Value *> ValueFrom;
  llvm::SmallPtrSet<const BasicBlock *, 4> Conflicting;
  unsigned N = std::min(Phi.getNumOperands(), Phi.getNumBlockOperands());
  for (unsigned K = 0; K < N; ++K) {
    const BasicBlock *In = Phi.getIncomingBlock(K);
    if (!In || In->getParent() != &F)
      continue; // reported as a block operand
    ++Edges[In].second;
    auto [It, New] = ValueFrom.insert({In, Phi.getIncomingValue(K)});
    if (!New && It->second != Phi.getIncomingValue(K) &&
        Conflicting.insert(In).second)
      report(Phi, "phi has different incoming values for " + str(In));
  }
  for (auto &[Block, Count] : Edges) {
    auto [FromCFG, InPhi] = Count;
    if (FromCFG == InPhi)
      continue;
    if (InPhi == 0)
      report(Phi, "phi has no incoming value for predecessor " + str(Block));
    else if (FromCFG == 0)
      report(Phi, "phi has an incoming value for " + str(Block) +
                      ", which is not a predecessor");
    else
      report(Phi, "phi has " + plural(InPhi, "incoming value") + " for " +
                      str(Block) + ", which branches here " +
                      plural(FromCFG, "time"));
  }
}

void FunctionVerifier::verifyOperands(const Instruction &I) {
  auto *Phi = llvm::dyn_cast<PhiInst>(&I);
  // Nothing in an unreachable block runs, so its uses need no dominance.
  bool CheckDominance = DT.isReachable(I.getParent());
  for (unsigned K = 0; K < I.getNumBlockOperands(); ++K) {
    const BasicBlock *B = I.getBlockOperand(K);
    if (B && B->getParent() != &F)
      report(I, "block operand " + llvm::Twine(K) +
                    " is not a block of this function");
  }
  for (unsigned K = 0; K < I.getNumOperands(); ++K) {
    const Value *V = I.getOperand(K);
    if (!V)
      continue; // reported by checkTypes
    const Function *Owner = V->getFunction();
    if (Owner != &F) {
      if (Owner)
        report(I, "operand " + llvm::Twine(K) +
                      " is defined in another function, @" + Owner->getName());
      else
        report(I, "operand " + llvm::Twine(K) +
                      " is defined by an instruction that is in no function");
      continue;
    }
    if (!CheckDominance)
      continue;
    if (!Phi) {
      // Renumbering made instruction ids follow block order, so a same-block
      // definition must have the smaller id; this keeps the check linear.
      const Instruction *Def = V->getDefiningInstruction();
      bool OK = Def && Def->getParent() == I.getParent()
                    ? Def->getId() < I.getId()
                    : DT.dominates(V, &I);
      if (!OK)
        report(I, "operand " + str(V) + " does not dominate this use");
      continue;
    }
    if (K >= Phi->getNumBlockOperands())
      continue; // reported by checkTypes
    const BasicBlock *In = Phi->getIncomingBlock(K);
    if (!In || In->getParent() != &F || !DT.isReachable(In))
      continue;
    if (!DT.dominatesEdgeUse(V, In))
      report(I, "incoming value " + str(V) + " does not dominate the end of " +
                    str(In));
  }
}

void FunctionVerifier::verifySignature(const Instruction &I, llvm::ArrayRef<Type *> Got,
                                       llvm::ArrayRef<Type *> Want, const Function &Owner,
                                       const char *Counting, const char *Noun,
                                       const char *Verb) {
  std::string Op = "'" + I.getOpcodeName().str() + "' ";
  std::string Name = "@" + Owner.getName().str();
  if (Got.size() != Want.size())
    return report(I, Op + Counting + " " + plural(Got.size(), Noun) + ", but " + Name + " " +
                         Verb + " " + llvm::Twine(Want.size()));
  for (unsigned K = 0; K < Want.size(); ++K)
    if (Got[K] != Want[K])
      report(I, Op + Noun + " " + llvm::Twine(K) + " has type " + typeStr(Got[K]) + ", but " +
                    Name + " " + Verb + " " + typeStr(Want[K]));
}

Function *FunctionVerifier::calledFunction(const Instruction &I, llvm::StringRef Name,
                                           const char *What, const char *KernelWhy) {
  Module *M = F.getParent();
  Function *Fn = M ? M->getFunction(Name) : nullptr;
  std::string Callee = "'" + I.getOpcodeName().str() + "' " + What + " @" + Name.str();
  if (!Fn)
    report(I, Callee + " is not a function of the module");
  else if (Fn->isKernel())
    report(I, Callee + " is a kernel" + KernelWhy);
  return Fn && !Fn->isKernel() ? Fn : nullptr;
}

void FunctionVerifier::verifyCalleeType(const Instruction &I, const Function &Fn,
                                        const char *What, FunctionType *Want) {
  if (Fn.getFunctionType() != Want)
    report(I, "'" + I.getOpcodeName() + "' " + What + " @" + Fn.getName() + " must have type " +
                  typeStr(Want) + ", got " + typeStr(Fn.getFunctionType()));
}

void FunctionVerifier::verifyCall(const CallInst &I) {
  Function *Callee =
      calledFunction(I, I.getCallee(), "callee", ", which only the host can launch");
  if (!Callee)
    return;
  verifySignature(I, getTypes(I.getOperands()), Callee->getFunctionType()->getParams(), *Callee,
                  "passes", "argument", "takes");
  verifySignature(I, getTypes(I.getResults()), Callee->getResultTypes(), *Callee, "defines",
                  "result", "returns");
}

void FunctionVerifier::verifyCombine(const CombineInstBase &I) {
  if (I.getKind())
    return; // a built-in combine
  Function *Fn = calledFunction(I, I.getCombine(), "combine function");
  if (!Fn)
    return;
  llvm::SmallVector<Type *, 4> Elems, Params;
  for (const Value *V : I.getOperands())
    Elems.push_back(V->getType()->getScalarType());
  Params.append(Elems.begin(), Elems.end());
  Params.append(Elems.begin(), Elems.end());
  verifyCalleeType(I, *Fn, "combine function", FunctionType::get(F.getContext(), Params, Elems));
}

void FunctionVerifier::verifyMap(const MapElementwiseInst &I) {
  Function *Fn = calledFunction(I, I.getCallee(), "callee");
  if (!Fn)
    return;
  // pack elements of each operand, then of each result, in order.
  auto Repeat = [&](auto Values) {
    llvm::SmallVector<Type *, 8> Out;
    for (const Value *V : Values)
      Out.append(size_t(I.getPack()), V->getType()->getScalarType());
    return Out;
  };
  verifyCalleeType(I, *Fn, "callee",
                   FunctionType::get(F.getContext(), Repeat(I.getOperands()),
                                     Repeat(I.getResults())));
}

} // namespace

std::vector<std::string> tritium::verifyFunction(const Function &F) {
  std::vector<std::string> Errors;
  ExternSignatures Externs;
  FunctionVerifier(F, Errors, Externs).run();
  return Errors;
}

std::vector<std::string> tritium::verifyModule(const Module &M) {
  std::vector<std::string> Errors;
  ExternSignatures Externs;
  for (const Function *F : M.functions())
    FunctionVerifier(*F, Errors, Externs).run();
  return Errors;
}

void tritium::verifyModuleOrThrow(const Module &M) {
  std::vector<std::string> Errors = verifyModule(M);
  if (!Errors.empty())
    throw CompileError(llvm::join(Errors, "\n"));
}
