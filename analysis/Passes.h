//===- Passes.h - Printer passes of the analyses ----------------*- C++ -*-===//
#ifndef TRITIUM_ANALYSIS_PASSES_H
#define TRITIUM_ANALYSIS_PASSES_H

namespace tritium {

class PassRegistry;

/// Adds the analyses' printer passes ("print<axis-info>", ...) to \p R.
void registerAnalysisPasses(PassRegistry &R);

} // namespace tritium

#endif // TRITIUM_ANALYSIS_PASSES_H
