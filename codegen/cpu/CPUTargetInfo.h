//===- CPUTargetInfo.h - Lowering primitives for the host CPU ----*- C++ -*-===//
//
// TargetInfo (codegen/lowering/TargetInfo.h) for the cpu target: a program
// is one thread of the host (a warp of one lane, one warp), so the layouts
// put every element of a block in that thread's registers and LLVM's
// vectorizers make SIMD code of them; or a loop of such threads, one warp
// each, that share nothing (codegen/cpu/CPUBackend.cpp), the thread id a
// call the launch entry replaces with the loop's counter. Shuffles move
// nothing, barriers are nothing; predicated accesses are LLVM's masked
// loads and stores; atomics are LLVM's. What a program asks of its launch
// (its id, the grid, its shared memory arena) and a failed assert are calls
// of the runtime's functions (runtime/CpuDriver.cpp), which the loader
// resolves.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_CPU_CPUTARGETINFO_H
#define TRITIUM_CODEGEN_CPU_CPUTARGETINFO_H

#include "codegen/lowering/LLVMTargetInfo.h"

namespace tritium {

/// The runtime functions a cpu kernel calls, defined by runtime/CpuDriver.cpp:
///   i32 __tritium_cpu_program_id(i32 axis), i32 __tritium_cpu_num_programs(i32 axis)
///   ptr __tritium_cpu_shared()   the calling thread's arena, 64-byte aligned
///   void __tritium_cpu_assert_fail(ptr message, ptr file, i32 line, ptr function)
/// The first three are constant while one program runs.
inline constexpr const char *CPUProgramId = "__tritium_cpu_program_id";
inline constexpr const char *CPUNumPrograms = "__tritium_cpu_num_programs";
inline constexpr const char *CPUShared = "__tritium_cpu_shared";
inline constexpr const char *CPUAssertFail = "__tritium_cpu_assert_fail";
/// i32 __tritium_cpu_thread_id(): a program's thread in its loop, replaced
/// by the loop's counter before the module leaves the backend.
inline constexpr const char *CPUThreadId = "__tritium_cpu_thread_id";

/// A dot as row updates in vectors over stack buffers (CPULowerDot.cpp).
bool lowerCPUDot(LoweringContext &C, Instruction &I);

class CPUTargetInfo : public LLVMTargetInfo {
public:
  /// A program of \p Threads threads, run one after the other, on a host
  /// with vector registers of \p VectorBytes bytes, whose vector math
  /// library (glibc's libmvec) takes \p MathLanes floats at a time (16 with
  /// AVX-512, 8 with AVX2; 0: none loaded).
  explicit CPUTargetInfo(unsigned Threads = 1, unsigned VectorBytes = 32, unsigned MathLanes = 0)
      : Threads(Threads), VectorBytes(VectorBytes), MathLanes(MathLanes) {}
  llvm::Value *threadId(llvm::IRBuilder<> &B) const override;
  llvm::Value *programId(llvm::IRBuilder<> &B, unsigned Axis) const override;
  llvm::Value *numPrograms(llvm::IRBuilder<> &B, unsigned Axis) const override;
  void barrier(llvm::IRBuilder<> &) const override;
  // A warp of one lane: every lane a shuffle names is the thread itself.
  llvm::Value *shuffleXor(llvm::IRBuilder<> &, llvm::Value *V, unsigned) const override {
    return V;
  }
  llvm::Value *shuffleIdx(llvm::IRBuilder<> &, llvm::Value *V, llvm::Value *) const override {
    return V;
  }
  llvm::Value *shuffleUp(llvm::IRBuilder<> &, llvm::Value *V, unsigned) const override {
    return V;
  }
  unsigned sharedAddressSpace() const override { return 0; }
  llvm::Value *sharedMemoryBase(llvm::IRBuilder<> &B) const override;
  unsigned sharedMemoryAlignment() const override { return 64; }
  /// One vector register of the host (64 bytes with AVX-512, else 32),
  /// aligned or not; masked loads and stores take a bit per element.
  unsigned maxAccessBytes() const override { return VectorBytes; }
  bool alignsAccesses() const override { return false; }
  bool masksEachElement() const override { return true; }
  unsigned registerVectorWidth() const override { return 16; }
  llvm::Value *loadGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr, unsigned NumWords,
                          unsigned WordBits, llvm::Value *Pred, llvm::Value *Other,
                          const MemoryHints &Hints) const override;
  void storeGlobal(llvm::IRBuilder<> &B, llvm::Value *Ptr, llvm::Value *Words, llvm::Value *Pred,
                   const MemoryHints &Hints) const override;
  void printf(llvm::IRBuilder<> &B, llvm::StringRef Format,
              llvm::ArrayRef<llvm::Value *> Args) const override;
  void assertFail(llvm::IRBuilder<> &B, llvm::Value *Failed, llvm::StringRef Message,
                  llvm::StringRef File, unsigned Line, llvm::StringRef Func) const override;
  llvm::Value *unaryMath(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *X) const override;
  llvm::Value *approxDiv(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Y) const override {
    // x * (1 / y) is within the 2 ulp allowed, and LLVM computes 1 / y once
    // for a row divided by its sum (softmax) instead of a vdivps per vector.
    llvm::Value *Div = B.CreateFDiv(X, Y);
    if (auto *I = llvm::dyn_cast<llvm::Instruction>(Div)) // not a folded constant
      I->setHasAllowReciprocal(true);
    return Div;
  }
  bool trapsOnIntegerDivision() const override { return true; }
  /// Saturating, NaN -> 0, as the interpreter and NVIDIA's cvt for 16 bits
  /// and more (x86's cvtt* gives the "integer indefinite" INT_MIN instead).
  /// f16 goes through f32 (exactly): LLVM 16's x86 f16 -> i16 saturation
  /// gives NaN -32768.
  llvm::Value *floatToInt(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Type *To,
                          bool Signed) const override {
    if (X->getType()->getScalarType()->isHalfTy())
      X = B.CreateFPExt(X, X->getType()->getWithNewType(B.getFloatTy()));
    return B.CreateIntrinsic(Signed ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat,
                             {To, X->getType()}, {X});
  }
  llvm::Value *fmod(llvm::IRBuilder<> &B, llvm::Value *X, llvm::Value *Y) const override {
    return B.CreateFRem(X, Y); // C's fmod
  }
  void annotateKernel(llvm::Function *, unsigned, unsigned) const override {}
  /// Dots (CPULowerDot.cpp); inline assembly is refused (LLVM's x86
  /// backend aborts the process on a GPU's constraints).
  bool lowerInstruction(LoweringContext &C, Instruction &I) const override;

private:
  /// libmvec's function of \p Op on the float vector \p X, MathLanes at a
  /// time; null where it has none or \p X is no such vector.
  llvm::Value *vectorMath(llvm::IRBuilder<> &B, Opcode Op, llvm::Value *X) const;

  unsigned Threads, VectorBytes, MathLanes;
  /// One address space and one thread: every scope is the system's.
  llvm::SyncScope::ID syncScope(llvm::LLVMContext &, MemScope) const override {
    return llvm::SyncScope::System;
  }
};

} // namespace tritium

#endif // TRITIUM_CODEGEN_CPU_CPUTARGETINFO_H
