"""Functions as values: which of the project's callables a value may be, and where inside it.

A value may be a function, a class, a jitted function, or a container that holds some (a dict of losses,
a tuple of jitted closures, a list of callbacks). ``Value.callables`` says which, as ``(path, callee)``
pairs: the element at ``path`` (item indexes and dict keys as the ``repr`` of their literal, ``.name`` for
a field set by keyword, ``()`` for the value itself) may be the callee, a ``summary.Callee`` named in the
scope of the function that made the value. Some callees are only known along the call graph, so the
linker resolves them:

  ("qual", "<qualname>")     a definition: a def, a class, a method
  ("global", "<dotted>", *path) what a module-level name of the project is bound to (an import; at
                             ``path`` inside it: an item of an imported dict of functions)
  ("ret", "<i>", *path)      what call <i> of the function returns (at ``path`` inside it)
  ("param", "<name>", *path) what the callers pass for parameter <name> (or its default)
  ("up", *callee)            ``callee`` in the enclosing function (a closure's free variable)
  ("module", *callee)        ``callee`` at the module's top level (a global read from a function)
  ("wrapped", "<i>", *callee) a decorated def: what decorator call <i> returns, else ``callee`` itself
  ("transform", *callee)     ``jax.grad(f)`` and the like: a call of it runs ``callee`` with its arguments
  ("mapped", *callee)        ``jax.vmap(f)``: a call of it runs ``callee`` on items of its arguments
  ("partial", "<n>", "<k1,k2>", "<where>", *callee)  functools.partial of ``callee``, binding <n>
                             positional arguments and the keywords named (made at <where>)
"""

from __future__ import annotations

from functools import lru_cache

Path = tuple[str, ...]
Callee = tuple[str, ...]
FuncRef = tuple[Path, Callee]

ITER = "<iter>"  # any item, as iterating yields them
KEY = "<key>"  # the item at a key or index not known: any of them (not a field)
_MOST = 16  # references kept per value: beyond, nothing is kept (a registry too big to follow)
_LONGEST = 8  # parts of a callee: an element of an element of ... of a parameter is not followed

# Callees named relative to the function that made the value (its calls, its parameters, its
# enclosing function): read from another scope, they say how to get back there.
_RELATIVE = frozenset({"ret", "param", "up", "module", "wrapped", "partial", "transform", "mapped"})
# Callees whose elements are known only along the call graph: an element is a longer path.
_DEEP = frozenset({"ret", "param", "global"})


@lru_cache(maxsize=4096)
def single(callee: Callee) -> frozenset[FuncRef]:
    """The value is ``callee`` (one object per callee: ``self.x`` is read everywhere)."""
    return frozenset({((), callee)})


def called(refs: frozenset[FuncRef] | tuple[FuncRef, ...]) -> list[Callee]:
    """The callees the value itself may be (what calling it calls), in a stable order."""
    return sorted(callee for path, callee in refs if not path) if refs else []


def scoped_kind(callee: Callee) -> str | None:
    """The kind of what ``callee`` names in the scope it is read from (past "up" and "module")."""
    while callee and callee[0] in ("up", "module"):
        callee = callee[1:]
    return callee[0] if callee else None


def _deep(callee: Callee, kinds: frozenset[str] | tuple[str, ...]) -> bool:
    return scoped_kind(callee) in kinds


def _matches(step: str, key: str) -> bool:
    if step == key:
        return True
    if step == KEY:
        return not key.startswith(".")
    return ITER in (step, key) and _is_index(step if key == ITER else key)


def _is_index(step: str) -> bool:
    return step == ITER or step.lstrip("-").isdigit()


def element(
    refs: frozenset[FuncRef], step: str, deep: frozenset[str] | tuple[str, ...] = _DEEP
) -> frozenset[FuncRef]:
    """The references of ``value[step]`` (``value.name`` for a step ``.name``; ``ITER``: any item).
    A call's result or a parameter (the kinds in ``deep``) is followed into along the call graph."""
    if not refs:
        return refs
    out = set()
    for path, callee in refs:
        if path:
            if _matches(step, path[0]):
                out.add((path[1:], callee))
        elif _deep(callee, deep) and len(callee) < _LONGEST:
            out.add(((), (*callee, step)))
    return frozenset(out)


def at(refs: frozenset[FuncRef] | tuple[FuncRef, ...], path: Path) -> tuple[FuncRef, ...]:
    """The references of the element at ``path``, sorted: the linker takes targets in this order
    (a call's first target is its own, ``Project.targets``), which a set's would leave to the hash
    seed (``return jax.jit(f)`` or ``return f`` first, issue 36)."""
    out = frozenset(refs)
    for step in path:
        out = element(out, step)
    return tuple(sorted(out))


def nested(refs: frozenset[FuncRef], step: str) -> frozenset[FuncRef]:
    """``refs`` of a value put in a container at ``step``."""
    return frozenset(((step, *path), callee) for path, callee in refs)


def union(a: frozenset[FuncRef], b: frozenset[FuncRef]) -> frozenset[FuncRef]:
    if not b or a is b:
        return a
    if not a:
        return b
    out = a | b
    return out if len(out) <= _MOST else frozenset()


def stored(refs: frozenset[FuncRef], path: Path, new: frozenset[FuncRef]) -> frozenset[FuncRef]:
    """``refs`` after ``value[path] = new``: what was at ``path`` is replaced."""
    kept = frozenset(r for r in refs if r[0][: len(path)] != path)
    return union(kept, frozenset(((*path, *p), c) for p, c in new))


def sliced(refs: frozenset[FuncRef], lower: int, upper: int | None) -> frozenset[FuncRef]:
    """``refs`` of ``value[lower:upper]`` (literal, non-negative bounds): the items shift down."""
    out = set()
    for path, callee in refs:
        if not path or not path[0].isdigit():
            continue
        index = int(path[0])
        if index >= lower and (upper is None or index < upper):
            out.add(((str(index - lower), *path[1:]), callee))
    return frozenset(out)


def rescoped(refs: frozenset[FuncRef], scope: str) -> frozenset[FuncRef]:
    """``refs`` read from a function nested in the one that made them (``scope`` "up") or from any
    function of the module that made them at its top level (``scope`` "module")."""
    if not refs or all(c[0] not in _RELATIVE for _, c in refs):
        return refs
    return frozenset(
        (path, (scope, *callee) if callee[0] in _RELATIVE else callee) for path, callee in refs
    )


def unwrapped(target: Callee | None) -> tuple[Callee | None, int, frozenset[str]]:
    """The function under transforms (same parameters) and partials (fewer: how many positional
    ones they bind, and which by keyword)."""
    skipped, keywords = 0, frozenset()
    while target and target[0] in ("transform", "mapped", "partial"):
        if target[0] != "partial":
            target = target[1:]
        else:
            skipped += int(target[1])
            keywords |= frozenset(filter(None, target[2].split(",")))
            target = target[4:]
    return target, skipped, keywords
