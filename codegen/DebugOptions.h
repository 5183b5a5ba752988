//===- DebugOptions.h - The debugging knobs the C++ stages read -*- C++ -*-===//
//
// What docs/knobs.md's debugging variables ask of the tir and tgir passes
// and of LLVM's: dumps before each pass, each pass's time, LLVM's
// optimization off or its command-line flags, a reproducer. They change
// what is printed, never the compiled code (but DisableLLVMOpt and
// LLVMFlags, which the cache key carries).
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_DEBUGOPTIONS_H
#define TRITIUM_CODEGEN_DEBUGOPTIONS_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tritium {

struct DebugOptions {
  /// The Tritium IR before and after every tir and tgir pass
  /// (TRITIUM_DUMP_IR).
  bool DumpIR = false;
  /// The kernel the dumps' banners name.
  std::string Kernel;
  /// The LLVM IR before every LLVM pass (TRITIUM_LLVM_IR_DUMP).
  bool DumpLLVMIR = false;
  /// Each tir and tgir pass's wall time (TRITIUM_PASS_TIMING).
  bool PassTiming = false;
  /// Each LLVM pass's wall time (TRITIUM_LLVM_TIMING).
  bool LLVMTiming = false;
  /// The assembler's log, `ptxas -v`'s (TRITIUM_DUMP_PTXAS_LOG).
  bool DumpAssemblerLog = false;
  /// No LLVM optimization pipeline (TRITIUM_DISABLE_LLVM_OPT=1).
  bool DisableLLVMOpt = false;
  /// LLVM command-line flags such as "-disable-lsr" or "-debug-only=isel"
  /// (TRITIUM_DISABLE_LLVM_OPT=flags, TRITIUM_LLVM_DEBUG_ONLY): LLVM's
  /// options are the process's, so each distinct string is applied once.
  std::string LLVMFlags;
  /// Where dumps and timings go, appended (TRITIUM_DUMP_PATH); empty: stderr.
  std::string DumpPath;
  /// A stage's reproducer goes to `<prefix>.<stage>.repro.tir`
  /// (TRITIUM_REPRODUCER_PATH); empty: none.
  std::string ReproducerPrefix;

  /// Runs \p Body with the stream dumps go to.
  void dump(llvm::function_ref<void(llvm::raw_ostream &)> Body) const {
    if (DumpPath.empty())
      return Body(llvm::errs());
    std::error_code EC;
    llvm::raw_fd_ostream OS(DumpPath, EC, llvm::sys::fs::OF_Append | llvm::sys::fs::OF_Text);
    Body(EC ? llvm::errs() : OS);
  }
};

} // namespace tritium

#endif // TRITIUM_CODEGEN_DEBUGOPTIONS_H
