//===- Function.cpp - Functions, arguments and numbering ------------------===//

#include "ir/Function.h"
#include "ir/Module.h"
#include "ir/Printer.h"

using namespace tritium;

Function::Function(Module *Parent, llvm::StringRef Name, FunctionType *Ty)
    : Parent(Parent), Name(Name.str()), Ty(Ty) {
  for (unsigned I = 0; I < Ty->getParams().size(); ++I)
    Args.push_back(std::make_unique<Argument>(Ty->getParams()[I], this, I));
}

Function::~Function() {
  // Break every reference first so blocks can go in any order.
  for (BasicBlock &B : Blocks)
    for (Instruction &I : B)
      I.dropAllReferences();
  while (!Blocks.empty())
    delete remove(&Blocks.back());
}

Argument *Function::addArgument(Type *T, llvm::StringRef Name) {
  llvm::SmallVector<Type *, 8> Params(Ty->getParams().begin(), Ty->getParams().end());
  Params.push_back(T);
  Ty = FunctionType::get(getContext(), Params, Ty->getResults());
  Args.push_back(std::make_unique<Argument>(T, this, unsigned(Args.size())));
  Args.back()->setName(Name);
  return Args.back().get();
}

llvm::SmallVector<Argument *, 8> Function::args() const {
  return llvm::to_vector<8>(llvm::map_range(Args, [](auto &A) { return A.get(); }));
}

BasicBlock *Function::createBlock(llvm::StringRef Name) {
  auto *B = new BasicBlock(Name);
  push_back(B);
  return B;
}

Function::iterator Function::insert(iterator Pos, BasicBlock *B) {
  assert(!B->getParent() && "block already in a function");
  B->setParent(this);
  return Blocks.insert(Pos, B);
}

BasicBlock *Function::remove(BasicBlock *B) {
  assert(B->getParent() == this && "block is not in this function");
  Blocks.remove(B);
  B->setParent(nullptr);
  return B;
}

void Function::erase(BasicBlock *B) {
  // Its terminator's edges go away with it.
  if (Instruction *T = B->getTerminator())
    for (unsigned I = 0; I < T->getNumBlockOperands(); ++I)
      T->setBlockOperand(I, nullptr);
  delete remove(B);
}

void Function::renumber() {
  unsigned V = 0, I = 0, B = 0;
  for (auto &A : Args)
    A->setId(V++);
  for (BasicBlock &BB : Blocks) {
    BB.setId(B++);
    for (Instruction &In : BB) {
      In.setId(I++);
      for (unsigned R = 0; R < In.getNumResults(); ++R)
        In.getResult(R)->setId(V++);
    }
  }
  NumValueIds = V;
  NumInstIds = I;
  NumBlockIds = B;
}

void Function::print(llvm::raw_ostream &OS) const { printFunction(*this, OS); }

std::string Function::str() const {
  std::string S;
  llvm::raw_string_ostream OS(S);
  print(OS);
  return S;
}
