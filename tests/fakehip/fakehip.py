"""The Python side of the fake HIP runtime (FakeHip.cpp), for tests on
machines without ROCm.

    path = fakehip.find_library()            # build*/tests/fakehip/libamdhip64.so
    fake = fakehip.FakeHip(path)             # the same loaded library Tritium uses
    fake.set("lds", 32768); fake.inject("hipModuleLaunchKernel", 719)
    fake.launches()[-1]["params"]            # each explicit argument's bytes
    fake.launches()[-1]["cooperative"]       # through hipModuleLaunchCooperativeKernel

Kernels compile for real (the hip backend's code objects): the fake reads
their metadata as the HIP runtime would.
"""

import ctypes
import glob
import json
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def find_library():
    """The fake libamdhip64.so: $FAKEHIP_LIBRARY, else the newest one a build
    tree of this checkout holds; None when there is none."""
    path = os.environ.get("FAKEHIP_LIBRARY")
    if path:
        return os.path.realpath(path)
    found = glob.glob(os.path.join(REPO, "build*", "tests", "fakehip", "libamdhip64.so"))
    return os.path.realpath(max(found, key=os.path.getmtime)) if found else None


class FakeHip:
    """Settings, injected errors and the launch log of the fake runtime at
    ``path`` (dlopen returns the library Tritium loaded from the same path)."""

    def __init__(self, path):
        self.path = path
        lib = self.lib = ctypes.CDLL(path)
        lib.fakehip_set.argtypes = [ctypes.c_char_p, ctypes.c_longlong]
        lib.fakehip_set_arch.argtypes = [ctypes.c_char_p]
        lib.fakehip_inject.argtypes = [ctypes.c_char_p, ctypes.c_int]
        lib.fakehip_calls.argtypes = [ctypes.c_char_p]
        lib.fakehip_launch_record.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int]

    def set(self, key, value):
        """devices, max_threads, lds (bytes per workgroup), warp_size, cus,
        launch_ns (virtual time per launch)."""
        self.lib.fakehip_set(key.encode(), int(value))

    def set_arch(self, arch):
        """The gfx architecture hipGetDeviceProperties reports."""
        self.lib.fakehip_set_arch(arch.encode())

    def inject(self, symbol, code):
        """The next call of ``symbol`` returns ``code`` (a hipError_t)."""
        self.lib.fakehip_inject(symbol.encode(), int(code))

    def reset(self):
        self.lib.fakehip_reset()

    def calls(self, symbol):
        return self.lib.fakehip_calls(symbol.encode())

    def loaded_modules(self):
        return self.lib.fakehip_loaded_modules()

    def launches(self):
        out = []
        for i in range(self.lib.fakehip_launch_count()):
            size = self.lib.fakehip_launch_record(i, None, 0)
            buf = ctypes.create_string_buffer(size + 1)
            self.lib.fakehip_launch_record(i, buf, size + 1)
            rec = json.loads(buf.value.decode())
            rec["params"] = [bytes.fromhex(p) for p in rec["params"]]
            out.append(rec)
        return out
