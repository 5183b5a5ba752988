"""What Triton's tutorials take from ``triton._C.libtriton`` (Triton's C++
extension): ``nvidia.cublas.CublasLt``, the cuBLAS baseline of tutorial 09.

    from tritium._C.libtriton import nvidia      # triton._C.libtriton under the alias
    cublas = nvidia.cublas.CublasLt(workspace)   # workspace: a uint8 CUDA tensor
    cublas.matmul(a, b, c)                       # c = a @ b.T
    cublas.gemm(a, b, c, d, alpha, beta)         # d = alpha * a @ b.T + beta * c

A stand-in over torch's cuBLAS calls (docs/runtime.md), not a binding of
libcublasLt; the arguments and their checks follow Triton's binding. The
workspace is kept but unused: torch gives cuBLAS its own. Importing tritium
registers this module as ``tritium._C.libtriton`` (sys.modules and an
attribute of the extension ``_C``).
"""

import sys
import types

from . import _C

_DTYPES = ("torch.float8_e4m3fn", "torch.float16", "torch.bfloat16", "torch.float32")


def _check(a, b, c):
    """Triton's constraints on matmul(a, b, c); RuntimeError as its binding."""
    dtypes = {str(t.dtype) for t in (a, b, c)}
    if len(dtypes) != 1:
        raise RuntimeError(f"CublasLt: a, b and c must have one dtype, got "
                           f"{a.dtype}, {b.dtype} and {c.dtype}")
    if str(a.dtype) not in _DTYPES:
        raise RuntimeError(f"CublasLt: unsupported dtype {a.dtype} (one of {', '.join(_DTYPES)})")
    if a.dim() != 2 or b.dim() != 2 or c.dim() != 2:
        raise RuntimeError("CublasLt: a, b and c must be 2-d")
    (m, k), (n, kb) = a.shape, b.shape
    if k != kb or tuple(c.shape) != (m, n):
        raise RuntimeError(f"CublasLt: shapes a {list(a.shape)}, b {list(b.shape)}, c "
                           f"{list(c.shape)} do not make c = a @ b.T (b is (N, K), transposed)")


def _is_fp8(t):
    return str(t.dtype) == "torch.float8_e4m3fn"


class CublasLt:
    """Triton's ``nvidia.cublas.CublasLt(workspace)``."""

    def __init__(self, workspace):
        self.workspace = workspace
        self._ones = {}  # device -> the unit scale _scaled_mm takes

    def _scaled_mm(self, a, b, out_dtype):
        import torch
        one = self._ones.get(a.device)
        if one is None:
            one = self._ones[a.device] = torch.ones((), dtype=torch.float32, device=a.device)
        r = torch._scaled_mm(a, b.T, scale_a=one, scale_b=one, out_dtype=out_dtype,
                             use_fast_accum=True)
        return r[0] if isinstance(r, tuple) else r  # torch < 2.4 also returned amax

    def matmul(self, a, b, c):
        """c = a @ b.T, in c's dtype."""
        _check(a, b, c)
        import torch
        if _is_fp8(a):
            c.copy_(self._scaled_mm(a, b, c.dtype))  # one more small kernel in a profile
        else:
            torch.matmul(a, b.T, out=c)

    def gemm(self, a, b, c, d, alpha, beta):
        """d = alpha * a @ b.T + beta * c, with c float16 and d of a's dtype."""
        _check(a, b, d)
        if str(c.dtype) != "torch.float16":
            raise RuntimeError(f"CublasLt.gemm: c must be float16, got {c.dtype}")
        if tuple(c.shape) != tuple(d.shape):
            raise RuntimeError("CublasLt.gemm: c and d must have one shape")
        import torch
        if _is_fp8(a):
            acc = self._scaled_mm(a, b, torch.float32)
            d.copy_(alpha * acc + beta * c.float())
        else:
            torch.addmm(c.to(d.dtype), a, b.T, beta=beta, alpha=alpha, out=d)


nvidia = types.ModuleType(__name__ + ".nvidia", "NVIDIA-specific parts: cublas.")
nvidia.cublas = types.ModuleType(__name__ + ".nvidia.cublas", "cuBLASLt matmuls (over torch).")
nvidia.cublas.CublasLt = CublasLt

sys.modules[_C.__name__ + ".libtriton"] = sys.modules[__name__]
_C.libtriton = sys.modules[__name__]
# An import of X._C.libtriton under another name (the harness's alias
# triton -> tritium) asks X._C for __path__ before any finder: an empty one
# makes _C a package whose only submodule is the one registered above.
if not hasattr(_C, "__path__"):
    _C.__path__ = []
