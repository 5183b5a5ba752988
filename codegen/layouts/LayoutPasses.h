//===- LayoutPasses.h - The layout-level passes ------------------*- C++ -*-===//
#ifndef TRITIUM_CODEGEN_LAYOUTS_LAYOUTPASSES_H
#define TRITIUM_CODEGEN_LAYOUTS_LAYOUTPASSES_H

#include "analysis/LayoutRules.h"
#include "analysis/SharedMemory.h"

#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>

namespace tritium {

class DominatorTree;
class Function;
class MatrixCores;
class Pass;
class PassRegistry;

/// assign-layouts: see codegen/layouts/AssignLayouts.cpp.
std::unique_ptr<Pass> createAssignLayoutsPass(const LayoutOptions &Opts);
/// remove-layout-conversions: see RemoveLayoutConversions.cpp.
std::unique_ptr<Pass> createRemoveLayoutConversionsPass();
/// stage-dot-operands: see StageDotOperands.cpp; \p Cores: the target's
/// matrix units, asked for the shared layouts they read operands in.
std::unique_ptr<Pass> createStageDotOperandsPass(const MatrixCores *Cores = nullptr);

/// pipeline: see codegen/layouts/PipelineLoops.cpp; \p NumStages for the
/// loops that do not ask for a number themselves; \p Cores: the target's
/// matrix units, whose asynchronous dots the copies go after;
/// \p RegisterCopies: copies staged through registers (no async copies).
std::unique_ptr<Pass> createPipelineLoopsPass(unsigned NumStages,
                                              const MatrixCores *Cores = nullptr,
                                              bool RegisterCopies = false);


/// insert-barriers: see codegen/layouts/InsertBarriers.cpp.
std::unique_ptr<Pass> createInsertBarriersPass();

/// What an instruction does to shared memory.
using SharedAccessFn = llvm::function_ref<SharedAccesses(const Instruction &)>;
/// Places the barriers \p F needs between the shared memory accesses that
/// \p Accesses describes (insert-barriers passes the allocation's);
/// returns how many it inserted.
unsigned insertBarriers(Function &F, const DominatorTree &DT, SharedAccessFn Accesses);

/// Registers them, with the num-warps option of assign-layouts.
void registerLayoutPasses(PassRegistry &R);

} // namespace tritium

#endif // TRITIUM_CODEGEN_LAYOUTS_LAYOUTPASSES_H
