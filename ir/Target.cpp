//===- Target.cpp - The GPU a module is compiled for ----------------------===//
//
// The architectures Tritium compiles for, and what each may use. NVIDIA's
// are those LLVM 16's NVPTX backend knows (sm_70 to sm_90) plus sm_90a,
// which LLVM prints as sm_90 and the backend patches (PTX 8.0: wgmma and
// the other sm_90a instructions are inline PTX). AMD's are the processors
// LLVM 16's AMDGPU backend knows that Triton supports: CDNA up to gfx940
// (LLVM 16 has no gfx941 or gfx942, so MI300X is out of reach) and RDNA 2/3.
//
//===----------------------------------------------------------------------===//

#include "ir/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace tritium;

namespace {

struct NVIDIAArch {
  unsigned Number;
  uint32_t Features;
  unsigned MaxSharedKiB; // per block, opt-in (the CUDA programming guide's table)
};

constexpr uint32_t Ampere = Target::MMASync | Target::CpAsync;
constexpr uint32_t Hopper = Ampere | Target::BF16Atomics | Target::TMA | Target::StMatrix;

const NVIDIAArch NVIDIAArchs[] = {
    {70, 0, 96},       {72, 0, 96},       {75, 0, 64},       {80, Ampere, 163},
    {86, Ampere, 99},  {87, Ampere, 163}, {89, Ampere, 99},  {90, Hopper, 227},
};

struct AMDArch {
  const char *Name;
  unsigned WarpSize;
  uint32_t Features;
};

const AMDArch AMDArchs[] = {
    {"gfx908", 64, Target::MFMA}, {"gfx90a", 64, Target::MFMA}, {"gfx940", 64, Target::MFMA},
    {"gfx1030", 32, 0},           {"gfx1100", 32, 0},
};

std::string nvidiaList() {
  std::string S;
  for (const NVIDIAArch &A : NVIDIAArchs)
    S += (S.empty() ? "" : ", ") + std::to_string(A.Number);
  return S + ", 90a";
}

/// The kinds registerKind made: kind -> (warp size, shared bytes).
llvm::StringMap<std::pair<unsigned, unsigned>> &otherKinds() {
  static llvm::StringMap<std::pair<unsigned, unsigned>> Kinds;
  return Kinds;
}

std::string amdList() {
  std::string S;
  for (const AMDArch &A : AMDArchs)
    S += (S.empty() ? "" : ", ") + std::string(A.Name);
  return S;
}

} // namespace

Target::Target()
    : V(Vendor::NVIDIA), ArchName("sm_90"), Number(90), WarpSize(32), PTXVersion(78),
      Features(Hopper), MaxSharedBytes(227 * 1024) {}

std::string Target::parse(llvm::StringRef Text, Target &Out) {
  std::string Lower = Text.trim().lower();
  llvm::StringRef T = Lower;
  if (T == "cuda")
    T = "cuda:90";
  else if (T == "hip")
    T = "hip:gfx90a";
  Target R;
  if (T.consume_front("cuda:")) {
    llvm::StringRef Digits = T;
    Digits.consume_front("sm_") || Digits.consume_front("sm");
    R.ArchSpecific = Digits.consume_back("a");
    unsigned N = 0;
    const NVIDIAArch *A = nullptr;
    if (!Digits.empty() && llvm::all_of(Digits, llvm::isDigit) && !Digits.getAsInteger(10, N))
      for (const NVIDIAArch &Known : NVIDIAArchs)
        if (Known.Number == N)
          A = &Known;
    // Only sm_90 has an architecture-specific variant here.
    if (!A || (R.ArchSpecific && N != 90))
      return "unsupported CUDA architecture '" + T.str() + "': expected one of " + nvidiaList() +
             " (written as 90, sm_90 or 90a)";
    R.V = Vendor::NVIDIA;
    R.Number = N;
    R.ArchName = "sm_" + std::to_string(N) + (R.ArchSpecific ? "a" : "");
    R.WarpSize = 32;
    R.PTXVersion = R.ArchSpecific ? 80 : 78;
    R.Features = A->Features | (R.ArchSpecific ? uint32_t(WGMMA) : 0u);
    R.MaxSharedBytes = A->MaxSharedKiB * 1024;
  } else if (T.consume_front("hip:")) {
    const AMDArch *A = nullptr;
    for (const AMDArch &Known : AMDArchs)
      if (T == Known.Name)
        A = &Known;
    if (!A && (T == "gfx941" || T == "gfx942"))
      return "unsupported HIP architecture '" + T.str() +
             "': LLVM 16 has no gfx941 or gfx942 (MI300X); expected one of " + amdList();
    if (!A)
      return "unsupported HIP architecture '" + T.str() + "': expected one of " + amdList();
    R.V = Vendor::AMD;
    R.ArchName = A->Name;
    llvm::StringRef(A->Name).drop_front(3).getAsInteger(16, R.Number);
    R.WarpSize = A->WarpSize;
    R.PTXVersion = 0;
    R.Features = A->Features;
    R.MaxSharedBytes = 64 * 1024;
  } else if (auto It = otherKinds().find(T.split(':').first); It != otherKinds().end()) {
    R.V = Vendor::Other;
    R.Kind = It->first().str();
    R.ArchName = T.split(':').second.str();
    R.Number = 0;
    R.WarpSize = It->second.first;
    R.PTXVersion = 0;
    R.Features = 0;
    R.MaxSharedBytes = It->second.second;
  } else {
    std::string Others;
    for (const auto &K : otherKinds())
      Others += ", " + K.first().str() + ":<arch>";
    return "unknown target '" + Text.str() + "': expected cuda:<cc> (one of " + nvidiaList() +
           ") or hip:<gfx> (one of " + amdList() + ")" + Others;
  }
  Out = std::move(R);
  return "";
}

void Target::registerKind(llvm::StringRef Kind, unsigned WarpSize, unsigned MaxSharedBytes) {
  otherKinds()[Kind] = {WarpSize, MaxSharedBytes};
}

std::string Target::getKind() const {
  return V == Vendor::NVIDIA ? "cuda" : V == Vendor::AMD ? "hip" : Kind;
}

std::string Target::str() const {
  if (V == Vendor::Other)
    return Kind + (ArchName.empty() ? "" : ":" + ArchName);
  if (V == Vendor::AMD)
    return "hip:" + ArchName;
  return "cuda:" + std::to_string(Number) + (ArchSpecific ? "a" : "");
}
