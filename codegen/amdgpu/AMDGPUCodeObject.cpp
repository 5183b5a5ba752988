//===- AMDGPUCodeObject.cpp - AMDGPU assembly to a code object ------------===//
//
// The hsaco stage: LLVM's MC layer assembles the amdgcn text into a
// relocatable ELF object and LLD links it into the code object (an ELF
// shared object) the HIP runtime loads, both in process; the kernel's
// metadata note (msgpack) is read back for the compiler's metadata.
//
//===----------------------------------------------------------------------===//

#include "codegen/amdgpu/AMDGPUBackend.h"
#include "codegen/amdgpu/AMDGPUTargetMachine.h"

#include "ir/Diagnostics.h"

#include "lld/Common/CommonLinkerContext.h"
#include "lld/Common/Driver.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/MC/MCAsmBackend.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/MCCodeEmitter.h"
#include "llvm/MC/MCContext.h"
#include "llvm/MC/MCInstrInfo.h"
#include "llvm/MC/MCObjectFileInfo.h"
#include "llvm/MC/MCObjectWriter.h"
#include "llvm/MC/MCParser/MCAsmParser.h"
#include "llvm/MC/MCParser/MCTargetAsmParser.h"
#include "llvm/MC/MCRegisterInfo.h"
#include "llvm/MC/MCStreamer.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/MCTargetOptions.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <mutex>

using namespace tritium;

namespace {

/// AMDGPU assembly to an ELF relocatable object, by LLVM's MC layer.
std::string assemble(llvm::StringRef Asm, const Target &GPU) {
  const llvm::Target &T = amdgpuTarget();
  llvm::Triple TT(AMDGPUTriple);
  llvm::SourceMgr SrcMgr;
  SrcMgr.AddNewSourceBuffer(llvm::MemoryBuffer::getMemBufferCopy(Asm, "amdgcn"), llvm::SMLoc());
  std::string Diags;
  llvm::raw_string_ostream DiagOS(Diags);
  SrcMgr.setDiagHandler(
      [](const llvm::SMDiagnostic &D, void *Ctx) {
        D.print("amdgcn", *static_cast<llvm::raw_string_ostream *>(Ctx), /*ShowColors=*/false);
      },
      &DiagOS);
  llvm::MCTargetOptions MCOpts;
  std::unique_ptr<llvm::MCRegisterInfo> MRI(T.createMCRegInfo(AMDGPUTriple));
  std::unique_ptr<llvm::MCAsmInfo> MAI(T.createMCAsmInfo(*MRI, AMDGPUTriple, MCOpts));
  std::unique_ptr<llvm::MCInstrInfo> MCII(T.createMCInstrInfo());
  std::unique_ptr<llvm::MCSubtargetInfo> STI(
      T.createMCSubtargetInfo(AMDGPUTriple, GPU.getArchName(), amdgpuFeatures(GPU)));
  llvm::MCContext Ctx(TT, MAI.get(), MRI.get(), STI.get(), &SrcMgr, &MCOpts);
  std::unique_ptr<llvm::MCObjectFileInfo> MOFI(T.createMCObjectFileInfo(Ctx, /*PIC=*/true));
  Ctx.setObjectFileInfo(MOFI.get());
  llvm::SmallString<0> Obj;
  llvm::raw_svector_ostream OS(Obj);
  std::unique_ptr<llvm::MCAsmBackend> MAB(T.createMCAsmBackend(*STI, *MRI, MCOpts));
  std::unique_ptr<llvm::MCCodeEmitter> CE(T.createMCCodeEmitter(*MCII, Ctx));
  std::unique_ptr<llvm::MCObjectWriter> OW = MAB->createObjectWriter(OS);
  std::unique_ptr<llvm::MCStreamer> Str(T.createMCObjectStreamer(
      TT, Ctx, std::move(MAB), std::move(OW), std::move(CE), *STI, MCOpts.MCRelaxAll,
      MCOpts.MCIncrementalLinkerCompatible, /*DWARFMustBeAtTheEnd=*/false));
  std::unique_ptr<llvm::MCAsmParser> Parser(llvm::createMCAsmParser(SrcMgr, Ctx, *Str, *MAI));
  std::unique_ptr<llvm::MCTargetAsmParser> TAP(T.createMCAsmParser(*STI, *Parser, *MCII, MCOpts));
  if (!TAP)
    reportError({}, "LLVM has no AMDGPU assembler");
  Parser->setTargetParser(*TAP);
  if (Parser->Run(/*NoInitialTextSection=*/false))
    reportError({}, "cannot assemble the AMDGPU assembly:\n" + DiagOS.str());
  Str->finish();
  return std::string(Obj.str());
}

/// Links a relocatable object into a code object (a shared object) with
/// LLD, in process. LLD is not reentrant: one link at a time.
std::string link(llvm::StringRef Object) {
  static std::mutex LinkMutex;
  std::lock_guard<std::mutex> Lock(LinkMutex);
  llvm::SmallString<128> In, Out;
  int FD;
  if (llvm::sys::fs::createTemporaryFile("tritium", "o", FD, In))
    reportError({}, "cannot create a temporary file for the linker");
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Object;
  }
  if (llvm::sys::fs::createTemporaryFile("tritium", "hsaco", Out)) {
    llvm::sys::fs::remove(In);
    reportError({}, "cannot create a temporary file for the linker");
  }
  std::string Log;
  llvm::raw_string_ostream LogOS(Log);
  const char *Args[] = {"ld.lld", "-shared", In.c_str(), "-o", Out.c_str()};
  bool Ok = lld::elf::link(Args, LogOS, LogOS, /*exitEarly=*/false, /*disableOutput=*/false);
  lld::CommonLinkerContext::destroy();
  std::string Image;
  if (Ok) {
    if (auto Buf = llvm::MemoryBuffer::getFile(Out))
      Image = (*Buf)->getBuffer().str();
    else
      Ok = false;
  }
  llvm::sys::fs::remove(In);
  llvm::sys::fs::remove(Out);
  if (!Ok)
    reportError({}, "LLD cannot link the code object:\n" + LogOS.str());
  return Image;
}

} // namespace

std::string tritium::readHsacoMetadata(llvm::StringRef Hsaco, HsacoResult &R) {
  auto Bin = llvm::object::ELF64LEObjectFile::create(
      llvm::MemoryBufferRef(Hsaco, "hsaco"), /*InitContent=*/true);
  if (!Bin) {
    std::string S = llvm::toString(Bin.takeError());
    return "not an ELF code object: " + S;
  }
  const llvm::object::ELF64LEFile &ELF = Bin->getELFFile();
  auto Headers = ELF.program_headers();
  if (!Headers)
    return llvm::toString(Headers.takeError());
  for (const auto &Ph : *Headers) {
    if (Ph.p_type != llvm::ELF::PT_NOTE)
      continue;
    llvm::Error Err = llvm::Error::success();
    for (const auto &Note : ELF.notes(Ph, Err)) {
      if (Note.getName() != "AMDGPU" || Note.getType() != llvm::ELF::NT_AMDGPU_METADATA)
        continue;
      llvm::msgpack::Document Doc;
      llvm::ArrayRef<uint8_t> Desc = Note.getDesc();
      if (!Doc.readFromBlob(llvm::StringRef(reinterpret_cast<const char *>(Desc.data()),
                                            Desc.size()),
                            /*Multi=*/false))
        continue;
      auto &Root = Doc.getRoot().getMap(/*Convert=*/true);
      auto &Kernels = Root["amdhsa.kernels"].getArray(/*Convert=*/true);
      if (Kernels.size() == 0)
        continue;
      auto &K = Kernels[0].getMap(/*Convert=*/true);
      auto IntIn = [&](llvm::msgpack::MapDocNode &Map, const char *Key) {
        auto It = Map.find(Doc.getNode(Key));
        if (It == Map.end())
          return -1;
        if (It->second.getKind() == llvm::msgpack::Type::UInt)
          return int(It->second.getUInt());
        if (It->second.getKind() == llvm::msgpack::Type::Int)
          return int(It->second.getInt());
        return -1;
      };
      auto Int = [&](const char *Key) { return IntIn(K, Key); };
      auto Args = K.find(Doc.getNode(".args"));
      if (Args != K.end() && Args->second.getKind() == llvm::msgpack::Type::Array)
        for (llvm::msgpack::DocNode &A : Args->second.getArray()) {
          if (A.getKind() != llvm::msgpack::Type::Map)
            continue;
          llvm::msgpack::MapDocNode &Arg = A.getMap();
          HsacoArg Out;
          Out.Offset = IntIn(Arg, ".offset");
          Out.Size = IntIn(Arg, ".size");
          auto Kind = Arg.find(Doc.getNode(".value_kind"));
          if (Kind != Arg.end() && Kind->second.getKind() == llvm::msgpack::Type::String)
            Out.Kind = Kind->second.getString().str();
          R.Args.push_back(Out);
        }
      R.VGPRs = Int(".vgpr_count");
      R.SGPRs = Int(".sgpr_count");
      R.LDSBytes = Int(".group_segment_fixed_size");
      R.ScratchBytes = Int(".private_segment_fixed_size");
      R.KernargBytes = Int(".kernarg_segment_size");
      R.WavefrontSize = Int(".wavefront_size");
      R.MaxFlatWorkgroupSize = Int(".max_flat_workgroup_size");
      auto Name = K.find(Doc.getNode(".name"));
      if (Name != K.end() && Name->second.getKind() == llvm::msgpack::Type::String)
        R.KernelName = Name->second.getString().str();
    }
    llvm::consumeError(std::move(Err));
  }
  if (R.KernelName.empty())
    return "the code object has no AMDGPU kernel metadata";
  return "";
}

HsacoResult tritium::assembleHsaco(llvm::StringRef AMDGCN, const Target &GPU) {
  if (!GPU.isAMD())
    reportError({}, "the AMDGPU backend compiles for hip targets, not " + GPU.str());
  HsacoResult R;
  R.Hsaco = link(assemble(AMDGCN, GPU));
  std::string Err = readHsacoMetadata(R.Hsaco, R);
  if (!Err.empty())
    reportError({}, Err);
  return R;
}
