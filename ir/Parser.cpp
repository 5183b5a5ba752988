// placeholder: being written
#include "ir/Parser.h"
using namespace tritium;
std::unique_ptr<Module> tritium::parseModule(llvm::StringRef, Context &, llvm::StringRef) { throw CompileError("parser not written yet"); }
std::string tritium::formatError(const CompileError &E, llvm::StringRef) { return E.describe() + "\n"; }
