"""Instrumentation that runs inside the user's program for ``retracelint confirm``.

This module is loaded by path (``_boot/sitecustomize.py``) into a process whose environment may not
have retracelint installed, so it imports nothing but the standard library and, once the program
imports it, jax. It is also used in-process by the pytest plugin.

It observes JAX itself instead of wrapping the user's functions (jax-internals.md §4):

* every trace-cache miss ends in ``partial_eval.trace_to_jaxpr``, which announces itself to
  ``partial_eval.test_event("trace_to_jaxpr")`` before the Python body runs. We chain onto that
  module attribute, so whatever made the jitted function (``jax.jit``, ``pjit``, ``pmap``,
  ``flax.nnx.jit``, ``equinox.filter_jit``, eager ``lax.scan``/``fori_loop``/``while_loop``, jit
  under ``grad``/``vmap``) every real re-trace is seen, with the function JAX traces, its abstract
  arguments and the call frames. A cache hit runs no Python and costs nothing;
* no attribute of jax a user can see is replaced (``jax.jit is jax._src.api.jit``, partials of it
  pickle, a bad call raises as it would): where ``jax.jit`` and ``jax.pmap`` make a function is
  noted through the internal function they hand the user's function to once JAX has checked the
  arguments (for ``jax.jit(partial(...))``-style sites and to count wrappers);
* no frame's locals are kept (a running frame's ``f_locals`` snapshot is emptied once read: JAX's
  leak checker counts what it holds), and no user value is walked without a bound (an argument is
  described node by node, to a depth and a size, never into a node it is already inside);
* ``jax.clear_caches()`` is seen through JAX's cache registry, and a re-trace that the program's
  own ``jax.no_tracing`` blocked through JAX's traceback filter, which runs only on exceptions;
* nothing reads or sets JAX's config or loggers: the program's own ``explain_cache_misses`` and
  ``log_compiles`` output is what it would be without us;
* one JSON line per event, written with a single ``os.write`` on an ``O_APPEND`` file, so a crash,
  a signal or a timeout leaves everything seen so far, and several processes (pytest-xdist
  workers, multiprocessing) can share one report file.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import importlib.abc
import importlib.util
import inspect
import json
import linecache
import os
import re
import signal
import sys
import sysconfig
import threading
import time
import types
import weakref
from collections import Counter
from typing import Any

PLAN_ENV = "RETRACELINT_CONFIRM_PLAN"
NO_TRACING_MARK = "but 'no_tracing' is set"
UNHASHABLE_MARK = "Non-hashable static arguments"
TRACE_EVENT = "trace_to_jaxpr"
# Full evidence (stack, signature diff) is kept for this many re-traces per site and process;
# later ones are written without it.
DETAIL_CAP = 25
# Signatures kept per jitted function to find the closest earlier one when a re-trace happens.
SIGNATURE_CAP = 16
# Function objects remembered per jitted function (to tell a new object from a known one).
OBJECT_CAP = 64
KEYWORD = " (by keyword)"
WEAK = "weak "
# Leaves described per argument; a parameter pytree with thousands of leaves is summarised.
LEAF_CAP = 256
# Inner nodes walked per argument, and how deep: an object graph that holds itself (a flax NNX
# module with a reference back to its parent) or a huge one is described that far and no further.
NODE_CAP = 512
DEPTH_CAP = 32

_RUNTIME_FILE = os.path.realpath(__file__)
_tls = threading.local()
_runtime: Runtime | None = None


# ---------------------------------------------------------------------------------------------
# Event log


class EventWriter:
    """Appends JSON lines to the report file; never raises into the user's program."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            self._fd: int | None = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            sys.stderr.write(f"retracelint: cannot write the confirm report {path}: {exc}\n")
            self._fd = None

    def emit(self, event: dict[str, Any]) -> None:
        if self._fd is None:
            return
        event.setdefault("pid", os.getpid())
        event.setdefault("t", round(time.time(), 3))
        try:
            data = (json.dumps(event, default=repr) + "\n").encode("utf-8", "replace")
            with self._lock:
                os.write(self._fd, data)
        except Exception:  # the report must never break the program it observes
            pass


# ---------------------------------------------------------------------------------------------
# Paths and frames


_realpaths: dict[str, str] = {}


def _realpath(filename: str) -> str:
    path = _realpaths.get(filename)
    if path is None:
        path = filename if filename.startswith("<") else os.path.realpath(filename)
        _realpaths[filename] = path
    return path


def _library_dirs() -> tuple[str, ...]:
    dirs = set()
    paths = sysconfig.get_paths()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        if paths.get(key):
            dirs.add(os.path.realpath(paths[key]) + os.sep)
    for prefix in (sys.prefix, sys.base_prefix, sys.exec_prefix):
        dirs.add(os.path.realpath(os.path.join(prefix, "lib")) + os.sep)
    dirs.update(_distribution_roots())
    return tuple(sorted(dirs))


def _distribution_roots() -> set[str]:
    """Import folders that hold installed distributions, wherever they lie.

    Libraries installed with ``pip install --target``, put on PYTHONPATH or laid out by Bazel are not under
    site-packages; without this, flax's or equinox's own jit would be taken for a site in the user's code.
    The program's own folders (the current one, the script's) stay the user's even if they hold metadata.
    """
    own = {os.path.realpath(os.getcwd())}
    if sys.path and sys.path[0]:
        own.add(os.path.realpath(sys.path[0]))
    roots = set()
    for entry in sys.path:
        folder = os.path.realpath(entry or os.curdir)
        if folder in own or not os.path.isdir(folder):
            continue
        try:
            names = os.listdir(folder)
        except OSError:
            continue
        if any(name.endswith(".dist-info") for name in names):
            roots.add(folder + os.sep)
    return roots


_LIB_DIRS = _library_dirs()
_user_files: dict[str, bool] = {}


def _add_library_dir(module: types.ModuleType) -> None:
    """A package installed from a source checkout (``pip install -e``) is a library all the same."""
    global _LIB_DIRS
    path = getattr(module, "__file__", None)
    if path:
        folder = os.path.dirname(os.path.realpath(path)) + os.sep
        if not folder.startswith(_LIB_DIRS):
            _LIB_DIRS = (*_LIB_DIRS, folder)
            _user_files.clear()


def is_user_file(filename: str) -> bool:
    """True for the program's own source files: not the stdlib, site-packages or retracelint."""
    known = _user_files.get(filename)
    if known is not None:
        return known
    if filename.startswith("<"):
        result = not filename.startswith("<frozen")
    else:
        path = _realpath(filename)
        result = not (
            path == _RUNTIME_FILE
            or path.startswith(_LIB_DIRS)
            or "/site-packages/" in path
            or "/dist-packages/" in path
        )
    _user_files[filename] = result
    return result


def _frame_dict(frame: types.FrameType) -> dict[str, Any]:
    code = frame.f_code
    line = frame.f_lineno or 0
    return {
        "path": code.co_filename,
        "line": line,
        "function": code.co_name,
        "code": linecache.getline(code.co_filename, line).strip(),
    }


def frame_locals(frame: types.FrameType, *names: str) -> dict[str, Any]:
    """Some locals of a running frame (all of them when no name is given), in a dict of our own.
    Before Python 3.13, ``f_locals`` of a function's frame is a snapshot dict kept on the frame
    until it returns: it would hold every local it saw, such as the tracers of a trace whose end
    JAX's leak checker checks (``jax.checking_leaks``), so the snapshot is emptied at once."""
    snapshot = frame.f_locals
    try:
        if names:
            return {name: snapshot[name] for name in names if name in snapshot}
        return dict(snapshot)
    finally:
        # A module or class body's f_locals is its namespace itself: left alone.
        if type(snapshot) is dict and frame.f_code.co_flags & inspect.CO_OPTIMIZED:
            snapshot.clear()


def user_frames(frame: types.FrameType | None, limit: int = 5) -> list[dict[str, Any]]:
    """The innermost `limit` frames of user code, innermost first."""
    out: list[dict[str, Any]] = []
    while frame is not None and len(out) < limit:
        if is_user_file(frame.f_code.co_filename):
            out.append(_frame_dict(frame))
        frame = frame.f_back
    return out


def _unwrap_once(fun: Any) -> Any:
    """The callable one wrapper layer in: partials, methods, ``__wrapped__``, jax's WrappedFun."""
    if isinstance(fun, functools.partial):
        return fun.func
    if isinstance(fun, types.MethodType):
        return fun.__func__
    try:
        wrapped = getattr(fun, "__wrapped__", None)
    except Exception:
        wrapped = None
    if wrapped is not None and wrapped is not fun:
        return wrapped
    if type(fun).__name__ == "WrappedFun":  # jax's linear_util wrapper (pmap keeps one)
        return getattr(fun, "f", None)
    return None


def _own_code(fun: Any) -> types.CodeType | None:
    code = getattr(fun, "__code__", None)
    if isinstance(code, types.CodeType):
        return code
    if isinstance(fun, (types.FunctionType, types.BuiltinFunctionType, type)):
        return None
    try:  # a callable object: the code of its class's __call__
        code = type(fun).__call__.__code__
    except AttributeError:
        return None
    return code if isinstance(code, types.CodeType) else None


def code_of(fun: Any) -> types.CodeType | None:
    """The code object of the Python function behind a callable (partials, methods, wrappers)."""
    for _ in range(16):
        inner = _unwrap_once(fun)
        if inner is None:
            return _own_code(fun)
        fun = inner
    return None


def user_callable(fun: Any, depth: int = 3) -> tuple[Any, types.CodeType] | None:
    """The user's function behind `fun`: through wrappers, and through the closure of a library
    function that calls it (pmap's per-shape ``_fun``, lax's loop-body adapters)."""
    for _ in range(16):
        code = _own_code(fun)
        if code is not None and is_user_file(code.co_filename):
            return fun, code
        inner = _unwrap_once(fun)
        if inner is None:
            break
        fun = inner
    closure = getattr(fun, "__closure__", None)
    if depth and closure:
        for cell in closure:
            try:
                value = cell.cell_contents
            except ValueError:
                continue
            if isinstance(value, weakref.ref):  # lax.fori_loop holds its body weakly
                value = value()
            elif type(value).__name__ == "WrappedFun":  # pmap's per-shape closure
                value = getattr(value, "f", None)
            if callable(value) and not isinstance(value, type):
                found = user_callable(value, depth - 1)
                if found is not None:
                    return found
    return None


def _traced_name(frame: types.FrameType) -> str:
    """What an enclosing trace (a ``trace_to_jaxpr`` frame) traces: the user's function, else the
    name JAX gave it (equinox.filter_jit traces one function of its own around the user's)."""
    local = frame_locals(frame, "fun", "debug_info")
    found = user_callable(local.get("fun"))
    if found is not None:
        return found[1].co_name
    return getattr(local.get("debug_info"), "func_name", None) or "?"


def _norm_qualname(name: str) -> str:
    return name.replace(".<locals>", "")


class _Ref:
    """A reference to a function object that does not keep it alive where Python allows."""

    __slots__ = ("ident", "ref")

    def __init__(self, obj: Any) -> None:
        self.ident = id(obj)
        try:
            self.ref: Any = weakref.ref(obj)
        except TypeError:
            self.ref = None

    def is_(self, obj: Any) -> bool:
        if self.ref is None:
            return self.ident == id(obj)
        return self.ref() is obj

    def alive(self) -> bool:
        return self.ref is None or self.ref() is not None


# ---------------------------------------------------------------------------------------------
# Signatures and evidence


def _short(value: Any, limit: int = 80) -> str:
    try:
        text = repr(value)
    except Exception:
        text = f"<{type(value).__name__}>"
    if len(text) <= limit:
        return text
    # Keep both ends: reprs differ at the end (object addresses) as often as at the start.
    head = (limit - 3) // 2
    return text[:head] + "..." + text[len(text) - (limit - 3 - head) :]


def aval_text(aval: Any) -> str:
    """``f32[3]``, or ``weak f32[]`` for a weakly typed value (a Python scalar)."""
    try:
        text = aval.str_short(short_dtypes=True)
    except Exception:
        text = str(aval)
    return WEAK + text if getattr(aval, "weak_type", False) else text


def _leaf_text(leaf: Any) -> str:
    import jax

    try:
        return aval_text(jax.typeof(leaf))
    except Exception:
        return f"<{type(leaf).__name__}>"


def _is_array(leaf: Any) -> bool:
    import jax

    return isinstance(leaf, jax.Array) or type(leaf).__module__ == "numpy"


def _keys_text(keys: list[Any]) -> str:
    return "{" + ", ".join(str(k) for k in keys) + "}"


def _node_text(node: Any, children: int, keys: list[Any], aux: Any = None) -> str:
    """What a pytree node contributes to the cache key, in words: for a registered class, its aux
    data too (``tree_flatten``'s second item, a dataclass's meta fields), which JAX compares by
    equality as part of the treedef."""
    if isinstance(node, dict):
        kind = type(node).__name__
        return f"{kind} keys {_keys_text(keys)}"
    if isinstance(node, tuple) and hasattr(node, "_fields"):
        return f"{type(node).__name__}({', '.join(node._fields)})"
    if isinstance(node, (list, tuple)):
        return f"{type(node).__name__} of {children}"
    if aux is None:
        return type(node).__name__
    return f"{type(node).__name__}[{_value_text(aux)}]"


def _aux_data(treedef: Any) -> Any:
    try:
        return treedef.node_data()[1]
    except Exception:  # an older jaxlib, or a node without data
        return None


def _value_text(value: Any) -> str:
    """A value JAX compares by equality (a static argument, aux data) in words; where it holds an
    object compared by identity, which object: two jit wrappers of one function, two partials or
    two configs that never compare equal may print alike, but are two cache keys."""
    parts = value if isinstance(value, (tuple, list)) else (value,)
    text = _short(value)
    ids = [f"{id(part):#x}" for part in parts if _by_identity(part)]
    ids = [i for i in ids if i not in text]
    return f"{text} (object {', '.join(ids)})" if ids else text


def _by_identity(value: Any) -> bool:
    """Whether JAX's cache finds ``value`` only as itself: hashed by identity, or compared by
    identity (a ``__hash__`` of its own without an ``__eq__`` makes equal-looking objects that
    never compare equal)."""
    if value is None or isinstance(value, type):
        return False  # one object for the whole process
    try:
        hashed = hash(value) == object.__hash__(value)
    except TypeError:
        return False
    return hashed or type(value).__eq__ is object.__eq__


def _as_index_set(value: Any) -> set[Any]:
    if value is None:
        return set()
    if isinstance(value, (int, str)):
        return {value}
    try:
        return set(value)
    except TypeError:
        return set()


class CallInfo:
    """How a call's arguments map to the jitted function's parameters, and which are static."""

    def __init__(
        self,
        fun: Any,
        static_argnums: Any = None,
        static_argnames: Any = None,
        non_arrays_static: bool = False,
    ) -> None:
        self.static_nums = _as_index_set(static_argnums)
        self.static_names = _as_index_set(static_argnames)
        # Wrappers such as equinox.filter_jit hold every non-array leaf static.
        self.non_arrays_static = non_arrays_static
        self.params: list[str] = []
        self.signature: inspect.Signature | None = None
        try:
            self.signature = inspect.signature(fun)
        except (TypeError, ValueError):
            return
        for param in self.signature.parameters.values():
            if param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
                self.params.append(param.name)
        # JAX derives each of static_argnums / static_argnames from the other.
        for i in list(self.static_nums):
            if isinstance(i, int) and -len(self.params) <= i < len(self.params):
                self.static_names.add(self.params[i])
        for name in list(self.static_names):
            if name in self.params:
                self.static_nums.add(self.params.index(name))

    def binds(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
        if self.signature is None:
            return False
        try:
            self.signature.bind(*args, **kwargs)
        except TypeError:
            return False
        return True

    def name_of(self, index: int) -> str:
        return self.params[index] if index < len(self.params) else f"args[{index}]"

    def is_static(self, index: int | None, name: str, nargs: int) -> bool:
        if name in self.static_names:
            return True
        if index is None:
            return False
        return index in self.static_nums or (index - nargs) in self.static_nums


def _describe_value(
    out: dict[str, str], path: str, value: Any, non_arrays_static: bool, how: str
) -> None:
    """One argument, node by node (a loop, not recursion), each node flattened one level at a
    time and never below itself again: a node already on the way down is named, not entered."""
    import jax

    leaves, nodes = LEAF_CAP, NODE_CAP
    stack: list[tuple[str, Any, str, tuple[int, ...]]] = [(path, value, how, ())]
    while stack and leaves > 0 and nodes > 0:
        key, node, suffix, above = stack.pop()
        if node is None:
            out[key] = "None" + suffix
            leaves -= 1
            continue
        if id(node) in above or len(above) >= DEPTH_CAP:
            seen = "holds itself" if id(node) in above else f"deeper than {DEPTH_CAP}"
            out[key] = f"<{type(node).__name__}: {seen}>" + suffix
            continue
        try:
            pairs, treedef = jax.tree_util.tree_flatten_with_path(node, is_leaf=_only_first())
        except Exception:
            out[key] = f"<{type(node).__name__}>" + suffix
            continue
        if treedef.num_nodes == 1 and treedef.num_leaves == 1 and not pairs[0][0]:
            leaves -= 1
            if non_arrays_static and not _is_array(node):
                out[key] = f"Static(val={_value_text(node)})" + suffix
            else:
                out[key] = _leaf_text(node) + suffix
            continue
        nodes -= 1
        keys = [_key_name(p[0][0]) for p in pairs]
        out[key + "<tree>"] = _node_text(node, len(pairs), keys, _aux_data(treedef)) + suffix
        inner = (*above, id(node))
        stack.extend(
            (key + jax.tree_util.keystr(child_path), child, "", inner)
            for child_path, child in reversed(pairs)
        )


def _only_first() -> Any:
    """An ``is_leaf`` that lets jax flatten the node it is given and makes every child a leaf: one
    level down, even for a node that holds itself."""
    first = [True]

    def is_leaf(_: Any) -> bool:
        root, first[0] = first[0], False
        return not root

    return is_leaf


def _key_name(entry: Any) -> Any:
    for attr in ("key", "idx", "name"):
        if hasattr(entry, attr):
            return getattr(entry, attr)
    return entry


def describe_call(info: CallInfo, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, str]:
    """A readable signature of one call: parameter path -> abstract value (the parts of JAX's
    trace-cache key that a user can change: shapes, dtypes, weak types, pytree structure, statics)."""
    out: dict[str, str] = {}
    for i, value in enumerate(args):
        name = info.name_of(i)
        if info.is_static(i, name, len(args)):
            out[name] = f"Static(val={_value_text(value)})"
        else:
            _describe_value(out, name, value, info.non_arrays_static, "")
    for name, value in kwargs.items():
        index = info.params.index(name) if name in info.params else None
        # Passing a parameter by keyword instead of by position is a different cache key too.
        if info.is_static(index, name, len(args)):
            out[name] = f"Static(val={_value_text(value)}){KEYWORD}"
        else:
            _describe_value(out, name, value, info.non_arrays_static, KEYWORD)
    return out


def describe_avals(arg_names: Any, avals: Any, treedef: Any) -> dict[str, str]:
    """The signature from what JAX traces with (its argument names and abstract values), for
    functions traced without a call we can see the arguments of (lax loop bodies)."""
    out: dict[str, str] = {}
    names = list(arg_names or ())
    for i, aval in enumerate(list(avals)[:LEAF_CAP]):
        name = names[i] if i < len(names) and names[i] else f"args[{i}]"
        out[name] = aval_text(aval)
    out["<tree>"] = _short(treedef, 160)
    return out


_ROOT = re.compile(r"^[^\[<.]+")


def _root(key: str) -> str:
    match = _ROOT.match(key)
    return match.group(0) if match else key


_ARRAY = re.compile(r"^(?:weak )?([a-z]+\d*)\[(.*)\]$")


def _change_kind(key: str, before: str | None, after: str | None) -> str:
    if before is None or after is None:
        return "structure"
    if key.startswith("context "):
        return "context"
    by_keyword = before.endswith(KEYWORD) != after.endswith(KEYWORD)
    before, after = before.removesuffix(KEYWORD), after.removesuffix(KEYWORD)
    if before == after and by_keyword:
        return "keyword"  # the same value, passed by keyword on one side only
    if before == after or key.endswith("<tree>"):
        return "structure"
    if before.startswith("Static(") or after.startswith("Static("):
        return "static"
    b, a = _ARRAY.match(before), _ARRAY.match(after)
    if b is None or a is None:
        return "structure"  # None on one side, an array on the other
    if b.group(2) != a.group(2):
        return "shape"
    if b.group(1) != a.group(1):
        return "dtype"
    return "weak_type"


def diff_signatures(before: dict[str, str], after: dict[str, str]) -> list[dict[str, Any]]:
    """Changes from `before` to `after`, one per parameter path; a changed pytree structure hides the
    changes of its leaves."""
    changes: list[dict[str, Any]] = []
    tree_changed = {
        _root(k)
        for k in set(before) | set(after)
        if k.endswith("<tree>") and before.get(k) != after.get(k)
    }
    keys = list(dict.fromkeys([*before, *after]))
    for key in keys:
        old, new = before.get(key), after.get(key)
        if old == new:
            continue
        root = _root(key)
        # The leaves of a re-shaped tree add nothing to "the structure changed", unless the
        # argument was a plain leaf on one side.
        tree_key = root + "<tree>"
        if (
            root in tree_changed
            and not key.endswith("<tree>")
            and tree_key in before
            and tree_key in after
        ):
            continue
        display = key[: -len("<tree>")] if key.endswith("<tree>") else key
        changes.append(
            {
                "param": root,
                "path": display or "arguments",
                "kind": _change_kind(key, old, new),
                "before": old if old is not None else "absent",
                "after": new if new is not None else "absent",
            }
        )
    return changes


def _common_prefix(before: str, after: str) -> tuple[str, str, str]:
    """``dict keys {a}`` and ``dict keys {a, b}`` -> (``dict keys ``, ``{a}``, ``{a, b}``)."""
    for prefix in ("dict keys ", "OrderedDict keys ", "defaultdict keys ", "list of ", "tuple of "):
        if before.startswith(prefix) and after.startswith(prefix):
            return prefix, before[len(prefix) :], after[len(prefix) :]
    return "", before, after


SHOWN_CHANGES = 4  # changes of one re-trace written out; the others are counted


def render_changes(changes: list[dict[str, Any]]) -> list[str]:
    """The first changes of a re-trace as text, then how many more there are."""
    more = len(changes) - SHOWN_CHANGES
    shown = [render_change(c) for c in changes[:SHOWN_CHANGES]]
    return [*shown, f"({more} more)"] if more > 0 else shown


def render_change(change: dict[str, Any]) -> str:
    before, after = change["before"], change["after"]
    if before.endswith(KEYWORD) and after.endswith(KEYWORD):
        before, after = before.removesuffix(KEYWORD), after.removesuffix(KEYWORD)
    prefix, before, after = _common_prefix(before, after)
    return f"{change['path']}: {prefix}{before} -> {after}"


# ---------------------------------------------------------------------------------------------
# Sites and jitted functions


class Site:
    """A place in the source where jitted functions are made (a ``def``, or a ``jax.jit(...)``
    call); every function object made there, and every jit wrapper of it, belongs to it."""

    def __init__(self, site_id: str, planned: bool, meta: dict[str, Any]):
        self.id = site_id
        self.planned = planned
        self.meta = meta
        self.traces = 0  # top-level traces (not made while tracing another user function)
        self.retraces = 0
        self.nested = 0
        self.creations = 0
        self.blocked = 0
        self.calls_at: Counter[str] = Counter()  # top-level traces per call site "path:line"
        self.retraces_at: Counter[str] = Counter()
        self.nested_in: set[str] = set()
        self.groups: dict[Any, Jitted] = {}
        self.objects: list[_Ref] = []  # distinct function objects traced here (capped)
        self.object_count = 0
        self.announced = False

    def counts(self) -> dict[str, Any]:
        return {
            "traces": self.traces,
            "retraces": self.retraces,
            "nested": self.nested,
            "creations": self.creations,
            "blocked": self.blocked,
            "objects": self.object_count,
            "calls_at": dict(self.calls_at),
            "retraces_at": dict(self.retraces_at),
            "nested_in": sorted(self.nested_in),
        }

    def note_object(self, fun: Any) -> None:
        if any(r.is_(fun) for r in self.objects):
            return
        self.object_count += 1
        self.objects = [r for r in self.objects if r.alive()][-OBJECT_CAP:]
        self.objects.append(_Ref(fun))


class Jitted:
    """One jitted function at a site: the function objects traced with one set of jit options
    (``jax.jit(f)`` and ``jax.jit(f, static_argnums=1)`` of one ``def`` are two)."""

    def __init__(self) -> None:
        self.funs: list[_Ref] = []  # the user's function objects, capped
        self.wrappers: list[_Ref] = []  # the objects JAX caches by (a new nnx.jit wrapper, ...)
        # Each trace's signature, trace context, jax.clear_caches() count and the object JAX
        # cached it by.
        self.signatures: list[tuple[dict[str, str], tuple[Any, ...] | None, int, _Ref]] = []

    def knows(self, refs: list[_Ref], obj: Any) -> bool:
        return any(r.is_(obj) for r in refs)

    def remember(self, refs: list[_Ref], obj: Any) -> None:
        if not self.knows(refs, obj):
            refs[:] = [r for r in refs if r.alive()][-OBJECT_CAP:]
            refs.append(_Ref(obj))


# ---------------------------------------------------------------------------------------------
# What one trace is


class Trace:
    """What the observer learnt about one trace-cache miss."""

    __slots__ = (
        "args",
        "call_frame",
        "code",
        "dbg",
        "fun",
        "in_avals",
        "jax_fun",
        "ji",
        "library",
        "nested_in",
    )

    def __init__(self) -> None:
        self.fun: Any = None  # the user's function object
        self.code: types.CodeType | None = None
        self.jax_fun: Any = None  # the object JAX traced (and caches by)
        self.dbg: Any = None
        self.in_avals: Any = None
        self.ji: Any = None  # jit's options (PjitInfo), None for lax primitives
        self.library = False  # made by a wrapper library (equinox, flax) around the user function
        self.call_frame: types.FrameType | None = None
        self.args: tuple[tuple[Any, ...], dict[str, Any]] | None = None
        self.nested_in: str | None = None


def _jit_key(ji: Any) -> Any:
    if ji is None:
        return None
    fields = (
        "static_argnums",
        "static_argnames",
        "donate_argnums",
        "donate_argnames",
        "keep_unused",
        "inline",
        "device",
        "backend",
    )
    return tuple(_short(getattr(ji, name, None), 200) for name in fields)


# ---------------------------------------------------------------------------------------------
# The runtime


class Runtime:
    def __init__(self, plan: dict[str, Any]) -> None:
        self.plan = plan
        self.guard_all = plan.get("guard", "flagged") == "all"
        self.writer = EventWriter(plan["report"])
        self.sites: dict[str, Site] = {}
        self.jax: Any = None
        self.patched = False
        self.observing = False
        self._lock = threading.RLock()
        self._by_file: dict[str, list[tuple[int, int, dict[str, Any]]]] = {}
        self._by_name: dict[str, list[tuple[int, int, dict[str, Any]]]] = {}
        for site in plan.get("sites", []):
            entry = (int(site["first_line"]), int(site["last_line"]), site)
            self._by_file.setdefault(os.path.realpath(site["path"]), []).append(entry)
            if site.get("function"):
                self._by_name.setdefault(_norm_qualname(site["function"]), []).append(entry)
        self._finished = False
        self.backend: str | None = None
        self._trace_code: types.CodeType | None = None
        self._jax_dir = ""
        self._context_names: tuple[str, ...] | None = None
        self._trace_context: Any = None
        # Where jax.jit / jax.pmap last wrapped each callable (the site of jax.jit(partial(...)),
        # jax.jit(self.method), jax.jit(lambda ...)): id -> (reference, "path", line).
        self._made: dict[int, tuple[_Ref, str, int]] = {}
        self.clears = 0  # jax.clear_caches() calls seen
        self.last_clear: dict[str, Any] | None = None
        self._noted: list[int] = []  # ids of the exceptions noted while the program ran
        self._clear_listener: Any = None

    # -- events --------------------------------------------------------------------------------
    def start(self) -> None:
        self.writer.emit({"ev": "start", "argv": list(sys.argv), "ppid": os.getppid()})

    def note_backend(self) -> None:
        """Record the platform once a function traced (at exit, jax has let go of it)."""
        if self.backend is not None:
            return
        try:
            self.backend = str(self.jax.default_backend()) if self.jax is not None else None
        except Exception:
            self.backend = "?"
        if self.backend:
            self.writer.emit({"ev": "backend", "backend": self.backend})

    def after_fork(self) -> None:
        """In a forked child: count from zero (the parent reports its own traces) and never wait
        on a lock that a thread of the parent held at the fork."""
        self.writer._lock = threading.Lock()
        self._lock = threading.RLock()
        self.sites = {}
        self._finished = False
        self.start()

    def finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        # An error that ends the program is in sys.last_value (3.12: last_exc) before atexit
        # handlers run: read there, so that sys.excepthook stays the program's own.
        # (pytest leaves its last failure there too, which the plugin has noted already.)
        uncaught = getattr(sys, "last_exc", None) or getattr(sys, "last_value", None)
        if isinstance(uncaught, BaseException) and id(uncaught) not in self._noted:
            self.note_exception(uncaught)
        self.writer.emit(
            {
                "ev": "final",
                "jax_imported": "jax" in sys.modules,
                "patched": self.patched,
                "observing": self.observing,
                "backend": self.backend,
                "sites": {sid: site.counts() for sid, site in self.sites.items()},
            }
        )

    def note_exception(self, exc: BaseException) -> None:
        """An unhashable static argument raises before JAX traces: the program's own error is the
        evidence, recorded where it was raised."""
        if not (isinstance(exc, ValueError) and UNHASHABLE_MARK in str(exc)):
            return
        self._noted.append(id(exc))
        stack = []
        tb = exc.__traceback__
        while tb is not None:  # outermost first; each entry's own line is where it called on
            path = tb.tb_frame.f_code.co_filename
            if is_user_file(path):
                entry = _frame_dict(tb.tb_frame)
                entry["line"] = tb.tb_lineno
                entry["code"] = linecache.getline(path, tb.tb_lineno).strip()
                stack.append(entry)
            tb = tb.tb_next
        stack.reverse()
        self.writer.emit(
            {
                "ev": "error",
                "kind": "unhashable-static",
                "message": str(exc).splitlines()[0][:300],
                "stack": stack[:5],
                "test": os.environ.get("PYTEST_CURRENT_TEST"),
            }
        )

    # -- site matching -------------------------------------------------------------------------
    def _planned(self, path: str, line: int) -> dict[str, Any] | None:
        for first, last, site in self._by_file.get(path, ()):
            if first <= line <= last:
                return site
        return None

    def _made_at(self, obj: Any) -> tuple[str, int] | None:
        entry = self._made.get(id(obj))
        if entry is not None and entry[0].is_(obj):
            return entry[1], entry[2]
        return None

    def _site(self, site_id: str, planned: bool, meta: dict[str, Any]) -> Site:
        with self._lock:
            site = self.sites.get(site_id)
            if site is None:
                site = self.sites[site_id] = Site(site_id, planned, meta)
        if not site.announced:
            site.announced = True
            self.writer.emit({"ev": "site", "site": site_id, "planned": planned, **meta})
        return site

    def site_of(self, trace: Trace) -> Site | None:
        code = trace.code
        meta: dict[str, Any] | None = None
        if code is not None:
            meta = self._planned(_realpath(code.co_filename), code.co_firstlineno)
        # jax.jit(partial(f)) and the like were made around another object than the user's def.
        wrapped = self._made_at(trace.jax_fun) if trace.jax_fun is not trace.fun else None
        made = wrapped or self._made_at(trace.fun)
        if meta is None and made is not None:
            meta = self._planned(_realpath(made[0]), made[1])
        if meta is None and code is not None and self._by_name:
            # The same module analysed at another path (e.g. an installed copy of the sources).
            qualname = getattr(code, "co_qualname", code.co_name)
            module = getattr(trace.fun, "__module__", None) or ""
            full = _norm_qualname(f"{module}.{qualname}" if module else qualname)
            for first, last, site in self._by_name.get(full, ()):
                if first <= code.co_firstlineno <= last:
                    meta = site
                    break
        if meta is not None:
            return self._site(meta["id"], True, meta)
        if not self.guard_all:
            return None
        site_id, meta = self._unplanned(trace, wrapped)
        return self._site(site_id, False, meta) if site_id is not None else None

    def _unplanned(self, trace: Trace, wrapped: tuple[str, int] | None):
        """An unflagged site: the def, or for partials, bound methods and jax.grad(...) (`wrapped`:
        where jax.jit was given that object) the jax.jit(...) call."""
        fun, code = trace.fun, trace.code
        if code is None:
            return None, None
        if wrapped is not None and is_user_file(wrapped[0]):
            path, line = wrapped
        else:
            path, line = code.co_filename, code.co_firstlineno
        name = code.co_name
        qualname = getattr(code, "co_qualname", name)
        module = getattr(fun, "__module__", None)
        meta = {
            "path": path,
            "line": line,
            "name": name,
            "function": f"{module}.{qualname}" if module else qualname,
            "wrapper": self._wrapper_name(trace),
        }
        return f"U:{_realpath(path)}:{line}", meta

    @staticmethod
    def _wrapper_name(trace: Trace) -> str:
        traced_for = getattr(trace.dbg, "traced_for", "jit") or "jit"
        if traced_for != "jit":
            return f"jax.lax.{traced_for}"
        if trace.library:
            module = (getattr(type(trace.jax_fun), "__module__", "") or "").split(".")[0]
            jax_module = getattr(trace.jax_fun, "__module__", "") or ""
            return f"{jax_module.split('.')[0] or module}.jit"
        return "jax.jit"

    # -- observing -----------------------------------------------------------------------------
    def on_trace(self, frame: types.FrameType) -> None:
        """Called by JAX (through partial_eval.test_event) when a trace-cache miss starts tracing;
        `frame` is trace_to_jaxpr's."""
        if getattr(_tls, "busy", False):
            return
        _tls.busy = True
        try:
            trace = self._read(frame)
            if trace is None:
                return
            site = self.site_of(trace)
            if site is not None:
                self._record(site, trace)
        finally:
            _tls.busy = False

    def _read(self, frame: types.FrameType) -> Trace | None:
        local = frame_locals(frame, "fun", "debug_info", "in_avals")
        jax_fun, dbg = local.get("fun"), local.get("debug_info")
        if jax_fun is None or dbg is None:
            return None
        self._trace_code = frame.f_code
        trace = Trace()
        trace.jax_fun, trace.dbg, trace.in_avals = jax_fun, dbg, local.get("in_avals")
        found = user_callable(jax_fun)
        if found is None:
            filename = getattr(dbg, "func_filename", None) or ""
            if filename and not is_user_file(filename) and not self._is_jax(filename):
                found = self._from_library_frames(frame, getattr(dbg, "func_name", None))
            if found is None:
                return None  # jax's own helpers, or a library's function
        trace.fun, trace.code = found
        # A library (flax.nnx.jit, equinox.filter_jit) made what JAX traces around the user's
        # function: its arguments are the library's, and it decides what is static.
        own = _own_code(jax_fun)
        trace.library = own is not None and not (
            is_user_file(own.co_filename) or self._is_jax(own.co_filename)
        )
        caller = frame.f_back
        if caller is not None and "ji" in caller.f_code.co_varnames:
            trace.ji = frame_locals(caller, "ji").get("ji")
        self._walk_out(frame, trace)
        return trace

    def _is_jax(self, filename: str) -> bool:
        return bool(self._jax_dir) and _realpath(filename).startswith(self._jax_dir)

    def _from_library_frames(self, frame: types.FrameType, name: str | None):
        """equinox.filter_jit traces one shared function per name; the user's function is held by
        the library's frames between the call and the trace (e.g. `jit_wrapper.__wrapped__`)."""
        f = frame.f_back
        while f is not None and not is_user_file(f.f_code.co_filename):
            if not self._is_jax(f.f_code.co_filename):
                for value in frame_locals(f).values():
                    if isinstance(value, (tuple, list, dict, str, bytes, int, float, type)):
                        continue
                    if not callable(value):
                        continue
                    found = user_callable(value, depth=1)
                    if found is not None and found[1].co_name == name:
                        return found
            f = f.f_back
        return None

    def _walk_out(self, frame: types.FrameType, trace: Trace) -> None:
        """Find the call site (the innermost user frame), the user-facing arguments (those of the
        library frames it called) and whether another user function is being traced around us."""
        f = frame.f_back
        inner: list[types.FrameType] = []
        while f is not None:
            if f.f_code is self._trace_code and trace.nested_in is None:
                trace.nested_in = _traced_name(f)
            if trace.call_frame is None:
                if is_user_file(f.f_code.co_filename):
                    trace.call_frame = f
                else:
                    inner.append(f)
            if trace.nested_in is not None and trace.call_frame is not None:
                break
            f = f.f_back
        if trace.nested_in is not None:
            return
        # Outermost first: the frame the user's call entered holds the user's own arguments.
        for g in reversed(inner):
            if "args" not in g.f_code.co_varnames:
                continue
            local = frame_locals(g, "args", "kwargs")
            args, kwargs = local.get("args"), local.get("kwargs") or {}
            if (
                isinstance(args, tuple)
                and isinstance(kwargs, dict)
                and CallInfo(trace.fun).binds(args, kwargs)
            ):
                trace.args = (args, kwargs)
                return

    def _signature(self, trace: Trace) -> dict[str, str]:
        fun = trace.fun
        if trace.args is not None:
            ji = trace.ji if not trace.library else None
            info = CallInfo(
                fun,
                getattr(ji, "static_argnums", None),
                getattr(ji, "static_argnames", None),
                non_arrays_static=trace.library,
            )
            if info.binds(*trace.args):
                return describe_call(info, *trace.args)
        avals = getattr(trace.in_avals, "vals", ()) or ()
        return describe_avals(
            getattr(trace.dbg, "arg_names", None), avals, getattr(trace.in_avals, "tree", "")
        )

    def _context(self) -> tuple[Any, ...] | None:
        try:
            if self._trace_context is None:
                from jax._src import config as jax_config

                self._trace_context = jax_config.trace_context
                self._context_names = tuple(jax_config.trace_context_names())
            return tuple(self._trace_context())
        except Exception:
            return None

    def _context_changes(self, before: Any, after: Any) -> list[dict[str, Any]]:
        names = self._context_names or ()
        if before is None or after is None or len(before) != len(after):
            return []
        out = []
        for i, (old, new) in enumerate(zip(before, after, strict=True)):
            if old != new:
                name = names[i] if i < len(names) else f"context[{i}]"
                out.append(
                    {
                        "param": f"context {name}",
                        "path": f"context {name}",
                        "kind": "context",
                        "before": _short(old),
                        "after": _short(new),
                    }
                )
        return out

    def _record(self, site: Site, trace: Trace) -> None:
        call = trace.call_frame
        where = f"{call.f_code.co_filename}:{call.f_lineno}" if call is not None else "?"
        test = os.environ.get("PYTEST_CURRENT_TEST")
        if trace.nested_in is not None:
            with self._lock:
                site.nested += 1
                first_nested = trace.nested_in not in site.nested_in
                site.nested_in.add(trace.nested_in)
            if first_nested:
                self.writer.emit(
                    {"ev": "nested", "site": site.id, "outer": trace.nested_in, "call": where}
                )
            return
        context = self._context()
        signature = self._signature(trace)
        with self._lock:
            key = _jit_key(trace.ji)
            jitted = site.groups.get(key)
            first = jitted is None
            if first:
                jitted = site.groups[key] = Jitted()
            site.traces += 1
            site.calls_at[where] += 1
            site.note_object(trace.fun)
            n = site.traces
            kind, changes, evidence = "first", [], []
            if not first:
                kind, changes, evidence = self._classify(site, jitted, trace, signature, context)
                site.retraces += 1
                site.retraces_at[where] += 1
            jitted.remember(jitted.funs, trace.fun)
            jitted.remember(jitted.wrappers, trace.jax_fun)
            jitted.signatures.append((signature, context, self.clears, _Ref(trace.jax_fun)))
            del jitted.signatures[:-SIGNATURE_CAP]
            retraces = site.retraces
        event: dict[str, Any] = {
            "ev": "trace",
            "site": site.id,
            "n": n,
            "retrace": not first,
            "r": retraces if not first else 0,
            "kind": kind,
            "call": where,
            "test": test,
            "traced_for": getattr(trace.dbg, "traced_for", None),
        }
        if first or retraces <= DETAIL_CAP:
            event.update(
                {
                    "params": CallInfo(trace.fun).params,
                    "evidence": evidence,
                    "changes": changes[:8],
                    "stack": user_frames(call),
                    "thread": threading.current_thread().name,
                }
            )
        self.writer.emit(event)
        self.note_backend()

    def _classify(
        self,
        site: Site,
        jitted: Jitted,
        trace: Trace,
        signature: dict[str, str],
        context: tuple[Any, ...] | None,
    ) -> tuple[str, list[dict[str, Any]], list[str]]:
        name = trace.code.co_name if trace.code is not None else "function"
        if not jitted.knows(jitted.funs, trace.fun):
            made = site.object_count
            return (
                "new-function",
                [],
                [
                    f"new function object: {name} was made again and traced anew "
                    f"({made} function objects traced at this site)"
                ],
            )
        # What changed since the traces JAX keeps for this very object: another wrapper of the
        # function (one made anew per test) may have traced this signature before, as may this
        # one in another of its traces.
        own = [s for s in jitted.signatures if s[3].is_(trace.jax_fun)] or jitted.signatures
        options = []
        for old, old_context, _, _ in reversed(own):
            changes = diff_signatures(old, signature) + self._context_changes(old_context, context)
            options.append(changes)
        changes = min([c for c in options if c] or [[]], key=len)
        if changes and all(options):
            kinds = {c["kind"] for c in changes}
            kind = kinds.pop() if len(kinds) == 1 else "mixed"
            return kind, changes, render_changes(changes)
        # An identical call traced again: JAX dropped the earlier trace, or the object JAX
        # caches by is new although the user's function is not.
        if not jitted.knows(jitted.wrappers, trace.jax_fun):
            return (
                "new-function",
                [],
                [f"new wrapper object: {name} was wrapped again and the new wrapper traced anew"],
            )
        last_clear = max((c for _, _, c, _ in own), default=0)
        if self.clears > last_clear and self.last_clear is not None:
            at = self.last_clear
            return (
                "cache-cleared",
                [],
                [
                    f"jax.clear_caches() at {at['path']}:{at['line']} emptied JAX's caches; "
                    "the same call traced again"
                ],
            )
        return (
            "evicted",
            [],
            [
                "the same call traced again: JAX's trace cache dropped it (clear_cache() or eviction)"
            ],
        )

    def on_cleared(self) -> None:
        """jax.clear_caches() (through JAX's cache registry)."""
        self.clears += 1
        frame = sys._getframe(1)
        while frame is not None and not is_user_file(frame.f_code.co_filename):
            frame = frame.f_back
        self.last_clear = _frame_dict(frame) if frame is not None else {"path": "?", "line": 0}
        self.writer.emit({"ev": "clear", "n": self.clears, "at": self.last_clear})

    def on_blocked(self, exc: BaseException, frame: types.FrameType) -> None:
        """The program's own jax.no_tracing stopped a call of a jitted function; JAX's message names
        it. A re-trace only if the arguments differ from every traced signature (a numpy input
        misses the dispatch cache without tracing)."""
        local = frame_locals(frame, "fun", "args", "kwargs")
        cache_miss = local.get("fun")
        closure = dict(
            zip(
                getattr(getattr(cache_miss, "__code__", None), "co_freevars", ()),
                (c.cell_contents for c in (getattr(cache_miss, "__closure__", None) or ())),
                strict=False,
            )
        )
        fun, ji = closure.get("fun"), closure.get("jit_info")
        found = user_callable(fun) if fun is not None else None
        if found is None:
            return
        trace = Trace()
        trace.fun, trace.code = found
        trace.jax_fun, trace.ji = fun, ji
        trace.args = (local.get("args") or (), local.get("kwargs") or {})
        g = frame.f_back
        while g is not None and not is_user_file(g.f_code.co_filename):
            g = g.f_back
        trace.call_frame = g
        site = self.site_of(trace)
        if site is None:
            return
        signature = self._signature(trace)
        with self._lock:
            jitted = site.groups.get(_jit_key(ji))
            if jitted is None or not jitted.signatures:
                return
            options = [diff_signatures(old, signature) for old, _, _, _ in jitted.signatures]
            if not all(options):
                return  # a signature JAX already traced: a dispatch-only miss
            changes = min(options, key=len)
            site.blocked += 1
        where = f"{g.f_code.co_filename}:{g.f_lineno}" if g is not None else "?"
        kinds = {c["kind"] for c in changes}
        self.writer.emit(
            {
                "ev": "trace",
                "site": site.id,
                "retrace": True,
                "blocked": True,
                "kind": kinds.pop() if len(kinds) == 1 else "mixed",
                "call": where,
                "params": CallInfo(trace.fun).params,
                "evidence": render_changes(changes),
                "changes": changes[:8],
                "error": str(exc).splitlines()[0][:300],
                "stack": user_frames(g),
                "test": os.environ.get("PYTEST_CURRENT_TEST"),
                "thread": threading.current_thread().name,
            }
        )

    # -- creation ------------------------------------------------------------------------------
    def note_made(self, fun: Any, frame: types.FrameType | None) -> None:
        """A jax.jit/jax.pmap call: count the wrapper at its site; remember where wrappers of
        callables that are not plain functions were made (their site is that call). `frame` is
        the caller of the internal function JAX made it with: only a call of the public function
        straight from the user's code counts, not jax's or a library's own jax.jit."""
        while (
            frame is not None
            and frame.f_code.co_name in _ENTRY_FRAMES
            and self._is_jax(frame.f_code.co_filename)
        ):
            frame = frame.f_back
        if frame is None or not is_user_file(frame.f_code.co_filename):
            return
        path, line = frame.f_code.co_filename, frame.f_lineno or 0
        with self._lock:
            if len(self._made) > 4096:
                self._made = {k: v for k, v in self._made.items() if v[0].alive()}
            self._made[id(fun)] = (_Ref(fun), path, line)
        code = code_of(fun)
        meta = self._planned(_realpath(code.co_filename), code.co_firstlineno) if code else None
        if meta is None:
            meta = self._planned(_realpath(path), line)
        if meta is not None:
            self._site(meta["id"], True, meta).creations += 1
        elif self.guard_all and (found := user_callable(fun)) is not None:
            trace = Trace()
            (trace.fun, trace.code), trace.jax_fun = found, fun
            site_id, info = self._unplanned(trace, (path, line) if fun is not found[0] else None)
            if site_id is not None:
                self._site(site_id, False, info).creations += 1

    # -- installing ----------------------------------------------------------------------------
    def attach(self, jax: Any) -> bool:
        """Start observing this jax (idempotent); False when its hooks are not where we look."""
        if self.observing:
            return True
        self.jax = jax
        _add_library_dir(jax)
        self._jax_dir = os.path.dirname(os.path.realpath(jax.__file__)) + os.sep
        try:
            from jax._src import pjit, traceback_util, util
            from jax._src import pmap as pmap_module
            from jax._src.interpreters import partial_eval
        except ImportError as exc:
            self.writer.emit({"ev": "unsupported", "jax": jax.__version__, "why": str(exc)})
            return False
        if not callable(getattr(partial_eval, "test_event", None)):
            self.writer.emit(
                {"ev": "unsupported", "jax": getattr(jax, "__version__", "?"), "why": "no hook"}
            )
            return False
        first = _chain(partial_eval, "test_event", _make_test_event)
        if callable(getattr(traceback_util, "_filtering_mode", None)):
            _chain(traceback_util, "_filtering_mode", _make_filtering_mode)
        for module, name in ((pjit, "_cpp_pjit"), (pmap_module, "_pmap_wrap_init")):
            if callable(getattr(module, name, None)):
                _chain(module, name, _make_maker_hook)
        if first and callable(getattr(traceback_util, "register_exclusion", None)):
            # An error raised through our hooks shows the frames plain JAX shows.
            traceback_util.register_exclusion(_RUNTIME_FILE)
        if callable(getattr(util, "register_cache", None)):
            self._clear_listener = _ClearListener(self)
            util.register_cache(self._clear_listener, "retracelint: jax.clear_caches() seen")
        self.observing = True
        return True

    def observe(self, jax: Any) -> None:
        """Start observing once jax is imported, and say so in the report (once per process)."""
        if self.patched or not self.attach(jax):
            return
        self.patched = True
        self.writer.emit({"ev": "patched", "jax": getattr(jax, "__version__", "?")})


class _ClearListener:
    """Registered with JAX's cache registry: jax.clear_caches() calls cache_clear() on it."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def cache_clear(self) -> None:
        with contextlib.suppress(Exception):
            self.runtime.on_cleared()

    def cache_info(self) -> Any:
        return functools._CacheInfo(0, 0, 0, 0)  # type: ignore[attr-defined]

    def cache_keys(self) -> list[Any]:
        return []


# The hooks chain onto module attributes of jax; the runtime they report to is the process's one
# (module-level, so that a second runtime in the same process, as in tests, takes over cleanly).
_observers: list[Runtime] = []


def _chain(module: types.ModuleType, name: str, make: Any) -> bool:
    """Chain a hook onto ``module.name`` once per process; True when it was chained now."""
    current = getattr(module, name)
    if getattr(current, "_retracelint_hook", False):
        return False
    hook = make(current)
    hook._retracelint_hook = True
    setattr(module, name, hook)
    return True


def _make_test_event(original: Any) -> Any:
    def test_event(name: str, *args: Any) -> Any:
        if name == TRACE_EVENT and _observers:
            with contextlib.suppress(Exception):
                _observers[-1].on_trace(sys._getframe(1))
        return original(name, *args)

    return test_event


# The frames between jax.jit / jax.pmap (or pjit) and the internal function that the maker hook
# chains onto: jax's traceback-filtering boundary, the public function, the decorator-factory
# lambda of `@jax.jit(static_argnames=...)`, and make_jit, which jit and pjit share.
_ENTRY_FRAMES = frozenset(
    {"reraise_with_filtered_traceback", "jit", "pjit", "pmap", "<lambda>", "make_jit"}
)


def _make_maker_hook(original: Any) -> Any:
    """Chained onto the internal function jax.jit and jax.pmap hand the user's function to, once
    JAX has checked the arguments: the functions JAX makes and the errors it raises stay its own."""

    @functools.wraps(original)
    def maker_hook(fun: Any, *args: Any, **kwargs: Any) -> Any:
        made = original(fun, *args, **kwargs)
        if _observers:
            with contextlib.suppress(Exception):
                _observers[-1].note_made(fun, sys._getframe(1))
        return made

    return maker_hook


def _make_filtering_mode(original: Any) -> Any:
    # Each nested API boundary sees the same exception; report it once (by id: an exception
    # takes no weak reference, and a strong one would keep its frames alive).
    seen: list[int] = []

    def _filtering_mode() -> Any:
        if _observers:
            exc = sys.exc_info()[1]
            if isinstance(exc, RuntimeError) and id(exc) not in seen:
                seen[:] = [*seen[-15:], id(exc)]
                frame = sys._getframe(1)
                if NO_TRACING_MARK in str(exc) and frame_locals(frame, "e").get("e") is exc:
                    with contextlib.suppress(Exception):
                        _observers[-1].on_blocked(exc, frame)
        return original()

    return _filtering_mode


# ---------------------------------------------------------------------------------------------
# Installation


class _JaxImportHook(importlib.abc.MetaPathFinder):
    """Starts observing right after ``import jax`` finishes, whoever imports it first."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != "jax":
            return None
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec("jax")
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader = spec.loader
        original = loader.exec_module
        runtime = self.runtime

        def exec_module(module: types.ModuleType) -> None:
            original(module)
            try:
                runtime.observe(module)
            except Exception as exc:
                sys.stderr.write(f"retracelint: could not instrument jax: {exc}\n")

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _on_sigterm(signum: int, frame: Any) -> None:
    if _runtime is not None:
        _runtime.finish()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def use(runtime: Runtime) -> None:
    """Make `runtime` the one JAX's hooks report to (tests make several in one process)."""
    if runtime in _observers:
        _observers.remove(runtime)
    _observers.append(runtime)


def release(runtime: Runtime) -> None:
    """Stop reporting to `runtime` (JAX's hooks stay, and report to the previous one, if any)."""
    if runtime in _observers:
        _observers.remove(runtime)


def install(plan: dict[str, Any], *, handle_sigterm: bool = False) -> Runtime:
    """Start observing in this process (idempotent). `plan` has ``report`` (events file),
    ``guard`` ("flagged" or "all") and ``sites`` (see retracelint.confirm.plan)."""
    global _runtime
    if _runtime is not None:
        return _runtime
    runtime = _runtime = Runtime(plan)
    use(runtime)
    runtime.start()
    atexit.register(runtime.finish)
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=runtime.after_fork)
    if handle_sigterm and threading.current_thread() is threading.main_thread():
        try:
            if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
                signal.signal(signal.SIGTERM, _on_sigterm)
        except (ValueError, OSError):
            pass
    jax = sys.modules.get("jax")
    if jax is not None and hasattr(jax, "jit"):
        runtime.observe(jax)
    else:
        sys.meta_path.insert(0, _JaxImportHook(runtime))
    return runtime


def install_from_env() -> Runtime | None:
    path = os.environ.get(PLAN_ENV)
    if not path:
        return None
    with open(path, encoding="utf-8") as fh:
        plan = json.load(fh)
    return install(plan, handle_sigterm=True)


def current() -> Runtime | None:
    return _runtime
