//===- LLVMDiagnostics.cpp - LLVM's errors as messages, not exits ---------===//

#include "codegen/lowering/LLVMDiagnostics.h"

#include "ir/Diagnostics.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace tritium;

LLVMErrorCollector::LLVMErrorCollector(llvm::LLVMContext &Ctx) {
  Ctx.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo &DI, void *Self) {
        if (DI.getSeverity() != llvm::DS_Error)
          return;
        std::string Text;
        llvm::raw_string_ostream OS(Text);
        llvm::DiagnosticPrinterRawOStream DP(OS);
        DI.print(DP);
        // A diagnostic of no source line prints a location of nothing.
        llvm::StringRef Message = llvm::StringRef(OS.str());
        Message.consume_front("<unknown>:0:0: ");
        std::string &Out = static_cast<LLVMErrorCollector *>(Self)->Errors;
        if (!Out.empty())
          Out += '\n';
        Out += Message.str();
      },
      this);
}

void LLVMErrorCollector::throwIfAny(llvm::StringRef What) const {
  if (!Errors.empty())
    reportError({}, What.str() + ": " + Errors);
}
