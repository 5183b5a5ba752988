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

#include "llvm/IR/InlineAsm.h"

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
  llvm::SmallVector<llvm::Type *, 136> InTys;
  for (llvm::Value *V : Ins)
    InTys.push_back(V->getType());
  llvm::Type *Ret = N == 1 ? Outs[0] : llvm::StructType::get(B.getContext(), Outs);
  auto *FT = llvm::FunctionType::get(Ret, InTys, false);
  return B.CreateCall(llvm::InlineAsm::get(FT, Asm, Constraints, true), Ins);
}

void unpack(llvm::IRBuilder<> &B, llvm::Value *R, unsigned N,
            llvm::SmallVectorImpl<llvm::Value *> &Out) {
  Out.clear();
  for (unsigned I = 0; I < N; ++I)
    Out.push_back(N == 1 ? R : B.CreateExtractValue(R, I));
}

void plainAsm(llvm::IRBuilder<> &B, llvm::StringRef Asm) {
  auto *FT = llvm::FunctionType::get(B.getVoidTy(), false);
  B.CreateCall(llvm::InlineAsm::get(FT, Asm, "~{memory}", true));
}
} // namespace

void NVPTXTargetInfo::wgmma(llvm::IRBuilder<> &B, bool BF16, llvm::Value *DescA,
                            llvm::Value *DescB, bool TransA, bool TransB,
                            llvm::ArrayRef<llvm::Value *> Acc,
                            llvm::SmallVectorImpl<llvm::Value *> &D) const {
  unsigned N = Acc.size();
  std::string Regs;
  for (unsigned I = 0; I < N; ++I)
    Regs += (I ? ", $" : "$") + std::to_string(I);
  std::string In = BF16 ? "bf16" : "f16";
  // scale-d is a predicate: 1, accumulate (the accumulator starts zeroed).
  std::string Asm = "{\n.reg .pred p;\nsetp.ne.b32 p, $" + std::to_string(N + 2) +
                    ", 0;\nwgmma.mma_async.sync.aligned.m64n" + std::to_string(2 * N) + "k16.f32." +
                    In + "." + In + " {" + Regs + "}, $" + std::to_string(N) + ", $" +
                    std::to_string(N + 1) + ", p, 1, 1, " + (TransA ? "1" : "0") + ", " +
                    (TransB ? "1" : "0") + ";\n}";
  llvm::Value *R = callTied(B, Acc, {DescA, DescB, B.getInt32(1)}, "l,l,r,", Asm);
  unpack(B, R, N, D);
}

void NVPTXTargetInfo::wgmmaFence(llvm::IRBuilder<> &B) const {
  plainAsm(B, "wgmma.fence.sync.aligned;");
}

void NVPTXTargetInfo::wgmmaCommitGroup(llvm::IRBuilder<> &B) const {
  plainAsm(B, "wgmma.commit_group.sync.aligned;");
}

void NVPTXTargetInfo::wgmmaWait(llvm::IRBuilder<> &B, unsigned Num,
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

void NVPTXTargetInfo::fenceProxyAsync(llvm::IRBuilder<> &B) const {
  if (GPU.has(Target::WGMMA))
    plainAsm(B, "fence.proxy.async.shared::cta;");
}
