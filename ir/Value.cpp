//===- Value.cpp - SSA values and use lists -------------------------------===//

#include "ir/Value.h"
#include "ir/BasicBlock.h"
#include "ir/Instruction.h"

using namespace tritium;

//===----------------------------------------------------------------------===//
// Use
//===----------------------------------------------------------------------===//

unsigned Use::getOperandNo() const {
  return unsigned(this - User->Operands.get());
}

void Use::addToList(Use **List) {
  Next = *List;
  if (Next)
    Next->Prev = &Next;
  Prev = List;
  *List = this;
}

void Use::removeFromList() {
  *Prev = Next;
  if (Next)
    Next->Prev = Prev;
  Next = nullptr;
  Prev = nullptr;
}

void Use::set(Value *V) {
  if (Val)
    removeFromList();
  Val = V;
  if (V)
    addToList(&V->FirstUse);
}

//===----------------------------------------------------------------------===//
// Value
//===----------------------------------------------------------------------===//

Value::~Value() {
  assert(use_empty() && "deleting a value that still has uses");
}

Instruction *Value::getDefiningInstruction() const {
  if (auto *R = llvm::dyn_cast<Result>(this))
    return R->getOwner();
  return nullptr;
}

Function *Value::getFunction() const {
  if (auto *A = llvm::dyn_cast<Argument>(this))
    return A->getParent();
  return getDefiningInstruction()->getFunction();
}

unsigned Value::getNumUses() const {
  return unsigned(std::distance(uses().begin(), uses().end()));
}

llvm::SmallVector<Instruction *, 4> Value::getUsers() const {
  return llvm::to_vector<4>(llvm::map_range(uses(), [](Use &U) { return U.getUser(); }));
}

void Value::replaceAllUsesWith(Value *New) {
  assert(New != this && "replacing a value with itself");
  while (FirstUse)
    FirstUse->set(New);
}

void Value::printAsOperand(llvm::raw_ostream &OS) const {
  if (hasName())
    OS << '%' << Name;
  else
    OS << '%' << Id;
}

void Value::print(llvm::raw_ostream &OS) const {
  if (Instruction *I = getDefiningInstruction()) {
    I->print(OS);
    return;
  }
  printAsOperand(OS);
  OS << ": " << *Ty;
}
