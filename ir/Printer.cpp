//===- Printer.cpp - The text form of the IR ------------------------------===//
//
// Every instruction prints in one generic shape:
//
//   [results =] opcode [lead] operands [blocks] [{attrs}] [: types] [loc(..)]
//
// where `lead` is the one attribute some opcodes show as a bare word or
// literal (icmp's predicate, atomic_rmw's kind, constant's value). phi and
// call have their own operand syntax.
//
//===----------------------------------------------------------------------===//

#include "ir/Printer.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/Module.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace tritium;

namespace {

bool isIdentifier(llvm::StringRef S) {
  if (S.empty() || !(llvm::isAlpha(S[0]) || S[0] == '_'))
    return false;
  return llvm::all_of(S, [](char C) {
    return llvm::isAlnum(C) || C == '_' || C == '.';
  });
}

/// Decides how each value and block of one function prints.
class SlotTracker {
public:
  explicit SlotTracker(const Function *F) {
    if (!F)
      return;
    const_cast<Function *>(F)->renumber();
    llvm::StringSet<> Used, UsedBlocks;
    for (Argument *A : F->args())
      nameValue(A, Used);
    for (const BasicBlock &B : *F) {
      if (B.hasName() && isIdentifier(B.getName()) &&
          !looksNumbered(B.getName()) &&
          UsedBlocks.insert(B.getName()).second)
        BlockNames[&B] = B.getName().str();
      for (const Instruction &I : B)
        for (unsigned R = 0; R < I.getNumResults(); ++R)
          nameValue(I.getResult(R), Used);
    }
  }

  void printValue(llvm::raw_ostream &OS, const Value *V) const {
    if (!V) {
      OS << "<null>";
      return;
    }
    auto It = Names.find(V);
    if (It != Names.end())
      OS << '%' << It->second;
    else
      OS << '%' << V->getId();
  }

  void printBlock(llvm::raw_ostream &OS, const BasicBlock *B) const {
    if (!B) {
      OS << "<null>";
      return;
    }
    auto It = BlockNames.find(B);
    if (It != BlockNames.end())
      OS << It->second;
    else
      OS << "bb" << B->getId();
  }

private:
  void nameValue(const Value *V, llvm::StringSet<> &Used) {
    if (V->hasName() && isIdentifier(V->getName()) &&
        Used.insert(V->getName()).second)
      Names[V] = V->getName().str();
  }

  llvm::DenseMap<const Value *, std::string> Names;
  llvm::DenseMap<const BasicBlock *, std::string> BlockNames;
};

void printLoc(llvm::raw_ostream &OS, const Loc &L) {
  OS << " loc(";
  printQuoted(OS, L.File);
  OS << ':' << L.Line << ':' << L.Col << ')';
}

void printInst(const Instruction &I, llvm::raw_ostream &OS,
               const SlotTracker &Slots, const PrintOptions &Opts) {
  for (unsigned R = 0; R < I.getNumResults(); ++R) {
    if (R)
      OS << ", ";
    Slots.printValue(OS, I.getResult(R));
  }
  if (I.getNumResults())
    OS << " = ";
  OS << I.getOpcodeName();

  std::optional<AttrKey> Lead = getLeadAttr(I.getOpcode());
  if (Lead)
    for (const Attribute &A : I.getAttrs())
      if (A.Key == *Lead) {
        OS << ' ';
        printAttrValue(OS, A);
      }

  if (auto *Phi = llvm::dyn_cast<PhiInst>(&I)) {
    for (unsigned K = 0; K < Phi->getNumOperands(); ++K) {
      OS << (K ? ", [" : " [");
      Slots.printValue(OS, Phi->getOperand(K));
      OS << ", ";
      Slots.printBlock(OS, K < Phi->getNumBlockOperands()
                               ? Phi->getBlockOperand(K)
                               : nullptr);
      OS << ']';
    }
  } else if (I.getOpcode() == Opcode::Call) {
    OS << " @" << llvm::cast<CallInst>(I).getCallee() << '(';
    llvm::interleaveComma(I.getOperands(), OS, [&](Value *V) { Slots.printValue(OS, V); });
    OS << ')';
  } else {
    if (I.getNumOperands() || I.getNumBlockOperands())
      OS << ' ';
    llvm::ListSeparator Sep;
    for (Value *V : I.getOperands())
      Slots.printValue(OS << Sep, V);
    for (BasicBlock *B : I.getBlockOperands())
      Slots.printBlock(OS << Sep, B);
  }

  bool Open = false;
  for (const Attribute &A : I.getAttrs()) {
    if (A.Key == Lead || (A.Key == AttrKey::Callee && I.getOpcode() == Opcode::Call))
      continue; // printed before the operands
    OS << (Open ? ", " : " {") << getAttrKeyName(A.Key);
    Open = true;
    if (A.Val.K != AttrValue::Kind::Unit) {
      OS << '=';
      printAttrValue(OS, A);
    }
  }
  if (Open)
    OS << '}';

  if (I.getNumResults()) {
    OS << " : ";
    printTypeList(OS, I.getResultTypes());
  }
  if (Opts.PrintLocs && I.getLoc().isKnown())
    printLoc(OS, I.getLoc());
}

void printBlockWith(const BasicBlock &B, llvm::raw_ostream &OS,
                    const SlotTracker &Slots, const PrintOptions &Opts) {
  Slots.printBlock(OS, &B);
  OS << ":\n";
  for (const Instruction &I : B) {
    OS << "  ";
    printInst(I, OS, Slots, Opts);
    OS << '\n';
  }
}

void printArgAttrs(llvm::raw_ostream &OS, const ArgAttrs &A) {
  if (A.empty())
    return;
  llvm::SmallVector<std::string, 4> Parts;
  if (A.Divisibility)
    Parts.push_back("divisibility=" + std::to_string(A.Divisibility));
  if (A.EqualTo1)
    Parts.push_back("equal_to_1");
  if (A.ConstantValue)
    Parts.push_back("constant=" + std::to_string(*A.ConstantValue));
  if (A.NoAlias)
    Parts.push_back("noalias");
  if (A.TensorMap)
    Parts.push_back("tensormap");
  OS << " {" << llvm::join(Parts, ", ") << '}';
}

} // namespace

bool tritium::looksNumbered(llvm::StringRef Label) {
  return Label.size() > 2 && Label.startswith("bb") &&
         llvm::all_of(Label.drop_front(2), llvm::isDigit);
}

std::optional<AttrKey> tritium::getLeadAttr(Opcode Op) {
  switch (Op) {
  case Opcode::Constant: return AttrKey::Value;
  case Opcode::ICmp: return AttrKey::IPredicate;
  case Opcode::FCmp: return AttrKey::FPredicate;
  case Opcode::AtomicRMW: return AttrKey::RMWKind;
  default: return std::nullopt;
  }
}

void tritium::printFunction(const Function &F, llvm::raw_ostream &OS,
                            const PrintOptions &Opts) {
  SlotTracker Slots(&F);
  OS << (F.isKernel() ? "kernel " : "func ");
  if (F.isNoInline())
    OS << "noinline ";
  OS << '@' << F.getName() << '(';
  for (Argument *A : F.args()) {
    if (A->getArgNo())
      OS << ", ";
    Slots.printValue(OS, A);
    OS << ": " << *A->getType();
    printArgAttrs(OS, A->getAttrs());
  }
  OS << ')';
  if (!F.getResultTypes().empty()) {
    OS << " -> ";
    printResultTypes(OS, F.getResultTypes());
  }
  OS << " {\n";
  for (const BasicBlock &B : F)
    printBlockWith(B, OS, Slots, Opts);
  OS << "}\n";
}

void tritium::printModule(const Module &M, llvm::raw_ostream &OS,
                          const PrintOptions &Opts) {
  bool First = true;
  for (Function *F : M.functions()) {
    if (!First)
      OS << '\n';
    First = false;
    printFunction(*F, OS, Opts);
  }
}

void tritium::printBlock(const BasicBlock &B, llvm::raw_ostream &OS,
                         const PrintOptions &Opts) {
  SlotTracker Slots(B.getParent());
  printBlockWith(B, OS, Slots, Opts);
}

void tritium::printInstruction(const Instruction &I, llvm::raw_ostream &OS,
                               const PrintOptions &Opts) {
  SlotTracker Slots(I.getFunction());
  printInst(I, OS, Slots, Opts);
}
