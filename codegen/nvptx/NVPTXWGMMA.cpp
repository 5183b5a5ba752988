//===- NVPTXWGMMA.cpp - Hopper's wgmma and proxy fences as inline PTX -----===//
//
// LLVM 16 has no intrinsics for sm_90a's warpgroup instructions, so they
// are inline assembly (the PTX header then says .version 8.0 and .target
// sm_90a: PTXEmitter.cpp). wgmma.mma_async's accumulators are tied
// operands of its asm; they are defined only once the group is waited
// for, so wgmma.wait_group takes and returns them too, and nothing LLVM
// schedules reads them in between.
//
//===----------------------------------------------------------------------===//

#include "codegen/nvptx/NVPTXTargetInfo.h"

using namespace tritium;

namespace {
/// An asm call that returns \p Regs (f32) through tied operands, with
/// \p Extra inputs after them: $0..$N-1 the results, $N.. the inputs.
llvm::Value *callTied(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> Regs,
                      llvm::ArrayRef<llvm::Value *> Extra, llvm::StringRef ExtraConstraints,
                      llvm::StringRef Asm) {
  unsigned N = Regs.size();
  std::string Constraints;
  for (unsigned I = 0; I < N; ++I)
    Constraints += "=f,";
  Constraints += ExtraConstraints.str();
  for (unsigned I = 0; I < N; ++I)
    Constraints += (Constraints.back() == ',' ? "" : ",") + std::to_string(I);
  llvm::SmallVector<llvm::Type *, 128> Outs(N, B.getFloatTy());
  llvm::SmallVector<llvm::Value *, 136> Ins(Extra.begin(), Extra.end());
  Ins.append(Regs.begin(), Regs.end());
  return callAsm(B, Outs, Ins, Asm, Constraints, true);
}

void unpack(llvm::IRBuilder<> &B, llvm::Value *R, unsigned N,
            llvm::SmallVectorImpl<llvm::Value *> &Out) {
  Out.clear();
  for (unsigned I = 0; I < N; ++I)
    Out.push_back(N == 1 ? R : B.CreateExtractValue(R, I));
}

void plainAsm(llvm::IRBuilder<> &B, llvm::StringRef Asm) {
  callAsm(B, {}, {}, Asm, "~{memory}", true);
}
} // namespace

void NVPTXTargetInfo::wgmma(llvm::IRBuilder<> &B, llvm::StringRef AType,
                            llvm::StringRef BType, llvm::Value *DescA,
                            llvm::ArrayRef<llvm::Value *> AWords, llvm::Value *DescB,
                            bool TransA, bool TransB, bool Accumulate,
                            llvm::ArrayRef<llvm::Value *> Acc,
                            llvm::SmallVectorImpl<llvm::Value *> &D) const {
  unsigned N = Acc.size();
  bool Byte = AType.startswith("e"); // e4m3, e5m2: k32, K-major, no transpose bits
  // Operands after the accumulators: A (a descriptor, or four words), B's
  // descriptor, scale-d (a predicate: 0 ignores the accumulator's values,
  // which are then poison: no moves of zeros into them). With A in
  // registers there is no transpose bit for it.
  llvm::SmallVector<llvm::Value *, 6> Extra;
  std::string Constraints, AOperand;
  if (AWords.empty()) {
    Extra.push_back(DescA);
    Constraints = "l,";
    AOperand = "$" + std::to_string(N);
  } else {
    Extra.append(AWords.begin(), AWords.end());
    Constraints = "r,r,r,r,";
    AOperand = "{" + asmOperands(N, 4) + "}";
  }
  unsigned BAt = N + unsigned(Extra.size());
  Extra.push_back(DescB);
  Extra.push_back(B.getInt32(Accumulate ? 1 : 0));
  Constraints += "l,r,";
  std::string Asm = "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(BAt + 1) +
                    ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(2 * N) +
                    (Byte ? "k32.f32." : "k16.f32.") + AType.str() + "." + BType.str() + " " +
                    "{" + asmOperands(0, N) + "}, " + AOperand + ", $" + std::to_string(BAt) + ", p, 1, 1" +
                    (Byte ? std::string()
                          : std::string(", ") +
                                (AWords.empty() ? std::string(TransA ? "1, " : "0, ")
                                                : std::string()) +
                                (TransB ? "1" : "0")) +
                    ";\n}";
  llvm::SmallVector<llvm::Value *, 128> AccIn(Acc.begin(), Acc.end());
  if (!Accumulate)
    for (llvm::Value *&V : AccIn)
      V = llvm::PoisonValue::get(V->getType());
  llvm::Value *R = callTied(B, AccIn, Extra, Constraints, Asm);
  unpack(B, R, N, D);
}

void NVPTXTargetInfo::wgmmaFence(llvm::IRBuilder<> &B) const {
  plainAsm(B, "wgmma.fence.sync.aligned;");
}

void NVPTXTargetInfo::wgmmaCommitGroup(llvm::IRBuilder<> &B) const {
  plainAsm(B, "wgmma.commit_group.sync.aligned;");
}

void NVPTXTargetInfo::waitAsyncDots(llvm::IRBuilder<> &B, unsigned Num,
                                    llvm::MutableArrayRef<llvm::Value *> Regs) const {
  if (Regs.empty()) {
    plainAsm(B, "wgmma.wait_group.sync.aligned " + std::to_string(Num) + ";");
    return;
  }
  llvm::Value *R = callTied(B, Regs, {}, "",
                            "wgmma.wait_group.sync.aligned " + std::to_string(Num) + ";");
  llvm::SmallVector<llvm::Value *, 128> Out;
  unpack(B, R, Regs.size(), Out);
  llvm::copy(Out, Regs.begin());
}

void NVPTXTargetInfo::fenceForAsyncReaders(llvm::IRBuilder<> &B) const {
  if (GPU.has(Target::WGMMA))
    plainAsm(B, "fence.proxy.async.shared::cta;");
}
