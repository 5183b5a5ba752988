//===- NVPTXLowerWGMMA.cpp - dot on Hopper's wgmma ------------------------===//
//
// A dot placed for wgmma (codegen/nvptx/WGMMALayouts.h) whose B is read right
// before it from a buffer in the NVMMA layout, and A too or A in registers
// (attention's P, in mma.sync's A fragment: wgmma's), becomes, per block of
// 16 * NumWarps rows, one wgmma.mma_async m64nNk16 per K step of 16 for
// each warpgroup (rows 64G.. of the block for warpgroup G): the operands
// go by shared memory matrix descriptors instead of ldmatrix, the
// accumulator stays in mma.sync's registers. wgmma.fence before the
// first, one commit_group after the last, and wait_group 0 before the next
// instruction that could read its registers or write shared memory other
// than by an asynchronous copy (LoweringContext::flushPendingDot): on sm_90a the
// pipeliner issues its copies after the dot, into the slot the previous
// iteration read, and they go out while the group runs. Before anything
// else the dot has read its operands, as the barrier placement assumes of
// every instruction.
//
// A descriptor (PTX ISA, "matrix descriptor"): bits 0-13 the start address
// / 16, 16-29 the leading byte offset / 16, 32-45 the stride byte offset /
// 16, 62-63 the swizzle (1: 128 bytes, 2: 64, 3: 32). With rows of S
// swizzle bytes in atoms of 8 rows the stride byte offset is 8S (the next
// 8 rows of M, N or K); the leading byte offset is the distance between
// S-byte column blocks of an M- or N-major operand's contiguous dimension
// (unused for K-major ones, whose K steps move the start address by 32
// bytes inside a row, or to the next column block). Rows of 64 or 32
// bytes (nvmmaSwizzleBytes) are read only K-major.
//
//===----------------------------------------------------------------------===//

#include "codegen/nvptx/MMALayouts.h"
#include "analysis/SharedMemory.h"
#include "codegen/nvptx/WGMMALayouts.h"
#include "codegen/nvptx/NVPTXLowering.h"
#include "ir/BasicBlock.h"
#include "ir/Instructions.h"

using namespace tritium;

namespace {
/// How one operand ([Rows x K] for A, [K x Cols] for B) sits in its NVMMA
/// buffer: the byte offset of its element (MN, K) for MN and K multiples
/// of 64 and of the K step, and its descriptor's leading byte offset.
struct NVMMAOperand {
  Value *MemDesc = nullptr;
  bool MNMajor = false;
  int64_t MNExtent = 0, KExtent = 0; // elements
  unsigned ElemBytes = 2;
  unsigned Swizzle = 128; // bytes a row

  /// Bytes from the buffer's start to element (MN, K).
  int64_t offset(int64_t MN, int64_t K) const {
    int64_t RowElems = Swizzle / ElemBytes;
    if (MNMajor) // rows of K, column blocks of MN outermost
      return (MN / RowElems) * KExtent * Swizzle + K * Swizzle + (MN % RowElems) * ElemBytes;
    return (K / RowElems) * MNExtent * Swizzle + MN * Swizzle + (K % RowElems) * ElemBytes;
  }
  int64_t leadingBytes() const { return MNMajor ? KExtent * Swizzle : 16; }
  uint64_t swizzleMode() const { return Swizzle == 128 ? 1 : Swizzle == 64 ? 2 : 3; }
};

/// The operand \p OpIdx of \p Dot if it is a local_load this dot lowers
/// (isLoadedByUser) from an NVMMA buffer.
std::optional<NVMMAOperand> nvmmaOperand(const DotInst &Dot, unsigned OpIdx) {
  Value *V = Dot.getOperand(OpIdx);
  std::optional<unsigned> Contiguous = nvmmaLoadContiguousDim(V);
  Instruction *Def = V->getDefiningInstruction();
  if (!Contiguous || !isLoadedByUser(*Def))
    return std::nullopt;
  Value *Mem = Def->getOperand(0);
  auto *M = llvm::cast<MemDescType>(Mem->getType());
  llvm::ArrayRef<int64_t> Shape = M->getBufferShape();
  unsigned KDim = OpIdx == 0 ? 1 : 0;
  NVMMAOperand O;
  O.MemDesc = Mem;
  O.MNMajor = *Contiguous != KDim;
  O.KExtent = Shape[KDim];
  O.MNExtent = Shape[1 - KDim];
  O.ElemBytes = M->getElementType()->getScalarSizeInBytes();
  O.Swizzle = nvmmaSwizzleBytes(Shape[*Contiguous] * O.ElemBytes);
  if (O.Swizzle != 128 && O.MNMajor)
    return std::nullopt;
  return O;
}

/// The descriptor of \p O's matrix at its buffer's start plus \p MNBytes
/// (the warpgroup's rows, a runtime value, or none).
llvm::Value *baseDescriptor(LoweringContext &C, const NVMMAOperand &O, llvm::Value *MNBytes) {
  llvm::IRBuilder<> &B = C.B;
  llvm::Value *Base = C.sharedPtr(C.scalar(O.MemDesc));
  llvm::Value *Addr = B.CreateTrunc(B.CreatePtrToInt(Base, B.getInt64Ty()), B.getInt32Ty());
  if (MNBytes)
    Addr = B.CreateAdd(Addr, MNBytes);
  uint64_t Fixed = (uint64_t((O.leadingBytes() >> 4) & 0x3fff) << 16) |
                   (uint64_t(((8 * O.Swizzle) >> 4) & 0x3fff) << 32) | (O.swizzleMode() << 62);
  llvm::Value *Start = B.CreateZExt(B.CreateAnd(B.CreateLShr(Addr, 4), B.getInt32(0x3fff)),
                                    B.getInt64Ty());
  return B.CreateOr(Start, B.getInt64(Fixed));
}

/// The descriptor of the matrix starting at element (MN, K) of \p O:
/// \p Base's start address field plus the offset / 16, a 64-bit add that
/// cannot carry out of the field (shared memory ends below 2^18 bytes), so
/// that each K step costs one add of a constant (a uniform register add
/// in SASS) instead of a shift and a mask.
llvm::Value *descriptor(LoweringContext &C, const NVMMAOperand &O, llvm::Value *Base, int64_t MN,
                        int64_t K) {
  int64_t Offset = O.offset(MN, K);
  assert(Offset % 16 == 0 && "matrix starts are 16-byte aligned");
  return Offset ? C.B.CreateAdd(Base, C.B.getInt64(uint64_t(Offset >> 4))) : Base;
}
} // namespace

bool tritium::lowerWGMMADot(LoweringContext &C, Instruction &I, const NVPTXTargetInfo &T) {
  if (!T.hasWGMMA() || !isWGMMADot(I))
    return false;
  auto &Dot = llvm::cast<DotInst>(I);
  std::optional<NVMMAOperand> A = nvmmaOperand(Dot, 0), Bop = nvmmaOperand(Dot, 1);
  if (!Bop)
    return false;
  // A not in an NVMMA buffer: its registers, in mma.sync's A layout (the
  // dot is placed for it), read as mma.sync reads them.
  std::optional<DotOperandRegs> AR;
  if (!A)
    AR.emplace(C, Dot.getA());
  llvm::IRBuilder<> &B = C.B;
  const LinearLayout &LC = C.layout(I.getResult());
  llvm::ArrayRef<int64_t> Shape = I.getResult()->getType()->getShape();
  int64_t M = Shape[0], N = Shape[1], K = Dot.getA()->getType()->getShape()[1];
  unsigned NumWarps = unsigned(LC.getInDimSize(kWarp));
  int64_t RowBlock = 16 * int64_t(NumWarps);
  auto PTXType = [](const Value *V) {
    switch (V->getType()->getScalarType()->getKind()) {
    case Type::Kind::BF16: return "bf16";
    case Type::Kind::F8E4M3: return "e4m3";
    case Type::Kind::F8E5M2: return "e5m2";
    default: return "f16";
    }
  };
  const char *AType = PTXType(Dot.getA()), *BType = PTXType(Dot.getB());
  // 8-bit inputs: K steps of 32, both operands K-major in NVMMA buffers
  // (fp8's A fragment in registers is not done: mma.sync takes those).
  bool Byte = AType[0] == 'e';
  if (Byte && (!A || A->MNMajor || Bop->MNMajor))
    return false;
  int64_t KStep = Byte ? 32 : 16;
  LoweringContext::Regs Acc = C.get(Dot.getAcc());

  // Warpgroup G's rows start at 64G in each block: its bytes into A, as an
  // M-major operand counts them or a K-major one does.
  // One warpgroup: none. Several: the warpgroup's index read from lane 0,
  // which ptxas knows is the same in every lane, so that the descriptors
  // stay in uniform registers (tid / 128 is not, to it). Read in the entry
  // block: LLVM does not hoist the convergent shuffle out of a loop, and a
  // shuffle and a move to uniform registers inside the loop stalled the
  // wgmmas' dispatch.
  llvm::Value *GroupBytes = nullptr;
  if (A && NumWarps > 4) {
    llvm::Value *Group = C.inEntry([&] {
      return T.shuffleIdx(B, B.CreateLShr(C.warpId(), 2), B.getInt32(0));
    });
    GroupBytes = B.CreateMul(Group, B.getInt32(uint32_t(A->offset(64, 0))));
  }
  llvm::Value *BaseA = A ? baseDescriptor(C, *A, GroupBytes) : nullptr;
  llvm::Value *BaseB = baseDescriptor(C, *Bop, nullptr);
  const LinearLayout &LA = C.layout(Dot.getA());
  auto Reg = [&](int64_t D0, int64_t D1) { return fragmentReg(LC, D0, D1); };

  // Every operand first (descriptors, and A's words packed from its
  // registers), then the fence and the instructions back to back: ptxas
  // would otherwise fence again (warpgroup.arrive) before each wgmma whose
  // A words were just written.
  struct Step {
    int64_t M0;
    llvm::Value *DA, *DB;
    llvm::SmallVector<llvm::Value *, 4> AWords;
  };
  llvm::SmallVector<Step, 16> Steps;
  for (int64_t M0 = 0; M0 < M; M0 += RowBlock)
    for (int64_t K0 = 0; K0 < K; K0 += KStep) {
      Step S{M0, A ? descriptor(C, *A, BaseA, M0, K0) : nullptr,
             descriptor(C, *Bop, BaseB, 0, K0), {}};
      // A's words from registers: rows +0/+8, then K + 8; two K a word.
      for (int64_t Q = 0; !A && Q < 4; ++Q)
        S.AWords.push_back(packMMAWord(
            B, {(*AR)[fragmentReg(LA, M0 + 8 * (Q & 1), K0 + 8 * (Q >> 1))],
                (*AR)[fragmentReg(LA, M0 + 8 * (Q & 1), K0 + 8 * (Q >> 1) + 1)]}));
      Steps.push_back(std::move(S));
    }
  // A zero accumulator (a dot without one): the first K step ignores it.
  bool ZeroAcc = llvm::all_of(Acc, [](llvm::Value *V) {
    auto *F = llvm::dyn_cast<llvm::ConstantFP>(V);
    return F && F->isZero();
  });
  // fp8 with max_num_imprecise_acc: every Chunk K elements, the products
  // summed in a zeroed partial accumulator are waited for and added in f32
  // (Hopper's fp8 accumulation keeps fewer mantissa bits than f32).
  int64_t Chunk = 0;
  if (std::optional<int64_t> Limit = Dot.getMaxNumImpreciseAcc(); Byte && Limit && *Limit <= K)
    Chunk = std::max<int64_t>(llvm::alignTo(*Limit, KStep), KStep);
  T.wgmmaFence(B);
  llvm::SmallVector<unsigned, 128> Touched;
  bool Issued = false;
  for (int64_t M0 = 0; M0 < M; M0 += RowBlock) {
    // The instruction's d[4j + q]: row 8 (q / 2), column 8j + q % 2.
    llvm::SmallVector<unsigned, 128> Regs;
    for (int64_t J = 0; J < N / 8; ++J)
      for (int64_t Q = 0; Q < 4; ++Q)
        Regs.push_back(Reg(M0 + 8 * (Q >> 1), 8 * J + (Q & 1)));
    llvm::SmallVector<llvm::Value *, 128> Sum;
    for (unsigned R : Regs)
      Sum.push_back(Acc[R]);
    llvm::SmallVector<llvm::Value *, 128> Partial;
    bool First = true;
    int64_t K0 = 0;
    for (const Step &S : Steps) {
      if (S.M0 != M0)
        continue;
      bool Starts = Chunk && K0 % Chunk == 0;
      bool Accumulate = Chunk ? !Starts : !(ZeroAcc && First);
      First = false;
      if (Starts && Issued) // the f32 adds read the registers it may take
        T.wgmmaFence(B);
      Issued = true;
      llvm::SmallVector<llvm::Value *, 128> Out;
      T.wgmma(B, AType, BType, S.DA, S.AWords, S.DB, A && A->MNMajor, Bop->MNMajor, Accumulate,
              Chunk ? (Starts ? Sum : Partial) : Sum, Out);
      (Chunk ? Partial : Sum) = Out;
      K0 += KStep;
      if (Chunk && (K0 % Chunk == 0 || K0 == K)) {
        T.wgmmaCommitGroup(B);
        T.waitAsyncDots(B, 0, Partial);
        for (unsigned X = 0; X < Sum.size(); ++X)
          Sum[X] = ZeroAcc && K0 <= Chunk ? Partial[X] : B.CreateFAdd(Sum[X], Partial[X]);
      }
    }
    for (unsigned X = 0; X < Regs.size(); ++X)
      Acc[Regs[X]] = Sum[X];
    if (!Chunk)
      Touched.append(Regs.begin(), Regs.end());
  }
  C.set(I.getResult(), std::move(Acc));
  if (Chunk) // every group was waited for
    return true;
  T.wgmmaCommitGroup(B);
  // In flight into the next iteration where the pipeliner put a barrier
  // right after the dot (before the copies into the slot the previous
  // dot read, which the wait for that dot frees).
  const Instruction *Next = I.getNextNode();
  bool InFlight = wgmmaStaysInFlight(I) && Next && Next->getOpcode() == Opcode::Barrier;
  C.deferDotWait({&I, std::move(Touched), InFlight});
  return true;
}
