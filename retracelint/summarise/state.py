"""The state of the walk of one function body (or of a module's top level) and its driver; the
statements, expressions, calls and arrays parts of the interpreter extend it."""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from retracelint.model import Location
from retracelint.summarise.abstract import _export, _returned, _returned_at
from retracelint.summarise.apis import _TRACER_TYPES
from retracelint.summarise.branches import arm_key, leaves_call
from retracelint.summarise.closures import reads_name
from retracelint.summarise.loops import leaving_from
from retracelint.summarise.points import BodyNames, body_names, gives_points, holds_each_once
from retracelint.summarise.steady import steady
from retracelint.summarise.syntax import (
    Changed,
    OneExpression,
    _dotted,
    _leaves_for_eager,
    _set_guard,
    read_off_names,
)
from retracelint.summary import (
    Arg,
    Arm,
    ClassSummary,
    FunctionSummary,
    TraceContext,
)
from retracelint.values import (
    INSTANCE,
    PARAM_REF,
    TUPLE,
    UNKNOWN,
    ParamDep,
    ParamSrc,
    Src,
    Taint,
    Value,
    made_anew,
    objects_of,
    read_off,
)

if TYPE_CHECKING:
    from retracelint.summarise.module import _ModulePass
    from retracelint.summarise.sizes import _RangeLoop


@lru_cache(maxsize=4096)
def _parameter(name: str, annotation: str | None) -> Value:
    """A parameter's value where a walk starts: one per name and annotation (values are immutable),
    as the summaries keep it in every value made from it (the speed corpus walks 77,000 parameters
    of a few thousand names; their own sets were 16 MiB at the peak)."""
    return Value(
        ty=annotation or UNKNOWN,
        vsrc=frozenset({ParamSrc(name)}),
        deps=frozenset({ParamDep(name)}),
        ref=PARAM_REF + name,
    )


@cache
def handler_of(pass_class: type, kind: type, prefix: str) -> Callable[..., object] | None:
    """The method of ``pass_class`` that reads a node of class ``kind`` (``s_If``, ``e_Call``), None
    where there is none: looked up once per pair, as the walk asks about a million times on a large
    project, and building the method's name each time showed in profiles."""
    return getattr(pass_class, prefix + kind.__name__, None)


# Long enough that a test's text is never clipped: two tests alike in their first words are two.
_WHOLE = 1 << 20


class PassState:
    """Abstract interpretation of one function body (or the module's top level): the state of the
    walk and its driver. ``FunctionPass`` combines it with the parts that read each kind of node."""

    def __init__(
        self,
        mod: _ModulePass,
        fn: FunctionSummary,
        cls: ClassSummary | None,
        module_level: bool = False,
        enclosing: PassState | None = None,
    ) -> None:
        self.mod = mod
        self.fn = fn
        self.cls = cls
        self.module_level = module_level
        # The walk of the function this one is nested in (a closure reads its names).
        self.enclosing = enclosing
        # Inside the branch that fills a cache (``if key not in cache: ... cache[key] = made``).
        self.cache_misses = 0
        # Inside a block that runs only while a transform traces (``if isinstance(x, Tracer):``).
        self.tracing = 0
        # Inside the body of a ``try`` (whose handlers may catch what a statement raises).
        self.trying = 0
        # Inside the branch of ``if self.attr is None:`` (or ``if not self.attr:``): that attribute.
        self.unset = ""
        # Inside the branch of ``if fn is not self._fn: ...; self._fn = fn`` (``_changed_key``): ``fn``.
        self.unless_same = ""
        # Inside the branch of ``if t != new_t: t = new_t; ...`` (``syntax.changed_value``).
        self.changed: Changed | None = None
        # The arms of the ifs around the statement walked that one call of the function runs one of.
        self.arms: tuple[Arm, ...] = ()
        # Loops that do not repeat the branch being walked (``settled_by``): what it makes is new
        # per iteration of the others only.
        self.settled: frozenset[int] = frozenset()
        # Loops that do not repeat the calls of the branch being walked: those, and the loops a
        # local memo settles (``calls_settled_by``).
        self.calls_settled: frozenset[int] = frozenset()
        # Loops over a display of functions: the functions each turn calls through its variable.
        self.choosing: dict[int, frozenset[tuple[str, ...]]] = {}
        # The names the ifs around the statement being walked test for truth (``if mask:``).
        self.truth_tested: frozenset[str] = frozenset()
        # Loops over ``range(a, b)`` or ``enumerate(...)``: the name that counts their turns.
        self.counters: dict[int, str] = {}
        # functools.partial objects made here, by where: the arguments they bind, for their calls.
        self.partials: dict[str, tuple[tuple[Arg, ...], tuple[tuple[str, Arg], ...]]] = {}
        self.env: dict[str, Value] = {}
        self.loops: list[int] = []
        # The conditions of the ifs around the statement being walked, each with the loops around
        # that if: a list appended to under one grows by as many items as pass it.
        self.guards: list[tuple[int, frozenset[Src]]] = []
        self.ranges: dict[int, _RangeLoop] = {}
        # The chunk (RTL103) whose length each chunk atom stands for (``expressions._chunk_length``):
        # a slice as long as a chunk (``y[: len(chunk)]``) is short where the chunk is, not each time.
        self.chunks: dict[str, Taint] = {}
        # The span of a chunk clamped at the end (``x[i:stop]``, ``stop = min(i + bs, n)``) as
        # written from its bounds (``stop - i``), with the chunk atom it measures: a test or a pad
        # written from the bounds reads the chunk's length (``valid = stop - i``).
        self.chunk_spans: dict[
            frozenset[tuple[tuple[str, ...], int]], tuple[str, frozenset[Src]]
        ] = {}
        # The width of the chunks of a loop over a count of them rounded up (``range(ceil(n /
        # bs))``, ``x[i * bs:min((i + 1) * bs, n)]``), whose range has no step to tell it.
        self.chunk_widths: dict[int, tuple[tuple[tuple[str, ...], int], ...]] = {}
        self.walked: dict[int, Value] = {}  # per for loop: what it walks
        self.loop_ids: dict[int, int] = {}
        self.loop_nodes: dict[int, ast.AST] = {}  # each loop's statement, by its index
        self.defs: dict[str, ast.AST] = {}  # last expression assigned to a name (for range bounds)
        # A name last bound to an item of what an expression gives, unpacked (``_, state =
        # env.reset(key)``): that expression, where a state carried by a loop starts.
        self.unpacked: dict[str, ast.AST] = {}
        self.assigned: dict[int, set[str]] = {}  # per loop: the names its body assigns
        # A for loop's target bound to an item of a container (``rows`` in ``for k, rows in
        # self.log.items()``): that container, which grows when the item does.
        self.elements: dict[str, ast.expr] = {}
        self.bodies: dict[int, list[ast.stmt]] = {}  # per loop: its body
        # The ``if`` blocks a loop's first iteration surely runs (``first_pass_branch``).
        self.taken_first: set[ast.If] = set()
        self.body: list[ast.stmt] = []  # the whole body walked
        # The block of the statement being walked and where the statements after it start (a
        # store over and a nested def look ahead).
        self.block_rest: tuple[list[ast.stmt], int] = ([], 0)
        self._names: BodyNames | None = None  # what the body binds and resizes (``names``)
        # The locals whose bindings ``held_name`` is reading (``xs = [f(x) for x in xs]`` reads
        # its own name: no answer from there).
        self.reading_bindings: set[str] = set()
        self.recording = True
        # The index of each call recorded here, by its node: a sub-expression read again quietly
        # (the array whose length sizes another) still depends on what that call returns.
        self.recorded: dict[int, int] = {}
        # The call of its body a lax loop is recorded as, by the loop's node: made once, so that
        # each walk of the loop finds its record (``Calls.carry_loop``).
        self.carry_calls: dict[int, ast.Call] = {}
        # `x = f(x)` / `x = x[1:]` in a loop where x comes from the previous iteration: found in
        # the first, silent walk of the loop (x is marked carried there), kept for the second.
        self.carried_at: set[Location] = set()
        # Names bound to (an item of) a call's result in a loop's recorded walk: (name, call, item).
        self.call_binds: list[tuple[str, int, int | None, bool]] = []
        # Structure flips between two dicts (``batch = {}`` before a loop that stores
        # ``batch["x"] = ...``, a key stored in one branch): each side's keys, and how the flip is
        # said with ``{start}`` and ``{then}``, by flip.
        self.key_flips: dict[Taint, tuple[frozenset[str], frozenset[str], str]] = {}
        self.contexts: list[
            TraceContext
        ] = []  # trace-context managers around the current statement
        self.returns: Value | None = None
        # Each return statement's value and the conditions of the ifs around it.
        self.return_points: dict[Location, tuple[Value, frozenset[Src]]] = {}
        self.yields: Value | None = None
        # The nested defs made here that give one expression, by qualified name: a call of one here
        # is that expression, read here (a closure reads the names as they are at the call).
        self.one_expressions: dict[str, OneExpression] = {}
        # The nested defs of one ``return`` with parameters, as lambdas (``syntax.leaf_function``).
        self.leaf_functions: dict[str, ast.Lambda] = {}
        self.reading: set[str] = set()  # those being read now
        self.deferred: list[
            tuple[FunctionSummary, ast.FunctionDef | ast.AsyncFunctionDef, ClassSummary | None]
        ] = []
        # Nested defs walked when first named, as a closure runs after a name it reads is bound
        # again (``closures.bound_again_first``): each with how deep in blocks it was defined.
        self.late: list[tuple[int, FunctionSummary, ast.FunctionDef | ast.AsyncFunctionDef]] = []
        self.depth = 0
        for param in fn.params:
            self.env[param.name] = _parameter(param.name, param.annotation)
        if cls is not None and fn.kind in ("method", "classmethod") and fn.params:
            name = fn.params[0].name
            self.env[name] = Value(ty=INSTANCE, ref="<self>", objs=frozenset({name}))

    # -- driver -------------------------------------------------------------------------------------
    @property
    def names(self) -> BodyNames:
        """What the body walked binds and resizes: one walk per body, when first asked (a walk per
        question made summaries quadratic in a function's length)."""
        if self._names is None:
            self._names = body_names(self.body)
        return self._names

    def stores(self, name: str) -> int:
        """How many times the body walked binds ``name``."""
        return self.names.stores[name]

    def arm_of(self, node: ast.If) -> tuple[str, bool] | None:
        """The key of ``node``'s test and the arm its body is, where one call of the function
        runs one arm of it (``branches.arm_key``)."""

        def rebound(name: str) -> bool:
            again = self.stores(name) > (0 if self.fn.param(name) is not None else 1)
            return (
                again
                or name in self.fields_written()
                or any(name in self.assigned.get(loop, ()) for loop in self.loops)
                or any(name in self._loop_targets(loop) for loop in self.loops)
            )

        where = f"{node.lineno}:{node.col_offset}"
        return arm_key(node.test, rebound, bool(self.loops), where, self._whole_text)

    def _loop_targets(self, loop: int) -> frozenset[str]:
        """The names a ``for`` loop around binds at each iteration (``for i, t in ...``): each
        takes another value every time round."""
        node = self.loop_nodes.get(loop)
        if not isinstance(node, ast.For | ast.AsyncFor):
            return frozenset()
        return frozenset(n.id for n in ast.walk(node.target) if isinstance(n, ast.Name))

    def _whole_text(self, node: ast.AST) -> str:
        return self.mod.pos.text(node, _WHOLE)

    def resizes(self, name: str) -> bool:
        """Whether the body walked changes how many items ``name`` holds (``list.append``...)."""
        return name in self.names.resized

    def bound_display(self, name: str) -> ast.expr | None:
        """What ``name`` is bound to, where the source binds it once and nothing resizes it
        (``bound_once``), where that can give a sweep its points or holds each item once (a set:
        a loop over it walks distinct items)."""
        bound = self.defs.get(name)
        if not (gives_points(bound) or holds_each_once(bound) or name in self.mod.displays):
            return None  # nothing a sweep could read, whatever binds it: no walk of the body
        return self.bound_once(name)

    def bound_length(self, name: str) -> ast.expr | None:
        """What ``name`` is bound to where that is ``len(...)`` and bound once (``n = len(xs)``):
        the last binding is looked at first, so most names cost no walk of the body."""
        last = self.defs.get(name)
        if not (isinstance(last, ast.Call) and isinstance(last.func, ast.Name)):
            return None
        return self.bound_once(name) if last.func.id == "len" else None

    def bound_once(self, name: str) -> ast.expr | None:
        """What ``name`` is bound to, where the source binds it once and nothing resizes it: in
        this body (not a parameter: its callers say), else at the module's top level (a display
        there, ``_displays``)."""
        if any(param.name == name for param in self.fn.params):
            return None
        if self.stores(name):
            value = self.defs.get(name)
            if self.stores(name) != 1 or not isinstance(value, ast.expr):
                return None
            return None if self.resizes(name) else value
        return self.mod.displays.get(name)

    def run(self, body: list[ast.stmt], returns: str | None = None) -> None:
        self.body = body
        self._names = None
        self.fn.steady = steady(body, self.mod.loc)
        self.block(body)
        if returns and self.returns is not None and self.returns.ty == UNKNOWN:
            self.returns = self.returns.with_(ty=returns)
        self.fn.returned_refs = _returned(self.returns, self.yields)
        self.fn.returned_at = _returned_at(self.return_points)
        returns = None if self.returns is None else self.returned_flip(self.returns)  # type: ignore[attr-defined]
        self.fn.returns = _export(returns)
        self.fn.yields = _export(self.yields, item=True)
        if self.returns is not None and (objects_of(self.returns) or self.returns.ty == INSTANCE):
            self.fn.returned = self.object_refs(self.returns)  # type: ignore[attr-defined]
        if self.returns is not None and self.returns.ty == TUPLE:
            items = tuple(self.object_refs(item) for item in self.returns.items)  # type: ignore[attr-defined]
            self.fn.returned_items = items if any(items) else ()
        self.fn.loops.sort(key=lambda loop: loop.index)

    def block(self, body: list[ast.stmt]) -> None:
        outer_arms = self.arms
        self.depth += 1
        try:
            self._block(body)
            if self.late:
                # A late def never named in its block is walked as its block ends.
                self.walk_late(lambda depth, _: depth >= self.depth)
        finally:
            self.depth -= 1
            self.arms = outer_arms

    def walk_late(self, due: Callable[[int, str], bool]) -> None:
        """Walk the late nested defs ``due(depth, name)`` picks, with the names around as they
        are now."""
        now = [due(depth, node.name) for depth, _, node in self.late]
        walk = [item for item, due_now in zip(self.late, now, strict=True) if due_now]
        self.late = [item for item, due_now in zip(self.late, now, strict=True) if not due_now]
        for _, fn, node in walk:
            self.walk_function(fn, node, None, enclosing=self)  # type: ignore[attr-defined]

    def _block(self, body: list[ast.stmt]) -> None:
        once = leaving_from(body) if self.turns_again() else len(body)
        for at, stmt in enumerate(body):
            if self.late:
                self.walk_late(lambda _, name, read=stmt: reads_name(read, name))
            self.block_rest = (body, at + 1)
            if at >= once:
                self.statement_once(stmt)
            else:
                self.statement(stmt)
            if not self.trying:
                # What the statement read an attribute off is no None after it (None raised).
                for name in read_off_names(stmt) & self.env.keys():
                    self.env[name] = read_off(self.env[name])
            guard = _set_guard(stmt, body[at + 1 :])
            if guard:
                # `if self.step is not None: return`, then what sets it: the rest runs while the
                # attribute is unset, once per object, as under `if self.step is None:`.
                outer = self.unset
                self.unset = guard
                self.cache_misses += 1
                try:
                    self.block(body[at + 1 :])
                finally:
                    self.cache_misses -= 1
                    self.unset = outer
                return
            rest = self.arm_after(stmt)
            if rest is not None:
                # `if cfg.off_policy: return run(a, b, buffer)`, then `run(a, b)`: the rest is the
                # other arm of that test (``block`` puts the arms back when it ends).
                self.arms = (*self.arms, rest)
            if _leaves_for_eager(stmt, self.tracer_type):
                # `if not isinstance(x, Tracer): return ...`: the rest runs only under a trace.
                self.tracing += 1
                try:
                    self.block(body[at + 1 :])
                finally:
                    self.tracing -= 1
                return

    def fields_written(self) -> frozenset[str]:
        """The names the body stores a field or an item of (``self.done = True``, ``cfg["k"] =
        v``): a test that reads one may change between two ifs on it."""
        return self.names.fields_written

    def arm_after(self, stmt: ast.stmt) -> Arm | None:
        """The arm the statements after ``stmt`` are on, where ``stmt`` is an ``if`` one of whose
        arms ends the call and the other goes on."""
        if not isinstance(stmt, ast.If) or leaves_call(stmt.body) == leaves_call(stmt.orelse):
            return None
        key = self.arm_of(stmt)
        return None if key is None else Arm(key[0], key[1] != leaves_call(stmt.body))

    def tracer_type(self, node: ast.expr) -> bool:
        """Whether ``node`` names a type only values under a trace have (``jax.core.Tracer``)."""
        return self.mod.canonical(_dotted(node) or "") in _TRACER_TYPES

    def turns_again(self) -> bool:
        """Whether the innermost loop may run its body more than once (one that runs once, a body
        that leaves on its first pass, is counted so already)."""
        return bool(self.loops) and self.fn.loops[self.loops[-1]].count != 1

    def statement_once(self, stmt: ast.stmt) -> None:
        """A statement from which the innermost loop is left before its next turn (``leaving_from``):
        what it makes and calls is not repeated by that loop, even where a ``continue`` before it
        makes the loop turn again (``if s == 0: continue`` then ``return apply(lambda ...)``)."""
        loop = frozenset({self.loops[-1]})
        settled, calls = self.settled, self.calls_settled
        self.settled, self.calls_settled = settled | loop, calls | loop
        try:
            self.statement(stmt)
        finally:
            self.settled, self.calls_settled = settled, calls

    def statement(self, stmt: ast.stmt) -> None:
        handler = handler_of(type(self), type(stmt), "s_")
        if handler is not None:
            handler(self, stmt)
        else:
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.expr):
                    self.expr(child)

    def context_src(self) -> frozenset[Src]:
        """Where a freshly made object comes from: a new one per iteration, per call, or once."""
        return self.context_of(self.loops)

    def context_of(self, loops: list[int] | tuple[int, ...]) -> frozenset[Src]:
        """Where an object made under ``loops`` of this function comes from."""
        return made_anew([loop for loop in loops if loop not in self.settled], self.module_level)

    def loc(self, node: ast.AST) -> Location:
        return self.mod.loc(node)

    def quiet(self, node: ast.AST) -> Value:
        """Evaluate without recording call sites (for re-reading a sub-expression)."""
        was = self.recording
        self.recording = False
        try:
            return self.expr(node)
        finally:
            self.recording = was
