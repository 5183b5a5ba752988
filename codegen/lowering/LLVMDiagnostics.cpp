//===- LLVMDiagnostics.cpp - LLVM's errors as messages, not exits ---------===//

#include "codegen/lowering/LLVMDiagnostics.h"

#include "ir/Diagnostics.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
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

std::unique_ptr<llvm::Module> tritium::parseLLVMIR(llvm::StringRef IR, llvm::LLVMContext &Ctx) {
  llvm::SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(IR, Diag, Ctx);
  if (!M) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    Diag.print("llir", OS);
    reportError({}, "cannot parse the LLVM IR: " + OS.str());
  }
  return M;
}
