//===- CheckBounds.cpp - Every access checked against its tensor ---------===//
//
// `check-bounds` (the option bounds_check: TRITIUM_BOUNDS_CHECK=1,
// @jit(bounds_check=True)) makes a kernel check each load, store and atomic
// against the tensor its pointer came from, and report the first access
// outside it instead of making it. It catches what compute-sanitizer cannot:
// an access past a tensor that lands inside another allocation of torch's
// caching allocator.
//
// The kernel gets hidden parameters after its own: one i64 `<p>.extent` per
// pointer parameter p (the bytes from the pointer passed to the end of its
// tensor; the launch computes them), then `bounds.report`, a ptr<i64> to
// five zeroed words. An access whose pointer derives from a pointer
// parameter (through getelementptr, splat, broadcast, expand_dims, reshape,
// trans, and the selects and phis of one root) becomes:
//
//   off   = ptrtoint(ptr) - ptrtoint(p)            per lane, in bytes
//   out   = off < 0 || off > extent - size
//   the access's mask  &&= !out                   (an outside lane touches nothing)
//   bad   = out && mask                           (what the access would have made)
//   first = min over the lanes of (bad ? off : INT64_MAX)
//   old   = atomic_cas(report[0], 0, site) where first != INT64_MAX
//   where that swapped: report[1] = first,
//                                          report[2..4] = the program ids
//
// so the first program to find one writes it. `site` says where:
// 1 | kind << 1 | other-file << 3 | parameter << 4 | column << 16 |
// line << 28 (kind 0 load, 1 store, 2 atomic; other-file: the access comes
// from a function inlined from another file). runtime/jit.py reads the report
// after the launch and raises BoundsError. Accesses of noinline functions
// and through pointers not derived from a parameter are not checked.
//
// Requires: verified IR, inlined. Runs last in the tir stage.
//
//===----------------------------------------------------------------------===//

#include "codegen/transforms/Transforms.h"
#include "ir/Builder.h"
#include "ir/Function.h"
#include "ir/Instructions.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <limits>

using namespace tritium;

namespace {

/// The pointer parameter \p V derives from, or null.
Argument *rootOf(Value *V, llvm::SmallPtrSetImpl<Value *> &Seen) {
  if (!Seen.insert(V).second)
    return nullptr; // a phi cycle: the other entries decide
  if (auto *A = llvm::dyn_cast<Argument>(V))
    return A->getType()->isPointer() ? A : nullptr;
  Instruction *I = V->getDefiningInstruction();
  if (!I)
    return nullptr;
  switch (I->getOpcode()) {
  case Opcode::GetElementPtr: case Opcode::Splat: case Opcode::Broadcast:
  case Opcode::ExpandDims: case Opcode::Reshape: case Opcode::Trans:
    return rootOf(I->getOperand(0), Seen);
  case Opcode::Select:
  case Opcode::Phi: {
    Argument *Root = nullptr;
    for (unsigned K = I->getOpcode() == Opcode::Select ? 1 : 0; K < I->getNumOperands(); ++K) {
      Argument *R = rootOf(I->getOperand(K), Seen);
      if (!R && !Seen.count(I->getOperand(K)))
        return nullptr;
      if (R && Root && R != Root)
        return nullptr;
      Root = Root ? Root : R;
    }
    return Root;
  }
  default:
    return nullptr;
  }
}

class BoundsChecker {
public:
  explicit BoundsChecker(Function &F) : F(F), B(F.getContext()) {}

  void run() {
    llvm::SmallVector<Instruction *, 16> Accesses;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB)
        if (llvm::isa<LoadInst, StoreInst, AtomicRMWInst, AtomicCASInst>(&I))
          Accesses.push_back(&I);
    for (Argument *A : F.args())
      if (A->getType()->isPointer())
        Extents[A] = F.addArgument(B.getI64Ty(), A->getName().str() + ".extent");
    Report = F.addArgument(PointerType::get(B.getI64Ty()), "bounds.report");
    for (Instruction *I : Accesses) {
      llvm::SmallPtrSet<Value *, 8> Seen;
      if (Argument *Root = rootOf(I->getOperand(0), Seen))
        check(*I, Root);
    }
  }

private:
  unsigned maskOperand(const Instruction &I) const {
    return I.getOpcode() == Opcode::AtomicCAS ? 3 : I.getOpcode() == Opcode::Load ? 1 : 2;
  }

  int64_t site(const Instruction &I, const Argument &Root) const {
    int64_t Kind = I.getOpcode() == Opcode::Load ? 0 : I.getOpcode() == Opcode::Store ? 1 : 2;
    Loc At = I.getLoc();
    bool OtherFile = At.isKnown() && F.getLoc().isKnown() && At.File != F.getLoc().File;
    return 1 | Kind << 1 | int64_t(OtherFile) << 3 | int64_t(Root.getArgNo() & 0xfff) << 4 |
           int64_t(std::min(At.Col, 0xfffu)) << 16 | int64_t(At.Line) << 28;
  }

  void check(Instruction &I, Argument *Root) {
    B.setInsertPoint(&I);
    B.setLoc(I.getLoc());
    Value *Ptr = I.getOperand(0);
    Type *PtrTy = Ptr->getType();
    llvm::SmallVector<int64_t, 4> Shape(PtrTy->getShape().begin(), PtrTy->getShape().end());
    auto Block = [&](Value *Scalar) { return Shape.empty() ? Scalar : B.createSplat(Scalar, Shape); };
    Type *Offsets = PtrTy->withElement(B.getI64Ty());
    Value *Off = B.createBinary(Opcode::Sub, B.createCast(Opcode::PtrToInt, Ptr, Offsets),
                                Block(B.createCast(Opcode::PtrToInt, Root, B.getI64Ty())));
    int64_t Size = llvm::cast<PointerType>(PtrTy->getScalarType())->getPointee()->getScalarSizeInBytes();
    Value *Last = B.createBinary(Opcode::Sub, Extents.lookup(Root), B.getInt64(Size));
    Value *Outside = B.createBinary(Opcode::Or, B.createICmp(ICmpPredicate::SLT, Off, Block(B.getInt64(0))),
                                    B.createICmp(ICmpPredicate::SGT, Off, Block(Last)));
    Value *Inside = B.createBinary(Opcode::Xor, Outside, Block(B.getIntConstant(B.getI1Ty(), 1)));
    unsigned M = maskOperand(I);
    Value *Mask = I.getNumOperands() > M ? I.getOperand(M) : nullptr;
    // A lane counts where the access makes it: outside and not masked off;
    // the access keeps the lanes it made that are inside.
    Value *Bad = Mask ? B.createBinary(Opcode::And, Outside, Mask) : Outside;
    if (Mask)
      I.setOperand(M, B.createBinary(Opcode::And, Mask, Inside));
    else // the mask is the next trailing operand of each of the four
      I.addOperand(Inside);

    constexpr int64_t Max = std::numeric_limits<int64_t>::max();
    Value *First = B.createSelect(Bad, Off, Block(B.getInt64(Max)));
    if (!Shape.empty())
      First = B.createReduce(
          Shape.size() == 1 ? First : B.createReshape(First, {PtrTy->getNumElements()}, true), 0,
          CombineKind::SMin);
    Value *Found = B.createICmp(ICmpPredicate::NE, First, B.getInt64(Max));
    // Only a program that found one touches the report: no contention else.
    Value *Old = B.createAtomicCAS(Report, B.getInt64(0), B.getInt64(site(I, *Root)), Found);
    Value *Won = B.createBinary(Opcode::And, Found, B.createICmp(ICmpPredicate::EQ, Old, B.getInt64(0)));
    B.createStore(B.createGEP(Report, B.getInt32(1)), First, Won);
    for (int Axis = 0; Axis < 3; ++Axis)
      B.createStore(B.createGEP(Report, B.getInt32(2 + Axis)),
                    B.createCast(Opcode::SExt, B.createProgramId(Axis), B.getI64Ty()), Won);
  }

  Function &F;
  IRBuilder B;
  llvm::DenseMap<Argument *, Value *> Extents;
  Value *Report = nullptr;
};

} // namespace

PreservedAnalyses CheckBoundsPass::runOnFunction(Function &F, AnalysisManager &) {
  if (!F.isKernel() || F.empty())
    return PreservedAnalyses::all();
  BoundsChecker(F).run();
  return PreservedAnalyses::none();
}
