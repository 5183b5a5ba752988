"""The Python side of the fake CUDA driver (FakeCuda.cpp), for tests and
bench/launch_overhead.py on machines without a GPU.

    path = fakecuda.find_library()          # build*/tests/fakecuda/libcuda.so.1
    fake = fakecuda.FakeCuda(path)          # the same loaded library Tritium uses
    fake.set("shared_optin", 101376); fake.inject("cuLaunchKernel", 700)
    fake.launches()[-1]["params"]           # the packed bytes of each parameter
    fake.launches()[-1]["attributes"]       # cuLaunchKernelEx's: {"cooperative": 1}
    fake.encodes()[-1]["dims"]              # a cuTensorMapEncodeTiled call's arguments

``StubBackend`` compiles a kernel's ``ptx`` stage to an entry with the
kernel's parameters and an empty body: the fake driver reads the parameter
sizes from it (as a real driver reads a cubin's), and a real GPU would run it.
"""

import ctypes
import glob
import json
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

#: CUfunction_attribute values (cuda.h).
MAX_THREADS_PER_BLOCK = 0
SHARED_SIZE_BYTES = 1
LOCAL_SIZE_BYTES = 3
NUM_REGS = 4
MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
#: CUlaunchAttributeID values (cuda.h) by the names launches() gives them.
LAUNCH_ATTRIBUTES = {2: "cooperative", 6: "programmatic_stream_serialization"}


def find_library():
    """The fake libcuda.so.1: $FAKECUDA_LIBRARY, else the newest one a build
    tree of this checkout holds; None when there is none."""
    path = os.environ.get("FAKECUDA_LIBRARY")
    if path:
        return os.path.realpath(path)
    found = glob.glob(os.path.join(REPO, "build*", "tests", "fakecuda", "libcuda.so.1"))
    return os.path.realpath(max(found, key=os.path.getmtime)) if found else None


class FakeCuda:
    """Settings, injected errors and the launch log of the fake driver at
    ``path`` (dlopen returns the library Tritium loaded from the same path)."""

    def __init__(self, path):
        self.path = path
        lib = self.lib = ctypes.CDLL(path)
        lib.fakecuda_set.argtypes = [ctypes.c_char_p, ctypes.c_longlong]
        lib.fakecuda_inject.argtypes = [ctypes.c_char_p, ctypes.c_int]
        lib.fakecuda_calls.argtypes = [ctypes.c_char_p]
        lib.fakecuda_launch_record.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        lib.fakecuda_encode_record.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int]
        lib.fakecuda_function_attribute.argtypes = [ctypes.c_char_p, ctypes.c_int]
        lib.fakecuda_function_attribute.restype = ctypes.c_longlong

    def set(self, key, value):
        """devices, cc_major, cc_minor, shared_optin, shared_per_block,
        max_threads, regs_per_block, launch_ns (virtual time per launch), memset_ns,
        host_below (pointers below it are not device-accessible), ..."""
        self.lib.fakecuda_set(key.encode(), int(value))

    def inject(self, symbol, code):
        """The next call of ``symbol`` (e.g. "cuLaunchKernel") returns ``code``."""
        self.lib.fakecuda_inject(symbol.encode(), int(code))

    def reset(self):
        """Forgets launches, counts, injections and settings."""
        self.lib.fakecuda_reset()

    def calls(self, symbol):
        return self.lib.fakecuda_calls(symbol.encode())

    def loaded_modules(self):
        return self.lib.fakecuda_loaded_modules()

    def function_attribute(self, name, attr):
        """An attribute of the newest loaded kernel called ``name`` (-1: none)."""
        return self.lib.fakecuda_function_attribute(name.encode(), attr)

    def launch_count(self):
        return self.lib.fakecuda_launch_count()

    def launches(self):
        """Every launch: kernel, grid, block, shared, stream, device, api
        ("cuLaunchKernel" or "cuLaunchKernelEx"), attributes (cuLaunchKernelEx's,
        by name: {"cooperative": 1, ...}) and params (each parameter's bytes
        as the kernel received them)."""
        out = []
        for i in range(self.launch_count()):
            rec = self._record(self.lib.fakecuda_launch_record, i)
            rec["params"] = [bytes.fromhex(p) for p in rec["params"]]
            rec["attributes"] = {LAUNCH_ATTRIBUTES[k]: v for k, v in rec["attributes"]}
            out.append(rec)
        return out

    def encodes(self):
        """Every tensor map encoded (cuTensorMapEncodeTiled calls that
        succeeded): data_type, rank, address, dims, strides (bytes), box,
        element_strides (all innermost first), interleave, swizzle,
        l2_promotion, oob_fill, and map: the 128 bytes written, b"FAKETMAP",
        the encode's number (u64, from 1) and the address."""
        out = []
        for i in range(self.lib.fakecuda_encode_count()):
            rec = self._record(self.lib.fakecuda_encode_record, i)
            rec["map"] = bytes.fromhex(rec["map"])
            out.append(rec)
        return out

    @staticmethod
    def _record(fn, i):
        size = fn(i, None, 0)
        buf = ctypes.create_string_buffer(size + 1)
        fn(i, buf, size + 1)
        return json.loads(buf.value.decode())


# PTX parameter types by Tritium type (pointers are .u64).
_PTX_PARAM = {"i1": "u8", "i8": "u8", "u8": "u8", "i16": "u16", "u16": "u16", "fp16": "b16",
              "bf16": "b16", "i32": "u32", "u32": "u32", "fp32": "f32", "i64": "u64",
              "u64": "u64", "fp64": "f64"}


def _ptx_param(ty, name):
    """The .param declaration of a parameter of type ``ty``: a tensormap is
    a CUtensorMap by value, as Triton declares it."""
    if ty.startswith("tensormap<"):
        return f".param .align 64 .b8 {name}[128]"
    return f".param .{'u64' if ty.startswith('*') else _PTX_PARAM[ty]} {name}"


def stub_ptx(name, types, attributes=None, arch=90):
    """PTX for an entry ``name`` taking parameters of ``types`` ("*fp32",
    "i32", ...) and doing nothing; ``attributes`` ({"regs": 40, "local": 16,
    "static_shared": 1024, "max_threads": 512}) become the comment the fake
    driver reads them from."""
    params = ",\n".join(f"\t{_ptx_param(t, f'{name}_param_{i}')}" for i, t in enumerate(types))
    note = ""
    if attributes:
        note = "// fakecuda: " + " ".join(f"{k}={v}" for k, v in attributes.items()) + "\n"
    return (f"//\n// A stub kernel from tests/fakecuda: its body does nothing.\n//\n{note}"
            f".version 8.0\n.target sm_{arch}\n.address_size 64\n\n"
            f".visible .entry {name}(\n{params}\n)\n{{\n\tret;\n}}\n")


class StubBackend:
    """Compile stages for the "cuda" target that end in ``stub_ptx``; set
    ``shared`` (dynamic shared memory bytes, into metadata["shared"]; or a
    function of the options giving them) and ``attributes`` before
    compiling."""

    binary_ext = "ptx"
    options = {}

    def __init__(self):
        self.shared = 0
        self.attributes = None

    @property
    def version(self):  # joins the disk cache's key
        return f"fakecuda-stub shared={self.shared} attributes={self.attributes}"

    def add_stages(self, stages, options, target):
        def ptx(module, metadata, opts):
            metadata["shared"] = self.shared(opts) if callable(self.shared) else self.shared
            sig = metadata["signature"] or {}
            types = []
            for t in sig.values():
                if t.startswith("tensordesc<"):
                    from tritium.compiler.descriptors import parameters
                    types += [part for _, part in parameters(t)]
                elif t != "constexpr":
                    types.append(t)
            return stub_ptx(metadata["name"], types, self.attributes, target.arch)
        stages["ptx"] = ptx
