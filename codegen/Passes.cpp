//===- Passes.cpp - Registering every pass --------------------------------===//

#include "codegen/Passes.h"
#include "ir/PassManager.h"

using namespace tritium;

void tritium::registerAllPasses(PassRegistry &R) {
  registerIRPasses(R);
}
