"""One target, one folder (issue 40): the analyses, the layout passes, the
generic lowering and the transforms name no vendor's instructions, and TargetInfo, what lowering
asks of a target, has no hook named after one. A target lowers its own
matrix cores, barriers and tensor copies (TargetInfo::lowerInstruction) in
codegen/nvptx/ or codegen/amdgpu/, and tells the layout rules which dots its
matrix units take (analysis/MatrixCores.h).

The vendors' layouts are in their folders (codegen/nvptx/MMALayouts.*,
WGMMALayouts.*, codegen/amdgpu/MFMALayouts.*): no generic file names one of
their functions; the layout passes ask the registered matrix units and
tensor copies (analysis/MatrixCores.h, TensorCopies.h) instead."""

import os
import re

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
GENERIC = ["analysis", "codegen/layouts", "codegen/lowering", "codegen/transforms"]

# An NVPTX or AMDGPU intrinsic, target header, or instruction mnemonic.
VENDOR_CODE = re.compile(
    r"Intrinsic::(nvvm|amdgcn)_|llvm\.(nvvm|amdgcn)\.|Intrinsics(NVPTX|AMDGPU)\.h"
    r"|codegen/(nvptx|amdgpu)/"
    r"|\b(mma\.sync|wgmma\.|ldmatrix|stmatrix|cp\.async|mbarrier\.|shfl\.sync|bar\.sync"
    r"|cvt\.rn\.|fence\.proxy|cvta\.|v_mfma|ds_bpermute|s_waitcnt|s_barrier)")
VENDOR_LAYOUTS = ["codegen/nvptx/MMALayouts.h", "codegen/nvptx/WGMMALayouts.h",
                  "codegen/amdgpu/MFMALayouts.h"]
# Names of hooks that would be an instruction's or a vendor unit's.
VENDOR_HOOK = re.compile(r"mma|mfma|tma|mbarrier|ldmatrix|proxy|ptx|nvvm|amdgcn|hopper|warpgroup",
                         re.IGNORECASE)

def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def sources(folder):
    for name in sorted(os.listdir(os.path.join(ROOT, folder))):
        if name.endswith((".cpp", ".h")):
            path = f"{folder}/{name}"
            with open(os.path.join(ROOT, path)) as f:
                yield path, f.read()


def vendor_code(text):
    return sorted({m.group(0) for m in VENDOR_CODE.finditer(strip_comments(text))})


def virtual_hooks(text):
    return re.findall(r"virtual\s[^;{(]*?\b(\w+)\s*\(", strip_comments(text))


def test_analyses_lowering_and_transforms_name_no_vendor_instruction():
    found = {}
    for folder in GENERIC:
        for path, text in sources(folder):
            if hits := vendor_code(text):
                found[path] = hits
    assert not found, f"vendor instructions outside the targets' folders: {found}"


def vendor_layout_functions():
    """The functions the vendors' layout headers declare."""
    names = set()
    for path in VENDOR_LAYOUTS:
        with open(os.path.join(ROOT, path)) as f:
            names |= set(re.findall(r"^[A-Za-z][^;()/]*?\b(\w+)\(", strip_comments(f.read()), re.M))
    return names


def test_vendor_layouts_are_read_only_by_their_targets():
    names = vendor_layout_functions()
    assert {"isMMADot", "isWGMMADot", "wgmmaStaysInFlight", "nvmmaSharedLayout", "tmaCopies"} <= names
    word = re.compile(r"\b(" + "|".join(sorted(names)) + r")\b")
    readers = {path: sorted(set(word.findall(strip_comments(text))))
               for folder in GENERIC for path, text in sources(folder) if word.search(strip_comments(text))}
    assert not readers, f"generic code naming a vendor's layout functions: {readers}"


def test_target_info_has_no_vendor_named_hook():
    with open(os.path.join(ROOT, "codegen/lowering/TargetInfo.h")) as f:
        hooks = virtual_hooks(f.read())
    assert "lowerInstruction" in hooks and "threadId" in hooks
    assert not [h for h in hooks if VENDOR_HOOK.search(h)]


def test_the_checks_see_what_they_forbid():
    code = ('B.CreateIntrinsic(llvm::Intrinsic::nvvm_ldmatrix, {}, {});\n'
            'callAsm(B, {}, {}, "wgmma.fence.sync.aligned;", "", true);\n'
            '// a comment may say mma.sync\n')
    assert vendor_code(code) == ["Intrinsic::nvvm_", "wgmma."]
    header = ("virtual void wgmmaWait(llvm::IRBuilder<> &B) const {}\n"
              "virtual llvm::Value *threadId(llvm::IRBuilder<> &B) const = 0;\n")
    assert virtual_hooks(header) == ["wgmmaWait", "threadId"]
    assert VENDOR_HOOK.search("wgmmaWait") and not VENDOR_HOOK.search("threadId")


def test_the_toy_target_is_a_folder_and_nothing_else():
    """tests/toytarget/ registers a target kind, a TargetInfo and a Backend
    (doctest ToyTargetTest compiles the vector add through it); no source
    outside that folder names it."""
    folder = os.path.join(ROOT, "tests", "toytarget")
    assert sorted(os.listdir(folder)) == ["ToyTarget.cpp", "ToyTargetTest.cpp"]
    named = []
    for top in ("ir", "frontend", "analysis", "codegen", "runtime", "python", "tools"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, top)):
            for name in files:
                if name.endswith((".cpp", ".h", ".py", ".txt")):
                    with open(os.path.join(dirpath, name), errors="replace") as f:
                        if re.search(r"\btoy\b", f.read(), re.IGNORECASE):
                            named.append(os.path.relpath(os.path.join(dirpath, name), ROOT))
    assert not named
