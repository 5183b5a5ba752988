//===- NVPTXTMA.cpp - Hopper's mbarriers and TMA copies as inline PTX ----===//
//
// LLVM 16 has no intrinsics for mbarrier.try_wait, arrive.expect_tx or
// cp.async.bulk.tensor (PTX 8.0, sm_90), so they are inline PTX. Shared
// addresses are 32-bit (the state space's width, as ld.shared takes them).
//
// The tensor map is a 128-byte kernel parameter (`.param .align 64 .b8
// k_param_N[128]`, a byval argument). Taking its address in LLVM IR would
// copy it to local memory, which TMA cannot read; instead the asm names
// the parameter's PTX symbol (LLVM calls kernel parameters <kernel>_param_N)
// and converts its address to a generic one with cvta.param, as nvcc does
// for a __grid_constant__ CUtensorMap.
//
//===----------------------------------------------------------------------===//

#include "codegen/nvptx/NVPTXTargetInfo.h"

using namespace tritium;

namespace {

/// An asm block with side effects and no results.
void emitAsm(llvm::IRBuilder<> &B, llvm::ArrayRef<llvm::Value *> Ins, llvm::StringRef Asm,
             llvm::StringRef Constraints) {
  callAsm(B, {}, Ins, Asm, Constraints, true);
}

llvm::Value *sharedAddress(llvm::IRBuilder<> &B, llvm::Value *P) {
  return B.CreatePtrToInt(P, B.getInt32Ty());
}

/// "{ .reg .pred p; setp.ne.b32 p, $N, 0; @p <Op> }" for a predicate at $N.
std::string predicated(unsigned N, llvm::StringRef Op) {
  return "{ .reg .pred p; setp.ne.b32 p, $" + std::to_string(N) + ", 0; @p " + Op.str() + " }";
}

} // namespace

void NVPTXTargetInfo::mbarrierInit(llvm::IRBuilder<> &B, llvm::Value *Bar, unsigned Count,
                                   llvm::Value *Pred) const {
  // The fence makes the initialization visible to the asynchronous proxy
  // (TMA's complete_tx), which the barrier after it does not order.
  emitAsm(B, {sharedAddress(B, Bar), B.CreateZExt(Pred, B.getInt32Ty())},
          predicated(1, "mbarrier.init.shared::cta.b64 [$0], " + std::to_string(Count) + ";") +
              " fence.mbarrier_init.release.cluster;",
          "r,r,~{memory}");
}

void NVPTXTargetInfo::mbarrierExpect(llvm::IRBuilder<> &B, llvm::Value *Bar, unsigned Bytes,
                                     llvm::Value *Pred) const {
  emitAsm(B, {sharedAddress(B, Bar), B.CreateZExt(Pred, B.getInt32Ty())},
          predicated(1, "mbarrier.arrive.expect_tx.shared::cta.b64 _, [$0], " +
                            std::to_string(Bytes) + ";"),
          "r,r,~{memory}");
}

void NVPTXTargetInfo::mbarrierWait(llvm::IRBuilder<> &B, llvm::Value *Bar,
                                   llvm::Value *Phase) const {
  // try_wait suspends for a while where the phase is not complete; the loop
  // asks again. Labels inside braces are local to them.
  emitAsm(B, {sharedAddress(B, Bar), Phase},
          "{ .reg .pred ready; retry: mbarrier.try_wait.parity.shared::cta.b64 ready, [$0], $1; "
          "@!ready bra.uni retry; }",
          "r,r,~{memory}");
}

void NVPTXTargetInfo::mbarrierInval(llvm::IRBuilder<> &B, llvm::Value *Bar,
                                    llvm::Value *Pred) const {
  emitAsm(B, {sharedAddress(B, Bar), B.CreateZExt(Pred, B.getInt32Ty())},
          predicated(1, "mbarrier.inval.shared::cta.b64 [$0];"), "r,r,~{memory}");
}

llvm::Value *NVPTXTargetInfo::tensorMapAddress(llvm::IRBuilder<> &B,
                                               llvm::Argument *Param) const {
  std::string Symbol =
      Param->getParent()->getName().str() + "_param_" + std::to_string(Param->getArgNo());
  return callAsm(B, {B.getInt64Ty()}, {},
                          "{ .reg .b64 a; mov.b64 a, " + Symbol + "; cvta.param.u64 $0, a; }",
                          "=l", false);
}

void NVPTXTargetInfo::tmaLoad(llvm::IRBuilder<> &B, llvm::Value *Dst, llvm::Value *TensorMap,
                              llvm::ArrayRef<llvm::Value *> Coords, llvm::Value *Bar,
                              llvm::Value *Pred) const {
  unsigned Rank = Coords.size();
  llvm::SmallVector<llvm::Value *, 9> Ins = {sharedAddress(B, Dst), TensorMap,
                                             sharedAddress(B, Bar),
                                             B.CreateZExt(Pred, B.getInt32Ty())};
  Ins.append(Coords.begin(), Coords.end());
  std::string Constraints = "r,l,r,r";
  for (unsigned K = 0; K < Rank; ++K)
    Constraints += ",r";
  emitAsm(B, Ins,
          predicated(3, "cp.async.bulk.tensor." + std::to_string(Rank) +
                            "d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [$0], "
                            "[$1, {" + asmOperands(4, Rank) + "}], [$2];"),
          Constraints + ",~{memory}");
}

void NVPTXTargetInfo::tmaStore(llvm::IRBuilder<> &B, llvm::Value *TensorMap,
                               llvm::ArrayRef<llvm::Value *> Coords, llvm::Value *Src,
                               llvm::Value *Pred) const {
  unsigned Rank = Coords.size();
  std::string Constraints = "l,r,r";
  for (unsigned K = 0; K < Rank; ++K)
    Constraints += ",r";
  llvm::SmallVector<llvm::Value *, 8> Ins = {TensorMap, sharedAddress(B, Src),
                                             B.CreateZExt(Pred, B.getInt32Ty())};
  Ins.append(Coords.begin(), Coords.end());
  emitAsm(B, Ins,
          predicated(2, "cp.async.bulk.tensor." + std::to_string(Rank) +
                            "d.global.shared::cta.bulk_group [$0, {" + asmOperands(3, Rank) +
                            "}], [$1];"),
          Constraints + ",~{memory}");
}

void NVPTXTargetInfo::tmaStoreWait(llvm::IRBuilder<> &B, llvm::Value *Pred) const {
  // .read: the shared memory may be reused once TMA has read it; the
  // global writes complete on their own (by the grid's end).
  emitAsm(B, {B.CreateZExt(Pred, B.getInt32Ty())},
          "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p cp.async.bulk.commit_group; "
          "@p cp.async.bulk.wait_group.read 0; }",
          "r,~{memory}");
}
