//===- MatrixCores.h - A target's matrix units, as the layouts see them -*- C++ -*-===//
//
// Which dots a target's matrix multiply units take, and in which register
// layouts their accumulator and operands sit: all the layout rules ask of
// them (dotLayout, requiredOperandLayout in LayoutRules.h) and all that the
// shared memory analysis and the lowering ask (isMatrixCoreDot). Units that
// read their operands from shared memory themselves, while the threads go
// on, also say in which shared layout an operand is staged for them
// (stage-dot-operands) and whether such a dot runs asynchronously and may
// stay in flight into its loop's next iteration (pipeline). A
// target's folder registers its units under the names the layout passes'
// options use (codegen/nvptx: "mma" for mma.sync, "wgmma" for Hopper's;
// codegen/amdgpu: "mfma"); nothing here names an instruction.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_MATRIXCORES_H
#define TRITIUM_ANALYSIS_MATRIXCORES_H

#include "ir/LinearLayout.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <vector>

namespace tritium {

class Instruction;
struct LayoutOptions;

class MatrixCores {
public:
  virtual ~MatrixCores() = default;
  /// The accumulator layout of \p Dot on these units for \p Opts's warps,
  /// or nullopt where it does not fit them (the FMA dot then takes it).
  virtual std::optional<LinearLayout> accumulatorLayout(const Instruction &Dot,
                                                        const LayoutOptions &Opts) const = 0;
  /// The layout operand \p K (0: A, 1: B) of \p Dot must have when its
  /// result has the layout \p Result; nullopt if \p Result is not one of
  /// these units' accumulators.
  virtual std::optional<LinearLayout> operandLayout(const Instruction &Dot, unsigned K,
                                                    const LinearLayout &Result) const = 0;
  /// Whether \p Dot, its result and operands are in these units' layouts.
  virtual bool places(const Instruction &Dot) const = 0;

  /// The shared layout operand \p K of \p Dot (a block of \p Shape whose
  /// dimension \p Contiguous is fastest, \p ElementBytes a element) is
  /// staged in where these units read it from shared memory themselves;
  /// nullopt: a swizzled buffer read into registers.
  virtual std::optional<LinearLayout> sharedOperandLayout(const Instruction &Dot, unsigned K,
                                                          llvm::ArrayRef<int64_t> Shape,
                                                          unsigned Contiguous,
                                                          unsigned ElementBytes) const {
    return std::nullopt;
  }
  /// Whether \p Dot runs asynchronously on these units, reading both
  /// operands from the shared buffers they are loaded from: copies issued
  /// after it overlap it.
  virtual bool runsAsynchronously(const Instruction &Dot) const { return false; }
  /// Whether \p Dot's asynchronous work may stay in flight into the next
  /// iteration of its loop, which must then not overwrite its operands'
  /// buffers before every thread has waited for it.
  virtual bool staysInFlight(const Instruction &Dot) const { return false; }
};

/// Registers \p C as \p Name; a target's folder does it once, from a
/// static object.
void registerMatrixCores(llvm::StringRef Name, std::unique_ptr<MatrixCores> C);
/// The units registered as \p Name, or null.
const MatrixCores *getMatrixCores(llvm::StringRef Name);
/// Every registered one, in the order of registration.
const std::vector<const MatrixCores *> &allMatrixCores();

/// A dot on some target's matrix units: its operands arrive in registers in
/// the units' layouts (stage-dot-operands brings them there).
bool isMatrixCoreDot(const Instruction &Dot);

} // namespace tritium

#endif // TRITIUM_ANALYSIS_MATRIXCORES_H
