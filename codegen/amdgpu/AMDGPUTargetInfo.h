//===- AMDGPUTargetInfo.h - Lowering primitives for AMD GPUs -----*- C++ -*-===//
//
// TargetInfo (codegen/lowering/TargetInfo.h) for AMD GPUs through LLVM's
// AMDGPU backend: amdgcn intrinsics, LDS for shared memory, cross-lane moves
// with ds_bpermute (any lane of the wavefront, 32 or 64 of them), memory
// accesses as LLVM loads and stores (predicated by a branch: the hardware
// turns it into an exec mask), atomics as LLVM atomics with AMDGPU's sync
// scopes, math and printf through the ROCm device libraries (ocml, ockl).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_AMDGPU_AMDGPUTARGETINFO_H
#define TRITIUM_CODEGEN_AMDGPU_AMDGPUTARGETINFO_H

#include "codegen/lowering/LLVMTargetInfo.h"
#include "ir/Target.h"

namespace tritium {

/// AMDGPU address spaces (LLVM's numbering).
enum AMDGPUAddressSpace : unsigned { AMDFlat = 0, AMDGlobal = 1, AMDLocal = 3, AMDConstant = 4 };

class AMDGPUTargetInfo : public LLVMTargetInfo {
public:
  explicit AMDGPUTargetInfo(const Target &GPU) : GPU(GPU) {}
  llvm::Value *threadId(llvm::IRBuilder<> &B) const override;
  llvm::Value *programId(llvm::IRBuilder<> &B, unsigned Axis) const override;
  llvm::Value *numPrograms(llvm::IRBuilder<> &B, unsigned Axis) const override;
  void barrier(llvm::IRBuilder<> &B) const override;
  llvm::Value *shuffleXor(llvm::IRBuilder<> &B, llvm::Value *V, unsigned Mask) const override;
  llvm::Value *shuffleIdx(llvm::IRBuilder<> &B, llvm::Value *V, llvm::Value *Lane) const override;
  llvm::Value *shuffleUp(llvm::IRBuilder<> &B, llvm::Value *V, unsigned Delta) const override;
  unsigned sharedAddressSpace() const override { return AMDLocal; }
  void printf(llvm::IRBuilder<> &B, llvm::StringRef Format,
              llvm::ArrayRef<llvm::Value *> Args) const override;
  void assertFail(llvm::IRBuilder<> &B, llvm::Value *Failed, llvm::StringRef Message,
                  llvm::StringRef File, unsigned Line, llvm::StringRef Func) const override;
  void annotateKernel(llvm::Function *F, unsigned NumThreads,
                      unsigned MaxRegisters) const override;
  /// Dots in MFMA's layouts (AMDGPULowerMFMA.cpp).
  bool lowerInstruction(LoweringContext &C, Instruction &I) const override;
  llvm::Value *unaryMath(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *X) const override;
  llvm::Value *fmod(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Y) const override;

  /// K elements of \p Elem inputs a lane gives one MFMA (its kWidth); 0
  /// where the GPU has none for them.
  unsigned mfmaKWidth(Type *Elem) const;
  /// One wave's D = A * B + C on a \p T x \p T tile (T = 32 or 16) of
  /// \p Elem inputs (v_mfma_*): \p A and \p Bv this lane's mfmaKWidth
  /// elements, \p C its 16 (T = 32) or 4 accumulator values, in the
  /// instruction's order; D's go to \p D. False where the GPU has none.
  bool mfma(llvm::IRBuilder<> &B, Type *Elem, unsigned T, llvm::ArrayRef<llvm::Value *> A,
            llvm::ArrayRef<llvm::Value *> Bv, llvm::ArrayRef<llvm::Value *> C,
            llvm::SmallVectorImpl<llvm::Value *> &D) const;

private:
  /// workgroup, agent, system.
  llvm::SyncScope::ID syncScope(llvm::LLVMContext &Ctx, MemScope Scope) const override;
  Target GPU;
};

/// A dot in MFMA's layouts (codegen/amdgpu/MFMALayouts.h); false, nothing
/// emitted, where it is not or \p TI has no instruction for its inputs.
bool lowerMFMADot(LoweringContext &C, Instruction &I, const AMDGPUTargetInfo &TI);

} // namespace tritium

#endif // TRITIUM_CODEGEN_AMDGPU_AMDGPUTARGETINFO_H
