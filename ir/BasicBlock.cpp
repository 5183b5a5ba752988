//===- BasicBlock.cpp - Basic blocks and their edges ----------------------===//

#include "ir/BasicBlock.h"
#include "ir/Function.h"
#include "ir/Instructions.h"
#include "ir/Printer.h"

using namespace tritium;

BasicBlock::~BasicBlock() {
  assert(!Parent && "deleting a block still in a function");
  // Without their block operands, terminators leave no edges to undo.
  for (Instruction &I : Insts)
    I.dropAllReferences();
  while (!Insts.empty())
    delete remove(&Insts.back());
}

Instruction *BasicBlock::getTerminator() const {
  if (Insts.empty() || !Insts.back().isTerminator())
    return nullptr;
  return const_cast<Instruction *>(&Insts.back());
}

BasicBlock::iterator BasicBlock::getFirstNonPhi() {
  iterator It = begin();
  while (It != end() && It->getOpcode() == Opcode::Phi)
    ++It;
  return It;
}

llvm::SmallVector<PhiInst *, 4> BasicBlock::phis() {
  llvm::SmallVector<PhiInst *, 4> Phis;
  for (Instruction &I : Insts) {
    auto *P = llvm::dyn_cast<PhiInst>(&I);
    if (!P)
      break;
    Phis.push_back(P);
  }
  return Phis;
}

BasicBlock::iterator BasicBlock::insert(iterator Pos, Instruction *I) {
  assert(!I->getParent() && "instruction already in a block");
  iterator It = Insts.insert(Pos, I);
  I->setParent(this);
  if (I->isTerminator())
    for (BasicBlock *S : I->getBlockOperands())
      if (S)
        S->addPredecessor(this);
  return It;
}

Instruction *BasicBlock::remove(Instruction *I) {
  assert(I->getParent() == this && "instruction is not in this block");
  if (I->isTerminator())
    for (BasicBlock *S : I->getBlockOperands())
      if (S)
        S->removePredecessor(this);
  Insts.remove(I);
  I->setParent(nullptr);
  return I;
}

void BasicBlock::erase(Instruction *I) {
  assert(I->use_empty() && "erasing an instruction whose results are used");
  delete remove(I);
}

void BasicBlock::removePredecessor(BasicBlock *B) {
  auto It = llvm::find(Preds, B);
  assert(It != Preds.end() && "not a predecessor");
  Preds.erase(It);
}

llvm::SmallVector<BasicBlock *, 2> BasicBlock::successors() const {
  if (Instruction *T = getTerminator())
    return llvm::SmallVector<BasicBlock *, 2>(T->getBlockOperands());
  return {};
}

void BasicBlock::moveAfter(BasicBlock *Other) {
  Function *F = Other->getParent();
  assert(F == Parent && "blocks of different functions");
  F->remove(this);
  F->insert(std::next(Other->getIterator()), this);
}

void BasicBlock::moveBefore(BasicBlock *Other) {
  Function *F = Other->getParent();
  assert(F == Parent && "blocks of different functions");
  F->remove(this);
  F->insert(Other->getIterator(), this);
}

void BasicBlock::eraseFromParent() {
  assert(Parent && "block is not in a function");
  Parent->erase(this);
}

BasicBlock *BasicBlock::splitAt(iterator Pos, llvm::StringRef Name) {
  auto *New = new BasicBlock(Name);
  Parent->insert(std::next(getIterator()), New);
  // The terminator moves with a non-empty tail, so the old successors'
  // predecessor lists change from this block to the new one. An empty tail
  // (Pos == end()) leaves the terminator and its edges here.
  llvm::SmallVector<BasicBlock *, 2> OldSuccs;
  if (Pos != end())
    OldSuccs = successors();
  while (Pos != end()) {
    Instruction *I = &*Pos++;
    remove(I);
    New->push_back(I);
  }
  for (BasicBlock *S : OldSuccs)
    for (PhiInst *P : S->phis())
      for (unsigned K = 0; K < P->getNumIncoming(); ++K)
        if (P->getIncomingBlock(K) == this)
          P->setBlockOperand(K, New);
  return New;
}

void BasicBlock::print(llvm::raw_ostream &OS) const { printBlock(*this, OS); }

void BasicBlock::printAsOperand(llvm::raw_ostream &OS) const {
  if (hasName())
    OS << Name;
  else
    OS << "bb" << Id;
}
