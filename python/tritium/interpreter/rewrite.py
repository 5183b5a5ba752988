"""A @jit function's own code under the interpreter: compiled again from its
source, with the same file, lines and columns (tracebacks, ``breakpoint()``
and debuggers see the kernel's lines) and its own globals and closure cells,
with the constructs the code generator gives a meaning of its own wrapped in
calls of the helpers below (docs/frontend.md, "Interpreter mode"). A
function whose source cannot be read runs as it is.
"""

import ast
import builtins
import inspect
import sys
import types

import numpy as np

from ..compiler.codegen import loop_type_changed, py_boolop, py_len, py_minmax, py_print, static_condition
from ..errors import CompilationError, recursion_limit_message
from ..language import core as _core
from ..language.core import _unwrap

#: Code objects of the functions interpreted (rewritten and original).
KERNEL_CODES = {}

_PREFIX = "__tritium_"


def assign(value, spec=True):
    """What a plain assignment stores (codegen's _sanitize): Python numbers
    become scalar tensors; ``spec``: a tuple target's structure (True for a
    name, False for an attribute or subscript)."""
    if spec is False:
        return value
    v = _unwrap(value)
    if spec is True:
        return _core.to_tensor(v) if isinstance(v, (bool, int, float)) else v
    try:
        seq = list(v)
    except TypeError:
        return value
    if len(seq) != len(spec):
        return value
    return tuple(assign(x, s) for x, s in zip(seq, spec))


def test(cond):
    """The truth of an ``if``/``while`` condition."""
    c = _unwrap(cond)
    if isinstance(c, _core.condition):
        c = _unwrap(c.condition)
    if isinstance(c, (_core.tensor, np.bool_, np.integer, np.floating)):
        return bool(c)
    return static_condition(c)


def not_(x):
    if isinstance(x, _core.tensor):
        return x.__not__()
    return not _unwrap(x)


def boolop(is_and, first, *rest):
    return py_boolop(is_and, first, rest)


def assert_(cond, msg=""):
    if not isinstance(cond, _core.tensor) and _unwrap(cond):
        return None
    m = _unwrap(msg)
    _core.device_assert(cond, m if isinstance(m, str) else str(m))


def _dynamic_range(iterator):
    """A ``range``/``tl.range`` loop as compiled: the induction variable is a
    scalar tensor of the bounds' type, stepped by tensor operations."""
    lb, ub, st, _ = iterator.bounds()
    up, down = bool(st > 0), bool(st < 0)
    iv = lb
    while (up and bool(iv < ub)) or (down and bool(iv > ub)):
        yield iv
        iv = iv + st


def _is_dynamic_range(f):
    """Whether the code generator keeps ``for ... in f(...)`` a loop."""
    return f is builtins.range or f is _core.range


def for_(func, *args, **kwargs):
    """The iterator of ``for x in func(*args)`` (codegen's visit_For)."""
    f = _unwrap(func)
    if f is builtins.range and kwargs:
        raise TypeError("range() takes no keyword arguments")
    if _is_dynamic_range(f):
        return _dynamic_range(_core.range(*args, **kwargs))
    return iter(func(*args, **kwargs))


def _carried_type(v):
    """What a loop carries ``v`` as: a tensor's type, a Python number itself
    (a constexpr), None for what is not checked."""
    v = _unwrap(v)
    if isinstance(v, _core.tensor):
        return v.type
    return v if isinstance(v, (bool, int, float)) else None


def carried(scope, names, func=None):
    """Before a loop: what the existing names it assigns carry (none for a
    loop the code generator unrolls: its names may change type)."""
    if func is not None and not _is_dynamic_range(_unwrap(func)):
        return {}
    return {n: t for n in names if n in scope and (t := _carried_type(scope[n])) is not None}


def check_carried(before, scope):
    """At each iteration's start and after the loop: the code generator's
    error for a carried type changed or a constexpr assigned."""
    for name, t0 in before.items():
        t1 = _carried_type(scope.get(name))
        if t1 is None or (t1 == t0 and type(t1) is type(t0)):
            continue
        if not isinstance(t0, _core.dtype):
            raise CompilationError(loop_type_changed(name))
        raise CompilationError(loop_type_changed(name, t0, t1))


def min_(*args, **kwargs):
    return py_minmax(builtins.min, args, kwargs)


def max_(*args, **kwargs):
    return py_minmax(builtins.max, args, kwargs)


HELPERS = {_PREFIX + name + "__": f for name, f in (
    ("assign", assign), ("test", test), ("not", not_), ("boolop", boolop), ("assert", assert_), ("for", for_),
    ("debug", lambda: bool(_core._option("debug", False))), ("carried", carried),
    ("check_carried", check_carried))}
#: Python builtins with a kernel meaning (unless the module defines the name).
BUILTIN_OVERRIDES = {"min": min_, "max": max_, "print": py_print, "len": py_len}


def _name(id_, node):
    return ast.copy_location(ast.Name(id=id_, ctx=ast.Load()), node)


def _call(helper, args, node):
    return ast.copy_location(ast.Call(func=_name(_PREFIX + helper + "__", node), args=args, keywords=[]), node)


def _target_spec(t):
    """assign()'s ``spec`` of a target (None: starred, left as it is)."""
    if isinstance(t, (ast.Tuple, ast.List)):
        specs = tuple(_target_spec(e) for e in t.elts)
        return None if None in specs else specs
    return True if isinstance(t, ast.Name) else None if isinstance(t, ast.Starred) else False


class _Rewriter:
    """The rewrite of a kernel's ``def``: ``visit_X`` rewrites a node of type
    X whose children are rewritten. Iterative: a kernel may nest expressions
    deeper than Python's recursion limit (``x + x + ... + x``)."""

    def rewrite(self, fndef):
        self.loops = 0  # loops given a carried-types snapshot (_check_carried)
        # Decorators become the identity (their lines kept: the code's first).
        fndef.decorator_list = [ast.copy_location(ast.parse("lambda f: f", mode="eval").body, d)
                                for d in fndef.decorator_list]
        a = fndef.args
        for arg in a.posonlyargs + a.args + a.kwonlyargs + [a.vararg, a.kwarg]:
            if arg is not None:
                arg.annotation = None
        a.defaults = [ast.copy_location(ast.Constant(value=None), d) for d in a.defaults]
        a.kw_defaults = [None if d is None else ast.copy_location(ast.Constant(value=None), d)
                         for d in a.kw_defaults]
        fndef.returns = None
        # Every node with its slot and depth, breadth first; rewritten in
        # reverse, children before parents.
        order = [(stmt, fndef, "body", i, 1) for i, stmt in enumerate(fndef.body)]
        for node, _, _, _, depth in order:
            if isinstance(node, _PLAIN_PYTHON):
                continue
            for field, value in ast.iter_fields(node):
                if isinstance(value, list):
                    order += [(v, node, field, i, depth + 1) for i, v in enumerate(value) if isinstance(v, ast.AST)]
                elif isinstance(value, ast.AST):
                    order.append((value, node, field, None, depth + 1))
        self.depth = order[-1][4] + 1  # compiling the result recurses that deep
        for node, parent, field, index, _ in reversed(order):
            visit = getattr(self, "visit_" + type(node).__name__, None)
            new = node if visit is None else visit(node)
            if new is not node:
                if index is None:
                    setattr(parent, field, new)
                else:
                    getattr(parent, field)[index] = new
        return fndef

    def visit_Assign(self, node):
        if len(node.targets) != 1:
            return node
        spec = _target_spec(node.targets[0])
        if spec is None or spec is False:
            return node
        node.value = _call("assign", [node.value, ast.copy_location(ast.Constant(value=spec), node)], node)
        return node

    def visit_AnnAssign(self, node):
        if node.value is None or not isinstance(node.target, ast.Name) or "constexpr" in ast.unparse(
                node.annotation):
            return node
        node.value = _call("assign", [node.value], node)
        return node

    def visit_AugAssign(self, node):
        if not isinstance(node.target, ast.Name):
            return node
        value = ast.copy_location(ast.BinOp(left=_name(node.target.id, node.target), op=node.op,
                                             right=node.value), node)
        store = ast.copy_location(ast.Name(id=node.target.id, ctx=ast.Store()), node.target)
        return ast.copy_location(ast.Assign(targets=[store], value=_call("assign", [value], node)), node)

    def visit_BoolOp(self, node):
        is_and = ast.copy_location(ast.Constant(value=isinstance(node.op, ast.And)), node)
        no_args = ast.parse("lambda: 0", mode="eval").body.args
        thunks = [ast.copy_location(ast.Lambda(args=no_args, body=v), v) for v in node.values[1:]]
        return _call("boolop", [is_and, node.values[0]] + thunks, node)

    def visit_UnaryOp(self, node):
        if isinstance(node.op, ast.Not):
            return _call("not", [node.operand], node)
        return node

    def visit_If(self, node):
        node.test = _call("test", [node.test], node.test)
        return node

    def visit_While(self, node):
        return self._check_carried(self.visit_If(node))

    visit_IfExp = visit_If

    def visit_Assert(self, node):
        args = [node.test] + ([node.msg] if node.msg is not None else [])
        check = ast.copy_location(ast.Expr(value=_call("assert", args, node)), node)
        return ast.copy_location(ast.If(test=_call("debug", [], node), body=[check], orelse=[]), node)

    def visit_For(self, node):
        it = node.iter
        if not isinstance(it, ast.Call):
            return node
        node.iter = ast.copy_location(
            ast.Call(func=_name(_PREFIX + "for__", it), args=[it.func] + it.args, keywords=it.keywords), it)
        return self._check_carried(node, it.func)

    def _check_carried(self, loop, func=None):
        """``loop`` inside ``if True:``, between a snapshot of the types of
        the names it assigns and a check of them (also at each iteration's
        start): a type the loop changes is an error, as compiled."""
        targets = [loop.target] if isinstance(loop, ast.For) else []
        names = sorted({n.id for stmt in targets + loop.body for n in _assigned(stmt)})
        if not names:
            return loop
        self.loops += 1
        snapshot = f"{_PREFIX}loop{self.loops}__"
        scope = ast.copy_location(ast.Call(func=_name("locals", loop), args=[], keywords=[]), loop)
        names = ast.copy_location(ast.Constant(value=tuple(names)), loop)
        types_ = _call("carried", [scope, names] + ([func] if func is not None else []), loop)
        take = ast.copy_location(ast.Assign(targets=[ast.copy_location(
            ast.Name(id=snapshot, ctx=ast.Store()), loop)], value=types_), loop)

        def check():
            return ast.copy_location(ast.Expr(value=_call("check_carried", [_name(snapshot, loop), scope], loop)),
                                     loop)
        loop.body.insert(0, check())
        return ast.copy_location(ast.If(test=ast.copy_location(ast.Constant(value=True), loop),
                                        body=[take, loop, check()], orelse=[]), loop)


#: Nodes whose insides are plain Python (nested functions, lambdas, classes).
_PLAIN_PYTHON = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _assigned(stmt):
    """The Name nodes ``stmt`` stores to, outside nested functions."""
    todo = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node
        elif not isinstance(node, _PLAIN_PYTHON):
            todo.extend(ast.iter_child_nodes(node))


def _build(fn):
    """The rewritten function of ``fn``, or None if its source is unknown."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    try:
        lines, start = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        return None
    text = "".join(lines)
    indented = text[:1] in (" ", "\t")
    freevars, g = code.co_freevars, fn.__globals__
    limit = sys.getrecursionlimit()
    try:
        tree = ast.parse(("if 1:\n" + text) if indented else text)
        body = tree.body[0].body if indented else tree.body
        defs = [n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name == fn.__name__]
        if not defs:
            return None
        fndef = defs[0]
        ast.increment_lineno(fndef, start - (2 if indented else 1))
        rewriter = _Rewriter()
        fndef = rewriter.rewrite(fndef)
        # Under its own name in the factory, a recursive call would be a cell
        # of the factory, not the global (or closure) of its module.
        fndef.name = _PREFIX + "kernel__"
        helpers = {**HELPERS, **{n: f for n, f in BUILTIN_OVERRIDES.items() if n not in g and n not in freevars}}
        names = list(freevars) + [n for n in helpers if n not in freevars]
        factory = ast.parse(f"def {_PREFIX}factory__():\n" + "".join(f" {n} = None\n" for n in names)
                            + f" return {fndef.name}").body[0]
        for node in ast.walk(factory):  # the factory's own lines are the def's
            ast.copy_location(node, fndef)
        factory.body.insert(-1, fndef)
        # compile() of an AST recurses as deep as the tree, under Python's
        # limit (compiling source text does not): allow this tree's depth.
        sys.setrecursionlimit(limit + rewriter.depth + 16)
        compiled = compile(ast.Module(body=[factory], type_ignores=[]), code.co_filename, "exec")
    except SyntaxError:
        return None
    except RecursionError:  # ast.parse recurses as deep as expressions nest
        raise CompilationError(f"{fn.__name__}: {recursion_limit_message()}", code.co_filename,
                               code.co_firstlineno, 1) from None
    finally:
        sys.setrecursionlimit(limit)
    ns = {}
    exec(compiled, g, ns)
    inner = ns[_PREFIX + "factory__"]()
    icode = inner.__code__.replace(co_name=fn.__name__)
    if hasattr(icode, "co_qualname"):  # Python 3.11+: tracebacks show it
        icode = icode.replace(co_qualname=code.co_qualname)
    # The function's own closure cells, and new cells for the helpers.
    orig = dict(zip(freevars, fn.__closure__ or ()))
    cells = tuple(orig[name] if name in orig else types.CellType(helpers[name]) for name in icode.co_freevars)
    new = types.FunctionType(icode, g, fn.__name__, fn.__defaults__, cells)
    for attr in ("__kwdefaults__", "__qualname__", "__module__", "__doc__"):
        setattr(new, attr, getattr(fn, attr))
    return new


def rewritten(jit_fn):
    """The function the interpreter runs for a JITFunction (cached)."""
    f = jit_fn.__dict__.get("_tritium_interpreted")
    if f is None:
        fn = jit_fn.fn
        f = _build(fn) or fn
        KERNEL_CODES[f.__code__] = jit_fn
        KERNEL_CODES[fn.__code__] = jit_fn
        jit_fn.__dict__["_tritium_interpreted"] = f
    return f


def location():
    """"file:line" of the kernel line being run, for messages."""
    f = sys._getframe(1)
    while f is not None and f.f_code not in KERNEL_CODES:
        f = f.f_back
    return "<kernel>" if f is None else f"{f.f_code.co_filename}:{f.f_lineno}"
