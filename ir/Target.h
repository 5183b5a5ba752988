//===- Target.h - The GPU a module is compiled for ---------------*- C++ -*-===//
//
// A target description, parsed from the text users write:
//
//   cuda:90, cuda:sm_90, cuda:90a, cuda:sm_90a, hip:gfx90a, cuda, hip
//
// It says who makes the GPU, the architecture as the hardware names it
// (sm_90a stays sm_90a: its instructions are not sm_90's), its number, the
// warp size, the PTX version to emit and the features the compiler may use.
// Every stage takes one, so no pass assumes a warp of 32 or reads an
// architecture number to decide what an instruction needs.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_IR_TARGET_H
#define TRITIUM_IR_TARGET_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace tritium {

class Target {
public:
  /// Other: a kind registered by a target's folder (registerKind).
  enum class Vendor { NVIDIA, AMD, Other };

  /// What the compiler may use (a bit each).
  enum Feature : uint32_t {
    /// mma.sync m16n8k16 and ldmatrix (sm_80 on).
    MMASync = 1u << 0,
    /// cp.async from global to shared memory (sm_80 on).
    CpAsync = 1u << 1,
    /// atom.add.bf16 (sm_90 on).
    BF16Atomics = 1u << 2,
    /// The tensor memory accelerator and mbarrier transactions (sm_90 on).
    TMA = 1u << 3,
    /// wgmma and setmaxnreg: the architecture-specific sm_90a only.
    WGMMA = 1u << 4,
    /// AMD's matrix cores (gfx908, gfx90a, gfx94x).
    MFMA = 1u << 5,
    /// stmatrix, the warp's store of 8x8 matrices (sm_90 on).
    StMatrix = 1u << 6,
  };

  /// NVIDIA sm_90 (the default of `cuda`).
  Target();

  /// Reads a target as users write it (see the file comment). Returns "" and
  /// sets \p Out, or says what is wrong and lists what is accepted.
  static std::string parse(llvm::StringRef Text, Target &Out);
  /// Makes `<Kind>:<arch>` (any architecture name) and `<Kind>` targets of a
  /// vendor Other with \p WarpSize lanes, \p MaxSharedBytes of shared
  /// memory and no features: a target that a new folder of codegen/ brings
  /// (its Backend registered for the same kind).
  static void registerKind(llvm::StringRef Kind, unsigned WarpSize, unsigned MaxSharedBytes);

  /// What str() starts with: "cuda", "hip", or a registered kind.
  std::string getKind() const;
  bool isNVIDIA() const { return V == Vendor::NVIDIA; }
  bool isAMD() const { return V == Vendor::AMD; }
  /// The architecture as the hardware names it: "sm_90a", "gfx90a".
  const std::string &getArchName() const { return ArchName; }
  /// NVIDIA: the compute capability (90 for sm_90 and sm_90a); AMD: the
  /// processor's hexadecimal number (0x90a for gfx90a).
  unsigned getNumber() const { return Number; }
  /// The "a" of sm_90a: instructions of this architecture alone.
  bool isArchSpecific() const { return ArchSpecific; }
  unsigned getWarpSize() const { return WarpSize; }
  /// The PTX ISA version to emit, as 10 * major + minor (78 is PTX 7.8); 0
  /// for AMD.
  unsigned getPTXVersion() const { return PTXVersion; }
  bool has(Feature F) const { return Features & F; }
  /// The most shared memory (LDS) one program may use, in bytes: CUDA's
  /// opt-in maximum per block for the compute capability (227 KiB on
  /// sm_90), 64 KiB a workgroup on AMD.
  unsigned getMaxSharedBytes() const { return MaxSharedBytes; }

  /// The text parse() reads back: "cuda:90", "cuda:90a", "hip:gfx90a".
  std::string str() const;
  bool operator==(const Target &O) const { return str() == O.str(); }
  bool operator!=(const Target &O) const { return !(*this == O); }

private:
  Vendor V = Vendor::NVIDIA;
  std::string Kind; ///< Vendor Other's
  std::string ArchName;
  unsigned Number = 0;
  bool ArchSpecific = false;
  unsigned WarpSize = 32;
  unsigned PTXVersion = 0;
  uint32_t Features = 0;
  unsigned MaxSharedBytes = 0;
};

} // namespace tritium

#endif // TRITIUM_IR_TARGET_H
