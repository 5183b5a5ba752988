//===- Verifier.h - Checking a module's invariants ---------------*- C++ -*-===//
#ifndef TRITIUM_IR_VERIFIER_H
#define TRITIUM_IR_VERIFIER_H

#include <string>
#include <vector>

namespace tritium {

class Function;
class Module;

/// Checks every invariant listed at the top of Verifier.cpp and returns one
/// message per violation (empty when the module is valid). Each message
/// names the function, the block and the printed instruction.
std::vector<std::string> verifyModule(const Module &M);
std::vector<std::string> verifyFunction(const Function &F);

/// Throws CompileError with all messages, one per line, if \p M is invalid.
void verifyModuleOrThrow(const Module &M);

} // namespace tritium

#endif // TRITIUM_IR_VERIFIER_H
