"""Instrumentation that runs inside the user's program for ``retracelint confirm``.

This module is loaded by path (``_boot/sitecustomize.py``) into a process whose environment may not
have retracelint installed, so it imports nothing but the standard library and, once the program
imports it, jax. It is also used in-process by the pytest plugin.

What it does (jax-internals.md §3.4, "Recipe A"):

* patches ``jax.jit`` and ``jax.pmap`` as soon as ``jax`` is imported (an import hook, so that the
  program's own environment variables and config are read by jax exactly as without us);
* wraps each jit function made at a guarded site in :class:`GuardedJit`. The first call at a site runs
  normally. Before each later call the wrapper probes with ``jf.trace(...)`` under
  ``jax.no_tracing(True)`` and ``jax.explain_cache_misses(True)``: ``.trace`` walks the same trace
  cache lookup as a real cache miss but runs nothing and consumes no donated buffer, and raises only
  when the Python body would run again. Then the real call runs unguarded, so dispatch-only misses
  (numpy inputs, committed arrays, ``debug.print``) neither raise nor poison JAX's C++ cache;
* writes one JSON line per event, with a single ``os.write`` on an ``O_APPEND`` file, so a crash, a
  signal or a timeout leaves everything seen so far, and several processes (pytest-xdist workers,
  multiprocessing) can share one report file.
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
import logging
import os
import re
import signal
import sys
import sysconfig
import threading
import time
import types
from typing import Any

PLAN_ENV = "RETRACELINT_CONFIRM_PLAN"
NO_TRACING_MARK = "but 'no_tracing' is set"
UNHASHABLE_MARK = "Non-hashable static arguments"
EXPLAIN_LOGGER = "jax._src.interpreters.partial_eval"
# Full evidence (explanation, stack, signature diff) is kept for this many re-traces per site and
# process; later ones are only counted.
DETAIL_CAP = 25
# Signatures kept per site to find the closest earlier one when a re-trace happens.
SIGNATURE_CAP = 16
KEYWORD = " (by keyword)"
# Leaves described per argument; a parameter pytree with thousands of leaves is summarised.
LEAF_CAP = 256

_RUNTIME_FILE = os.path.realpath(__file__)
_NOT_GIVEN = object()
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
    return tuple(sorted(dirs))


_LIB_DIRS = _library_dirs()
_user_files: dict[str, bool] = {}


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


def user_frames(frame: types.FrameType | None, limit: int = 5) -> list[dict[str, Any]]:
    """The innermost `limit` frames of user code, innermost first."""
    out: list[dict[str, Any]] = []
    while frame is not None and len(out) < limit:
        code = frame.f_code
        if is_user_file(code.co_filename):
            line = frame.f_lineno or 0
            out.append(
                {
                    "path": code.co_filename,
                    "line": line,
                    "function": code.co_name,
                    "code": linecache.getline(code.co_filename, line).strip(),
                }
            )
        frame = frame.f_back
    return out


def code_of(fun: Any) -> types.CodeType | None:
    """The code object of the Python function behind a callable (partials, methods, wrappers)."""
    for _ in range(16):
        if isinstance(fun, functools.partial):
            fun = fun.func
            continue
        if isinstance(fun, types.MethodType):
            fun = fun.__func__
            continue
        wrapped = getattr(fun, "__wrapped__", None)
        if wrapped is not None and wrapped is not fun:
            # jax.grad(f), functools.wraps decorators and our own GuardedJit: the user's function.
            fun = wrapped
            continue
        code = getattr(fun, "__code__", None)
        if isinstance(code, types.CodeType):
            return code
        # A callable object: the code of its class's __call__.
        try:
            code = type(fun).__call__.__code__
        except AttributeError:
            return None
        return code if isinstance(code, types.CodeType) else None
    return None


def _norm_qualname(name: str) -> str:
    return name.replace(".<locals>", "")


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


def _aval_str(leaf: Any) -> str:
    import jax

    try:
        aval = jax.typeof(leaf)
    except Exception:
        return f"<{type(leaf).__name__}>"
    try:
        text = aval.str_short(short_dtypes=True)
    except Exception:
        text = str(aval)
    return text + " (weak)" if getattr(aval, "weak_type", False) else text


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
    """What a jit wrapper knows about how its arguments map to parameters."""

    def __init__(self, fun: Any, jit_kwargs: dict[str, Any]) -> None:
        self.static_nums = _as_index_set(jit_kwargs.get("static_argnums"))
        self.static_names = _as_index_set(jit_kwargs.get("static_argnames"))
        self.params: list[str] = []
        self.has_varargs = False
        try:
            sig = inspect.signature(fun)
        except (TypeError, ValueError):
            return
        for param in sig.parameters.values():
            if param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD):
                self.params.append(param.name)
            elif param.kind == param.VAR_POSITIONAL:
                self.has_varargs = True
        # JAX derives each of static_argnums / static_argnames from the other.
        for i in list(self.static_nums):
            if isinstance(i, int) and -len(self.params) <= i < len(self.params):
                self.static_names.add(self.params[i])
        for name in list(self.static_names):
            if name in self.params:
                self.static_nums.add(self.params.index(name))

    def name_of(self, index: int) -> str:
        return self.params[index] if index < len(self.params) else f"args[{index}]"

    def is_static(self, index: int | None, name: str, nargs: int) -> bool:
        if name in self.static_names:
            return True
        if index is None:
            return False
        return index in self.static_nums or (index - nargs) in self.static_nums


def describe_call(info: CallInfo, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, str]:
    """A readable signature of one call: parameter path -> abstract value (the parts of JAX's
    trace-cache key that a user can change: shapes, dtypes, weak types, pytree structure, statics)."""
    import jax

    out: dict[str, str] = {}

    def add(name: str, value: Any, static: bool, keyword: bool) -> None:
        # Passing a parameter by keyword instead of by position is a different cache key too.
        how = KEYWORD if keyword else ""
        if static:
            out[name] = f"Static(val={_short(value)}){how}"
            return
        try:
            leaves, treedef = jax.tree_util.tree_flatten_with_path(value)
        except Exception:
            out[name] = f"<{type(value).__name__}>{how}"
            return
        if treedef.num_nodes == 1 and treedef.num_leaves == 1 and not leaves[0][0]:
            out[name] = _aval_str(value) + how
            return
        out[name + "<tree>"] = _short(treedef, 160) + how
        for path, leaf in leaves[:LEAF_CAP]:
            out[name + jax.tree_util.keystr(path)] = _aval_str(leaf)

    for i, value in enumerate(args):
        name = info.name_of(i)
        add(name, value, info.is_static(i, name, len(args)), False)
    for name, value in kwargs.items():
        index = info.params.index(name) if name in info.params else None
        add(name, value, info.is_static(index, name, len(args)), True)
    return out


_ROOT = re.compile(r"^[^\[<.]+")


def _root(key: str) -> str:
    match = _ROOT.match(key)
    return match.group(0) if match else key


def _change_kind(key: str, before: str | None, after: str | None) -> str:
    if before is None or after is None:
        return "structure"
    before, after = before.removesuffix(KEYWORD), after.removesuffix(KEYWORD)
    if before == after or key.endswith("<tree>"):
        return "structure"  # the same value passed by keyword on one side, or a changed pytree
    if before.startswith("Static(") or after.startswith("Static("):
        return "static"
    b_type, _, b_rest = before.partition("[")
    a_type, _, a_rest = after.partition("[")
    if b_rest.split("]")[0] != a_rest.split("]")[0]:
        return "shape"
    if b_type != a_type:
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
                "path": display,
                "kind": _change_kind(key, old, new),
                "before": old if old is not None else "absent",
                "after": new if new is not None else "absent",
            }
        )
    return changes


def render_change(change: dict[str, Any]) -> str:
    before, after = change["before"], change["after"]
    if before.endswith(KEYWORD) and after.endswith(KEYWORD):
        before, after = before.removesuffix(KEYWORD), after.removesuffix(KEYWORD)
    return f"{change['path']}: {before} -> {after}"


_CONTEXT_LINE = re.compile(r"\* (\S+) differs: now (.*) and before (.*)$")
_TYPES_LINE = re.compile(r"\* at (.+?), now (.+?) and before (.+?)(?:https://\S+)?$")
_TREE_LINE = re.compile(r"\* at input path (.+?), now (.+) and before (.+), so (.+)$")


def evidence_from_explain(explain: str) -> list[str]:
    """Readable lines from a JAX cache-miss explanation (used when our own diff finds nothing,
    e.g. a changed config or context manager)."""
    lines: list[str] = []
    for raw in explain.splitlines():
        text = raw.strip()
        m = _CONTEXT_LINE.match(text)
        if m:
            lines.append(f"context {m.group(1)}: {m.group(3)} -> {m.group(2)}")
            continue
        m = _TREE_LINE.match(text)
        if m:
            lines.append(f"input path {m.group(1)}: {m.group(3)} -> {m.group(2)} ({m.group(4)})")
            continue
        m = _TYPES_LINE.match(text)
        if m:
            lines.append(f"{m.group(1)}: {m.group(3)} -> {m.group(2)}")
    return lines


# ---------------------------------------------------------------------------------------------
# Sites


class Site:
    """A place in the source where jit functions are made; all wrappers made there share it."""

    def __init__(self, runtime: Runtime, site_id: str, planned: bool, meta: dict[str, Any]):
        self.runtime = runtime
        self.id = site_id
        self.planned = planned
        self.meta = meta
        self.calls = 0  # top-level calls (not made while tracing another function)
        self.nested_calls = 0
        self.creations = 0
        self.retraces = 0
        self.probes = 0
        self.state = UNTRACED
        self.lock = threading.Lock()
        self.signatures: list[dict[str, str]] = []
        self.announced = False

    def remember(self, signature: dict[str, str] | None) -> None:
        if signature is not None:
            self.signatures.append(signature)
            del self.signatures[:-SIGNATURE_CAP]

    def counts(self) -> dict[str, int]:
        return {
            "calls": self.calls,
            "nested_calls": self.nested_calls,
            "creations": self.creations,
            "retraces": self.retraces,
            "probes": self.probes,
        }


UNTRACED, IN_FLIGHT, TRACED = 0, 1, 2


def _is_milestone(n: int) -> bool:
    return n & (n - 1) == 0  # 1, 2, 4, 8, ...


# ---------------------------------------------------------------------------------------------
# The probe


class _CaptureFilter(logging.Filter):
    """Collects JAX's cache-miss explanations emitted during our probe (in this thread only) and
    keeps them out of the user's logs unless the user turned explanations on themselves."""

    def __init__(self, jx: _Jax) -> None:
        super().__init__()
        self.jx = jx

    def filter(self, record: logging.LogRecord) -> bool:
        capture = getattr(_tls, "capture", None)
        if capture is None:
            return True
        with contextlib.suppress(Exception):
            capture.append(record.getMessage())
        # Our probe turned explanations on thread-locally; the global value is the user's choice.
        return self.jx.user_explains()


_capture_filter: _CaptureFilter | None = None


def _install_capture_filter(jx: _Jax) -> None:
    global _capture_filter
    if _capture_filter is None:
        _capture_filter = _CaptureFilter(jx)
        logging.getLogger(EXPLAIN_LOGGER).addFilter(_capture_filter)


class _Jax:
    """The pieces of jax the hot path needs, looked up once."""

    def __init__(self, jax: Any) -> None:
        self.jax = jax
        self.no_tracing = jax.no_tracing
        self.explain = jax.explain_cache_misses
        try:
            from jax._src import config as jax_config
            from jax._src import core as jax_core

            self.trace_state_clean = jax_core.trace_state_clean
            self.disable_jit = jax_config.disable_jit
            self.explain_state = jax_config.explain_cache_misses
        except Exception:  # private modules moved: probe everywhere, JAX still raises correctly
            self.trace_state_clean = lambda: True
            self.disable_jit = None
            self.explain_state = None
        try:
            # `Jitted.trace` is `_infer_params` (the trace-cache lookup, where no_tracing raises)
            # plus building a Traced object whose per-argument metadata costs ~3x the lookup.
            from jax._src import pjit

            self.infer_params = pjit._infer_params
        except Exception:
            self.infer_params = None

    def lookup(self, jf: Any) -> _Lookup:
        return _Lookup(jf, self.infer_params)

    def can_probe(self) -> bool:
        # Inside another trace (nested jit, grad/vmap outside jit) the arguments are tracers and a
        # probe would report the outer function's re-trace again; under disable_jit nothing traces.
        if not self.trace_state_clean():
            return False
        return not (self.disable_jit is not None and self.disable_jit.value)

    def user_explains(self) -> bool:
        state = self.explain_state
        try:
            return bool(state.get_global()) if state is not None else False
        except Exception:
            return False


class _Lookup:
    """Walks a jit function's trace-cache lookup for (args, kwargs), where no_tracing raises on a
    miss. Uses jax's private _infer_params when it fits, else the public Jitted.trace."""

    __slots__ = ("fast", "fun", "infer", "info", "jf")

    def __init__(self, jf: Any, infer: Any) -> None:
        self.jf = jf
        self.infer = infer
        self.fun = getattr(jf, "_fun", None)
        self.info = getattr(jf, "_jit_info", None)
        self.fast = infer is not None and self.fun is not None and self.info is not None

    def __call__(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if self.fast:
            try:
                return self.infer(self.fun, self.info, args, kwargs)
            except RuntimeError:
                raise
            except Exception:
                # A changed private signature, or a call that is wrong anyway: from now on take
                # the public path, which raises for bad calls exactly as the real call will.
                self.fast = False
        return self.jf.trace(*args, **kwargs)


def probe(jx: _Jax, lookup: Any, args: tuple[Any, ...], kwargs: dict[str, Any]):
    """None when the call would reuse a cached trace; otherwise (error text, captured explanation
    lines). `lookup` is _Jax.lookup(jf)."""
    messages: list[str] = []
    _tls.capture = messages
    try:
        with jx.explain(True), jx.no_tracing(True):
            lookup(args, kwargs)
    except RuntimeError as exc:
        text = str(exc)
        if NO_TRACING_MARK in text:
            return text, messages
        return None  # the real call will raise it where the user expects it
    except Exception:
        return None
    finally:
        _tls.capture = None
    return None


# ---------------------------------------------------------------------------------------------
# Guarded wrappers


class GuardedJit:
    """Stands in for the object ``jax.jit`` returned; calls, attributes and method binding behave
    like the original."""

    def __init__(self, runtime: Runtime, site: Site, jf: Any, fun: Any, jit_kwargs: dict[str, Any]):
        d = self.__dict__
        d["_rtl_runtime"] = runtime
        d["_rtl_site"] = site
        d["_rtl_jf"] = jf
        d["_rtl_fun"] = fun
        d["_rtl_kwargs"] = jit_kwargs
        d["_rtl_calls"] = 0
        d["_rtl_info"] = None
        d["_rtl_lookup"] = runtime.jx.lookup(jf)
        for attr in ("__name__", "__qualname__", "__doc__", "__module__", "__wrapped__"):
            with contextlib.suppress(AttributeError):
                d[attr] = getattr(jf, attr)

    # -- the hot path --------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        site = self._rtl_site
        runtime = self._rtl_runtime
        jx = runtime.jx
        n = self._rtl_calls = self._rtl_calls + 1
        if not jx.can_probe():
            site.nested_calls += 1
            site.state = TRACED
            return self._rtl_real(args, kwargs)
        calls = site.calls = site.calls + 1
        if _is_milestone(calls):
            runtime.milestone(site)
        if site.state != TRACED:
            return self._rtl_first(args, kwargs)
        site.probes += 1
        found = probe(jx, self._rtl_lookup, args, kwargs)
        if found is not None:
            self._rtl_record(found, n, calls, args, kwargs)
        return self._rtl_real(args, kwargs)

    def _rtl_first(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """The first call at a site traces by design: let it, and remember what it saw. Until it
        returns, other threads call straight through: probing a key that another thread is still
        tracing would report that first trace as a re-trace."""
        site = self._rtl_site
        with site.lock:
            first = site.state == UNTRACED
            if first:
                site.state = IN_FLIGHT
        if not first:
            return self._rtl_real(args, kwargs)
        try:
            site.remember(self._rtl_describe(args, kwargs))
            return self._rtl_real(args, kwargs)
        finally:
            site.state = TRACED
            self._rtl_runtime.note_backend()

    def _rtl_real(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        try:
            return self._rtl_jf(*args, **kwargs)
        except ValueError as exc:
            if UNHASHABLE_MARK in str(exc):
                self._rtl_runtime.error(self._rtl_site, "unhashable-static", str(exc))
            raise

    # -- evidence ------------------------------------------------------------------------------
    def _rtl_call_info(self) -> CallInfo:
        info = self._rtl_info
        if info is None:
            info = self.__dict__["_rtl_info"] = CallInfo(self._rtl_fun, self._rtl_kwargs)
        return info

    def _rtl_describe(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, str] | None:
        try:
            return describe_call(self._rtl_call_info(), args, kwargs)
        except Exception:
            return None

    def _rtl_record(self, found, wrapper_call, site_call, args, kwargs) -> None:
        site = self._rtl_site
        site.retraces += 1
        error, messages = found
        runtime = self._rtl_runtime
        event: dict[str, Any] = {
            "ev": "retrace",
            "site": site.id,
            "n": site.retraces,
            "call": site_call,
            "thread": threading.current_thread().name,
        }
        if site.retraces > DETAIL_CAP:
            runtime.writer.emit(event)
            return
        explain = "\n".join(messages)
        signature = self._rtl_describe(args, kwargs)
        changes: list[dict[str, Any]] = []
        if signature is not None and site.signatures:
            # Newest first: among equally close earlier calls, the latest reads most naturally.
            candidates = [diff_signatures(old, signature) for old in reversed(site.signatures)]
            changes = min([c for c in candidates if c] or [[]], key=len)
        if "never seen function" in explain or (wrapper_call == 1 and not changes):
            # A jit wrapper made again around a new function object (jax.jit(lambda ...) or
            # jax.jit(partial(...)) per call): JAX has never seen it, so it traces again.
            kind = "new-function"
            changes = []
            evidence = [
                f"new function object: {self.__dict__.get('__name__', 'function')} was wrapped "
                f"by jax.jit again (wrapper #{site.creations} made at this site)"
            ]
        elif changes:
            kinds = {c["kind"] for c in changes}
            kind = kinds.pop() if len(kinds) == 1 else "mixed"
            evidence = [render_change(c) for c in changes[:4]]
        else:
            lines = evidence_from_explain(explain)
            kind = "context" if "Tracing context" in explain else "unknown"
            evidence = lines[:4] or ["re-traced; JAX gave no explanation"]
        site.remember(signature)
        frame = sys._getframe(2)
        event.update(
            {
                "params": self._rtl_call_info().params,
                "kind": kind,
                "evidence": evidence,
                "changes": changes[:8],
                "explain": explain or None,
                "error": error,
                "stack": user_frames(frame),
                "test": os.environ.get("PYTEST_CURRENT_TEST"),
            }
        )
        runtime.writer.emit(event)

    # -- behave like the jit object --------------------------------------------------------------
    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        if obj is None:
            return self
        return types.MethodType(self, obj)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_rtl_jf"], name)

    def __repr__(self) -> str:
        return repr(self._rtl_jf)


class GuardedPmap:
    """pmap functions have no ``.trace``: count executions of the Python body instead (each one is
    a trace) and report any that happens after the first."""

    def __init__(self, runtime: Runtime, site: Site, pf: Any, counter: _BodyCounter, fun: Any):
        d = self.__dict__
        d["_rtl_runtime"] = runtime
        d["_rtl_site"] = site
        d["_rtl_pf"] = pf
        d["_rtl_counter"] = counter
        d["_rtl_info"] = CallInfo(fun, {})
        for attr in ("__name__", "__qualname__", "__doc__", "__module__", "__wrapped__"):
            with contextlib.suppress(AttributeError):
                d[attr] = getattr(pf, attr)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        site = self._rtl_site
        runtime = self._rtl_runtime
        if not runtime.jx.can_probe():
            site.nested_calls += 1
            return self._rtl_pf(*args, **kwargs)
        calls = site.calls = site.calls + 1
        if _is_milestone(calls):
            runtime.milestone(site)
        counter = self._rtl_counter
        before = counter.count
        out = self._rtl_pf(*args, **kwargs)
        if counter.count > before:
            try:
                signature = describe_call(self._rtl_info, args, kwargs)
            except Exception:
                signature = None
            if site.state == TRACED:
                site.retraces += 1
                changes: list[dict[str, Any]] = []
                if signature is not None and site.signatures:
                    options = [diff_signatures(old, signature) for old in reversed(site.signatures)]
                    changes = min([c for c in options if c] or [[]], key=len)
                runtime.writer.emit(
                    {
                        "ev": "retrace",
                        "site": site.id,
                        "n": site.retraces,
                        "call": calls,
                        "params": self._rtl_info.params,
                        "kind": "observed",
                        "evidence": [render_change(c) for c in changes[:4]]
                        or ["the pmapped function's Python body ran again"],
                        "changes": changes[:8],
                        "error": None,
                        "explain": None,
                        "stack": user_frames(sys._getframe(1)),
                        "test": os.environ.get("PYTEST_CURRENT_TEST"),
                        "thread": threading.current_thread().name,
                    }
                )
            site.state = TRACED
            site.remember(signature)
        return out

    def __get__(self, obj: Any, objtype: Any = None) -> Any:
        return self if obj is None else types.MethodType(self, obj)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.__dict__["_rtl_pf"], name)


class _BodyCounter:
    """Wraps a function given to pmap; each execution of its body is one trace."""

    def __init__(self, fun: Any) -> None:
        self.count = 0
        counter = self

        @functools.wraps(fun)
        def counted(*args: Any, **kwargs: Any) -> Any:
            counter.count += 1
            return fun(*args, **kwargs)

        self.fun = counted


# ---------------------------------------------------------------------------------------------
# The runtime


class Runtime:
    def __init__(self, plan: dict[str, Any]) -> None:
        self.plan = plan
        self.guard_all = plan.get("guard", "flagged") == "all"
        self.writer = EventWriter(plan["report"])
        self.sites: dict[str, Site] = {}
        self.jx: _Jax | None = None  # set when jax is imported
        self.patched = False
        self._lock = threading.Lock()
        self._by_file: dict[str, list[tuple[int, int, dict[str, Any]]]] = {}
        self._by_name: dict[str, list[tuple[int, int, dict[str, Any]]]] = {}
        for site in plan.get("sites", []):
            entry = (int(site["first_line"]), int(site["last_line"]), site)
            self._by_file.setdefault(os.path.realpath(site["path"]), []).append(entry)
            if site.get("function"):
                self._by_name.setdefault(_norm_qualname(site["function"]), []).append(entry)
        self._finished = False
        self.backend: str | None = None
        self._pmap_counters: Any = None

    # -- events --------------------------------------------------------------------------------
    def start(self) -> None:
        self.writer.emit({"ev": "start", "argv": list(sys.argv), "ppid": os.getppid()})

    def milestone(self, site: Site) -> None:
        self.writer.emit({"ev": "count", "site": site.id, **site.counts()})

    def error(self, site: Site, kind: str, message: str) -> None:
        self.writer.emit(
            {
                "ev": "error",
                "site": site.id,
                "kind": kind,
                "message": message.splitlines()[0][:300],
                "stack": user_frames(sys._getframe(2)),
            }
        )

    def note_backend(self) -> None:
        """Record the platform once a guarded function has run (at exit, jax has let go of it)."""
        if self.backend is not None:
            return
        jax = sys.modules.get("jax")
        try:
            self.backend = str(jax.default_backend()) if jax is not None else None
        except Exception:
            self.backend = "?"
        if self.backend:
            self.writer.emit({"ev": "backend", "backend": self.backend})

    def after_fork(self) -> None:
        """In a forked child: count from zero (the parent reports its own calls) and never wait on
        a lock that a thread of the parent held at the fork."""
        self.writer._lock = threading.Lock()
        self._lock = threading.Lock()
        for site in self.sites.values():
            site.lock = threading.Lock()
            site.calls = site.nested_calls = site.creations = site.retraces = site.probes = 0
        self._finished = False
        self.start()

    def finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        jax = sys.modules.get("jax")
        self.writer.emit(
            {
                "ev": "final",
                "jax_imported": jax is not None,
                "patched": self.patched,
                "backend": self.backend,
                "sites": {sid: site.counts() for sid, site in self.sites.items()},
            }
        )

    # -- site matching -------------------------------------------------------------------------
    def _planned(self, path: str, line: int) -> dict[str, Any] | None:
        for first, last, site in self._by_file.get(path, ()):
            if first <= line <= last:
                return site
        return None

    def site_for(self, fun: Any, frame: types.FrameType | None, kind: str) -> Site | None:
        code = code_of(fun)
        meta: dict[str, Any] | None = None
        if code is not None:
            meta = self._planned(_realpath(code.co_filename), code.co_firstlineno)
        creator = frame
        while creator is not None and _realpath(creator.f_code.co_filename) == _RUNTIME_FILE:
            creator = creator.f_back
        if meta is None and creator is not None:
            meta = self._planned(_realpath(creator.f_code.co_filename), creator.f_lineno or 0)
        if meta is None and code is not None and self._by_name:
            # The same module analysed at another path (e.g. an installed copy of the sources).
            qualname = getattr(code, "co_qualname", code.co_name)
            module = getattr(fun, "__module__", None) or ""
            full = _norm_qualname(f"{module}.{qualname}" if module else qualname)
            for first, last, site in self._by_name.get(full, ()):
                if first <= code.co_firstlineno <= last:
                    meta = site
                    break
        if meta is not None:
            site_id = meta["id"]
            planned = True
        elif self.guard_all:
            site_id, meta = self._unplanned(fun, code, creator, kind)
            if site_id is None:
                return None
            planned = False
        else:
            return None
        with self._lock:
            site = self.sites.get(site_id)
            if site is None:
                site = self.sites[site_id] = Site(self, site_id, planned, meta)
        site.creations += 1
        if not site.announced:
            site.announced = True
            self.writer.emit({"ev": "site", "site": site_id, "planned": planned, **meta})
        if _is_milestone(site.creations):
            self.milestone(site)
        return site

    def _unplanned(self, fun: Any, code: Any, creator: Any, kind: str):
        plain = isinstance(fun, types.FunctionType)
        if code is not None and plain and is_user_file(code.co_filename):
            path, line = code.co_filename, code.co_firstlineno
        elif creator is not None and is_user_file(creator.f_code.co_filename):
            # partials, bound methods, jax.grad(...): the jax.jit(...) call is the site.
            path, line = creator.f_code.co_filename, creator.f_lineno or 0
        else:
            return None, None
        name = getattr(code, "co_name", None) or getattr(fun, "__name__", "function")
        qualname = getattr(code, "co_qualname", name) if code is not None else name
        module = getattr(fun, "__module__", None)
        meta = {
            "path": path,
            "line": line,
            "name": name,
            "function": f"{module}.{qualname}" if module else qualname,
            "wrapper": f"jax.{kind}",
        }
        return f"U:{_realpath(path)}:{line}", meta

    # -- patching ------------------------------------------------------------------------------
    def attach(self, jax: Any) -> bool:
        """Get ready to guard with this jax (without patching it); False if it is too old."""
        if self.jx is not None:
            return True
        try:
            self.jx = _Jax(jax)
        except AttributeError:
            # jax older than 0.10.2 has no no_tracing/explain_cache_misses: the parent checks the
            # version, but the command may run another interpreter.
            self.writer.emit({"ev": "unsupported", "jax": getattr(jax, "__version__", "?")})
            return False
        _install_capture_filter(self.jx)
        return True

    def make_jit(self, real_jit: Any) -> Any:
        """A drop-in for `real_jit` that guards the functions it makes at guarded sites."""
        runtime = self

        @functools.wraps(real_jit)
        def jit(fun: Any = _NOT_GIVEN, /, *args: Any, **kwargs: Any) -> Any:
            if fun is _NOT_GIVEN:  # the decorator-factory form: @jax.jit(static_argnames=...)
                return functools.partial(jit, *args, **kwargs)
            jf = real_jit(fun, *args, **kwargs)
            try:
                site = runtime.site_for(fun, sys._getframe(1), "jit")
            except Exception:
                site = None
            if site is None or not hasattr(jf, "trace"):
                return jf
            return GuardedJit(runtime, site, jf, fun, kwargs)

        jit._retracelint_patched = True  # type: ignore[attr-defined]
        return jit

    def make_pmap(self, real_pmap: Any) -> Any:
        runtime = self

        @functools.wraps(real_pmap)
        def pmap(fun: Any = _NOT_GIVEN, /, *args: Any, **kwargs: Any) -> Any:
            if fun is _NOT_GIVEN:
                return functools.partial(pmap, *args, **kwargs)
            try:
                site = runtime.site_for(fun, sys._getframe(1), "pmap")
                counter = runtime.pmap_counter(fun) if site is not None else None
            except Exception:
                site = counter = None
            if site is None or counter is None:
                return real_pmap(fun, *args, **kwargs)
            pf = real_pmap(counter.fun, *args, **kwargs)
            return GuardedPmap(runtime, site, pf, counter, fun)

        pmap._retracelint_patched = True  # type: ignore[attr-defined]
        return pmap

    def patch(self, jax: Any) -> None:
        """Replace jax.jit and jax.pmap (once per process, whichever runtime gets there first)."""
        if self.patched or getattr(jax.jit, "_retracelint_patched", False):
            return
        if not self.attach(jax):
            return
        jax.jit = self.make_jit(jax.jit)
        jax.pmap = self.make_pmap(jax.pmap)
        self.patched = True
        self.writer.emit({"ev": "patched", "jax": getattr(jax, "__version__", "?")})

    def pmap_counter(self, fun: Any) -> _BodyCounter | None:
        # One counter per function, so that pmap(f) made twice still shares JAX's caches for f.
        import weakref

        if self._pmap_counters is None:
            self._pmap_counters = weakref.WeakKeyDictionary()
        try:
            counter = self._pmap_counters.get(fun)
            if counter is None:
                counter = self._pmap_counters[fun] = _BodyCounter(fun)
        except TypeError:
            return None
        return counter


# ---------------------------------------------------------------------------------------------
# Installation


class _JaxImportHook(importlib.abc.MetaPathFinder):
    """Patches jax right after ``import jax`` finishes, whoever imports it first."""

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
                runtime.patch(module)
            except Exception as exc:
                sys.stderr.write(f"retracelint: could not instrument jax: {exc}\n")

        loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def _on_sigterm(signum: int, frame: Any) -> None:
    if _runtime is not None:
        _runtime.finish()
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def install(plan: dict[str, Any], *, handle_sigterm: bool = False) -> Runtime:
    """Start guarding in this process (idempotent). `plan` has ``report`` (events file),
    ``guard`` ("flagged" or "all") and ``sites`` (see retracelint.confirm.plan)."""
    global _runtime
    if _runtime is not None:
        return _runtime
    runtime = _runtime = Runtime(plan)
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
        runtime.patch(jax)
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
