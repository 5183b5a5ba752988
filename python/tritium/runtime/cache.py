"""What a kernel reaches (``DependenciesFinder``): the
@jit functions and constexpr globals whose values key its compiles. The
on-disk cache itself is the compiler's (compiler/cache.py); its names are
here too, where Triton's ``triton.runtime.cache`` has them.
"""

import ast
import builtins
import hashlib
import inspect

from ..compiler.cache import (FileCacheManager, compile_key, package_version, stable_repr,  # noqa: F401
                              triton_key, version_key, write_atomic)

__all__ = ["FileCacheManager", "DependenciesFinder", "compile_key", "version_key",
           "write_atomic"]


class DependenciesFinder:
    """Walks a @jit function's AST and hashes what its code means: its source,
    the cache key of every @jit function it names (recursively) and the
    value of every global it reads that a kernel bakes in. ``used_globals``
    maps (display name, id(namespace)) -> (name in namespace, namespace,
    summary: stable_repr(value, baked_only=True)) for the check at launch that they have not changed.

    The walk is iterative (an explicit stack, in the order a recursive
    NodeVisitor would visit): a kernel may hold expressions thousands of
    nodes deep (``x + x + ... + x``), deeper than Python's recursion limit."""

    def __init__(self, jit_fn):
        self.fn = jit_fn
        self.globals = jit_fn.__globals__
        try:
            self.nonlocals = inspect.getclosurevars(jit_fn.fn).nonlocals
        except (TypeError, ValueError):
            self.nonlocals = {}
        self.hasher = hashlib.sha256(jit_fn.src.encode())
        self.hasher.update(f"|line={jit_fn.starting_line_number}"
                           f"|noinline={bool(jit_fn.noinline)}".encode())
        self.used_globals = {}
        self.local_names = set()

    def run(self):
        tree = self.fn.parse()
        for node in ast.walk(tree):
            if isinstance(node, ast.arg):
                self.local_names.add(node.arg)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                self.local_names.add(node.id)
        self._walk(tree)
        return self.hasher.hexdigest()

    def _walk(self, tree):
        stack = [tree]
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                # Only the body and defaults matter; annotations name tl.constexpr.
                a = node.args
                children = node.body + a.defaults + [d for d in a.kw_defaults if d]
            elif isinstance(node, ast.Name):
                self._name(node)
                continue
            elif isinstance(node, ast.Attribute):
                base = self._attribute(node)
                children = [] if base is None else [base]
            else:
                children = list(ast.iter_child_nodes(node))
            stack.extend(reversed(children))

    def _note(self, display, name, value, namespace):
        from .jit import JITFunction
        if isinstance(value, JITFunction):
            if value is not self.fn:
                self.hasher.update(f"|jit:{display}={value.cache_key}".encode())
                self.used_globals.update(value.used_global_vals)
            return
        fp = stable_repr(value, baked_only=True)
        if fp is None:
            return
        self.hasher.update(f"|global:{display}={fp}".encode())
        self.used_globals[(display, id(namespace))] = (name, namespace, fp)

    def _name(self, node):
        """The value a Name reads (None for locals and unknown names)."""
        if not isinstance(node.ctx, ast.Load) or node.id in self.local_names:
            return None
        for namespace in (self.nonlocals, self.globals):
            if node.id in namespace:
                value = namespace[node.id]
                self._note(node.id, node.id, value, namespace)
                return value
        return getattr(builtins, node.id, None)

    def _attribute(self, node):
        """Resolves ``a.b.c`` from its base Name outwards, noting the @jit
        functions and constexprs reached through modules; returns the base
        expression still to walk when the chain does not start at a Name."""
        chain = []
        while isinstance(node, ast.Attribute):
            chain.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return node
        base = self._name(node)
        from .jit import JITFunction
        for attr in reversed(chain):
            if base is None or not inspect.ismodule(base):
                break
            value = getattr(base, attr, None)
            # Only @jit functions and constexprs reached through a module
            # count; the rest (tl.load, tl.float32) is the language itself.
            if isinstance(value, JITFunction) or type(value).__name__ == "constexpr":
                self._note(f"{base.__name__}.{attr}", attr, value, vars(base))
            base = value
        return None
