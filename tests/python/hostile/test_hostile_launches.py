"""Bad launches: grids, arguments (counts, types, unknown keywords), launch
and compile options, targets. Each launch runs interpreted
(TRITIUM_INTERPRET=1) and compiled; without a GPU a compiled launch that
gets past every check ends in NoBackendError, so a bad grid or argument
must be reported before it, with the interpreter's type and message.
"""

import pytest

from hostile_helpers import expect_error, expect_ok, run_snippet

KERNEL = '''
import tritium
import tritium.language as tl


@tritium.jit
def k(X, Y, N, BLOCK: tl.constexpr = 16):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs, mask=offs < N) + 1, mask=offs < N)
'''

LAUNCH = '''
import numpy as np
m = load_source({kernel!r})
k = m.k


class DeviceTensor:
    """What a compiled launch takes for a pointer: data_ptr() and dtype."""
    dtype = np.dtype("float32")

    def data_ptr(self):
        return 0x7F0000000000


x, y = ({arrays}, {arrays})
{launch}
'''
ARRAYS = {"interpreted": "np.zeros(64, np.float32)", "compiled": "DeviceTensor()"}

NO_GPU = ("NoBackendError", r"no GPU backend available: tritium compiled 'k' for cuda:\d+ but cannot launch it")

#: id -> (statement, expected: None (it runs), (class, regex), or
#: {mode: either} where compiled and interpreted launches differ).
CASES = {
    # Grids: the C++ readGrid's words, in both modes.
    "grid-ok": ("k[(2,)](x, y, 16)", None),
    "grid-empty-launches-nothing": ("k[(0,)](x, y, 16)", None),
    "grid-list": ("k[[1, 1]](x, y, 16)", None),
    "grid-numpy-ints": ("k[(np.int64(2), np.int32(1))](x, y, 16)", None),
    "grid-callable": ("k[lambda meta: (meta['N'] // meta['BLOCK'],)](x, y, 32)", None),
    "grid-negative": ("k[(-1,)](x, y, 16)", ("ValueError", r"^k: grid dimension 0 is -1; CUDA allows 0 to 2147483647$")),
    "grid-float": ("k[(1.5,)](x, y, 16)", ("TypeError", r"^k: grid dimension 0 must be an int, got 1.5$")),
    "grid-2-31": ("k[(2**31,)](x, y, 16)", ("ValueError", r"grid dimension 0 is 2147483648; CUDA allows 0 to 2147483647")),
    "grid-2-64": ("k[(2**64,)](x, y, 16)", ("ValueError", r"grid dimension 0 is 18446744073709551616")),
    "grid-y-65536": ("k[(1, 65536)](x, y, 16)", ("ValueError", r"grid dimension 1 is 65536; CUDA allows 0 to 65535")),
    "grid-z-negative": ("k[(1, 1, -5)](x, y, 16)", ("ValueError", r"grid dimension 2 is -5")),
    "grid-4-d": ("k[(1, 1, 1, 1)](x, y, 16)", ("ValueError", r"the grid must have 1 to 3 dimensions, got \(1, 1, 1, 1\)")),
    "grid-0-d": ("k[()](x, y, 16)", ("ValueError", r"the grid must have 1 to 3 dimensions, got \(\)")),
    "grid-bare-int": ("k[8](x, y, 16)", ("TypeError", r"the grid must be a tuple of 1 to 3 ints or a callable returning one, got 8")),
    "grid-string": ("k['abc'](x, y, 16)", ("TypeError", r"the grid must be a tuple of 1 to 3 ints .*got 'abc'")),
    "grid-dict": ("k[{'x': 1}](x, y, 16)", ("TypeError", r"the grid must be a tuple of 1 to 3 ints")),
    "grid-string-dimension": ("k[('4',)](x, y, 16)", ("TypeError", r"grid dimension 0 must be an int, got '4'")),
    "grid-none-dimension": ("k[(None,)](x, y, 16)", ("TypeError", r"grid dimension 0 must be an int, got None")),
    "grid-callable-returns-str": ("k[lambda meta: 'abc'](x, y, 16)", ("TypeError", r"the grid must be a tuple .*got 'abc'")),
    "grid-callable-returns-none": ("k[lambda meta: None](x, y, 16)", ("TypeError", r"the grid must be a tuple .*got None")),
    "grid-callable-raises": ("k[lambda meta: 1 // 0](x, y, 16)", ("ZeroDivisionError", r"division")),
    "grid-callable-bad-signature": ("k[lambda: (1,)](x, y, 16)", ("TypeError", r"takes 0 positional arguments")),
    # Arguments.
    "too-few-arguments": ("k[(1,)](x, y)", ("TypeError", r"missing a required argument: 'N'|missing 1 required positional argument: 'N'")),
    "too-many-arguments": ("k[(1,)](x, y, 16, 32, 64)", ("TypeError", r"too many positional arguments|takes from 3 to 4 positional arguments")),
    "no-arguments": ("k[(1,)]()", ("TypeError", r"missing")),
    "unknown-keyword": ("k[(1,)](x, y, 16, bogus=1)", ("TypeError", r"unexpected keyword argument 'bogus'")),
    "keyword-twice": ("k[(1,)](x, y, 16, N=3)", ("TypeError", r"multiple values for argument 'N'")),
    "pointer-a-string": ("k[(1,)](x, 'oops', 16)", ("TypeError", r"argument 'Y' \(parameter 1\).*str")),
    "pointer-an-object": ("k[(1,)](object(), y, 16)", ("TypeError", r"argument 'X' \(parameter 0\).*object")),
    "pointer-a-list": ("k[(1,)]([1.0, 2.0], y, 16)", ("TypeError", r"argument 'X' \(parameter 0\).*list")),
    "int-a-dict": ("k[(1,)](x, y, {'n': 1})", ("TypeError", r"argument 'N' \(parameter 2\).*dict")),
    "int-a-complex": ("k[(1,)](x, y, 1j)", ("TypeError", r"argument 'N' \(parameter 2\).*complex")),
    # Compiled: Triton's OverflowError ("integer to be specialized too large to represent").
    "int-too-big": ("k[(1,)](x, y, 2**64)", {
        "compiled": ("OverflowError", r"argument 'N' \(parameter 2\): integer to be specialized too large"),
        "interpreted": ("TypeError", r"argument 'N' \(parameter 2\)|out of range|2\*\*64|u64")}),
    "int-too-negative": ("k[(1,)](x, y, -2**63 - 1)", {
        "compiled": ("OverflowError", r"argument 'N' \(parameter 2\): integer to be specialized too large"),
        "interpreted": ("TypeError", r"argument 'N' \(parameter 2\)")}),
    "block-a-string": ("k[(1,)](x, y, 16, BLOCK='16')", ("CompilationError", r"arange")),
    "block-not-a-power-of-2": ("k[(1,)](x, y, 16, BLOCK=12)", ("CompilationError", r"power of 2")),
    "block-zero": ("k[(1,)](x, y, 16, BLOCK=0)", ("CompilationError", r"power of 2|greater than the start")),
    "block-huge": ("k[(1,)](x, y, 16, BLOCK=2**30)", ("CompilationError", r"exceeds triton maximum tensor numel")),
    "block-an-array": ("k[(1,)](x, y, 16, BLOCK=np.arange(4))", {
        "compiled": ("TypeError", r"k\(\): constexpr argument 'BLOCK' is a ndarray, which cannot key a compiled kernel"),
        "interpreted": ("CompilationError", r"unsupported operand of type ndarray")}),
    # Options: checked as compiled launches check them.
    "num-warps-3": ("k[(1,)](x, y, 16, num_warps=3)", ("ValueError", r"num_warps must be a power of 2 between 1 and 32, got 3")),
    "num-warps-0": ("k[(1,)](x, y, 16, num_warps=0)", ("ValueError", r"num_warps must be a power of 2 between 1 and 32, got 0")),
    "num-warps-64": ("k[(1,)](x, y, 16, num_warps=64)", ("ValueError", r"got 64")),
    "num-warps-a-string": ("k[(1,)](x, y, 16, num_warps='4')", ("ValueError", r"got '4'")),
    "num-warps-a-float": ("k[(1,)](x, y, 16, num_warps=4.0)", ("ValueError", r"got 4.0")),
    "num-stages-negative": ("k[(1,)](x, y, 16, num_stages=-1)", ("ValueError", r"num_stages must be a non-negative int, got -1")),
    "num-stages-a-string": ("k[(1,)](x, y, 16, num_stages='x')", ("ValueError", r"num_stages must be a non-negative int, got 'x'")),
    "num-ctas-0": ("k[(1,)](x, y, 16, num_ctas=0)", ("ValueError", r"num_ctas must be a power of 2 between 1 and 16, got 0")),
    "num-ctas-3": ("k[(1,)](x, y, 16, num_ctas=3)", ("ValueError", r"num_ctas must be a power of 2 between 1 and 16, got 3")),
    "maxnreg-negative": ("k[(1,)](x, y, 16, maxnreg=-1)", ("ValueError", r"maxnreg must be None or an int between 1 and 255, got -1")),
    "maxnreg-256": ("k[(1,)](x, y, 16, maxnreg=256)", ("ValueError", r"got 256")),
    "unknown-option": ("k[(1,)](x, y, 16, waves_per_eu=2)", ("TypeError", r"unexpected keyword argument 'waves_per_eu'")),
    "warmup-bad-type-string": ("k.warmup('*fp32', '*fp32', 'int', grid=(1,))",
                               ("TypeError", r"k.warmup\(\): argument 'N': unknown type string 'int'")),
}


@pytest.mark.parametrize("mode", ["interpreted", "compiled"])
@pytest.mark.parametrize("case", list(CASES))
def test_bad_launch(case, mode):
    launch, expected = CASES[case]
    if isinstance(expected, dict):
        expected = expected[mode]
    r = run_snippet(LAUNCH.format(kernel=KERNEL, launch=launch, arrays=ARRAYS[mode]), interpret=mode == "interpreted")
    if mode == "compiled" and expected is None and not launch.startswith("k.warmup"):
        expect_error(r, *NO_GPU)  # it got past every check; there is no GPU to launch on
    elif expected is None:
        expect_ok(r)
    else:
        expect_error(r, *expected)


COMPILE = '''
import tritium
from tritium.compiler.compiler import ASTSource
m = load_source({kernel!r})
tritium.compile(ASTSource(m.k, {{"X": "*fp32", "Y": "*fp32", "N": "i32"}}, {{"BLOCK": 16}}), {args})
'''

#: Options and targets given to tritium.compile.
COMPILE_CASES = {
    "target-unknown-kind": ('target="metal:1"', ("ValueError", r"unknown target 'metal:1'")),
    "target-unknown-arch": ('target="cuda:91"', ("ValueError", r"cuda:91")),
    "target-empty": ('target=""', ("ValueError", r"target")),
    "target-junk-arch": ('target="cuda:sm_"', ("ValueError", r"cuda:sm_")),
    "target-negative-arch": ('target="cuda:-1"', ("ValueError", r"cuda:-1")),
    "target-an-int": ("target=123", ("TypeError", r"target")),
    "target-a-tuple-of-junk": ('target=("cuda", "x")', ("ValueError", r"x")),
    "options-not-a-dict": ('target="cuda:90", options=5', ("TypeError", r"options must be a dict")),
    "option-unknown": ('target="cuda:90", options={"bogus": 1}', ("TypeError", r"unexpected keyword argument 'bogus'")),
    "option-num-warps-3": ('target="cuda:90", options={"num_warps": 3}', ("ValueError", r"num_warps must be a power of 2")),
    "option-num-stages": ('target="cuda:90", options={"num_stages": -1}', ("ValueError", r"num_stages must be a non-negative int")),
    "option-num-ctas": ('target="cuda:90", options={"num_ctas": 0}', ("ValueError", r"num_ctas must be a power of 2")),
    "option-maxnreg": ('target="cuda:90", options={"maxnreg": -1}', ("ValueError", r"maxnreg must be None or an int")),
    "option-arch": ('target="cuda:90", options={"arch": "sm_999"}', ("ValueError", r"999")),
    "ok-cuda-80": ('target="cuda:80", options={"num_warps": 8, "maxnreg": 64}', None),
}


@pytest.mark.parametrize("args,expected", [c if isinstance(c, tuple) else c for c in COMPILE_CASES.values()],
                         ids=list(COMPILE_CASES))
def test_bad_compile_options(args, expected):
    r = run_snippet(COMPILE.format(kernel=KERNEL, args=args))
    if expected is None:
        expect_ok(r)
    else:
        expect_error(r, *expected)


WARM = '''
import numpy as np
from tritium.compiler.compiler import parse_target
from tritium.runtime import driver
m = load_source({kernel!r})


class PythonDriver:
    """A driver whose launches do nothing: the second launch is C++'s warm path."""
    def is_active(self):
        return True

    def get_current_target(self):
        return parse_target("cuda:90")

    def get_current_device(self):
        return 0

    def get_current_stream(self, device):
        return 0

    def make_launcher(self, kernel):
        return lambda gx, gy, gz, stream, args: None


class DeviceTensor:
    dtype = np.dtype("float32")

    def data_ptr(self):
        return 0x7F0000000000


driver.set_active(PythonDriver())
x, y = DeviceTensor(), DeviceTensor()
m.k[(1,)](x, y, 16)  # compiles: the next launch is warm
m.k[{grid}](x, y, 16)
'''


@pytest.mark.parametrize("grid,expected", [
    ("(-1,)", ("ValueError", r"^k: grid dimension 0 is -1; CUDA allows 0 to 2147483647$")),
    ("(1, 1, 1, 1)", ("ValueError", r"the grid must have 1 to 3 dimensions")),
    ("lambda meta: 'abc'", ("TypeError", r"the grid must be a tuple of 1 to 3 ints or a callable returning one, got 'abc'")),
    pytest.param("8", ("TypeError", r"the grid must be a tuple of 1 to 3 ints or a callable returning one, got 8"), id="bare-int"),
    pytest.param("'abc'", ("TypeError", r"the grid must be a tuple of 1 to 3 ints .*got 'abc'"), id="str"),
    pytest.param("None", ("TypeError", r"the grid must be a tuple of 1 to 3 ints .*got None"), id="None"),
])
def test_bad_grid_on_the_warm_path(grid, expected):
    """The warm path (C++) must say what the first launch (Python) says."""
    expect_error(run_snippet(WARM.format(kernel=KERNEL, grid=grid)), *expected)
