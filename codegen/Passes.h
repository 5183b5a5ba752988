//===- Passes.h - Every pass of every library -------------------*- C++ -*-===//
#ifndef TRITIUM_CODEGEN_PASSES_H
#define TRITIUM_CODEGEN_PASSES_H

namespace tritium {

class PassRegistry;

/// Adds every pass Tritium has (ir/, analysis/, codegen/) to \p R. Safe to
/// call more than once.
void registerAllPasses(PassRegistry &R);

} // namespace tritium

#endif // TRITIUM_CODEGEN_PASSES_H
