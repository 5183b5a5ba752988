//===- WGMMALayouts.cpp - Hopper's wgmma: which dots, which shared layouts ===//

#include "codegen/nvptx/WGMMALayouts.h"
#include "analysis/AxisInfo.h"
#include "analysis/Layouts.h"
#include "codegen/nvptx/MMALayouts.h"
#include "analysis/SharedMemory.h"
#include "ir/BasicBlock.h"
#include "ir/Instructions.h"

using namespace tritium;
using Basis = LinearLayout::Basis;

unsigned tritium::nvmmaSwizzleBytes(int64_t RowBytes) {
  if (RowBytes > 0 && RowBytes % 128 == 0)
    return 128;
  return RowBytes == 64 || RowBytes == 32 ? unsigned(RowBytes) : 0;
}

std::optional<LinearLayout> tritium::nvmmaSharedLayout(llvm::ArrayRef<int64_t> Shape,
                                                       unsigned Contiguous,
                                                       unsigned ElementBytes) {
  if (Shape.size() != 2 || Contiguous > 1 || ElementBytes == 0 || ElementBytes > 16)
    return std::nullopt;
  unsigned Outer = 1 - Contiguous;
  int64_t Inner = Shape[Contiguous], Rows = Shape[Outer];
  unsigned Swizzle = nvmmaSwizzleBytes(Inner * ElementBytes);
  if (!Swizzle || Rows % 8 != 0)
    return std::nullopt;
  int64_t RowElems = Swizzle / ElementBytes, Vec = 16 / ElementBytes;
  auto Along = [](unsigned Dim, int64_t At, int64_t Also = 0) {
    Basis B(2, 0);
    B[Dim] = int32_t(At);
    B[1 - Dim] = int32_t(Also);
    return B;
  };
  llvm::SmallVector<Basis, 16> Bases;
  // A row of the contiguous dimension, Swizzle bytes long.
  for (int64_t S = 1; S < RowElems; S *= 2)
    Bases.push_back(Along(Contiguous, S));
  // The swizzle XORs the 16-byte chunk index with the address bits from 7
  // up (Swizzle / 16 chunks a row): row R, at R * Swizzle bytes, flips
  // chunk bits (R * Swizzle / 128) mod (Swizzle / 16), its own inverse
  // (128 bytes: rows 1, 2, 4; 64: rows 2, 4; 32: row 4); the atom is 8
  // rows, then further rows, then further row blocks.
  int64_t ChunkMask = Swizzle / 16 - 1;
  for (int64_t R = 1; R < Rows; R *= 2)
    Bases.push_back(Along(Outer, R, Vec * (((R * Swizzle) >> 7) & ChunkMask)));
  for (int64_t S = RowElems; S < Inner; S *= 2)
    Bases.push_back(Along(Contiguous, S));
  return LinearLayout({LinearLayout::InDim{"offset", std::move(Bases)}},
                      {{outDimName(0), int32_t(Shape[0])}, {outDimName(1), int32_t(Shape[1])}});
}

bool tritium::tmaCopies(const Instruction &Access, const AxisInfoAnalysis &AI) {
  auto *Desc = llvm::dyn_cast_or_null<MakeTensorDescInst>(
      Access.getOperand(0)->getDefiningInstruction());
  bool Load = Access.getOpcode() == Opcode::DescriptorLoad;
  if ((!Load && Access.getOpcode() != Opcode::DescriptorStore) || !Desc ||
      !Desc->getTensorMap() || Desc->getRank() != 2)
    return false;
  // The tensor map fills with zeros (its NaN fill is not encoded).
  if (Load && llvm::cast<DescriptorLoadInst>(Access).padsWithNaN())
    return false;
  Type *T = Load ? Access.getResult(0)->getType()
                 : llvm::cast<DescriptorStoreInst>(Access).getValue()->getType();
  int64_t Bytes = T->getScalarSizeInBytes();
  auto DivisorOf = [&](const Value *V) {
    const AxisInfo &Info = AI.get(V);
    return Info.Divisibility.empty() ? int64_t(1) : Info.Divisibility[0];
  };
  return (Bytes == 1 || Bytes == 2 || Bytes == 4) && T->getShape()[0] <= 256 &&
         nvmmaSwizzleBytes(T->getShape()[1] * Bytes) == 128 &&
         nvmmaSharedLayout(T->getShape(), 1, unsigned(Bytes)) &&
         DivisorOf(Desc->getBase()) % 16 == 0 && (DivisorOf(Desc->getStride(0)) * Bytes) % 16 == 0;
}

std::optional<unsigned> tritium::nvmmaContiguousDim(const MemDescType &M) {
  llvm::ArrayRef<int64_t> Shape = M.getBufferShape();
  if (Shape.size() != 2)
    return std::nullopt;
  for (unsigned C = 0; C < 2; ++C)
    if (std::optional<LinearLayout> L =
            nvmmaSharedLayout(Shape, C, M.getElementType()->getScalarSizeInBytes()))
      if (*L == M.getLayout())
        return C;
  return std::nullopt;
}

std::optional<unsigned> tritium::nvmmaLoadContiguousDim(const Value *Operand) {
  const Instruction *Def = Operand->getDefiningInstruction();
  if (!Def || Def->getOpcode() != Opcode::LocalLoad)
    return std::nullopt;
  auto *M = llvm::dyn_cast<MemDescType>(Def->getOperand(0)->getType());
  return M ? nvmmaContiguousDim(*M) : std::nullopt;
}

bool tritium::isWGMMACandidate(const Instruction &Dot, unsigned NumWarps) {
  std::optional<MMAInstr> X = mmaInstrOf(Dot);
  if (!X || X->Split3 || X->Acc != MMAInstr::Accum::F32 ||
      (X->In != MMAInstr::Input::F16 && X->In != MMAInstr::Input::BF16))
    return false; // f16 and bf16; fp8 (X->UpcastFP8) of either kind, K steps of 32
  // wgmma has e4m3 and e5m2 only: fp8e4b15 takes mma.sync, which upcasts it.
  auto IsE4B15 = [](const Value *V) {
    return V->getType()->getScalarType()->getKind() == Type::Kind::F8E4M3B15;
  };
  if (IsE4B15(Dot.getOperand(0)) || IsE4B15(Dot.getOperand(1)))
    return false;
  llvm::ArrayRef<int64_t> Shape = Dot.getResult(0)->getType()->getShape();
  int64_t M = Shape[0], N = Shape[1], K = Dot.getOperand(0)->getType()->getShape()[1];
  return NumWarps % 4 == 0 && M % (16 * int64_t(NumWarps)) == 0 && N % 8 == 0 && N <= 256 &&
         K % (X->UpcastFP8 ? 32 : 16) == 0;
}

bool tritium::isWGMMADot(const Instruction &Dot) {
  const LinearLayout *C = Dot.getLayout();
  if (!C || !isMMADot(Dot))
    return false;
  unsigned NumWarps = unsigned(C->getInDimSize(kWarp));
  std::optional<MMAWarps> W = matchMMAAccumulator(*C, Dot.getResult(0)->getType()->getShape());
  return W && W->M == NumWarps && W->N == 1 && isWGMMACandidate(Dot, NumWarps);
}

bool tritium::wgmmaStaysInFlight(const Instruction &Dot) {
  if (Dot.getOpcode() != Opcode::Dot || !isWGMMADot(Dot))
    return false;
  const BasicBlock *Body = Dot.getParent();
  const Value *Result = Dot.getResult(0);
  if (!Result->hasOneUse())
    return false;
  auto *Phi = llvm::dyn_cast<PhiInst>(Result->uses().begin()->getUser());
  const Instruction *Term = Body->getTerminator();
  if (!Phi || Dot.getOperand(2) != Phi->getResult(0) || !Term ||
      Term->getOpcode() != Opcode::Br || Term->getBlockOperand(0) != Phi->getParent())
    return false;
  const BasicBlock *Header = Phi->getParent();
  llvm::SmallVector<BasicBlock *, 2> Succs = Header->successors();
  if (Succs.size() != 2 || llvm::count(Succs, Body) != 1)
    return false; // the loop is the header and this block
  // The exit, where the last group is waited for, is entered only from
  // the header (the wait reads the header's phis).
  const BasicBlock *Exit = Succs[0] == Body ? Succs[1] : Succs[0];
  if (Exit->getSinglePredecessor() != Header)
    return false;
  // Each operand is read from a ring slot the pipeliner fills by
  // asynchronous copies (directly or through memdesc_trans), or from a
  // buffer made before the loop. A buffer stored from registers in the
  // body (a value computed in the loop) is overwritten by the next
  // iteration while the group still reads it.
  for (unsigned K = 0; K < 2; ++K) {
    const Instruction *Def = Dot.getOperand(K)->getDefiningInstruction();
    if (!Def || Def->getOpcode() != Opcode::LocalLoad)
      return false;
    const Instruction *Buf = stripMemDescViews(*Def->getOperand(0)).getDefiningInstruction();
    bool InLoop = Buf && (Buf->getParent() == Header || Buf->getParent() == Body);
    if (InLoop && Buf->getOpcode() != Opcode::MemDescIndex)
      return false;
  }
  for (const Use &U : Phi->getResult(0)->uses()) {
    const Instruction *User = U.getUser();
    if (User == &Dot)
      continue;
    if (User->getParent() == Header || User->getParent() == Body ||
        User->getOpcode() == Opcode::Phi)
      return false;
  }
  return true;
}
