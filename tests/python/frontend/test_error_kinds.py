"""Errors by kind under Triton's names: TritonError is the base of what a
kernel's compile or run reports, tritium.compiler.errors tells a failed
static_assert and unsupported syntax from other compile errors, and
error_message is the message without its location."""

import numpy as np
import pytest

import tritium
import tritium.language as tl
from tritium.compiler import errors
from tritium.runtime import errors as runtime_errors
from tir_helpers import jit, to_module


def test_what_derives_from_triton_error():
    from tritium.runtime.interpreter import InterpreterError
    for kind in (tritium.CompilationError, errors.CompileTimeAssertionFailure,
                 errors.UnsupportedLanguageConstruct, tritium.OutOfResources, InterpreterError):
        assert issubclass(kind, tritium.TritonError), kind
    # Driver failures are RuntimeErrors, as in Triton.
    assert not issubclass(tritium.CudaError, tritium.TritonError)
    assert errors.CompilationError is tritium.CompilationError
    assert runtime_errors.InterpreterError is InterpreterError
    assert runtime_errors.OutOfResources is tritium.OutOfResources


@jit
def k_static_assert(x, N: tl.constexpr):
    tl.static_assert(N % 2 == 0, "N must be even")


@jit
def k_lambda(x):
    f = lambda v: v  # noqa: E731
    f(x)


@jit
def k_bad_operand(x):
    tl.arange(0, 3)


def test_static_assert_is_a_compile_time_assertion_failure():
    with pytest.raises(errors.CompileTimeAssertionFailure) as info:
        to_module(k_static_assert, "*fp32", {"N": 3})
    assert info.value.error_message == "static_assert failed: N must be even"
    assert info.value.line is not None and "N must be even" in str(info.value)
    to_module(k_static_assert, "*fp32", {"N": 4})


def test_unsupported_syntax_is_an_unsupported_language_construct():
    with pytest.raises(errors.UnsupportedLanguageConstruct, match="Lambda"):
        to_module(k_lambda, "i32")


def test_other_errors_keep_their_cause():
    with pytest.raises(tritium.TritonError) as info:
        to_module(k_bad_operand, "i32")
    err = info.value
    assert type(err) is tritium.CompilationError
    assert "power of 2" in err.error_message and err.error_message in str(err)
    assert isinstance(err.__cause__, Exception)


def test_interpreter_errors_are_triton_errors():
    @tritium.jit(interpret=True)
    def k(x_ptr, N: tl.constexpr):
        tl.static_assert(N > 4)

    with pytest.raises(tritium.TritonError, match="static_assert failed"):
        k[(1,)](np.zeros(4, np.float32), 2)
