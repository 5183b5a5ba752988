"""The code generator: a kernel's Python AST to Tritium IR.

``CodeGenerator`` walks the AST of one ``@jit`` function and calls the
semantic layer (``_C.frontend.Semantic``, frontend/Semantic.h) for every
operation; the semantic types the operations, reports misuse and emits the
IR. What the walker itself decides:

* Variables (docs/frontend.md): tensors go through the semantic's SSA
  construction (``write_var``/``read_var``, Braun et al.), everything else
  (constexprs, dtypes, functions, tuples' structure) stays in a Python dict
  (see _values.py). ``if``/``while``/``for`` create blocks and seal them; the
  semantic places phis where paths join.
* Compile-time evaluation: operations on constexprs fold in Python; an
  ``if`` on a constexpr visits only the taken branch; ``tl.static_range``
  unrolls.
* Calls of ``@jit`` functions build the callee as its own IR function, once
  per argument types and constexpr values, and emit ``call``.
* Errors: every error becomes a ``tritium.CompilationError`` at the line
  and column of the node being visited, with the source line and a caret.

The entry point is ``ast_to_ir(fn, signature, constexprs, attrs, options)``.
"""

import ast
import builtins
import contextlib
import functools
import inspect
import operator
import re
import textwrap
import types

from .. import _C, knobs
from . import descriptors as _descriptors
from ..errors import CompilationError, recursion_limit_message
from .errors import CompileTimeAssertionFailure, UnsupportedLanguageConstruct
from ..language import core as tl
from ..language import _types
from . import _values as V
from ._values import Leaf, Seq, Agg, Const, Undefined

#: The hints that annotate their argument in place (visit_Expr).
_HINTS = (tl.multiple_of, tl.max_contiguous, tl.max_constancy)

# -- Helpers ------------------------------------------------------------------


def _is_jit(obj):
    """A @jit function (the runtime's JITFunction or a stand-in with the
    attributes docs/frontend.md lists)."""
    if getattr(obj, "__tritium_builtin__", False):
        return False
    return callable(getattr(obj, "fn", None)) and hasattr(obj, "arg_names") and hasattr(obj, "src")


def _is_language_object(obj):
    mod = getattr(obj, "__module__", None) or ""
    return mod.startswith("tritium.language") or mod.startswith("triton.language")


_unwrap = tl._unwrap


def _has_tensor(x):
    x = _unwrap(x)
    if isinstance(x, (tl.tensor, tl.block_ptr)):
        return True
    if isinstance(x, (tuple, list)):
        return any(_has_tensor(v) for v in x)
    if isinstance(x, dict):
        return any(_has_tensor(v) for v in x.values())
    return False


def _is_scalar_literal(x):
    return isinstance(x, (bool, int, float))


def _as_tensor(x):
    """``x``, a Python number (or a constexpr of one) made a scalar tensor."""
    u = _unwrap(x)
    return tl.to_tensor(u) if _is_scalar_literal(u) else x


def _as_constexpr(x):
    """``x``, a Python number made a constexpr."""
    return tl.constexpr(x) if _is_scalar_literal(x) else x


def _as_static(res, seqs=()):
    """A compile-time result as a kernel sees it: a number or a string a
    constexpr, a sequence of one of the kinds ``seqs`` without tensors a
    tuple with its numbers constexprs."""
    if _is_scalar_literal(res) or isinstance(res, str):
        return tl.constexpr(res)
    if isinstance(res, seqs) and not _has_tensor(res):
        return tuple(map(_as_constexpr, res))
    return res


def decay(v):
    """A returned value as compiled: Python numbers become tensors (tuples
    of them tuples of tensors)."""
    v = _unwrap(v)
    if isinstance(v, (tuple, list)):
        return tuple(decay(x) for x in v)
    return _as_tensor(v)


class _Source:
    """Where a function's source lives: its file, the line and the column
    its ``def`` starts at, its lines and its AST."""

    def __init__(self, jit_fn):
        fn = jit_fn.fn
        self.name = fn.__name__
        try:
            lines, start = inspect.getsourcelines(fn)
            self.file = inspect.getsourcefile(fn) or fn.__code__.co_filename
            text = "".join(lines)
        except (OSError, TypeError):
            text = jit_fn.src
            self.file = fn.__code__.co_filename
            start = fn.__code__.co_firstlineno
        first = next((ln for ln in text.splitlines() if ln.strip()), "")
        self.indent = len(first) - len(first.lstrip())
        self.start = start
        self.lines = text.splitlines()
        try:
            tree = ast.parse(textwrap.dedent(text))
        except RecursionError:  # the ast module recurses as deep as expressions nest
            raise CompilationError(f"{self.name}: {recursion_limit_message()}", self.file, start, 1) from None
        defs = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        if not defs:
            raise CompilationError(f"cannot find the definition of {self.name}", self.file, start, 1)
        self.fndef = defs[0]

    def loc(self, node):
        """(line, column) in the file, both 1-based."""
        return self.start + node.lineno - 1, node.col_offset + self.indent + 1

    def error(self, message, line, col, kind=CompilationError):
        i = line - self.start
        return error_at(message, self.file, line, col, self.lines[i] if 0 <= i < len(self.lines) else None, kind)


def error_at(message, file, line, col, source, kind=CompilationError):
    """A ``kind`` error at ``file:line:col``, its text with the ``source``
    line (None: unknown) and a caret under the column."""
    text = f"{file}:{line}:{col}: error: {message}"
    if source is not None:
        text += "\n" + source + "\n" + "".join("\t" if c == "\t" else " " for c in source[:max(col - 1, 0)]) + "^"
    err = kind(message, file, line, col, text)
    err._tritium_formatted = True
    return err


_USER_ERRORS = (TypeError, ValueError, NameError, IndexError, KeyError, NotImplementedError, ZeroDivisionError,
                OverflowError, RuntimeError, AssertionError, AttributeError, tl._StaticAssertionFailure)


def _message_of(e):
    if isinstance(e, KeyError) and e.args:
        return f"KeyError: {e.args[0]!r}"
    if isinstance(e, _USER_ERRORS) and str(e):
        return str(e)
    return f"{type(e).__name__}: {e}"


def _mangle_value(v):
    v = _unwrap(v)
    if v is None:
        return "N"
    if isinstance(v, bool):
        return "T" if v else "F"
    if isinstance(v, (int, float)):
        return re.sub(r"[^0-9A-Za-z]", lambda m: {"-": "m", ".": "d", "+": "p"}.get(m.group(), "_"), repr(v))
    if isinstance(v, str):
        return "s" + _ident(v)
    if isinstance(v, _types.dtype):
        return _ident(str(v))
    if isinstance(v, (tuple, list)):
        return "t" + "_".join(_mangle_value(x) for x in v) + "_"
    if _is_jit(v):
        return "f" + v.fn.__name__
    name = getattr(v, "__name__", None)
    if name:
        return "o" + _ident(name)
    return "h%x" % (hash(repr(v)) & 0xffffffff)


def _ident(text):
    """``text`` as a part of an IR function's name."""
    return re.sub(r"[^0-9A-Za-z_]", "_", text)


# -- The module under construction --------------------------------------------


class _ModuleBuilder:
    """State shared by the code generators of one compilation: the module,
    the semantic, the options and the functions built so far."""

    def __init__(self, semantic, options):
        self.semantic = semantic
        self.options = options
        self.functions = {}   # (python function, mangled name) -> (IR function, return template)
        self.building = set()
        self.names = set()
        self.combines = {}

    def unique_name(self, name, role=None, types=()):
        """``name`` (``name__role__types`` for a combine or map function), or
        ``name_1``... if another function has it."""
        if role is not None:
            name = f"{name}__{role}__{_ident('_'.join(str(t) for t in types))}"
        base, k = name, 0
        while name in self.names:
            k += 1
            name = f"{base}_{k}"
        self.names.add(name)
        return name

    def debug(self, jit_fn):
        d = getattr(jit_fn, "debug", None)
        return bool(d) if d is not None else bool(tl._get_option(self.options, "debug", False))

    def build_combine_fn(self, combine_fn, dtypes):
        """The IR function of a reduce/scan combine: 2N scalar arguments
        (the accumulated values, then the new ones), N results."""
        key = (id(combine_fn), tuple(str(t) for t in dtypes))
        if key in self.combines:
            return self.combines[key][0]
        scalars = [t.scalar for t in dtypes]
        if _is_jit(combine_fn):
            gen = CodeGenerator(self, combine_fn, name=self.unique_name(combine_fn.fn.__name__, "combine", scalars))
            ir_fn, ret = gen.build(positional_types=scalars * 2)
        elif callable(combine_fn):
            ir_fn, ret = self._build_python_combine(combine_fn, scalars)
        else:
            raise TypeError(f"the combine function must be a @jit function, got {combine_fn!r}")
        n_results = len(V.leaf_types(ret)) if ret is not None else 0
        if n_results != len(scalars):
            raise TypeError(f"the combine function must return {len(scalars)} value(s), got {n_results}")
        self.combines[key] = (ir_fn, combine_fn)
        return ir_fn

    def build_map_fn(self, fn, dtypes, pack):
        """The IR function of a map_elementwise: ``pack`` scalar arguments
        per input dtype, in order."""
        if not _is_jit(fn):
            raise TypeError(f"map_elementwise's scalar function must be a @jit function, got {fn!r}")
        scalars = [t.scalar for t in dtypes]
        params = [t for t in scalars for _ in range(pack)]
        key = ("map", id(fn), tuple(str(t) for t in params))
        if key not in self.combines:
            gen = CodeGenerator(self, fn, name=self.unique_name(fn.fn.__name__, "map", params))
            gen.role = f"map_elementwise function (pack={pack}, {len(dtypes)} argument(s))"
            self.combines[key] = gen.build(positional_types=params)
        return self.combines[key][0]

    def _build_python_combine(self, fn, scalars):
        sem = self.semantic
        name = self.unique_name(_ident(getattr(fn, "__name__", "combine")), "combine", scalars)
        names = [f"a{i}" for i in range(len(scalars))] + [f"b{i}" for i in range(len(scalars))]
        ir_fn = sem.begin_function(name, scalars * 2, names, False)
        try:
            args = [tl._wrap(sem.get_arg(i)) for i in range(2 * len(scalars))]
            res = fn(*args)
            res = list(res) if isinstance(res, (tuple, list)) else [res]
            res = [tl.to_tensor(r) for r in res]
            sem.set_result_types([r.type for r in res])
            sem.ret([r.handle for r in res])
        finally:
            sem.end_function()
        return ir_fn, Seq(tuple, [Leaf(str(i), r.type) for i, r in enumerate(res)])


# -- The code generator -------------------------------------------------------

_BIN_METHODS = {
    ast.Add: "__add__", ast.Sub: "__sub__", ast.Mult: "__mul__", ast.Div: "__truediv__",
    ast.FloorDiv: "__floordiv__", ast.Mod: "__mod__", ast.Pow: "__pow__", ast.LShift: "__lshift__",
    ast.RShift: "__rshift__", ast.BitAnd: "__and__", ast.BitOr: "__or__", ast.BitXor: "__xor__",
}
_CMP_METHODS = {
    ast.Eq: "__eq__", ast.NotEq: "__ne__", ast.Lt: "__lt__", ast.LtE: "__le__", ast.Gt: "__gt__",
    ast.GtE: "__ge__",
}
_REFLECTED = {
    "__eq__": "__eq__", "__ne__": "__ne__", "__lt__": "__gt__", "__le__": "__ge__", "__gt__": "__lt__",
    "__ge__": "__le__",
}
_UNARY_METHODS = {ast.USub: "__neg__", ast.UAdd: "__pos__", ast.Invert: "__invert__", ast.Not: "__not__"}
_CONDITION_TYPES = (bool, int, float, type(None))
_UNSUPPORTED_WHY = {"Lambda": "lambdas are not supported in @jit functions"}

_NON_CONSTEXPR_GLOBAL = (
    "Cannot access global variable {name} from within @jit'ed function. Triton kernels can only access global "
    "variables that are instantiated as constexpr (`x = triton.language.constexpr(42)`). Note that this is "
    "different from annotating a variable as constexpr (`x: triton.language.constexpr = 42`), which is not "
    "supported. Alternatively, set the envvar TRITON_ALLOW_NON_CONSTEXPR_GLOBALS=1, but we do not promise to "
    "support this forever.")


class _LoopContext:
    """Where a dynamic loop's break and continue go: ``exit``; ``latch``,
    made by the first continue of a for loop (a while loop's is its
    header); ``before``, the scope at the header, which every edge out of
    the body must match."""

    jump = None  # a static loop's alone (_StaticLoop)

    def __init__(self, before, exit, latch):
        self.before, self.exit, self.latch = before, exit, latch


class _StaticLoop:
    """A static loop (unrolled) on the loop stack: ``jump``, the break or
    continue that ended the iteration being unrolled; ``dynamic_ifs``, how
    many run-time ifs were open around the loop."""

    def __init__(self, dynamic_ifs):
        self.dynamic_ifs, self.jump = dynamic_ifs, None


class CodeGenerator(ast.NodeVisitor):
    """Builds the IR function of one @jit function (one specialization)."""

    def __init__(self, mb, jit_fn, name, is_kernel=False):
        self.mb = mb
        self.sem = mb.semantic
        self.jit_fn = jit_fn
        self.role = "combine function"  # what the positional-parameter errors call it
        self.src = _Source(jit_fn)
        self.name = name
        self.is_kernel = is_kernel
        self.scope = {}
        self.ret_template = None
        self.cur_node = None
        self.fresh = 0
        self.loops = []  # _LoopContext or _StaticLoop of the loops around, innermost last
        self.dynamic_ifs = 0  # run-time ifs around the statement
        # The function's own module globals (read only): used_global_vals
        # refers to this dict so that the runtime can see later changes.
        self.globals = getattr(jit_fn.fn, "__globals__", {})
        self.closure = {}
        code = getattr(jit_fn.fn, "__code__", None)
        if code is not None and jit_fn.fn.__closure__:
            for var, cell in zip(code.co_freevars, jit_fn.fn.__closure__):
                try:
                    self.closure[var] = cell.cell_contents
                except ValueError:
                    pass

    # -- errors and locations ----------------------------------------------

    def error(self, message, node=None, kind=CompilationError):
        return self.src.error(message, *self.src.loc(node or self.cur_node or self.src.fndef), kind)

    def _set_loc(self, node):
        line, col = self.src.loc(node)
        self.sem.set_loc(self.src.file, line, col)

    def visit(self, node):
        if node is None:
            return None
        return self._at(node, super().visit, node)

    def _at(self, node, fn, *args):
        """``fn(*args)`` with ``node`` as the current node: its location is
        the IR's, and errors are reported there."""
        prev = self.cur_node
        has_loc = hasattr(node, "lineno")
        if has_loc:
            self.cur_node = node
            self._set_loc(node)
        try:
            return fn(*args)
        except CompilationError as e:
            if getattr(e, "_tritium_too_deep", False):
                raise e.with_traceback(None)  # not the thousand frames below
            if getattr(e, "_tritium_formatted", False):
                raise
            # From the C++ semantic: located at the node it was building.
            raise self._reformat(e) from e
        except RecursionError:
            # Reported where it happened (if that too runs out of stack, the
            # frame above reports it).
            err = self.error(recursion_limit_message())
            err._tritium_too_deep = True
            raise err from None
        except Exception as e:
            static = isinstance(e, tl._StaticAssertionFailure)
            if not static and knobs.compilation.front_end_debugging:
                raise
            kind = CompileTimeAssertionFailure if static else CompilationError
            raise self.error(_message_of(e), kind=kind) from e
        finally:
            if has_loc:
                self.cur_node = prev
                if prev is not None:
                    self._set_loc(prev)

    def _reformat(self, e):
        msg = getattr(e, "message", None) or str(e)
        line, col = getattr(e, "line", None), getattr(e, "col", None)
        if line is None or getattr(e, "file", None) != self.src.file:
            line, col = self.src.loc(self.cur_node or self.src.fndef)
        err = self.src.error(msg, line, col)
        err.__cause__ = e
        return err

    def generic_visit(self, node):
        name = type(node).__name__
        why = _UNSUPPORTED_WHY.get(name)
        raise self.error(f"unsupported AST node type: {name}" + (f" ({why})" if why else ""), node,
                         kind=UnsupportedLanguageConstruct)

    # -- variables ------------------------------------------------------------

    def _read_leaf(self, var):
        tv = self.sem.read_var(var)
        if tv is None:
            base = var.split("#")[0]
            raise NameError(f"'{base}' is not defined on every path to this use (it is assigned only inside a "
                            "loop or in some branches of an if)")
        return tl._wrap(tv)

    def set_value(self, name, value):
        template, leaves = V.flatten(value, name)
        for var, t in leaves:
            self.sem.write_var(var, t.handle)
        self.scope[name] = template

    def get_value(self, name):
        t = self.scope[name]
        if isinstance(t, Undefined):
            raise NameError(f"'{name}' is not defined here: {t.reason}")
        return V.rebuild(t, self._read_leaf)

    def lookup(self, name):
        if name in self.scope:
            return self.get_value(name)
        for table in (self.closure, self.globals):
            if name in table:
                self._check_global(name, table[name])
                return table[name]
        if name in _BUILTINS:
            return _BUILTINS[name]
        if hasattr(builtins, name):
            raise NameError(f"Python builtin '{name}' is not supported in @jit functions")
        raise NameError(f"name '{name}' is not defined")

    def _check_global(self, name, val):
        allowed = (isinstance(val, (types.ModuleType, tl.constexpr, _types.dtype, type)) or val is None
                   or _is_jit(val) or tl.is_builtin(val) or _is_language_object(val) or callable(val))
        if allowed:
            if isinstance(val, tl.constexpr):
                used = getattr(self.jit_fn, "used_global_vals", None)
                if isinstance(used, dict):
                    used[(name, id(self.globals))] = (val, self.globals)
            return
        if knobs.compilation.allow_non_constexpr_globals:
            return
        raise NameError(_NON_CONSTEXPR_GLOBAL.format(name=name))

    # -- blocks ---------------------------------------------------------------

    def terminated(self):
        return self.sem.is_terminated()

    def new_var(self, what):
        self.fresh += 1
        return f"{what}.{self.fresh}"

    # -- functions ------------------------------------------------------------

    def build(self, positional_types=None, kernel=None, call_args=None):
        """Builds the IR function. Exactly one of the arguments describes the
        parameters: ``kernel`` (signature, constexprs, attrs), as
        compiler.specialization gives them, for a kernel; ``call_args``
        {name: value} for a called function (tensor leaves become
        parameters); ``positional_types`` for a combine function. Returns
        (IR function, return template). Each step's errors are reported at
        the ``def``."""
        fndef = self.src.fndef
        ir_fn, binds, arg_index = self._at(fndef, self._begin, positional_types, kernel, call_args)
        self._at(fndef, self._generate, ir_fn, binds, arg_index)
        self._at(fndef, self.sem.end_function)
        return ir_fn, self.ret_template

    def _begin(self, positional_types, kernel, call_args):
        """Begins the IR function with its parameters -> (IR function,
        [(name, template, attrs)] to bind them to, {leaf's variable: index
        of its parameter})."""
        a = self.src.fndef.args
        if a.vararg or a.kwarg or a.kwonlyargs or getattr(a, "posonlyargs", None):
            raise self.error("@jit functions take only plain positional parameters (no *args, **kwargs or "
                             "keyword-only parameters)")
        names = [p.arg for p in a.args]
        params, param_names, arg_index, binds = [], [], {}, []

        def param(ty, var, name=None):  # the leaf of a parameter
            arg_index[var] = len(params)
            params.append(ty)
            param_names.append(name or var)
            return Leaf(var, ty)
        if kernel is not None:
            signature, constexprs, kernel_attrs = kernel
            for index, (name, ty) in enumerate(signature.items()):
                attrs = kernel_attrs.get(index)
                if name in constexprs:
                    binds.append((name, Const(constexprs[name]), None))
                    continue
                ty = _types.str_to_ty(ty)
                if ty.is_tensor_desc():
                    # A host-side descriptor: the parameters the launch
                    # passes for it (base, shape, strides but the last).
                    parts = _descriptors.parameters(ty.name)
                    # The last may be the tensor map: a ptr<i8> argument with
                    # the tensormap attribute, passed by value (128 bytes).
                    has_map = parts[-1][1].startswith("tensormap<")
                    binds.append((name, _HostDescriptor(len(params), ty, has_map), attrs))
                    for suffix, part in parts:
                        param(_types.str_to_ty("*i8" if part.startswith("tensormap<") else part), name + suffix)
                else:
                    binds.append((name, param(ty, name), attrs))
        elif call_args is not None:
            for name in names:
                template, leaves = V.flatten(call_args[name], name)
                for var, t in leaves:
                    param(t.type, var, var.replace("#", "_"))
                binds.append((name, template, None))
        else:
            if len(names) != len(positional_types):
                raise self.error(f"the {self.role} {self.jit_fn.fn.__name__} must take "
                                 f"{len(positional_types)} parameters, got {len(names)}")
            binds += [(name, param(ty, name), None) for name, ty in zip(names, positional_types)]
        return self.sem.begin_function(self.name, params, param_names, self.is_kernel), binds, arg_index

    def _generate(self, ir_fn, binds, arg_index):
        """The body of the function begun; on an error the semantic's
        function is ended, abandoned, and the first error reported."""
        try:
            if not self.is_kernel and getattr(self.jit_fn, "noinline", False):
                ir_fn.set_noinline(True)
            self._bind_params(binds, arg_index)
            self._visit_body(self.src.fndef.body)
            self._finish()
        except BaseException:
            with contextlib.suppress(Exception):
                self.sem.end_function()
            raise

    def _bind_params(self, binds, arg_index):
        for name, template, attrs in binds:
            if isinstance(template, _HostDescriptor):
                self.set_value(name, template.make(self.sem, attrs))
                continue
            if isinstance(template, Leaf) and attrs:
                _set_arg_attrs(self.sem, arg_index[template.var], attrs)
                if attrs.get("equal_to_1"):
                    one = tl._wrap(self.sem.constant(1, template.type))
                    self.set_value(name, one)
                    continue
            value = V.rebuild(template, lambda var: tl._wrap(self.sem.get_arg(arg_index[var])))
            if isinstance(template, Const):
                self.scope[name] = Const(_as_constexpr(value))
            else:
                self.set_value(name, value)

    def _visit_body(self, stmts):
        for stmt in stmts:
            if self.terminated() or (self.loops and self.loops[-1].jump):
                break
            self.visit(stmt)

    def _finish(self):
        if self.terminated():
            return
        self.cur_node = None
        if self.ret_template is None or self.ret_template == Const(None):
            self.ret_template = Const(None)
            self.sem.set_result_types([])
            self.sem.ret([])
            return
        # A path that falls off the end returns zeros (Triton: poison).
        self.sem.ret([self.sem.full(t.shape, 0, t.scalar) if t.is_block() else self.sem.constant(0, t)
                      for t in V.leaf_types(self.ret_template)])

    # -- statements -----------------------------------------------------------

    def visit_FunctionDef(self, node):
        raise self.error("nested function definition is not supported.", node)

    def visit_Pass(self, node):
        return None

    def visit_Expr(self, node):
        value = self.visit(node.value)
        # Triton's hints annotate the value they are given (its definition):
        # `tl.multiple_of(ptrs, [16, 16])` as a statement holds for the uses
        # of `ptrs` after it (tutorial 08's loads, 16-byte copies only so).
        # Here the name takes the hinted value, through nested hints too
        # (`tl.max_contiguous(tl.multiple_of(offs, 1024), 1024)`).
        call = node.value
        while isinstance(call, ast.Call) and call.args and _unwrap(self.visit(call.func)) in _HINTS:
            call = call.args[0]
            if isinstance(call, ast.Name):
                if isinstance(_unwrap(value), tl.tensor):
                    self.set_value(call.id, value)
                break

    def visit_Return(self, node):
        value = _unwrap(self.visit(node.value))
        if self.is_kernel and value is not None:
            raise self.error("a kernel cannot return a value", node)
        template, leaves = V.flatten(decay(value), "ret")  # a bare return: Const(None), no leaves
        if isinstance(template, Const) and template.value is not None:
            raise self.error(f"cannot return {template.value!r} from a @jit function", node)
        self._record_return(template)
        self.sem.ret([t.handle for _, t in leaves])

    def _record_return(self, template):
        if self.ret_template is None:
            self.ret_template = template
            self.sem.set_result_types(V.leaf_types(template))
            return
        if V.first_difference(self.ret_template, template) is not None:
            raise self.error(f"Inconsistent return types: {self.ret_template!r} and {template!r}")

    def visit_Assign(self, node):
        if len(node.targets) != 1:
            raise self.error("chained assignment (a = b = ...) is not supported", node)
        value = self.visit(node.value)
        self.assign(node.targets[0], value)

    def assign(self, target, value):
        if isinstance(target, ast.Name):
            self.set_value(target.id, self._sanitize(value))
        elif isinstance(target, (ast.Tuple, ast.List)):
            v = _unwrap(value)
            if not isinstance(v, (tuple, list)):
                raise self.error(f"cannot unpack a value of type {type(v).__name__}", target)
            if any(isinstance(e, ast.Starred) for e in target.elts):
                raise self.error("starred assignment targets are not supported", target)
            if len(v) != len(target.elts):
                raise self.error(f"cannot unpack {len(v)} values into {len(target.elts)} names", target)
            for t, x in zip(target.elts, v):
                self.assign(t, x)
        elif isinstance(target, ast.Subscript):
            raise self.error("assignment to an element (x[i] = ...) is not supported; tensors are immutable",
                             target)
        else:
            raise self.error(f"unsupported assignment target: {type(target).__name__}", target,
                             kind=UnsupportedLanguageConstruct)

    def _sanitize(self, value):
        """What a plain assignment stores (Triton's rule): Python numbers
        become scalar tensors, but stay constexprs inside tuples; constexprs
        of other kinds are unwrapped."""
        v = _unwrap(value)
        if isinstance(v, (tuple, list)):
            return type(v)(_as_constexpr(x) for x in map(_unwrap, v))
        return _as_tensor(v)

    def visit_AnnAssign(self, node):
        if node.value is None:
            return None
        annotation = _unwrap(self.visit(node.annotation))
        if annotation is tl.constexpr or annotation == "tl.constexpr" or annotation == "constexpr":
            if not isinstance(node.target, ast.Name):
                raise self.error("only a name can be annotated tl.constexpr", node)
            value = self.visit(node.value)
            if _has_tensor(value):
                raise self.error(f"'{node.target.id}' is annotated tl.constexpr but its value is a tensor "
                                 "(not known at compile time)", node)
            self.scope[node.target.id] = Const(tl.constexpr(value))
            return None
        value = self.visit(node.value)
        self.assign(node.target, value)

    def visit_AugAssign(self, node):
        if not isinstance(node.target, ast.Name):
            raise self.error("augmented assignment is only supported on names", node)
        lhs = self.lookup(node.target.id)
        rhs = self.visit(node.value)
        self.set_value(node.target.id, self._sanitize(self._binary(node.op, lhs, rhs, node)))

    def visit_Assert(self, node):
        if not self.mb.debug(self.jit_fn):
            return None
        test = self.visit(node.test)
        msg = _unwrap(self.visit(node.msg)) if node.msg is not None else ""
        if not isinstance(test, tl.tensor) and _unwrap(test):
            return None
        tl.device_assert(test, msg if isinstance(msg, str) else str(msg))

    # -- if -------------------------------------------------------------------

    def visit_If(self, node):
        cond = self.visit(node.test)
        if not isinstance(cond, tl.tensor):
            taken = node.body if static_condition(cond) else node.orelse
            self._visit_body(taken)
            return
        self._set_loc(node)
        self.dynamic_ifs += 1
        try:
            self._dynamic_if(node, cond)
        finally:
            self.dynamic_ifs -= 1

    def _dynamic_if(self, node, cond):
        sem = self.sem
        then_b = sem.create_block("if.then")
        else_b = sem.create_block("if.else") if node.orelse else None
        merge = None if node.orelse else sem.create_block("if.end")
        sem.cond_br(cond.handle, then_b, else_b if else_b is not None else merge)
        sem.seal(then_b)
        if else_b is not None:
            sem.seal(else_b)
        before = dict(self.scope)
        then = self._branch(then_b, node.body, before)
        other = self._branch(else_b, node.orelse, before) if else_b is not None else (before, "fallthrough")
        reaching = [(s, e) for s, e in (then, other) if e is not None]
        if len(reaching) == 2:
            self._conform_branches(reaching)
        if not reaching:
            # Both branches returned: what follows is dead; stay in a
            # terminated block so that the caller stops.
            self.scope = then[0]
            return
        self.scope = self._merge_scopes([s for s, _ in reaching], node)
        if merge is None:
            merge = sem.create_block("if.end")
        self._join(merge, [e for _, e in reaching if e != "fallthrough"], node)

    def _branch(self, block, body, before):
        """Visits ``body`` in ``block`` from the scope ``before`` -> (the
        scope at its end, the block it ends in; None where it returned)."""
        self.scope = dict(before)
        self.sem.set_insert_block(block)
        self._visit_body(body)
        return self.scope, (None if self.terminated() else self.sem.get_insert_block())

    def _join(self, merge, ends, node):
        """Branches from each block of ``ends`` to ``merge``, which becomes
        the current block."""
        self._set_loc(node)
        for end in ends:
            self.sem.set_insert_block(end)
            self.sem.br(merge)
        self.sem.seal(merge)
        self.sem.set_insert_block(merge)

    def _conform_branches(self, reaching):
        """Tuples that differ between the branches only in their Python
        numbers get tensors there instead (emitted at the end of each
        branch), as Triton makes every tuple element a tensor."""
        (sa, ea), (sb, eb) = reaching
        for name in [n for n in sa if n in sb]:
            ta, tb = sa[name], sb[name]
            if ta == tb or not (_has_scalar_const(ta) or _has_scalar_const(tb)):
                continue
            for s_this, e_this in ((sa, ea), (sb, eb)):
                if e_this == "fallthrough" or not isinstance(s_this[name], Seq):
                    continue  # no else: the value from before flows in as is
                saved = self.scope
                self.scope = s_this
                try:
                    self.sem.set_insert_block(e_this)
                    self.set_value(name, _tensorize(self.get_value(name)))
                finally:
                    self.scope = saved

    def _merge_scopes(self, scopes, node):
        if len(scopes) == 1:
            return dict(scopes[0])
        a, b = scopes
        merged = {}
        for name in list(a) + [n for n in b if n not in a]:
            ta, tb = a.get(name), b.get(name)
            if ta is None or tb is None:
                merged[name] = Undefined("it is assigned in only one branch of an if")
                continue
            if isinstance(ta, Undefined) or isinstance(tb, Undefined):
                merged[name] = ta if isinstance(ta, Undefined) else tb
                continue
            diff = V.first_difference(ta, tb)
            if diff is None:
                merged[name] = ta
                continue
            x, y = diff
            if isinstance(x, Leaf) and isinstance(y, Leaf):
                raise self.error(f"Mismatched type for {name} between then block ({x.type}) and else block "
                                 f"({y.type})", node)
            raise self.error(f"'{name}' is {V.describe(x)} in the then block but {V.describe(y)} in the else "
                             "block; a name must have the same kind and type on both paths", node)
        return merged

    def visit_IfExp(self, node):
        cond = self.visit(node.test)
        if not isinstance(cond, tl.tensor):
            return self.visit(node.body) if static_condition(cond) else self.visit(node.orelse)
        sem = self.sem
        var = self.new_var("ifexp")
        then_b, else_b = sem.create_block("ifexp.then"), sem.create_block("ifexp.else")
        sem.cond_br(cond.handle, then_b, else_b)
        sem.seal(then_b)
        sem.seal(else_b)
        results, ends = [], []
        for block, expr in ((then_b, node.body), (else_b, node.orelse)):
            sem.set_insert_block(block)
            v = _unwrap(self.visit(expr))
            if v is not None:  # None: `f(x) if c else g(x)`, for the calls' effects
                v = tl.to_tensor(v) if not isinstance(v, tl.tensor) else v
                sem.write_var(var, v.handle)
            results.append(v)
            ends.append(sem.get_insert_block())
        void = [v is None for v in results]
        if any(void) and not all(void):
            raise self.error("Ternary expression with dynamic condition has a None branch and a value branch", node)
        if not all(void) and results[0].type != results[1].type:
            raise self.error("Ternary expression with dynamic condition has inconsistent types "
                             f"{results[0].type} and {results[1].type}", node)
        self._join(sem.create_block("ifexp.end"), ends, node)
        return None if all(void) else self._read_leaf(var)

    # -- loops ----------------------------------------------------------------

    def _assigned_names(self, stmts):
        names = set()
        for stmt in stmts:
            for n in ast.walk(stmt):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    names.add(n.id)
        return names

    def _conform(self, value, target):
        """``value`` with its Python numbers made tensors where ``target``
        (a template) has a tensor: a tuple element that is a constant on one
        path and a tensor on another (Triton makes it a tensor on both)."""
        v = _unwrap(value)
        if isinstance(target, Leaf):
            return _as_tensor(value)
        if isinstance(target, Seq) and isinstance(v, (tuple, list)) and len(v) == len(target.items):
            return type(v)(self._conform(x, t) for x, t in zip(v, target.items))
        return value

    def _conform_name(self, name, target):
        """Rewrites ``name`` conformed to ``target``; whether it changed."""
        t = self.scope.get(name)
        if t is None or isinstance(t, (Undefined, Leaf)) or not _has_scalar_const(t):
            return False
        new = self._conform(self.get_value(name), target)
        template, _ = V.flatten(new, name)
        if template == t:
            return False
        self.set_value(name, new)
        return True

    def _tensorize_tuples(self, names):
        """Before a loop: the Python numbers inside tuples the loop assigns
        become tensors, so that they can be carried around it."""
        for name in names:
            t = self.scope.get(name)
            if isinstance(t, Seq) and _has_scalar_const(t):
                self.set_value(name, _tensorize(self.get_value(name)))

    def _check_loop_carried(self, before, node):
        for name, t0 in before.items():
            t1 = self.scope.get(name)
            if t1 is None or t1 is t0 or isinstance(t0, Undefined):
                continue
            diff = V.first_difference(t0, t1)
            if diff is None:
                continue
            x, y = diff
            if isinstance(x, Leaf) and isinstance(y, Leaf):
                raise self.error(loop_type_changed(name, x.type, y.type), node)
            if isinstance(x, Const):
                raise self.error(loop_type_changed(name), node)
            raise self.error(f"Loop-carried variable {name} changes from {V.describe(x)} to {V.describe(y)} in "
                             "the loop", node)

    def _loop(self, node, header_name, header_fn, body_fn, latch_fn=None, num_stages=None, disable_licm=False):
        """The CFG of a loop: header (condition) -> body -> latch -> header,
        header -> exit. ``header_fn`` returns the condition (a handle, a
        tensor, or a tl.condition with its own disable_licm); ``num_stages``
        and ``disable_licm`` (tl.range's) go on the header's branch. A
        ``break`` branches to the exit, a ``continue`` to the latch (a block
        of its own, made by the first continue; a while loop's is the
        header): extra edges whose values meet in phis like any other."""
        sem = self.sem
        self._tensorize_tuples(self._assigned_names(node.body))
        header = sem.create_block(header_name)
        sem.br(header)
        sem.set_insert_block(header)
        before = dict(self.scope)
        cond = header_fn()
        if isinstance(cond, tl.condition):
            disable_licm = disable_licm or _unwrap(cond.disable_licm)
            cond = _unwrap(cond.condition)
        if isinstance(cond, tl.tensor):
            cond = cond.handle
        body = sem.create_block("loop.body")
        exit_b = sem.create_block("loop.exit")
        self._set_loc(node)
        sem.cond_br(cond, body, exit_b, num_stages, bool(disable_licm))
        sem.seal(body)
        sem.set_insert_block(body)
        ctx = _LoopContext(before, exit_b, None if latch_fn is not None else header)
        self.loops.append(ctx)
        try:
            body_fn()
        finally:
            self.loops.pop()
        latch = ctx.latch if ctx.latch is not header else None  # a block a continue made
        if not self.terminated():
            if latch is not None:
                self._leave_iteration(ctx, node, latch)
            else:
                self._leave_iteration(ctx, node)
                if latch_fn is not None:
                    latch_fn()
                sem.br(header)
        if latch is not None:
            sem.seal(latch)
            sem.set_insert_block(latch)
            self.scope = dict(before)  # the types of every edge in were checked against it
            self._set_loc(node)
            latch_fn()
            sem.br(header)
        sem.seal(header)
        sem.seal(exit_b)
        sem.set_insert_block(exit_b)
        body_scope = self.scope
        self.scope = dict(before)
        for name, t in body_scope.items():
            if name not in before:
                self.scope[name] = Undefined("it is assigned only inside a loop")

    def _leave_iteration(self, ctx, node, target=None):
        """The checks and conversions of an edge out of the body (its end,
        a break, a continue): the loop-carried names keep their types;
        then a branch to ``target`` if given."""
        for name, t in ctx.before.items():
            if not isinstance(t, Undefined):
                self._conform_name(name, t)
        self._check_loop_carried(ctx.before, node)
        self._set_loc(node)
        if target is not None:
            self.sem.br(target)

    def _static_jump(self, node, what):
        """A break or continue of a static (unrolled) loop: it stops
        unrolling the iteration (and the loop, for break), which only a
        condition known at compile time may decide."""
        ctx = self.loops[-1]
        if self.dynamic_ifs != ctx.dynamic_ifs:
            raise self.error(f"'{what}' under a run-time condition is not supported in a static loop "
                             "(tl.static_range or a tuple), whose iterations are unrolled at compile time; "
                             "use range or tl.range", node)
        ctx.jump = what

    def visit_Break(self, node):
        ctx = self.loops[-1]
        if isinstance(ctx, _StaticLoop):
            return self._static_jump(node, "break")
        self._leave_iteration(ctx, node, ctx.exit)

    def visit_Continue(self, node):
        ctx = self.loops[-1]
        if isinstance(ctx, _StaticLoop):
            return self._static_jump(node, "continue")
        if ctx.latch is None:
            ctx.latch = self.sem.create_block("loop.latch")
        self._leave_iteration(ctx, node, ctx.latch)

    def visit_While(self, node):
        if node.orelse:
            raise self.error("`while ... else` is not supported", node)
        self._check_constexpr_reassign(node.body, node)
        self._loop(node, "while.header", lambda: _unwrap(self.visit(node.test)), lambda: self._visit_body(node.body))

    def _check_constexpr_reassign(self, body, node):
        for name in self._assigned_names(body):
            t = self.scope.get(name)
            if isinstance(t, Const) and isinstance(t.value, tl.constexpr):
                raise self.error(f"cannot reassign constexpr {name} in the loop", node)

    def visit_For(self, node):
        if node.orelse:
            raise self.error("`for ... else` is not supported", node)
        it = node.iter
        iterator = None
        if isinstance(it, ast.Call):
            func = _unwrap(self.visit(it.func))
            if func is tl.static_range or func is tl.range or func is range:
                args, kwargs = self._call_args(it)
                if func is range:
                    if kwargs:
                        raise self.error("range() takes no keyword arguments", it)
                    iterator = tl.range(*args)
                else:
                    iterator = func(*args, **kwargs)
        if iterator is None:
            seq = _unwrap(self.visit(it))
            if isinstance(seq, (tuple, list)):
                return self._static_for(node, list(seq))
            raise self.error("Only `range`, `tl.range` and `tl.static_range` iterators (or tuples) are "
                             "supported in for loops", it)
        if isinstance(iterator, tl.static_range):
            return self._static_for(node, [tl.constexpr(i) for i in iterator])
        return self._dynamic_for(node, iterator)

    def _static_for(self, node, values):
        ctx = _StaticLoop(self.dynamic_ifs)
        self.loops.append(ctx)
        try:
            for v in values:
                self.assign_loop_target(node.target, v)
                self._visit_body(node.body)
                if self.terminated() or ctx.jump == "break":
                    break
                ctx.jump = None
        finally:
            self.loops.pop()

    def assign_loop_target(self, target, v):
        if isinstance(target, ast.Name):
            if isinstance(_unwrap(v), (tl.tensor, tuple, list, tl.block_ptr)):
                self.set_value(target.id, _unwrap(v))
            else:
                self.scope[target.id] = Const(tl.constexpr(v) if _is_scalar_literal(_unwrap(v)) else v)
        else:
            self.assign(target, v)

    def _dynamic_for(self, node, iterator):
        if not isinstance(node.target, ast.Name):
            raise self.error("the target of a for loop must be a name", node.target)
        self._check_constexpr_reassign(node.body, node)
        try:
            lb, ub, st, step = iterator.bounds()
        except (TypeError, ValueError) as e:
            raise self.error(str(e), node.iter) from None
        iv_var = self.new_var("for.iv")
        self.sem.write_var(iv_var, lb.handle)
        negative = isinstance(step, int) and step < 0
        if not isinstance(step, int):
            # The sign of a run-time step decides the comparison, as in
            # Python's range; it is computed once, before the loop.
            step_up, step_down = st > 0, st < 0

        def header():
            iv = self._read_leaf(iv_var)
            if not isinstance(step, int):
                return (step_up.logical_and(iv < ub)).logical_or(step_down.logical_and(iv > ub)).handle
            return (iv > ub if negative else iv < ub).handle

        def body():
            self.set_value(node.target.id, self._read_leaf(iv_var))
            self._visit_body(node.body)

        def latch():
            self.sem.write_var(iv_var, (self._read_leaf(iv_var) + st).handle)

        stages = _unwrap(iterator.num_stages)
        if stages is not None and not isinstance(stages, int):
            raise self.error(f"num_stages must be an int, got {stages!r}", node.iter)
        self._loop(node, "for.header", header, body, latch, stages, _unwrap(getattr(iterator, "disable_licm", False)))

    # -- expressions ----------------------------------------------------------

    def visit_Constant(self, node):
        return tl.constexpr(node.value)

    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Store):
            return node.id
        return self.lookup(node.id)

    def visit_Tuple(self, node):
        return tuple(self._elements(node.elts))

    visit_List = visit_Tuple

    def _elements(self, elts):
        out = []
        for e in elts:
            if isinstance(e, ast.Starred):
                v = _unwrap(self.visit(e.value))
                if not isinstance(v, (tuple, list)):
                    raise self.error("only tuples can be unpacked with *", e)
                out.extend(v)
            else:
                out.append(self.visit(e))
        return out

    def visit_Dict(self, node):
        out = {}
        for k, v in zip(node.keys, node.values):
            if k is None:
                raise self.error("** in a dict display is not supported", node)
            key, value = self.visit(k), self.visit(v)
            if _has_tensor(key):
                raise self.error("dict keys must be compile-time values", k)
            out[_freeze(key)] = value
        return out

    def visit_Slice(self, node):
        return slice(_unwrap(self.visit(node.lower)), _unwrap(self.visit(node.upper)), _unwrap(self.visit(node.step)))

    def visit_Index(self, node):  # Python < 3.9
        return self.visit(node.value)

    def visit_JoinedStr(self, node):
        parts = []
        for v in node.values:
            if isinstance(v, ast.Constant):
                parts.append(str(v.value))
            elif isinstance(v, ast.FormattedValue):
                val = self.visit(v.value)
                if _has_tensor(val):
                    raise self.error("f-strings can only format compile-time values (constexprs), not tensors",
                                     node)
                val = _unwrap(val)
                conv = {115: str, 114: repr, 97: ascii}.get(v.conversion, lambda x: x)
                spec = _unwrap(self.visit(v.format_spec)) if v.format_spec is not None else ""
                parts.append(format(conv(val), spec))
            else:
                raise self.error(f"unsupported f-string part {type(v).__name__}", v)
        return tl.constexpr("".join(parts))

    def visit_Attribute(self, node):
        obj = _unwrap(self.visit(node.value))
        try:
            res = getattr(obj, node.attr)
        except AttributeError:
            if node.attr == "type":  # a compile-time value's, as Triton's constexpr has
                return _types.constexpr_type(obj)
            what = "tensor" if isinstance(obj, tl.tensor) else type(obj).__name__
            raise self.error(f"'{what}' has no attribute '{node.attr}'", node) from None
        return _as_static(res, (tuple, list))

    def visit_Subscript(self, node):
        value = self.visit(node.value)
        index = self.visit(node.slice)
        if isinstance(value, tl.tensor):
            return value.__getitem__(index)
        obj = _unwrap(value)
        idx = _unwrap(index)
        if _has_tensor(idx):
            raise self.error("tuples and lists can only be indexed by compile-time integers", node)
        if isinstance(idx, tuple):
            idx = tuple(_unwrap(i) for i in idx)
        return _as_static(obj[idx], list)

    def _binary(self, op, lhs, rhs, node):
        method = _BIN_METHODS.get(type(op))
        if method is None:
            raise self.error(f"AST binary operator '{type(op).__name__}' is not (currently) implemented.", node)
        return self._apply_binary(method, lhs, rhs, node)

    def _apply_binary(self, method, lhs, rhs, node):
        if isinstance(lhs, tl.tensor):
            return getattr(lhs, method)(rhs)
        if isinstance(rhs, tl.tensor):
            reflected = _REFLECTED.get(method) or method.replace("__", "__r", 1)
            return getattr(rhs, reflected)(lhs)
        a, b = _unwrap(lhs), _unwrap(rhs)
        if isinstance(a, tl.block_ptr) or isinstance(b, tl.block_ptr):
            raise self.error("block pointers support no arithmetic; use tl.advance", node)
        try:
            return tl.constexpr(getattr(operator, method)(a, b))  # operator.__add__ ...
        except TypeError:
            raise self.error(f"unsupported operand types for {method.strip('_')}: {type(a).__name__} and "
                             f"{type(b).__name__}", node) from None

    def visit_BinOp(self, node):
        # A left-deep chain (a + b + c + ...) is walked in a loop, not by
        # recursion: a long sum can be deeper than Python's recursion limit.
        # Each operation is still generated at (and reports errors at) its
        # own node.
        chain = [node]
        while isinstance(chain[-1].left, ast.BinOp):
            chain.append(chain[-1].left)
        lhs = self.visit(chain[-1].left)
        for n in reversed(chain[1:]):
            lhs = self._at(n, self._binop, n, lhs)
        return self._binop(node, lhs)

    def _binop(self, node, lhs):
        rhs = self.visit(node.right)
        return self._binary(node.op, lhs, rhs, node)

    def visit_UnaryOp(self, node):
        operand = self.visit(node.operand)
        method = _UNARY_METHODS.get(type(node.op))
        if isinstance(operand, tl.tensor):
            return getattr(operand, method)()
        v = _unwrap(operand)
        try:
            return tl.constexpr(getattr(operator, method)(v))  # operator.__neg__ ... on a compile-time value
        except TypeError:
            raise self.error(f"AST unary operator '{method}' is not (currently) implemented on type "
                             f"{type(v).__name__}", node) from None

    def visit_Compare(self, node):
        result = None
        lhs = self.visit(node.left)
        for op, comp in zip(node.ops, node.comparators):
            rhs = self.visit(comp)
            r = self._compare(op, lhs, rhs, node)
            result = r if result is None else py_logical(True, result, r)
            if not isinstance(result, tl.tensor) and not _unwrap(result):
                return result  # static False: Python stops here
            lhs = rhs
        return result

    def _compare(self, op, lhs, rhs, node):
        if isinstance(op, (ast.Is, ast.IsNot)):
            # Python's identity, at compile time (a tensor is never None).
            r = _unwrap(lhs) is _unwrap(rhs)
            return tl.constexpr(r if isinstance(op, ast.Is) else not r)
        if isinstance(op, (ast.In, ast.NotIn)):
            if _has_tensor(lhs) or _has_tensor(rhs):
                raise self.error("`in` is only supported on compile-time values", node)
            r = _unwrap(lhs) in [_unwrap(x) for x in _unwrap(rhs)]
            return tl.constexpr(r if isinstance(op, ast.In) else not r)
        return self._apply_binary(_CMP_METHODS[type(op)], lhs, rhs, node)

    def visit_BoolOp(self, node):
        return py_boolop(isinstance(node.op, ast.And), self.visit(node.values[0]),
                         [functools.partial(self.visit, e) for e in node.values[1:]])

    # -- calls ----------------------------------------------------------------

    def _call_args(self, node):
        args = self._elements(node.args)
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                d = _unwrap(self.visit(k.value))
                if not isinstance(d, dict):
                    raise self.error("** needs a dict", k)
                kwargs.update(d)
            else:
                kwargs[k.arg] = self.visit(k.value)
        return args, kwargs

    def visit_Call(self, node):
        fn = _unwrap(self.visit(node.func))
        args, kwargs = self._call_args(node)
        self._set_loc(node)
        if _is_jit(fn):
            return self.call_jit(fn, args, kwargs, node)
        impl = _builtin_impl(fn)
        if impl is not None:
            return impl(self, fn, node, args, kwargs)
        bound_to_value = isinstance(getattr(fn, "__self__", None), (tl.tensor, tl.block_ptr))
        if tl.is_builtin(fn) or bound_to_value or _is_language_object(fn):
            ret = fn(*args, **kwargs)
            if isinstance(ret, list):
                ret = tuple(ret)
            if _is_scalar_literal(ret):
                ret = tl.constexpr(ret)
            return ret
        if _has_tensor(args) or _has_tensor(kwargs):
            name = getattr(fn, "__name__", repr(fn))
            raise self.error(f"'{name}' is not a @jit function: it cannot be called with tensor arguments "
                             "(decorate it with @tritium.jit)", node)
        return self._py_static(fn, node, args, kwargs)

    def call_jit(self, fn, args, kwargs, node):
        try:
            bound = inspect.signature(fn.fn).bind(*args, **kwargs)
        except TypeError as e:
            raise self.error(f"{fn.fn.__name__}(): {e}", node) from None
        bound.apply_defaults()
        values = {}
        # As in Triton, the value decides what an argument is: a tensor passed to a
        # parameter annotated tl.constexpr stays a tensor (tutorial 06 passes offs_m so).
        for name, v in bound.arguments.items():
            v = _unwrap(v)
            if _is_scalar_literal(v) or v is None or isinstance(v, (str, _types.dtype)) or _is_jit(v):
                v = tl.constexpr(v)
            values[name] = v
        if getattr(fn, "noinline", False):
            for name, v in values.items():
                if isinstance(v, tl.tensor) and v.type.is_block():
                    raise self.error(f"Function {fn.fn.__name__} is marked noinline, but was called with "
                                     f"non-scalar argument {name}:{v}", node)
        key = call_key(fn, values)
        if key not in self.mb.functions:
            if key in self.mb.building:
                raise self.error(f"recursive call of {fn.fn.__name__} is not supported", node)
            self.mb.building.add(key)
            try:
                gen = CodeGenerator(self.mb, fn, self.mb.unique_name(key[1]))
                ir_fn, ret = gen.build(call_args=values)
            finally:
                self.mb.building.discard(key)
            self.mb.functions[key] = (ir_fn, ret)
            self._set_loc(node)
        ir_fn, ret = self.mb.functions[key]
        leaves = [t.handle for name, v in values.items() for _, t in V.flatten(v, name)[1]]
        results = self.sem.call(ir_fn, leaves)
        if ret is None or ret == Const(None):
            return None
        it = iter(results)
        return V.rebuild(ret, lambda var: tl._wrap(next(it)))

    # -- builtins of Python ----------------------------------------------------

    def _py_static(self, fn, node, args, kwargs):
        # isinstance, hasattr, getattr, type... look at a tensor as the
        # Python object it is; int(), float() and bool() would need its value.
        if fn in (int, float, bool) and (_has_tensor(args) or _has_tensor(kwargs)):
            raise self.error(f"{fn.__name__}() of a tensor is not supported in @jit functions "
                             "(use x.to(dtype) to convert)", node)
        r = fn(*[_unwrap(a) for a in args], **{k: _unwrap(v) for k, v in kwargs.items()})
        return _as_static(r)

    def _py_range(self, fn, node, args, kwargs):
        if _has_tensor(args):
            raise self.error("range() with tensor bounds can only be used as the iterator of a for loop", node)
        return tuple(range(*[_unwrap(a) for a in args]))


def static_condition(cond):
    """The truth of an `if` whose condition is known at compile time
    (compiled and interpreted)."""
    c = _unwrap(cond)
    if type(c) not in _CONDITION_TYPES:
        raise TypeError("`if` conditionals can only accept values of type {bool, int, float, NoneType}, "
                        f"not objects of type {type(c).__name__}")
    return bool(c)


def py_logical(is_and, lhs, rhs):
    """``lhs and rhs`` / ``lhs or rhs`` once both are known: a logical
    operation on a tensor; Python's rule on a compile-time left operand."""
    if isinstance(lhs, tl.tensor):
        return lhs.logical_and(rhs) if is_and else lhs.logical_or(rhs)
    if isinstance(rhs, tl.tensor):
        return rhs if bool(_unwrap(lhs)) == is_and else lhs
    return tl.constexpr(_unwrap(lhs) and _unwrap(rhs) if is_and else _unwrap(lhs) or _unwrap(rhs))


def py_boolop(is_and, first, rest):
    """``a and b and ...`` in a kernel (compiled and interpreted): ``rest``
    are thunks, run unless a compile-time value short-circuits them."""
    result = first
    for operand in rest:
        if not isinstance(result, tl.tensor) and bool(_unwrap(result)) != is_and:
            return result
        result = py_logical(is_and, result, operand())
    return result


def py_len(x):
    """``len`` in a kernel (compiled and interpreted): a block's first
    dimension, a sequence's length."""
    x = _unwrap(x)
    if isinstance(x, tl.tensor):
        return tl.constexpr(x.shape[0] if x.shape else 0)
    return tl.constexpr(len(x))


def py_minmax(fn, args, kwargs):
    """``min``/``max`` in a kernel (compiled and interpreted): of numbers a
    number, of tensors tl.minimum/tl.maximum folded; no keywords."""
    if kwargs:
        raise TypeError(f"{fn.__name__}() keyword arguments are not supported")
    if len(args) == 1:
        args = list(_unwrap(args[0]))
    if not args:
        raise TypeError(f"{fn.__name__}() needs arguments")
    if not _has_tensor(args):
        return tl.constexpr(fn([_unwrap(a) for a in args]))
    return functools.reduce(tl.maximum if fn is max else tl.minimum, args)


def py_print(*args, **kwargs):
    """``print`` in a kernel: tl.device_print of the values, the leading
    strings its prefix (the interpreter's too)."""
    rest = list(args)
    prefix = []
    while rest and isinstance(_unwrap(rest[0]), str):
        prefix.append(_unwrap(rest.pop(0)))
    tl.device_print(" ".join(prefix), *rest, hex=kwargs.get("hex", False))


def _has_scalar_const(t):
    return any(isinstance(p, Const) and _is_scalar_literal(_unwrap(p.value)) for p in V.parts(t))


def loop_type_changed(name, before=None, after=None):
    """The error of a loop-carried variable whose type the loop changes, or
    of a constexpr it assigns (``before`` None); the interpreter's rewrite
    checks the same."""
    if before is None:
        return f"cannot reassign constexpr {name} in the loop"
    return (f"Loop-carried variable {name} has initial type {before} but is re-assigned to {after} in loop! "
            "Please make sure that the type stays consistent.")


def _tensorize(v):
    """``v`` with the Python numbers inside tuples made tensors."""
    u = _unwrap(v)
    if isinstance(u, (tuple, list)):
        return type(u)(_as_tensor(_tensorize(x)) for x in u)
    return v


def _freeze(x):
    """A hashable compile-time value: constexprs unwrapped, tuples inside."""
    x = _unwrap(x)
    if isinstance(x, (tuple, list)):
        return tuple(_freeze(v) for v in x)
    return x


def call_key(fn, values):
    """(id of the function, mangled name) of a call of the @jit function
    ``fn`` with ``values`` ({parameter: value}, defaults applied): calls
    with one key are one IR function, and a call made while one with its
    key is being generated is a recursion (the interpreter asks the same)."""
    key_parts = [_template_key(V.flatten(values.get(name), name)[0]) for name in fn.arg_names]
    return id(fn.fn), _ident(f"{fn.fn.__name__}__{'__'.join(key_parts)}")


def _template_key(t):
    if isinstance(t, Leaf):
        return _ident(str(t.type))
    if isinstance(t, Seq):
        return "T" + "_".join(_template_key(x) for x in t.items) + "_"
    if isinstance(t, Agg):
        return "B" + _mangle_value(t.key) + "_".join(_template_key(x) for x in t.items) + "_"
    return "c" + _mangle_value(t.value)


# Python's builtins a kernel may call, each with how the code generator runs it.
_BUILTIN_IMPLS = {len: lambda self, fn, node, args, kwargs: py_len(*args, **kwargs),
                  **dict.fromkeys((min, max), lambda self, fn, node, args, kwargs: py_minmax(fn, args, kwargs)),
                  print: lambda self, fn, node, args, kwargs: py_print(*args, **kwargs),
                  range: CodeGenerator._py_range}
_BUILTIN_IMPLS.update(dict.fromkeys((int, float, bool, isinstance, getattr, hasattr, list, tuple, str, repr, type,
                                     enumerate, zip), CodeGenerator._py_static))
_BUILTINS = {fn.__name__: fn for fn in _BUILTIN_IMPLS}


def _builtin_impl(fn):
    try:
        return _BUILTIN_IMPLS.get(fn)
    except TypeError:  # unhashable
        return None


# -- The binding's function-level knobs ---------------------------------------


class _HostDescriptor:
    """A kernel parameter that receives a host-side TensorDescriptor: its
    arguments from ``first`` on (base, shape, strides but the last, then the
    tensor map where ``has_map``)."""

    def __init__(self, first, ty, has_map):
        self.first, self.ty, self.has_map = first, ty, has_map

    def make(self, sem, attrs):
        # One fact per parameter (Dispatcher.cpp's descriptorEntry): "D" where the
        # base is 16-byte aligned or the integer divisible by 16. A plain
        # divisibility (ASTSource attrs) applies to the base.
        attrs = attrs or {}
        facts = attrs.get("descriptor_divisibility", "")
        for i, fact in enumerate(facts):
            if fact == "D":
                sem.set_arg_divisibility(self.first + i, 16)
        if not facts:
            _set_arg_attrs(sem, self.first, attrs)
        rank = len(self.ty.shape)
        args = [tl._wrap(sem.get_arg(self.first + i)) for i in range(2 * rank)]
        tensormap = self.first + 2 * rank if self.has_map else -1
        return tl._wrap(sem.make_tensor_descriptor(
            args[0].handle, tl._offsets(args[1:1 + rank]), tl._offsets(args[1 + rank:] + [1]),
            list(self.ty.shape), tensormap_arg=tensormap))


def _set_arg_attrs(sem, index, attrs):
    div = attrs.get("divisibility")
    if div:
        sem.set_arg_divisibility(index, int(div))
    if attrs.get("equal_to_1"):
        sem.set_arg_equal_to_1(index)


# -- Entry point --------------------------------------------------------------


class _Options:
    """The compile options as the builtins read them: ``debug`` is on when
    the options or the @jit decorator ask for it."""

    def __init__(self, options, fn_debug):
        self._options = options
        self.debug = bool(fn_debug) or bool(tl._get_option(options, "debug", False))

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        v = tl._get_option(self._options, name, None)
        if v is None:
            raise AttributeError(name)
        return v


def ast_to_ir(fn, signature, constexprs, attrs=None, options=None, module=None, name=None):
    """Builds the IR module of the kernel ``fn`` (a JITFunction) for one
    specialization (docs/frontend.md):

    * ``signature``: {arg name: "*fp32" | "i32" | ... | "constexpr"}
    * ``constexprs``: {arg name: value}
    * ``attrs``: {arg index: {"divisibility": 16, "equal_to_1": True}}
      (the three in any form ASTSource takes: compiler.specialization)
    * ``options``: num_warps, num_stages, debug, ... (a dict or an object)
    * ``name``: the kernel's name (default: the function's)

    Raises ``tritium.CompilationError`` for every error in the kernel.
    """
    from .compiler import specialization  # the compiler imports this module when it compiles
    kernel = specialization(fn, signature, constexprs, attrs)
    options = _Options(options, getattr(fn, "debug", None))
    if module is None:
        module = _C.ir.Module()
    sem = _C.frontend.Semantic(module)
    mb = _ModuleBuilder(sem, options)
    gen = CodeGenerator(mb, fn, name=mb.unique_name(name or fn.fn.__name__), is_kernel=True)
    with tl.use_semantic(sem, mb, options):
        gen.build(kernel=kernel)
    return module
