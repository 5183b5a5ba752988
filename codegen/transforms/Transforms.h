//===- Transforms.h - The machine-independent passes ------------*- C++ -*-===//
//
// The passes that clean up the IR the frontend emits before any layout or
// target decision: inline, dce, cse, canonicalize, licm and peephole. Each
// is a small class here; its work lives in an anonymous namespace of its own
// file (codegen/transforms/<Pass>.cpp), whose header comment is its
// contract. Passes.def lists them once for the registry.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_TRANSFORMS_TRANSFORMS_H
#define TRITIUM_CODEGEN_TRANSFORMS_TRANSFORMS_H

#include "ir/PassManager.h"

namespace tritium {

class AxisInfoAnalysis;
struct TensorCopies;

/// Inlines every call to a function not marked noinline and not recursive,
/// then removes the device functions whose calls were all inlined.
class InlinerPass : public Pass {
public:
  llvm::StringRef getName() const override { return "inline"; }
  PreservedAnalyses run(Module &M, AnalysisManager &AM) override;
};

/// Removes unreachable blocks and instructions that compute nothing used by
/// an instruction with side effects, dead phi cycles included.
class DCEPass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "dce"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override;
};

/// descriptor_load/_store as masked load/store of pointer blocks, but the
/// accesses that \p Keep keeps.
class LowerTensorDescriptorsPass : public FunctionPass {
public:
  enum class Keep {
    None,       // lower every access
    TensorMaps, // keep the accesses whose descriptor has a tensormap
    Copies,     // keep the accesses a target's tensor copies take (Copies)
  };
  explicit LowerTensorDescriptorsPass(Keep K = Keep::None, const TensorCopies *Copies = nullptr)
      : K(K), Copies(Copies) {}
  llvm::StringRef getName() const override { return "lower-tensor-descriptors"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override;

private:
  Keep K;
  const TensorCopies *Copies;
};

/// Checks each load, store and atomic of a kernel against the extent of the
/// tensor its pointer parameter points into (hidden parameters), reports
/// the first violation and skips the offending lanes (bounds_check).
class CheckBoundsPass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "check-bounds"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override;
};

/// Recomputes in i64 the i32 arithmetic that getelementptr offsets and
/// sext'ed values are made of (kernels launched on tensors of 2^31
/// elements or more).
class WidenOffsetsPass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "widen-offsets"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override;
};

/// Replaces a pure instruction by an identical one that dominates it.
class CSEPass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "cse"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override;
};

/// Constant folding and algebraic simplification, to a fixpoint.
class CanonicalizePass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "canonicalize"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override;
};

/// Hoists pure, non-memory, loop-invariant instructions into preheaders.
class LICMPass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "licm"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override;
};

/// Folds chains of block-shaping instructions and simplifies constant masks.
class PeepholePass : public FunctionPass {
public:
  llvm::StringRef getName() const override { return "peephole"; }
  PreservedAnalyses runOnFunction(Function &F, AnalysisManager &AM) override;
};

} // namespace tritium

#endif // TRITIUM_CODEGEN_TRANSFORMS_TRANSFORMS_H
