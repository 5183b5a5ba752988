//===- LayoutRules.h - How layouts flow through instructions ----*- C++ -*-===//
//
// The per-opcode facts the layout passes and the code generator share:
// which layout an instruction's result gets from its operands' layouts
// (forward), which layout an operand must have for a given result layout
// (backward), and the layouts that anchor the assignment (coalesced memory
// accesses, FMA dots). Every rule is chosen so that the instruction needs no
// data movement between threads: elementwise ops keep the layout, reductions
// slice it, reshape/trans/expand_dims/broadcast/join/split/cat reinterpret
// the same linear map. Where no such layout exists the passes insert a
// convert_layout.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_ANALYSIS_LAYOUTRULES_H
#define TRITIUM_ANALYSIS_LAYOUTRULES_H

#include "analysis/Layouts.h"

#include <optional>

namespace tritium {

class AxisInfoAnalysis;
class Instruction;
class Value;

class MatrixCores;

/// What the layout passes need to know about the target.
struct LayoutOptions {
  unsigned NumWarps = 4;
  unsigned WarpSize = 32;
  /// The target's matrix units (analysis/MatrixCores.h): the dots that fit
  /// them take their layouts; null: every dot is the FMA dot.
  const MatrixCores *Cores = nullptr;
  /// Each thread's elements are one run of the block (its share, the most
  /// contiguous dimension filled first) instead of a GPU's pieces that
  /// consecutive lanes interleave: the cpu's threads are the iterations of
  /// a loop (codegen/cpu/CPUBackend.cpp), whose vectors should be whole.
  bool ThreadRuns = false;
};

/// Dimensions of a pointer block from most to least contiguous (by the axis
/// analysis; ties go to the later dimension, i.e. row-major).
llvm::SmallVector<unsigned, 4> accessOrder(const Value *Ptr, const AxisInfoAnalysis &AI);

/// The elements of one vector access through the pointer block \p Ptr along
/// its most contiguous dimension: what contiguity and alignment allow, at
/// most 16 bytes.
int64_t accessVectorWidth(const Value *Ptr, const AxisInfoAnalysis &AI);

/// The layout of a coalesced access through the pointer block \p Ptr: each
/// thread takes accessVectorWidth elements along the most contiguous
/// dimension, or \p AtLeast where that is more (a load takes the width of
/// the widest access it computes with, so that a gather beside a vector
/// load needs no conversion), and consecutive lanes take consecutive runs.
/// With Opts.ThreadRuns: each thread its share as one run, the most
/// contiguous dimension first.
LinearLayout coalescedLayout(const Value *Ptr, const AxisInfoAnalysis &AI,
                             const LayoutOptions &Opts, int64_t AtLeast = 1);

/// The layout of a descriptor_load's block \p Block: row-major, each
/// thread a vector of up to 16 bytes of a row (what a coalesced load of a
/// contiguous row gets; TMA then writes it, and this layout only reads it).
LinearLayout descriptorBlockLayout(const class Type *Block, const LayoutOptions &Opts);

/// A layout for a block nothing constrains: one element per thread and
/// register round, row-major (with Opts.ThreadRuns, each thread's share as
/// one run, row-major).
LinearLayout defaultLayout(llvm::ArrayRef<int64_t> Shape, const LayoutOptions &Opts);

/// The rank-0 layout of a scalar: every lane and warp holds it (all their
/// bases zero), no registers. A scalar operand of join, or the results of a
/// split into scalars, in the layout rules' terms: the rules then put the
/// joined (split) dimension in registers, e.g.
/// `inferResultLayout(join a, b)` with both operands scalarLayout is
/// `register=[[1]]` over every lane and warp.
LinearLayout scalarLayout(const LayoutOptions &Opts);

/// The result layout of an FMA dot of shape [M, N] (or [B, M, N]): each
/// thread owns a small 2-d tile of the result, for register reuse (with
/// Opts.ThreadRuns, the cpu's, each thread's share row-major).
LinearLayout fmaDotLayout(llvm::ArrayRef<int64_t> Shape, const LayoutOptions &Opts);

/// The result layout of \p Dot: the accumulator of Opts.Cores where the
/// dot fits them, else fmaDotLayout.
LinearLayout dotLayout(const Instruction &Dot, const LayoutOptions &Opts);

/// \p L restricted to a block of \p SrcShape broadcast into it: dimensions
/// of size 1 in the source lose their coordinates; registers that then
/// only held copies are dropped.
LinearLayout restrictLayout(const LinearLayout &L, llvm::ArrayRef<int64_t> SrcShape);

/// The result layout \p I gets from the layouts of its operands (null for
/// scalar operands), or nullopt when its users decide (sources such as
/// make_range, splat and constants, broadcasts, and operands not known).
std::optional<LinearLayout> inferResultLayout(const Instruction &I,
                                              llvm::ArrayRef<const LinearLayout *> OperandLayouts);

/// The layout operand \p K of \p I must have when I's result has layout
/// \p Result (null if I has no block result, e.g. a store, whose operands
/// follow the store's anchor), or nullopt if the rule does not constrain it.
std::optional<LinearLayout> requiredOperandLayout(const Instruction &I, unsigned K,
                                                  const LinearLayout &Result);

/// \p L with the dimensions where \p SrcShape is 1 projected away, keeping
/// every register: what each register of a broadcast's result holds, seen
/// in its source's coordinates.
LinearLayout projectLayout(const LinearLayout &L, llvm::ArrayRef<int64_t> SrcShape);

/// Whether \p I is cheap enough to recompute in another layout instead of
/// converting its result (make_range, splat, constant, undef).
bool isRematerializable(const Instruction &I);

/// The block operand whose layout the other block operands of \p I share,
/// because the lowering walks their registers in lockstep: the first of a
/// reduce over several operands, or of a print; null for instructions whose
/// operands follow requiredOperandLayout instead.
const Value *sharedLayoutOperand(const Instruction &I);

/// "" if \p L is held by Opts.NumWarps warps of Opts.WarpSize lanes with at
/// most 2^20 registers each, else what is wrong.
std::string checkLayoutFits(const LinearLayout &L, const LayoutOptions &Opts);

/// Why the layouts at \p I cannot be lowered, or "" if they can: each of its
/// block results' layouts fits (checkLayoutFits); each block operand has the layout its
/// user requires (requiredOperandLayout, sharedLayoutOperand); a result
/// that follows from its operands (reductions, join, cat) has the layout
/// they imply. assign-layouts guarantees all of it; the lowering checks it
/// because layout-level IR can also come from outside (a tgir override).
std::string checkLayouts(const Instruction &I, const LayoutOptions &Opts);

} // namespace tritium

#endif // TRITIUM_ANALYSIS_LAYOUTRULES_H
