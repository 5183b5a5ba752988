//===- LayoutPasses.h - The layout-level passes ------------------*- C++ -*-===//
#ifndef TRITIUM_CODEGEN_LAYOUTS_LAYOUTPASSES_H
#define TRITIUM_CODEGEN_LAYOUTS_LAYOUTPASSES_H

#include "analysis/LayoutRules.h"

#include <memory>

namespace tritium {

class Pass;
class PassRegistry;

/// assign-layouts: see codegen/layouts/AssignLayouts.cpp.
std::unique_ptr<Pass> createAssignLayoutsPass(const LayoutOptions &Opts);
/// remove-layout-conversions: see RemoveLayoutConversions.cpp.
std::unique_ptr<Pass> createRemoveLayoutConversionsPass();

/// Registers both, with the num-warps option of assign-layouts.
void registerLayoutPasses(PassRegistry &R);

} // namespace tritium

#endif // TRITIUM_CODEGEN_LAYOUTS_LAYOUTPASSES_H
