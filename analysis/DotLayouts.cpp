//===- DotLayouts.cpp - What every target's matrix layouts build on -------===//

#include "analysis/DotLayouts.h"
#include "analysis/Layouts.h"
#include "ir/Instructions.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace tritium;

namespace {
using Basis = LinearLayout::Basis;

bool isPowerOf2(int64_t V) { return V > 0 && (V & (V - 1)) == 0; }

/// Whether \p I keeps its first operand's shape and values' positions:
/// what a chain of dots passes through.
bool keepsShape(const Instruction &I) {
  if (I.getNumResults() != 1 || !I.getResult(0)->getType()->isBlock() ||
      I.getOpcode() == Opcode::Dot || I.getNumOperands() == 0)
    return false;
  for (Value *Op : I.getOperands())
    if (Op->getType()->isBlock() && Op->getType()->getShape() != I.getResult(0)->getType()->getShape())
      return false;
  return true;
}
} // namespace

MMAWarps tritium::warpsPerTile(llvm::ArrayRef<int64_t> Shape, unsigned NumWarps,
                               int64_t TileM, int64_t TileN) {
  // Triton's warpsPerTileV2 (and its MFMA counterpart).
  MMAWarps W;
  while (W.M * W.N < NumWarps) {
    if (Shape[0] / TileM / W.M >= Shape[1] / (TileN * W.N) && W.M < Shape[0] / TileM)
      W.M *= 2;
    else
      W.N *= 2;
  }
  return W;
}

bool tritium::is2DDot(const Instruction &Dot) {
  if (Dot.getOpcode() != Opcode::Dot || Dot.getNumOperands() < 3)
    return false;
  Type *A = Dot.getOperand(0)->getType(), *B = Dot.getOperand(1)->getType();
  if (!A->isBlock() || A->getRank() != 2 || !B->isBlock() || B->getRank() != 2)
    return false;
  return isPowerOf2(A->getShape()[0]) && isPowerOf2(A->getShape()[1]) &&
         isPowerOf2(B->getShape()[1]);
}

bool tritium::feedsDotA(const Instruction &Dot) {
  // The result, through shape-keeping users, into a dot's A.
  llvm::SmallVector<const Value *, 16> Work = {Dot.getResult(0)};
  llvm::SmallPtrSet<const Value *, 32> Seen;
  while (!Work.empty() && Seen.size() < 64) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    for (const Use &U : V->uses()) {
      const Instruction *User = U.getUser();
      if (User->getOpcode() == Opcode::Dot && U.getOperandNo() == 0)
        return true;
      // Through shared memory too (stage-dot-operands may have put it there).
      if (User->getOpcode() == Opcode::LocalAlloc)
        for (const Instruction *Load : User->getResult(0)->getUsers())
          if (Load->getOpcode() == Opcode::LocalLoad)
            Work.push_back(Load->getResult(0));
      if (keepsShape(*User))
        Work.push_back(User->getResult(0));
    }
  }
  return false;
}

bool tritium::takesADotResult(const Instruction &Dot) {
  // A, through shape-keeping definitions, from a dot's result.
  llvm::SmallVector<const Value *, 16> Work = {Dot.getOperand(0)};
  llvm::SmallPtrSet<const Value *, 32> Seen;
  while (!Work.empty() && Seen.size() < 64) {
    const Value *V = Work.pop_back_val();
    if (!Seen.insert(V).second)
      continue;
    const Instruction *Def = V->getDefiningInstruction();
    if (!Def)
      continue;
    if (Def->getOpcode() == Opcode::Dot)
      return true;
    // Through shared memory too (stage-dot-operands may have put it there).
    if (Def->getOpcode() == Opcode::LocalLoad) {
      const Instruction *Alloc = Def->getOperand(0)->getDefiningInstruction();
      if (Alloc && Alloc->getOpcode() == Opcode::LocalAlloc && Alloc->getNumOperands())
        Work.push_back(Alloc->getOperand(0));
      continue;
    }
    if (keepsShape(*Def))
      for (const Value *Op : Def->getOperands())
        if (Op->getType()->isBlock())
          Work.push_back(Op);
  }
  return false;
}

LinearLayout tritium::swizzledSharedLayout(llvm::ArrayRef<int64_t> Shape, unsigned Contiguous,
                                           unsigned ElementBytes) {
  unsigned Outer = 1 - Contiguous;
  int64_t Inner = Shape[Contiguous], Rows = Shape[Outer];
  int64_t Vec = std::max<int64_t>(1, 16 / ElementBytes); // elements of a 16-byte chunk
  int64_t Chunks = std::max<int64_t>(1, Inner / Vec);
  int64_t MaxPhase = std::min<int64_t>(8, Chunks);
  int64_t PerPhase = std::max<int64_t>(1, 8 / Chunks);
  llvm::SmallVector<Basis, 8> Bases;
  for (int64_t S = 1; S < Inner; S *= 2) {
    Basis B(2, 0);
    B[Contiguous] = int32_t(S);
    Bases.push_back(B);
  }
  // Row bit r: the next row, and where it is a bit of the phase, the chunk
  // index XORed by it (the inverse of chunk' = chunk ^ phase is itself).
  for (int64_t R = 1; R < Rows; R *= 2) {
    Basis B(2, 0);
    B[Outer] = int32_t(R);
    if (R >= PerPhase && R < PerPhase * MaxPhase && Inner >= Vec)
      B[Contiguous] = int32_t(Vec * (R / PerPhase));
    Bases.push_back(B);
  }
  LinearLayout::InDim Offset{"offset", std::move(Bases)};
  return LinearLayout({Offset}, {{outDimName(0), int32_t(Shape[0])},
                                 {outDimName(1), int32_t(Shape[1])}});
}
