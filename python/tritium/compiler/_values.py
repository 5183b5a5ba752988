"""How the code generator keeps the values of Python variables.

A variable holds any Python value: a tensor, a constexpr, a tuple of
tensors, a block pointer, a dtype, a function... The code generator splits
such a value into a *template* (its structure and its compile-time parts)
and its tensor *leaves*; each leaf is an SSA variable of the semantic
(``write_var``/``read_var``), named after the Python variable and the path
to the leaf (``acc``, ``t#0``, ``p#3``), so control flow merges the leaves
with phis while the template stays in a Python dict. Two templates must be
equal where paths join (the same structure, leaf types and constants).
"""

from ..language import core as tl


class Leaf:
    """A tensor leaf: the SSA variable holding it and its type."""
    __slots__ = ("var", "type")

    def __init__(self, var, type):
        self.var = var
        self.type = type

    def __eq__(self, other):
        return isinstance(other, Leaf) and other.var == self.var and other.type == self.type

    def __repr__(self):
        return f"<{self.type}>"


class Seq:
    """A tuple or list of values."""
    __slots__ = ("kind", "items")

    def __init__(self, kind, items):
        self.kind = kind
        self.items = items

    def __eq__(self, other):
        return isinstance(other, Seq) and other.kind == self.kind and other.items == self.items

    def __repr__(self):
        return "(" + ", ".join(map(repr, self.items)) + ")"


class Agg:
    """An aggregate of the language (a block pointer): ``proto`` rebuilds
    it from its leaves; ``key`` is its compile-time part."""
    __slots__ = ("proto", "key", "items")

    def __init__(self, proto, items):
        self.proto = proto
        self.key = proto._static_key()
        self.items = items

    def __eq__(self, other):
        return isinstance(other, Agg) and other.key == self.key and other.items == self.items

    def __repr__(self):
        return f"{self.proto!r}"


class Const:
    """A compile-time value."""
    __slots__ = ("value", )

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, Const) and same_const(self.value, other.value)

    def __repr__(self):
        return f"constexpr[{self.value!r}]"


class Undefined:
    """A name defined on some but not all paths to here."""
    __slots__ = ("reason", )

    def __init__(self, reason):
        self.reason = reason

    def __eq__(self, other):
        return isinstance(other, Undefined)


def same_const(a, b):
    a, b = tl._unwrap(a), tl._unwrap(b)
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    try:
        return bool(a == b)
    except Exception:
        return False


def flatten(value, var):
    """(template, [(ssa variable, tensor)]) of ``value`` held by ``var``."""
    leaves = []

    def walk(v, path):
        if isinstance(v, tl.tensor):
            leaves.append((path, v))
            return Leaf(path, v.type)
        if isinstance(v, (tuple, list)):
            return Seq(type(v), [walk(x, f"{path}#{i}") for i, x in enumerate(v)])
        if isinstance(v, tl.block_ptr):
            return Agg(v, [walk(x, f"{path}#{i}") for i, x in enumerate(v._fields())])
        return Const(v)

    return walk(value, var), leaves


def rebuild(template, read):
    """The value of ``template`` with each leaf read by ``read(var)``."""
    if isinstance(template, Leaf):
        return read(template.var)
    if isinstance(template, Seq):
        return template.kind(rebuild(t, read) for t in template.items)
    if isinstance(template, Agg):
        return template.proto._rebuild([rebuild(t, read) for t in template.items])
    return template.value


def parts(template):
    """``template`` and the parts inside it, depth first."""
    yield template
    for item in getattr(template, "items", ()):  # a Seq's or an Agg's
        yield from parts(item)


def leaf_types(template):
    """The types of the leaves of ``template`` in order."""
    return [p.type for p in parts(template) if isinstance(p, Leaf)]


def describe(template):
    """A short description for error messages."""
    if isinstance(template, Leaf):
        return f"tensor of type {template.type}"
    if isinstance(template, Const):
        return f"constexpr {template.value!r}"
    if isinstance(template, Undefined):
        return "undefined"
    return repr(template)


def first_difference(a, b):
    """A pair of differing parts of two templates (None if they agree on
    structure, leaf types and constants)."""
    if isinstance(a, Leaf) and isinstance(b, Leaf):
        return None if a.type == b.type else (a, b)
    if isinstance(a, (Seq, Agg)) and type(a) is type(b):
        same_kind = a.kind is b.kind if isinstance(a, Seq) else a.key == b.key
        if not same_kind or len(a.items) != len(b.items):
            return (a, b)
        for x, y in zip(a.items, b.items):
            d = first_difference(x, y)
            if d:
                return d
        return None
    return None if a == b else (a, b)
