"""Helpers of the frontend tests: a @jit that works without the runtime
(a stand-in with the attributes docs/frontend.md says ast_to_ir reads) and
``to_ir``, which compiles one specialization straight through
``codegen.ast_to_ir``."""

import inspect
import re
import textwrap

from tritium.compiler import codegen
import tritium.language as tl


class _Param:

    def __init__(self, num, p):
        self.num = num
        self.name = p.name
        ann = p.annotation
        self.is_constexpr = ann is tl.constexpr or (isinstance(ann, str) and "constexpr" in ann)
        self.has_default = p.default is not inspect.Parameter.empty
        self.default = p.default if self.has_default else None


class StandInJIT:
    """What ast_to_ir needs from a JITFunction."""

    def __init__(self, fn, noinline=False, debug=None):
        self.fn = fn
        self.__name__ = fn.__name__
        sig = inspect.signature(fn)
        self.arg_names = list(sig.parameters)
        self.params = [_Param(i, p) for i, p in enumerate(sig.parameters.values())]
        src = textwrap.dedent(inspect.getsource(fn))
        self.src = src[re.search(r"^def\s+\w+\s*\(", src, re.MULTILINE).start():]
        self.noinline = noinline
        self.debug = debug
        self.used_global_vals = {}

    def __call__(self, *args, **kwargs):
        raise RuntimeError("a @jit function is only called from another @jit function in these tests")


def jit(fn=None, *, noinline=False, debug=None):
    if fn is None:
        return lambda f: StandInJIT(f, noinline=noinline, debug=debug)
    return StandInJIT(fn)


def to_module(kernel, signature, constexprs=None, attrs=None, options=None):
    """The IR module of ``kernel`` for one specialization. ``signature``
    may be a dict or a comma-separated string of the non-constexpr
    parameters' types in order."""
    constexprs = dict(constexprs or {})
    if isinstance(signature, str):
        types = [t.strip() for t in signature.split(",") if t.strip()]
        names = [n for n in kernel.arg_names if n not in constexprs]
        assert len(types) == len(names), f"signature {signature!r} does not cover {names}"
        signature = dict(zip(names, types))
    signature = dict(signature)
    for name in constexprs:
        signature.setdefault(name, "constexpr")
    return codegen.ast_to_ir(kernel, signature, constexprs, attrs or {}, options or {"num_warps": 4})


def to_ir(kernel, signature, constexprs=None, attrs=None, options=None, verify=True):
    """The IR text of ``kernel``; the module is verified first."""
    m = to_module(kernel, signature, constexprs, attrs, options)
    if verify:
        m.verify()
    return str(m)


def function(ir, name):
    """The text of one function of a module's IR."""
    m = re.search(r"^(kernel|func)( noinline)? @" + re.escape(name) + r"\b.*?^}", ir, re.MULTILINE | re.DOTALL)
    assert m, f"no function @{name} in:\n{ir}"
    return m.group(0)


def count(ir, pattern):
    return len(re.findall(pattern, ir, re.MULTILINE))
