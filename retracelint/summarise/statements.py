"""Statements and control flow: assignment and binding, branches joined, loops walked twice to see
what an iteration carries, nested definitions, flips between the kinds a name takes."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING

from retracelint import funcrefs
from retracelint.jitspec import TRACE_CONTEXTS
from retracelint.model import Location
from retracelint.summarise.abstract import (
    _export,
    _kind_flip,
    _not_none,
    _plain,
    _unpacked,
    _value_callees,
    _weak_alternatives,
    _written_number,
)
from retracelint.summarise.apis import (
    _PARTIALS,
    CARRY_LOOPS,
    COMMAND_LINE,
    COMMAND_LINE_PARSERS,
    FOLDER_LISTING_METHODS,
    FOLDER_LISTINGS,
    HELD_ATTRIBUTES,
    ITEMS_OF_ARGUMENT,
    OPTION_SPLITTERS,
    RANGE_OF_ARGUMENTS,
    WALK_EVERY_ARGUMENT,
    WALK_SHORTEST_ARGUMENT,
    WALK_THEIR_ARGUMENTS,
)
from retracelint.summarise.closures import bound_again_first
from retracelint.summarise.loops import (
    _AXES,
    _after_loop,
    _carried_out,
    _element_aliases,
    _grows_itself,
    _joined,
    _jumps,
    _LoopNames,
    _made_in_iteration,
    _marked_fields,
    _one_pass,
    _refilled_per_period,
    _surely_runs,
    counted,
    first_pass_branch,
)
from retracelint.summarise.objects import field_initials
from retracelint.summarise.points import (
    distinct_items,
    is_numbered,
    numbered_name,
    spelled_points,
    walked_name,
)
from retracelint.summarise.sizes import (
    _add,
    _atoms_in,
    _iterations,
    _length_atom,
    _length_read,
    _min_call,
    _mul,
    _per_iteration,
    _substitute,
)
from retracelint.summarise.state import PassState
from retracelint.summarise.syntax import (
    ENDS_BLOCK,
    Changed,
    _annotation_type,
    _awaited_name,
    _cache_test,
    _changed_key,
    _clip,
    _definition,
    _dotted,
    _end_relative,
    _got_cache_test,
    _is_name,
    _local_memo,
    _none_test,
    _one_shot,
    _resets,
    _tracing_block,
    _unset_attribute,
    bound_names,
    changed_value,
    leaf_function,
    one_expression,
    stored_over,
)
from retracelint.summary import (
    Arg,
    Arm,
    Carried,
    ClassSummary,
    FunctionSummary,
    LoopInfo,
    TraceContext,
)
from retracelint.values import (
    ARRAY,
    CHOSEN_ANEW,
    CLASS,
    DICT,
    EMPTY,
    FUNCTION,
    INSTANCE,
    JIT,
    JIT_OUT,
    LIST,
    MAYBE_WEAK,
    NONE,
    NP_ARRAY,
    REBIND,
    SET,
    TRACED_DATA,
    TUPLE,
    UNKNOWN,
    UNKNOWN_VALUE,
    WEAK,
    AltSrc,
    CarrySrc,
    FieldSrc,
    ItemSrc,
    Length,
    LoopSrc,
    ParamShapeSrc,
    ParamSrc,
    RebindSrc,
    ResizeSrc,
    RetDep,
    RetSrc,
    Src,
    Taint,
    Value,
    axes_fixed,
    axis_lengths,
    constant_value,
    entry,
    join_returned,
    kinds_differ,
    placed,
    rows_of,
    structure_kind,
    weak_kind,
    weak_said,
    with_field,
)

if TYPE_CHECKING:
    from retracelint.summarise.sizes import Atoms, Poly


# What a caller passes (a parameter, its shape, an attribute of an object it passes): the same at
# every iteration of a loop of the function, which would mark it carried (``CarrySrc``) if it
# rebound it.
_FIXED_PER_CALL = (ParamSrc, ParamShapeSrc, FieldSrc)


def _fixed_in_a_loop(when: frozenset) -> bool:
    """Whether a condition that changes with ``when`` takes the same arm at every iteration."""
    return all(isinstance(source, _FIXED_PER_CALL) for source in when)


def _rows_of_call(walked: Value) -> bool:
    """Whether a loop walks exactly what a call of the project returns (``for g in
    period.games_of(name)``), not a view of it made by a builtin (``islice``, ``zip``)."""
    return len(walked.deps) == 1 and all(
        isinstance(d, RetDep) and d.aligned and not (axes_fixed(d) or d.each) and d.elem is None
        for d in walked.deps
    )


def _items_carried_through_calls(body: list[ast.stmt]) -> set[str]:
    """The names a loop body passes to a call and rebinds to one item of its result
    (``params, step = update(params, step)``)."""
    out: set[str] = set()
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        passed = {
            a.id
            for a in (*node.value.args, *(k.value for k in node.value.keywords))
            if isinstance(a, ast.Name)
        }
        for target in node.targets:
            if isinstance(target, ast.Tuple | ast.List):
                out |= {e.id for e in target.elts if isinstance(e, ast.Name) and e.id in passed}
    return out


def _is_range(node: ast.expr | None) -> bool:
    return (
        isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range"
    )


def _walked_calls(items: Value | None) -> tuple[int, ...]:
    """The calls whose whole results a loop walks (``LoopInfo.walks_calls``)."""
    if items is None:
        return ()
    return tuple(sorted({d.call for d in items.deps if isinstance(d, RetDep) and d.item is None}))


_COMPREHENSIONS = (ast.GeneratorExp, ast.ListComp, ast.SetComp)


def _configured_count(node: ast.AST) -> bool:
    """Whether ``node`` is a count a configuration holds (``config.continual.num_tasks``,
    ``cfg["n_models"]``, ``self.num_agents``) that numbers settings rather than measures the run
    (``_RUN_LENGTH``), or any count named as one of phases (``num_windows``, ``n_seeds``,
    ``config.num_time_windows``: ``_counts_phases``): ``range`` of it walks the same few values
    every run, a task or a model each."""
    if isinstance(node, ast.Name):
        return _counts_phases(node.id)
    last = ""
    while isinstance(node, ast.Attribute | ast.Subscript):
        if isinstance(node, ast.Subscript):
            key = node.slice
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                return False
            last = last or key.value
        else:
            last = last or node.attr
        node = node.value
    return bool(last) and isinstance(node, ast.Name) and names_settings(last)


def names_settings(name: str) -> bool:
    """Whether a configuration's ``name`` numbers or lists settings (``num_tasks``, ``mlp_dims``,
    ``num_time_windows``) rather than measures the run or its data (``_RUN_LENGTH``: ``max_steps``,
    ``batch_sizes``): the same few values every run. A bare count (``args.n``, ``cfg.num``) names
    nothing it counts: it may be the run's own length (the circuits a generator makes), so no
    bound (round 34 S1)."""
    if _bare_count(name):
        return False
    return _counts_phases(name) or not _RUN_LENGTH.search(name)


def _bare_count(name: str) -> bool:
    """Whether ``name`` is made only of count words (``n``, ``num``, ``N``, ``count``)."""
    words = _words(name)
    return bool(words) and all(word in _COUNT_WORDS for word in words)


def _counts_phases(name: str) -> bool:
    """Whether ``name`` is a count (``num_``, ``n_``, ``_count``) of what ``_PHASES`` names, by the
    word it counts: its last, or the last before ``per`` (``num_time_windows`` counts windows,
    ``epochs_per_stage`` epochs)."""
    counted = _counted_words(name, upto="per")
    return bool(counted) and _PHASES.fullmatch(counted[-1]) is not None


def _counted_words(name: str, upto: str = "") -> list[str]:
    """The words of ``name`` (up to the word ``upto``) that say what it counts, where it is named
    as a count (``num_``, ``n_``, ``_count``); else none."""
    words = _words(name)
    if upto in words:
        words = words[: words.index(upto)]
    counted = [w for w in words if w not in _COUNT_WORDS]
    return counted if len(counted) < len(words) else []


def _words(name: str) -> list[str]:
    """The words of ``name``, lower case (``numTimeWindows``, ``N_WARMUP``)."""
    return [w.lower() for w in re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)]


def _counts_settings(name: str) -> bool:
    """Whether ``name`` is a count (``N_``, ``NUM_``, ``_COUNT``) of something whose words name no
    run length (``_RUN_LENGTH``): ``N_WARMUP``, ``NUM_PLAYERS``, not ``NUM_STEPS`` or a bare ``N``."""
    counted = _counted_words(name)
    return bool(counted) and not _RUN_LENGTH.search("_".join(counted))


def _narrows(node: ast.expr, name: str) -> bool:
    """Whether ``node`` keeps some of the items of ``name`` and nothing else: a slice of it
    (``name[:k]``) or a comprehension that walks only it and yields its item
    (``[c for c in name if c.ok]``)."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
        return isinstance(node.value, ast.Name) and node.value.id == name
    if not isinstance(node, ast.ListComp) or len(node.generators) != 1:
        return False
    walked = node.generators[0]
    return (
        isinstance(walked.iter, ast.Name)
        and walked.iter.id == name
        and isinstance(walked.target, ast.Name)
        and isinstance(node.elt, ast.Name)
        and node.elt.id == walked.target.id
    )


def _known_count(items: Value | None) -> int | None:
    """How many items a list or tuple has, when its length is a known constant."""
    if items is None or items.ty not in (LIST, TUPLE) or items.dims is None:
        return None
    length = items.dims.length(0)
    if length is None or length.sources or length.atoms:
        return None
    return dict(length.terms).get((), 0)


# Calls that walk what they are given item for item (zip: each of its arguments, the others: the
# first), and a dict's views.
_DICT_VIEWS = frozenset({"items", "keys", "values"})
# Words of a count that measures how long a run goes or how much data it takes (``max_steps``,
# ``num_epochs``, ``seq_len``): a loop up to it is the run itself. Any other count a configuration
# gives (``num_tasks``, ``n_models``, ``num_seeds``) numbers a set of settings, the same each run.
_RUN_LENGTH = re.compile(
    r"step|iter|epoch|update|episode|batch|round|frame|sample|time|eval|trial|gen|tick|rollout"
    r"|len|pos|token|seq|horizon|size|loop|data|example|chunk|shard",
    re.IGNORECASE,
)
# What a count of phases of a program counts: each phase compiles what it builds once and then runs
# the steps of its own loop, so a loop over them repeats a few times per run however long it is
# (the time windows of a solver, the tasks of continual learning, the seeds or folds of an
# experiment). Read from the word counted, it wins over ``_RUN_LENGTH``'s other words of the name.
_PHASES = re.compile(
    r"(window|phase|stage|task|seed|fold|experiment|restart|repeat|repetition|config"
    r"|configuration|model|agent|level|run)s?"
)
# The words that say a name is a count rather than what it counts.
_COUNT_WORDS = frozenset({"n", "num", "number", "of", "count", "total", "max", "nb"})


class Statements(PassState):
    """Statements and control flow: assignment and binding, branches joined, loops walked twice to see"""

    # -- statements ---------------------------------------------------------------------------------
    def s_Expr(self, node: ast.Expr) -> None:
        self.expr(node.value)

    def s_Assign(self, node: ast.Assign) -> None:
        value = self.expr(node.value)
        # What a closure's call stands for is read as if written here, by the readers of syntax
        # too (what grows itself, a name's definition).
        source = self.closure_made(node.value)
        # A jit stored in an attribute and stored over before anything reads it is never called:
        # its store is not made.
        body, after = self.block_rest
        dead = stored_over(node, body[after:]) if value.site is not None else frozenset()
        for target in node.targets:
            if isinstance(target, ast.Attribute) and target.attr in dead:
                continue
            self.bind(target, value, source)
            self.note_call_bind(target, source)

    def passed_nodes(self, call: ast.Call) -> list[ast.expr]:
        """The arguments ``call`` passes, with those a ``functools.partial`` it calls binds
        (``partial(step, self.x)(y)``)."""
        nodes = [*call.args, *(k.value for k in call.keywords)]
        func = call.func
        if isinstance(func, ast.Call) and self.mod.canonical(_dotted(func.func) or "") in _PARTIALS:
            nodes += [*func.args[1:], *(k.value for k in func.keywords)]
        return nodes

    def note_call_bind(self, target: ast.expr, source: ast.expr) -> None:
        """``x = f(...)`` / ``a, x = f(...)`` in a loop: what ``x`` carries to the next iteration is
        what ``f`` returns, compared with what ``x`` started as once ``f`` is known."""
        source = self.closure_made(source)
        if not (self.recording and isinstance(source, ast.Call)):
            return
        # ``self.x = f(self.x)``, or an item of a tuple target (``self.x, y = f(self.x)``).
        items = list(enumerate(target.elts)) if isinstance(target, ast.Tuple) else [(None, target)]
        own = [(item, t) for item, t in items if self.carried_attribute(t)]
        if not (self.loops or own):
            return
        where = self.loc(source)
        calls = self.fn.calls
        index = next((i for i in range(len(calls) - 1, -1, -1) if calls[i].location == where), None)
        if index is None:
            return
        if own:
            passed = {self.mod.pos.text(a) for a in self.passed_nodes(source)}
            for item, attribute in own:
                text = self.mod.pos.text(attribute)
                if text in passed:
                    start = Arg(UNKNOWN_VALUE, self.loc(attribute), text)
                    self.fn.carried.append(Carried(text, start, index, item, None))
        elif not self.loops:
            return
        lax = self.mod.canonical(_dotted(source.func) or "") in CARRY_LOOPS
        if isinstance(target, ast.Name):
            self.call_binds.append((target.id, index, None, lax))
        elif isinstance(target, ast.Tuple) and not any(
            isinstance(e, ast.Starred) for e in target.elts
        ):
            self.call_binds.extend(
                (e.id, index, i, lax) for i, e in enumerate(target.elts) if isinstance(e, ast.Name)
            )

    def closure_made(self, source: ast.expr) -> ast.expr:
        """The expression a call of a closure made here that gives one expression stands for
        (``state = _make()``, ``_make`` returning ``step(state, x)``; through ``next(gen())`` and a
        dict of factories too): the call it makes is what binds the name (``Calls.one_expression_of``
        reads it in place)."""
        while isinstance(source, ast.Call):
            func = source.func
            generator = _dotted(func) == "next" and len(source.args) == 1
            made = source.args[0] if generator else source
            if not isinstance(made, ast.Call) or made.args or made.keywords:
                break
            callee = self.callee_ref(made.func)
            qualname = callee[1] if callee is not None and callee[0] == "qual" else ""
            body = self.one_expressions.get(qualname)
            if body is None or body.generator != generator:
                break
            source = body.expr
        return source

    def s_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.bind(node.target, self.expr(node.value), node.value)

    def s_AugAssign(self, node: ast.AugAssign) -> None:
        reads = isinstance(node.target, ast.Name | ast.Attribute)
        current = self.expr(node.target) if reads else UNKNOWN_VALUE
        rhs = self.expr(node.value)
        if isinstance(node.target, ast.Name):
            value = self.arith(current, rhs, node.op, (node.target, node.value), node)
            self.defs.pop(node.target.id, None)
            if (
                current.ty in (LIST, TUPLE)
                and isinstance(node.op, ast.Add)
                and self.loops
                and not self.sized_anew(node.target, value)
            ):
                value = self.grow(value, node, f"{node.target.id} += ...")
            self.env[node.target.id] = value
        elif isinstance(node.target, ast.Attribute):
            # `self.seen += 1` stores the old value plus one.
            self.bind(node.target, self.arith(current, rhs, node.op), node)
        else:
            self.bind(node.target, rhs, node.value)

    def s_Return(self, node: ast.Return) -> None:
        value = self.expr(node.value) if node.value is not None else Value(ty=NONE)
        if node.value is not None:
            value = self.resized_param(self.literals_made(value, node.value), node.value)
        self.returns = value if self.returns is None else join_returned(self.returns, value)
        made = self.made_here(node.value) if node.value is not None else None
        if made is not None:
            settings = (s.name for s in self.closure_settings(made) if isinstance(s, ParamSrc))
            self.fn.configures = tuple(sorted({*self.fn.configures, *settings}))
        guards = frozenset().union(*(when for _, when in self.guards))
        self.return_points[self.loc(node.value or node)] = (value, guards)

    def literals_made(self, value: Value, node: ast.expr) -> Value:
        """A Python number returned as written (``return 0, (params, moments)``) decides its weak
        type here: a caller that carries it into a jitted function that gives it back strong is
        told to change this line, not its own."""
        if isinstance(node, ast.Tuple | ast.List) and len(node.elts) == len(value.items):
            value = value.with_(items=tuple(map(self.literals_made, value.items, node.elts)))
        if value.ty in (TUPLE, LIST) and value.made is None and _container_written(node):
            # A plain tuple or list written here (``return n, mean``, ``tuple(parts)``) decides
            # its pytree node here: a state that starts as a NamedTuple and comes back as it is told
            # to change this line.
            return value.with_(made=self.loc(node))
        return placed(value, self.loc(node)) if _written_number(node, value) else value

    def resized_param(self, value: Value, node: ast.expr) -> Value:
        """A result that is a parameter one row longer (``concatenate([p, x[None]])``) or shorter
        (``p[1:]``) than it was given: a caller that keeps it in the argument's place resizes it."""
        if value.dims is None:
            return value
        made = set()
        for axis, length in enumerate(value.dims.lens):
            terms = length.poly if length is not None else {}
            atoms = [m for m in terms if m]
            delta = terms.get((), 0)
            if length is None or not delta or len(atoms) != 1 or len(atoms[0]) != 1:
                continue
            if terms[atoms[0]] != 1:
                continue
            sources = dict(length.atoms).get(atoms[0][0], EMPTY)
            names = {s.name for s in sources if isinstance(s, ParamShapeSrc)}
            if len(sources) == 1 and len(names) == 1:
                code = "RTL102" if delta > 0 else "RTL101"
                resize = frozenset({ResizeSrc(names.pop())})
                made.add(Taint(code, self.mod.pos.text(node), self.loc(node), resize, axis))
        return value.with_(shape=value.shape | made) if made else value

    def s_If(self, node: ast.If) -> None:
        condition = self.expr(node.test)  # a kind test's (``kind_tested``) is the operand's kind
        none_test = _none_test(node.test)
        full = self.full_chunk_test(node.test)
        clamped = self.clamp_test(node.test)
        refilled = self.refilled_by(node)
        unset = _unset_attribute(node.test)
        traced = _tracing_block(node.test, self.tracer_type)
        cached = _cache_test(node)
        if cached is None:
            cached = _got_cache_test(node, self.defs)
        self.branches(
            [node.body, node.orelse],
            none_test,
            condition,
            cached,
            full,
            unset,
            self.settled_by(node),
            traced,
            self.calls_settled_by(node),
            refilled,
            _truth_tested(node.test),
            _changed_key(node),
            self.arm_of(node),
            clamped,
            bound_names(node.body, "targets") if node in self.taken_first else frozenset(),
            self.change_guard(node),
        )
        dropped = self.short_chunk_dropped(node)
        if dropped is not None:
            chunked, flag = dropped
            self.env = {name: _dropped_chunks(v, chunked, flag) for name, v in self.env.items()}
        if self.loops and condition.vsrc and _skips_the_rest(node):
            # `if snr(trace) < cut: continue`: the rest of the iteration runs as the test says, as
            # if under it (``iteration`` drops the guard when the body's walk ends).
            self.guards.append((len(self.loops), condition.vsrc))

    def refilled_by(self, node: ast.If) -> frozenset[str]:
        """The lists the body of ``node`` gets at one length every time, though the innermost loop
        appends to them (``_refilled_per_period``)."""
        if not self.loops:
            return frozenset()
        index = self.loops[-1]
        return _refilled_per_period(
            node, self.bodies.get(index, []), self.counters.get(index), self.assigned[index]
        )

    def change_guard(self, node: ast.If) -> Changed | None:
        """``changed_value`` of ``node``, where the name that keeps the last value keeps it from
        one run of the block to the next: an attribute, or a local that a loop around carries (no
        statement of the loop's body outside the block rebinds it)."""
        changed = changed_value(node)
        if changed is None or changed.value is None or self.quiet(changed.value).ty in TRACED_DATA:
            return None  # a new rate or array per change: data a jit built once would take
        if "." in changed.kept:
            return changed
        carried = any(not _resets(self.bodies[loop], changed.kept, node) for loop in self.loops)
        return changed if carried else None

    def settled_by(self, node: ast.If) -> frozenset[int]:
        """The loops around ``node`` that do not repeat its body: it sets the name its test needs
        unset (``if not rebuilt: ...; rebuilt = True``) and they never reset it, so it runs at most
        once per iteration of the loops that do (or per call of the function)."""
        name = _one_shot(node) if self.loops else None
        if name is None:
            return frozenset()
        return frozenset(
            loop for loop in self.loops if not _resets(self.bodies[loop], name.id, node)
        )

    def calls_settled_by(self, node: ast.If) -> frozenset[int]:
        """The loops around ``node`` that do not repeat the calls its body makes: those of a one-shot
        flag (``settled_by``), and those of a local memo that sets the name it tests (``if policy
        is None: policy = Policy(model)``) and that they never reset: a constructor or factory
        called there runs once per call of the function (a policy built once, not per task)."""
        name = _local_memo(node) if self.loops else None
        memo = frozenset(
            loop for loop in self.loops if name and not _resets(self.bodies[loop], name.id, node)
        )
        return self.settled_by(node) | memo

    def short_chunk_dropped(
        self, node: ast.If
    ) -> tuple[frozenset[frozenset[Src]], tuple[str, Value] | None] | None:
        """``if len(idx) < bs: return`` (``continue``, ``break``, ``raise``): the statements after it
        see only the full chunks of the loops it measures. With a flag besides (``if self.drop_last
        and len(idx) < bs:``, a loader's option), only when the flag is true: the function and the
        flag's value, read where the callers make it; an option nothing reads drops nothing."""
        if node.orelse or not isinstance(node.body[-1], ENDS_BLOCK):
            return None
        test = node.test
        parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else []
        for part in parts or [test]:
            full = self.full_chunk_test(part)
            if full is None or full[1] != 1:
                continue
            others = [p for p in parts if p is not part]
            if not others:
                return full[0], None
            flag = self.quiet(others[0]) if len(others) == 1 else None
            if flag is None or (flag.param is None and not flag.objs):
                return None
            return full[0], (self.fn.qualname, _plain(flag))
        return None

    def full_chunk_test(self, test: ast.expr) -> tuple[frozenset[frozenset[Src]], int] | None:
        """``if len(batch) < size:`` before padding the last chunk, ``if x.shape[0] != size``: the
        block in which the chunk measured is full (its length is the chunk's width), and the loops
        whose short last chunk that rules out there, for every array sliced by them."""
        if not isinstance(test, ast.Compare) or len(test.ops) != 1:
            return None
        sides = (test.left, test.comparators[0])
        for mirrored, (measured, width) in enumerate((sides, sides[::-1])):
            atoms: Atoms = {}
            read = _length_read(_definition(measured, self.defs))
            if read is not None:
                array, axis = read
                taints = [t for t in self.quiet(array).shape if t.axis in (axis, None)]
            else:  # the chunk measured by its bounds (``valid = stop - start``)
                measures = self.chunks.get(_one_atom(self.poly(measured, atoms)) or "")
                taints = [measures] if measures is not None else []
            chunked = frozenset(
                t.sources
                for t in taints
                if t.code == "RTL103" and self.chunk_width(t, atoms) == self.poly(width, atoms)
            )
            if not chunked:
                continue
            op = type(test.ops[0])
            full = _FULL_WHEN.get(_MIRRORED.get(op, op) if mirrored else op)
            return (chunked, full) if full is not None else None
        return None

    def clamp_test(self, test: ast.expr) -> tuple[str, Length, ast.expr, int] | None:
        """The block in which a length or size is known to be ``k``: ``if len(x) == k:`` (``!=``:
        the other block), and ``if n < k:`` of an ``n = min(..., k, ...)``, never more than ``k``
        (``!=``, ``==``, ``>=``, mirrored); with the atom it stands for and ``k``'s length: an
        array given back as it is when it has ``k`` rows, or a chunk trimmed to ``n``, is ``k``
        long where the padding is skipped."""
        if not isinstance(test, ast.Compare) or len(test.ops) != 1:
            return None
        op = type(test.ops[0])
        sides = (test.left, test.comparators[0])
        for mirrored, (measured, bound) in enumerate((sides, sides[::-1])):
            clamp = _min_call(measured, self.defs) if isinstance(measured, ast.Name) else None
            read = _length_read(_definition(measured, self.defs))
            if clamp is None and (read is None or op not in (ast.Eq, ast.NotEq)):
                continue
            atoms: Atoms = {}
            limit = self.poly(bound, atoms)
            name = _one_atom(self.poly(measured, atoms))
            if name is None or name in _atoms_in(limit):
                continue
            if clamp is not None and not any(self.poly(a, atoms) == limit for a in clamp.args):
                continue
            arm = _FULL_WHEN.get(_MIRRORED.get(op, op) if mirrored else op)
            return (name, self.length(limit, atoms), test, arm) if arm is not None else None
        return None

    def narrowed_env(self, atom: str, length: Length, test: ast.expr) -> dict[str, Value]:
        """The environment where ``atom`` is ``length`` (``clamp_test``), and the array whose
        length the test reads (``if x.shape[0] == k:``), known or not, that long."""
        env = {name: self.narrowed(value, atom, length) for name, value in self.env.items()}
        for side in (test.left, *test.comparators) if isinstance(test, ast.Compare) else ():
            read = _length_read(side)
            if read is not None and isinstance(read[0], ast.Name) and read[0].id in env:
                name, axis = read[0].id, read[1]
                env[name] = self.with_length(env[name], axis, length)
        return env

    def narrowed(self, value: Value, atom: str, length: Length) -> Value:
        """``value`` where atom ``atom`` is ``length`` (``clamp_test``): each axis whose length
        holds it, that long, and what changed it before only as far as it still moves it."""
        if value.dims is None:
            return value
        for axis, known in enumerate(value.dims.lens):
            if known is None or atom not in _atoms_in(known.poly):
                continue
            poly = _substitute(known.poly, atom, length.poly)
            if poly is not None:
                atoms: Atoms = {**dict(known.atoms), **dict(length.atoms)}
                value = self.with_length(value, axis, self.length(poly, atoms))
        return value

    def s_Try(self, node: ast.Try) -> None:
        self.trying += 1
        try:
            self.block(node.body)
        finally:
            self.trying -= 1
        self.branches([h.body for h in node.handlers] + [node.orelse])
        self.block(node.finalbody)

    s_TryStar = s_Try

    def s_With(self, node: ast.With) -> None:
        depth = len(self.contexts)
        for item in node.items:
            value = self.expr(item.context_expr)
            if item.optional_vars is not None:
                self.bind(item.optional_vars, value, item.context_expr)
            context = self.trace_context(item.context_expr)
            if context is not None:
                self.contexts.append(context)
        self.block(node.body)
        del self.contexts[depth:]

    def trace_context(self, node: ast.expr) -> TraceContext | None:
        """``jax.default_matmul_precision("float32")`` and the other context managers whose setting
        is part of jit's trace cache key (``jitspec.TRACE_CONTEXTS``)."""
        if not isinstance(node, ast.Call):
            return None
        name = self.mod.canonical(_dotted(node.func) or "")
        spec = TRACE_CONTEXTS.get(name)
        if spec is None:
            return None
        given = node.args[0] if node.args else next((k.value for k in node.keywords), None)
        if given is None:
            setting = spec.bare or ""
        else:
            try:
                setting = repr(ast.literal_eval(given))
            except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
                setting = self.mod.pos.text(given)
        varies = self.quiet(given).vsrc if given is not None else EMPTY
        return TraceContext(name, setting, self.loc(node), self.mod.pos.text(node), varies)

    s_AsyncWith = s_With

    def s_Match(self, node: ast.Match) -> None:
        self.expr(node.subject)
        self.branches([case.body for case in node.cases] + [[]])

    def chunk_width(self, taint: Taint, atoms: Atoms) -> Poly | None:
        """The width of the chunks of a range loop that ``taint`` (RTL103) says the last of can be
        shorter: the loop's step."""
        loop = next(iter(taint.sources)) if len(taint.sources) == 1 else None
        info = self.ranges.get(loop.index) if isinstance(loop, LoopSrc) else None
        if info is not None and info.step is None and loop.index in self.chunk_widths:  # type: ignore[union-attr]
            return dict(self.chunk_widths[loop.index])  # type: ignore[union-attr]
        return self.poly(info.step, atoms) if info is not None and info.step is not None else None

    def branches(
        self,
        blocks: list[list[ast.stmt]],
        not_none: tuple[str, int] | None = None,
        condition: Value | None = None,
        cached: int | None = None,
        full: tuple[frozenset[frozenset[Src]], int] | None = None,
        unset: str = "",
        settled: frozenset[int] = frozenset(),
        traced: int | None = None,
        calls_settled: frozenset[int] = frozenset(),
        refilled: frozenset[str] = frozenset(),
        truth_tested: frozenset[str] = frozenset(),
        keyed: str = "",
        arm: tuple[str, bool] | None = None,
        clamped: tuple[str, Length, ast.expr, int] | None = None,
        taken: frozenset[str] = frozenset(),
        changed: Changed | None = None,
    ) -> None:
        """Walk each block from the same environment and join what they leave. ``not_none``: a name
        and the block in which a test (``x is not None``) says it is not None; ``cached``: the block
        that makes what a cache keeps (once per key); ``full``: the loops whose chunks are full in
        a block (``full_chunk_test``); ``unset``: the attribute the first block runs while unset
        (``_unset_attribute``); ``settled``: the loops that do not repeat the first block
        (``settled_by``); ``traced``: the block that runs only under a trace (``_tracing_block``);
        ``calls_settled``: the loops that do not repeat the calls of the first block; ``refilled``:
        the lists the first block gets at one length, whatever the innermost loop appends;
        ``truth_tested``: the names the first block runs only when true (``if mask:``);
        ``keyed``: the name whose change alone runs the first block (``_changed_key``); ``arm``: the
        key of an ``if``'s test one call runs one block of, and the arm the first block is;
        ``clamped``: an atom, its length, the test and the block where it has it (``clamp_test``);
        ``taken``: the names the first block binds, which a loop's first iteration runs
        (``taken_first``): past the blocks they hold what it binds; ``changed``: the value whose
        change alone runs the first block, and what it makes from it (``change_guard``)."""
        outer = self.unset
        outer_arms = self.arms
        outer_same = self.unless_same
        outer_changed = self.changed
        outer_settled = self.settled
        outer_calls = self.calls_settled
        outer_tested = self.truth_tested
        before = self.env
        made_before = self.defs
        results = []
        made: list[dict[str, ast.AST]] = []
        if condition is not None:
            self.guards.append((len(self.loops), condition.vsrc))
        for i, block in enumerate(blocks):
            self.env = dict(before)
            self.defs = dict(made_before)
            if not_none is not None and not_none[1] == i and not_none[0] in self.env:
                self.env[not_none[0]] = _not_none(self.env[not_none[0]])
            if full is not None and full[1] == i:
                self.env = {name: _full_chunks(v, full[0]) for name, v in self.env.items()}
            if clamped is not None and clamped[3] == i:
                self.env = self.narrowed_env(*clamped[:3])
            if refilled and i == 0:
                grown = LoopSrc(self.loops[-1])
                for name in refilled & self.env.keys():
                    self.env[name] = _ungrown(self.env[name], grown)
            self.cache_misses += cached == i
            self.tracing += traced == i
            self.unset = unset if unset and i == 0 else outer
            self.unless_same = keyed if keyed and i == 0 else outer_same
            self.changed = changed if changed is not None and i == 0 else outer_changed
            self.settled = outer_settled | settled if i == 0 else outer_settled
            self.calls_settled = outer_calls | calls_settled if i == 0 else outer_calls
            self.truth_tested = outer_tested | truth_tested if i == 0 else outer_tested
            if arm is not None:
                self.arms = (*outer_arms, Arm(arm[0], arm[1] == (i == 0)))
            self.block(block)
            if clamped is not None and clamped[3] == i:
                self.env = self.narrowed_env(*clamped[:3])
            self.cache_misses -= cached == i
            self.tracing -= traced == i
            self.unset = outer
            self.unless_same = outer_same
            self.changed = outer_changed
            self.settled = outer_settled
            self.calls_settled = outer_calls
            self.truth_tested = outer_tested
            self.arms = outer_arms
            results.append(self.env)
            made.append(self.defs)
        if condition is not None:
            self.guards.pop()
        merged = results[0]
        for env in results[1:]:
            merged = _joined(merged, env)
        # Past a block the loop's first iteration runs, what it binds is what it bound.
        self.env = {**merged, **{k: results[0][k] for k in taken & results[0].keys()}}
        self.defs = {k: v for defs in made for k, v in defs.items()}
        if condition is not None and (condition.vsrc or self.loops):
            self.note_branch_flips(results, made, made_before, condition.vsrc)

    def note_branch_flips(
        self,
        results: list[dict[str, Value]],
        made: list[dict[str, ast.AST]],
        made_before: dict[str, ast.AST],
        when: frozenset,
    ) -> None:
        """A name that one branch binds to one kind of value and another to another kind (a Python
        float here, an array there, a dict that gains a key), under a condition that changes between
        executions, passes two signatures to a jitted function: the finding goes where the odd
        branch's value is made. So does one a loop carries into the branch (``thr = 1.0`` before
        the loop, ``if robust: thr = jnp.mean(...)`` in it), whatever the condition: the iteration
        after the branch rebinds it passes the other kind."""
        first_env, others = results[0], results[1:]
        # Most names no branch rebinds: the same value object in each, nothing to compare.
        changed = {
            name
            for env in others
            for name, value in env.items()
            if name in first_env and first_env[name] is not value
        }
        rebound = sorted(name for name in changed if all(name in env for env in others))
        for name in rebound:
            values = [env[name] for env in results]
            for other, value in enumerate(values[1:], start=1):
                if value is values[0]:
                    continue  # neither branch changed it
                flip = _kind_flip(values[0], value, self.mod.summary.x64)
                alternatives: AltSrc | None = None
                if flip is None:
                    alternatives = self.weak_alternatives(name, values[0], value, made, other)
                    if alternatives is None:
                        continue
                    flip = (MAYBE_WEAK, "{start}", "{then}")
                code, first, then = flip
                # The odd one is the weak scalar or the None, where there is one; else the branch
                # that changed the name (the `d["k"] = v` that only one branch runs).
                if then in (WEAK, "None"):
                    odd = other
                elif first in (WEAK, "None") or made[0].get(name) is not made_before.get(name):
                    odd = 0
                else:
                    odd = other
                node = made[odd].get(name) or made[other - odd].get(name)
                if node is None:
                    continue
                said = (
                    f"{name} is {{start}} in one branch and {{then}} in another, the branch "
                    + CHOSEN_ANEW
                )
                # The branch that leaves the name as it was, holding what the last iteration left.
                kept = [
                    made[i].get(name) is made_before.get(name) and CarrySrc(name) in v.vsrc
                    for i, v in ((0, values[0]), (other, value))
                ]
                if self.loops and any(kept) and not all(kept):
                    changer = made[other if kept[0] else 0].get(name)
                    if _fixed_in_a_loop(when) and not self.read_before(name, changer):
                        # The condition takes one arm for the whole loop, and nothing reads the name
                        # before that arm rebinds it: every iteration passes one kind.
                        continue
                    sources = when | {LoopSrc(self.loops[-1])}
                    start, changed = ("{start}", "{then}") if kept[0] else ("{then}", "{start}")
                    said = f"{name} starts as {start} and a branch in the loop makes it {changed}"
                elif when:
                    sources = when
                else:
                    continue
                if alternatives is not None:
                    sources |= {alternatives}
                taint = Taint(
                    code,
                    said.format(start=weak_said(first, values[0]), then=weak_said(then, value)),
                    self.loc(node),
                    sources,
                )
                self.env[name] = self.env[name].with_(shape=self.env[name].shape | {taint})
                self.note_key_flip(taint, values[0], value, said)
                break

    def read_before(self, name: str, bound: ast.AST | None) -> bool:
        """Whether the innermost loop reads ``name`` before ``bound`` (where a branch rebinds it) in
        its source, its header included: such a read sees what the last iteration left. A dotted
        name (an attribute) or an unknown place: taken as read."""
        loop = self.loop_nodes.get(self.loops[-1])
        if loop is None or bound is None or "." in name:
            return True
        at = (bound.lineno, bound.col_offset)
        return any(
            isinstance(node, ast.Name)
            and node.id == name
            and isinstance(node.ctx, ast.Load)
            and (node.lineno, node.col_offset) < at
            for node in ast.walk(loop)
        )

    def weak_alternatives(
        self, name: str, first: Value, then: Value, made: list[dict[str, ast.AST]], other: int
    ) -> AltSrc | None:
        """Two values a branch binds ``name`` to whose weak types only the callers or callees tell
        (``MAYBE_WEAK``), and where each branch binds it."""
        first_node, then_node = made[0].get(name), made[other].get(name)
        if first_node is None or then_node is None:
            return None
        return _weak_alternatives(
            self.fn.qualname, name, first, self.loc(first_node), then, self.loc(then_node)
        )

    def returned_flip(self, returns: Value) -> Value:
        """What the function returns, with the weak-type flip between two of its returns when the
        path taken changes with what is passed (``if step < warmup: return base * step / warmup``,
        then ``return cosine(count, base, total)``): a caller that passes what changes per
        iteration gets both kinds, each a cache entry of a jitted function it hands them to."""
        points = list(self.return_points.items())
        when = frozenset().union(*(guards for _, (_, guards) in points))
        if len(points) < 2 or not when:
            return returns
        said = (
            f"{self.fn.name}() returns {{start}} on one path and {{then}} on another, the path "
            + CHOSEN_ANEW
        )
        (first_at, (first, _)), rest = points[0], points[1:]
        for at, (value, _) in rest:
            a, b = weak_kind(first), weak_kind(value)
            if kinds_differ(a, b):
                odd = first_at if a == WEAK else at
                taint = Taint(
                    "RTL401",
                    said.format(start=weak_said(a, first), then=weak_said(b, value)),
                    odd,
                    when,
                )
            else:
                found = _weak_alternatives(self.fn.qualname, "result", first, first_at, value, at)
                if found is None:
                    continue
                taint = Taint(MAYBE_WEAK, said, first_at, when | {found})
            return returns.with_(shape=returns.shape | {taint})
        return returns

    def s_For(self, node: ast.For) -> None:
        iterable = self.expr(node.iter)
        source = self.items_source(node.iter)
        if source is not node.iter:
            iterable = self.quiet(source)
        item = self.only_item(source, iterable)
        if item is not None:
            # `for res in [224]:`, `for i, stage in enumerate(("eval",)):`: one turn, no loop;
            # nothing changes from one iteration to the next.
            self.bind(node.target, item, None)
            self.block(node.body)
            self.block(node.orelse)
            return
        index = self.new_loop(
            node,
            f"for {ast.unparse(node.target)} in {self.mod.pos.text(node.iter)}",
            items=iterable,
        )
        self.note_range(index, node.target, source)
        made = funcrefs.element(self.protocol_refs(iterable, source, "__iter__"), funcrefs.ITER)
        # The functions the items are or hold anywhere inside (`for name, test in tests: test()`).
        choices = {c for _, c in funcrefs.element(iterable.callables, funcrefs.ITER, deep=())}
        if len(choices) > 1:
            # `for f in (a, b): f()` calls each function once per walk of the loop, not per turn.
            self.choosing[index] = frozenset(choices)

        self.walked[index] = iterable
        counter = _counter(node.target, source, self.mod.canonical)
        if counter:
            self.counters[index] = counter

        def bind_target() -> None:
            item = self.item_of(iterable, index, source)
            refs = funcrefs.union(made, self.protocol_refs(iterable, source, "__next__"))
            if refs:
                item = item.with_(callables=funcrefs.union(item.callables, refs))
            self.bind(node.target, item, None)

        aliases = _element_aliases(node)
        outer = {name: self.elements.pop(name, None) for name in aliases}
        self.elements.update(aliases)
        self.loop(index, node.body, bind_target, node)
        for name, held in outer.items():
            if held is None:
                self.elements.pop(name, None)
            else:
                self.elements[name] = held
        self.block(node.orelse)

    s_AsyncFor = s_For

    def items_source(self, node: ast.expr) -> ast.expr:
        """What a loop over ``node`` takes its items from: the argument of an iterable that yields
        its argument's items (``ITEMS_OF_ARGUMENT``: ``tqdm.tqdm(runs, desc=...)``, ``sorted(d)``),
        through any number of them; ``range`` of the arguments of a range with a progress bar
        (``RANGE_OF_ARGUMENTS``: ``tqdm.trange(n, desc=...)``, made here at its place); else ``node``."""
        while (
            isinstance(node, ast.Call)
            and len(node.args) == 1
            and not isinstance(node.args[0], ast.Starred)
            and self.mod.canonical(_dotted(node.func) or "") in ITEMS_OF_ARGUMENT
        ):
            node = node.args[0]
        if (
            isinstance(node, ast.Call)
            and node.args
            and self.mod.canonical(_dotted(node.func) or "") in RANGE_OF_ARGUMENTS
        ):
            bare = ast.Call(func=ast.Name("range", ast.Load()), args=node.args, keywords=[])
            return ast.copy_location(bare, node)
        return node

    def only_item(self, node: ast.expr, iterable: Value) -> Value | None:
        """The one item a loop over ``node`` takes, when it surely has exactly one: a list or tuple
        of one item (a display, or a name bound to one), or ``enumerate`` of one (index 0)."""
        if (
            isinstance(node, ast.Call)
            and self.mod.canonical(_dotted(node.func) or "") == "enumerate"
            and len(node.args) == 1
            and not node.keywords
        ):
            inner = self.only_item(node.args[0], self.quiet(node.args[0]))
            return None if inner is None else Value(ty=TUPLE, items=(constant_value(0), inner))
        if iterable.ty not in (LIST, TUPLE) or len(iterable.items) != 1:
            return None
        length = iterable.dims.length(0) if iterable.dims is not None else None
        if length is None or length.constant != 1:
            return None
        return iterable.items[0]

    def protocol_refs(self, iterable: Value, node: ast.AST, method: str) -> frozenset:
        """Iterating an instance of a class calls its ``__iter__`` once, then ``__next__`` for each
        item: what they return is what the loop binds."""
        if iterable.ty != INSTANCE or not iterable.ref or not self.recording:
            return EMPTY
        receiver = Arg(_plain(iterable), self.loc(node), self.mod.pos.text(node))
        if iterable.ref == "<self>":
            callee: tuple[str, ...] = ("self", "", method)
        else:
            callee = ("method", iterable.ref, method)
        index = self.add_call([callee], (), (), node, receiver=receiver)
        return funcrefs.single(("ret", str(index)))

    def s_While(self, node: ast.While) -> None:
        index = self.new_loop(node, f"while {self.mod.pos.text(node.test)}")
        self.loop(index, node.body, lambda: self.expr(node.test))
        self.block(node.orelse)

    def new_loop(
        self,
        node: ast.AST,
        text: str,
        location: Location | None = None,
        items: Value | None = None,
    ) -> int:
        """The index of a loop; ``items``: what it walks, when its length may be known (a list
        constant of the module: as few iterations as it has items)."""
        # Enclosing loops walk their body twice: the same loop statement keeps its index.
        index = self.loop_ids.get(id(node))
        if index is None:
            index = self.loop_ids[id(node)] = len(self.fn.loops)
            self.loop_nodes[index] = node
            iterable = getattr(node, "iter", None)
            iterable = self.items_source(iterable) if iterable is not None else None
            over_axes = iterable is not None and _AXES.search(ast.unparse(iterable)) is not None
            where = location or self.loc(node)
            body = getattr(node, "body", None)
            # A body that leaves on its first pass runs once, whatever the loop walks.
            until = _awaited_name(node.test) if isinstance(node, ast.While) else ""
            once = isinstance(body, list) and _one_pass(body, until)
            points = spelled_points(iterable, self.bound_display) if iterable is not None else None
            # ``range(num_runs)`` of a name bound once to a literal counts as its range does.
            numbered = is_numbered(iterable, self.bound_display)
            spelled = points.count if points is not None and numbered else None
            count = 1 if once else _iterations(iterable) or _known_count(items) or spelled
            over_items = iterable is not None and self.walks_items(iterable, items)
            walks = self.own_attribute(iterable) if not over_items else ""
            calls = (
                _walked_calls(self.walked_value(iterable, items))
                if not (over_items or walks)
                else ()
            )
            runs_on = isinstance(node, ast.While) or _is_range(iterable)
            self.fn.loops.append(
                LoopInfo(
                    index,
                    where,
                    text,
                    over_axes,
                    count,
                    over_items,
                    walks,
                    calls,
                    runs_on,
                    points,
                    walked_name(getattr(node, "iter", None)),
                    distinct_items(iterable, self.bound_display),
                    numbered_name(getattr(node, "iter", None), self.bound_length),
                )
            )
        return index

    def walked_value(self, node: ast.expr | None, items: Value | None) -> Value | None:
        """What a loop over ``node`` walks the items of: ``items``, or the one argument of a call
        that walks its argument's items (``enumerate(configurations)``, ``sorted(runs)``)."""
        walked = self.walked_node(node)
        return items if walked is node or walked is None else self.quiet(walked)

    def walked_node(self, node: ast.expr | None) -> ast.expr | None:
        """The one argument of a call that walks its argument's items (``enumerate(self.layers)``,
        ``sorted(runs)``), else ``node``."""
        if (
            isinstance(node, ast.Call)
            and len(node.args) == 1
            and not isinstance(node.args[0], ast.Starred)
            and self.mod.canonical(_dotted(node.func) or "") in WALK_THEIR_ARGUMENTS
        ):
            return node.args[0]
        return node

    def constant_count(self, node: ast.expr) -> bool:
        """Whether ``node`` is a count made only of module constants (names bound once to an int
        literal) and literals, each constant named as a count of something that is no run length
        (``range(N_WARMUP + N_PROFILED)`` of a profiling script, ``range(NUM_PLAYERS)``): the same
        repetitions every run, however long each is (``NUM_STEPS`` is the run itself)."""
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mult):
            parts = (node.left, node.right)
            literal = [p for p in parts if isinstance(p, ast.Constant) and type(p.value) is int]
            # A literal alone is counted as it is (``LoopInfo.count``): one of the parts is named.
            return len(literal) < 2 and all(
                self.constant_count(p) for p in parts if p not in literal
            )
        return (
            isinstance(node, ast.Name)
            and node.id in self.mod.summary.constants
            and node.id not in self.defs
            and not any(param.name == node.id for param in self.fn.params)
            and _counts_settings(node.id)
        )

    def own_attribute(self, node: ast.expr | None) -> str:
        """``attr`` for ``self.attr`` in a method (``self``: its first parameter), else empty."""
        if self.cls is None or not self.fn.params or not isinstance(node, ast.Attribute):
            return ""
        owner = node.value
        return (
            node.attr if isinstance(owner, ast.Name) and owner.id == self.fn.params[0].name else ""
        )

    def carried_attribute(self, node: ast.expr) -> bool:
        """Whether ``node`` is an attribute a store may carry from one call to the next: of ``self``
        (``self.total``), or of an object reached from a parameter (``self.eq.q_spline``,
        ``eq.q_spline``), which starts as what its class stores there."""
        if self.own_attribute(node) or not isinstance(node, ast.Attribute):
            return bool(self.own_attribute(node))
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and any(p.name == node.id for p in self.fn.params)

    def walks_items(self, node: ast.expr, value: Value | None = None, follow: bool = True) -> bool:
        """Whether iterating ``node`` walks a collection held in memory (``LoopInfo.over_items``);
        ``follow``: whether a name may be followed to the comprehension bound to it (once: ``xs =
        [f(x) for x in xs]`` names itself)."""
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in _DICT_VIEWS and not node.args:
                return True
            name = self.mod.canonical(_dotted(func) or "")
            if name in FOLDER_LISTINGS or (
                isinstance(func, ast.Attribute) and func.attr in FOLDER_LISTING_METHODS
            ):
                return True
            if name == "range" and len(node.args) in (1, 2) and not node.keywords:
                sized = node.args[-1]
                if _configured_count(_definition(sized, self.defs)) or self.constant_count(sized):
                    return True
                # ``range(len(runs))``, ``range(1, len(sys.argv))``: the indices of held items.
                return (
                    isinstance(sized, ast.Call)
                    and isinstance(sized.func, ast.Name)
                    and sized.func.id == "len"
                    and len(sized.args) == 1
                    and self.walks_items(sized.args[0], follow=follow)
                )
            if isinstance(func, ast.Attribute) and func.attr in OPTION_SPLITTERS:
                return self.command_line_option(func.value)
            if name in WALK_SHORTEST_ARGUMENT:
                return any(self.walks_items(arg, follow=follow) for arg in node.args)
            return (
                name in WALK_THEIR_ARGUMENTS
                and bool(node.args)
                and all(
                    self.walks_items(arg, follow=follow)
                    for arg in node.args[: None if name in WALK_EVERY_ARGUMENT else 1]
                )
            )
        if isinstance(node, ast.List | ast.Tuple | ast.Set | ast.Dict):
            return True
        # Either of held collections (``args.configs or list(CONFIGS)``, ``a if full else b``):
        # whichever the run takes, the same items each time round.
        if isinstance(node, ast.BoolOp | ast.IfExp):
            either = node.values if isinstance(node, ast.BoolOp) else [node.body, node.orelse]
            return all(self.walks_items(part, follow=follow) for part in either)
        if isinstance(node, ast.Starred):  # ``itertools.product(*values)``
            return self.walks_items(node.value, follow=follow)
        if isinstance(node, ast.Attribute) and (
            node.attr in HELD_ATTRIBUTES
            or self.command_line_option(node)
            or self.mod.canonical(_dotted(node) or "") in COMMAND_LINE
        ):
            return True
        if isinstance(node, ast.Subscript) and _fixed_slice(node.slice):
            return self.walks_items(node.value, follow=follow)  # ``sys.argv[1:]``: some of them
        # A generator of the items of collections held in memory (``configurations = (("cpu",
        # b) for b in batches)``) yields as many, the same each time it is made.
        made = _definition(node, self.defs) if follow else node
        if isinstance(made, _COMPREHENSIONS):
            again = follow and made is node
            return all(self.walks_items(g.iter, follow=again) for g in made.generators)
        if isinstance(node, ast.Name) and self.held_name(node.id):
            return True
        if isinstance(node, ast.Name) and self.held_param(node.id):
            return True
        # A name is walked in memory when it holds a dict or a set (parameters, datasets, a
        # configuration by key, the names of its methods), or is a parameter annotated as a
        # collection (``shots: Sequence[int]``) or whose default is one (``batches=(1, 2, 4)``,
        # ``dtypes=DEFAULT_DTYPES``: settings, whatever the annotation); a list or tuple of
        # unknown length is often data gathered per step (clips of a run).
        value = value if value is not None else self.quiet(node)
        param = self.fn.param(value.param) if value.param is not None else None
        return value.ty in (DICT, SET) or (
            param is not None and (param.held or self.held_default(param.name))
        )

    def command_line_option(self, node: ast.expr) -> bool:
        """Whether ``node`` is an option of the command line: an attribute of the namespace this
        function binds to what a parser's ``parse_args()`` returns (``args.batch_sizes``)."""
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
            return False
        made = self.defs.get(node.value.id)
        if isinstance(made, ast.Subscript):  # ``args = parser.parse_known_args()[0]``
            made = made.value
        return (
            isinstance(made, ast.Call)
            and isinstance(made.func, ast.Attribute)
            and made.func.attr in COMMAND_LINE_PARSERS
        )

    def held_name(self, name: str) -> bool:
        """Whether ``name`` holds a collection the source fixes: a module-level name bound once to a
        display (``SUITE = [Case(...), ...]``), or a local every binding of which walks one, where
        nothing resizes it (``cases = [c for c in SUITE if c.name in wanted]`` under an ``if``,
        ``cases = SUITE`` under its ``else``: a subset of the suite whichever branch ran;
        ``values = list(grid.values())`` of a dict). A parameter's callers say what it holds."""
        if self.fn.param(name) is not None or name in self.reading_bindings:
            return False
        stores = self.stores(name)
        if not stores:
            return name in self.mod.displays
        bound = self.names.bound.get(name, [])
        # ``combos = combos[:max_configs]`` keeps fewer of the same items: the others decide.
        made = [value for value in bound if not _narrows(value, name)]
        if not made or len(bound) != stores:
            return False
        if self.resizes(name) and not (
            self.filled_from_command_line(name) or self.filled_per_held_item(name, made)
        ):
            return False
        return self._bindings_walk_items(name, made)

    def filled_per_held_item(self, name: str, bound: list[ast.expr]) -> bool:
        """Whether ``name``, bound once to an empty list, grows only by an ``append`` in loops that
        each walk a collection held in memory (``factors.append(u)`` once per mode of ``range(
        tensor.ndim)``): as many items every time the body runs, however long the run."""
        if name in self.names.otherwise_resized or not (
            len(bound) == 1 and isinstance(bound[0], ast.List) and not bound[0].elts
        ):
            return False
        filled = list(_appends(self.body, name, ()))
        self.reading_bindings.add(name)
        try:
            return bool(filled) and all(
                loops and all(self.walks_items(loop.iter) for loop in loops) for loops in filled
            )
        finally:
            self.reading_bindings.discard(name)

    def held_param(self, name: str) -> bool:
        """Whether ``name`` is a parameter that holds a collection (by its annotation or default),
        which the body rebinds only to collections the source fixes: ``if sizes is None: sizes =
        [5, 10, 20]`` for ``sizes: list[int] | None = None``."""
        param = self.fn.param(name)
        if param is None or not (param.held or self.held_default(name)):
            return False
        if name in self.reading_bindings:
            return True  # ``sizes = sorted(sizes)``: what it held, whatever else its bindings say
        bound = self.names.bound.get(name, [])
        if not bound or len(bound) != self.stores(name) or self.resizes(name):
            return False
        return self._bindings_walk_items(name, bound)

    def _bindings_walk_items(self, name: str, values: list[ast.expr]) -> bool:
        """Whether each value bound to ``name`` walks the items of a held collection, read while
        ``name`` is marked as being read (``reading_bindings``): a binding from itself (``sizes =
        sorted(sizes)``) reads what it held, not its bindings again."""
        self.reading_bindings.add(name)
        try:
            return all(self.walks_items(value, follow=False) for value in values)
        finally:
            self.reading_bindings.discard(name)

    def filled_from_command_line(self, name: str) -> bool:
        """Whether every item added to ``name`` comes from the command line (``paths.extend(
        sorted(glob.glob(raw)) or [raw])`` for each ``raw`` of ``args.runs``): the files a run is
        given, as few as the command line, the same however long it runs (issue 36, how often)."""
        names = self.names
        added = names.added.get(name, [])
        if name in names.otherwise_resized or not added:
            return False
        walked = self.command_line_targets()
        option = self.read_from_command_line

        def local(name: str) -> bool:
            return self.stores(name) > 0 or self.fn.param(name) is not None

        return all(
            _from_command_line(item, walked, option, local)
            and any(
                (isinstance(n, ast.Name) and n.id in walked) or option(n) for n in ast.walk(item)
            )
            for item in added
        )

    def command_line_targets(self) -> frozenset[str]:
        """The names the for loops of the body bind to each item of the command line or of one
        of its options (``for raw in args.runs``)."""
        return frozenset(
            node.target.id
            for stmt in self.body
            for node in ast.walk(stmt)
            if isinstance(node, ast.For)
            and isinstance(node.target, ast.Name)
            and self.read_from_command_line(node.iter)
        )

    def read_from_command_line(self, node: ast.expr) -> bool:
        """Whether ``node`` is the command line (``sys.argv``, some of it) or one of its options."""
        if isinstance(node, ast.Subscript) and _fixed_slice(node.slice):
            node = node.value
        return self.command_line_option(node) or (
            self.mod.canonical(_dotted(node) or "") in COMMAND_LINE
        )

    def held_default(self, name: str) -> bool:
        """Whether the default of parameter ``name`` of the walked def is a display of items, or a
        module-level name bound to one."""
        node = self.mod.nodes.get(self.fn.qualname)
        if node is None:
            return False
        args = node.args
        positional = [*args.posonlyargs, *args.args]
        defaults = dict(zip([a.arg for a in positional[::-1]], args.defaults[::-1], strict=False))
        defaults.update((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True))
        default = defaults.get(name)
        if isinstance(default, ast.Name):
            return self.mod.global_value(default.id).ty in (LIST, TUPLE, SET, DICT)
        return isinstance(default, ast.List | ast.Tuple | ast.Set | ast.Dict)

    def loop(
        self, index: int, body: list[ast.stmt], head: object, node: ast.AST | None = None
    ) -> None:
        """Walk a loop body twice: the first pass finds what each iteration carries into the next.

        Inside an enclosing loop's first (silent) pass one walk is enough, which keeps nested loops
        linear in depth rather than exponential. ``node``: the for statement, if it is one.
        """
        if not self.recording:
            self.silent_loop(index, body, head, node)
            return
        names = _LoopNames(body)
        assigned = self.assigned[index] = names.assigned
        self.bodies[index] = body
        before = self.env
        made_before = dict(self.defs)
        first_set = self.first_set(node, body, made_before)
        self.loops.append(index)
        was_recording = self.recording
        self.recording = False
        with self.iteration():
            first = self.walk_carrying(body, head, before, names)
        self.env = _joined(before, _carried_out(first, names, LoopSrc(index)))
        self.note_carried_flips(
            index, before, first, made_before, _items_carried_through_calls(body)
        )
        self.recording = was_recording
        head()  # type: ignore[operator]
        binds = len(self.call_binds)
        with self.iteration():
            self.block(body)
        self.note_carried_calls(
            index, before, {**self.unpacked, **made_before}, self.call_binds[binds:]
        )
        after = self.env
        self.loops.pop()
        self.env = self.after_loop(node, before, after, made_before, first_set)
        self.filled(index, node, before, first, assigned)

    def after_loop(
        self,
        node: ast.AST | None,
        before: dict[str, Value],
        after: dict[str, Value],
        made_before: dict[str, ast.AST],
        first_set: frozenset[str],
    ) -> dict[str, Value]:
        """The environment past a loop: ``_after_loop``, where what a block its first iteration
        runs binds (``first_set``) is what the body left."""
        env = _after_loop(before, after, _surely_runs(node, self.mod.summary.constants))
        env.update((name, after[name]) for name in first_set & after.keys())
        return env

    def first_set(
        self, node: ast.AST | None, body: list[ast.stmt], made_before: dict[str, ast.AST]
    ) -> frozenset[str]:
        """The names a block of ``body`` that the loop's first iteration runs binds, where a count
        of iterations walks it (a collection may be empty: the record may stay as it started);
        that block is kept in ``taken_first`` for ``s_If``."""
        branch = first_pass_branch(body, made_before) if counted(node, made_before) else None
        if branch is None:
            return frozenset()
        self.taken_first.add(branch)
        return frozenset(bound_names(branch.body, "targets"))

    def note_carried_flips(
        self,
        index: int,
        before: dict[str, Value],
        after: dict[str, Value],
        made_before: dict[str, ast.AST],
        through_items: set[str],
    ) -> None:
        """A name that enters the loop as one kind of value and leaves an iteration as another
        (``level = 0.0`` then ``level = smooth(level, x)``; ``state = None`` then an array) passes a new
        signature to a jitted function on the first iteration and the next: the value made before the
        loop is the odd one, and the finding goes there. A name carried through a call as one item of
        its result (``..., step = rollout(..., step)``) is left to the carried-state check: an item
        a jitted function returns has the weak type of its own computation (a counter it only adds
        Python ints to stays weak beside strong arrays), which only the jitted body tells."""
        for name in sorted(n for n in before.keys() & after.keys() if before[n] is not after[n]):
            made = made_before.get(name)
            origin = self.loc(made) if made is not None else self.fn.loops[index].location
            flip = _kind_flip(before[name], after[name], self.mod.summary.x64)
            sources = frozenset({LoopSrc(index)})
            if flip is None:
                # `t = t_start` then `t += dt`: what the callers pass tells (``MAYBE_WEAK``).
                loop_at = self.fn.loops[index].location
                alternatives = _weak_alternatives(
                    self.fn.qualname, name, before[name], origin, after[name], loop_at
                )
                if alternatives is None or name in through_items:
                    continue
                flip, sources = (MAYBE_WEAK, "{start}", "{then}"), sources | {alternatives}
            if flip[0] == "RTL401" and name in through_items and after[name].ty == JIT_OUT:
                continue
            code, start, then = flip
            said = f"{name} starts as {{start}} and is {{then}}"
            told = said.format(
                start=weak_said(start, before[name]), then=weak_said(then, after[name])
            )
            taint = Taint(code, told, origin, sources)
            self.env[name] = self.env[name].with_(shape=self.env[name].shape | {taint})
            self.note_key_flip(taint, before[name], after[name], said)

    def note_key_flip(self, taint: Taint, first: Value, then: Value, said: str) -> None:
        """Keep the keys of a flip between two dicts, so that storing keys narrows it."""
        if taint.code == "RTL403" and first.keys is not None and then.keys is not None:
            self.key_flips[taint] = (frozenset(first.keys), frozenset(then.keys), said)

    def note_carried_calls(
        self,
        index: int,
        before: dict[str, Value],
        made_before: dict[str, ast.AST],
        binds: list[tuple[str, int, int | None, bool]],
    ) -> None:
        """The names the loop rebinds to a call's result that were made before it (``carry =
        Carry(...)`` then ``carry = step(carry, g)``), or came in as a parameter (``def fit(model,
        ...)``): checked against what the callee returns."""
        seen: set[tuple[str, int]] = set()
        for name, call, item, lax in binds:
            made = made_before.get(name)
            if (name, call) in seen or name not in before:
                continue
            later = any(name == other for other, _ in seen)
            if made is not None:
                where, text = self.loc(made), self.mod.pos.text(made)
            elif before[name].param == name:
                where, text = self.fn.location, name
            else:
                continue
            seen.add((name, call))
            line = self.fn.calls[call].location.line
            if before[name].ty == NONE and _set_when_none(self.bodies.get(index, []), name, line):
                continue  # the first call gets what the guard sets, never the None
            # An array's constant lengths (``buf = jnp.zeros((0, d))``, a buffer to fill) are
            # told apart from what the callee returns (``rtl40x_carried_flips._starts_empty``).
            known = axis_lengths(before[name]) if before[name].ty in (ARRAY, NP_ARRAY) else None
            start = Arg(_export(before[name]) or UNKNOWN_VALUE, where, text, known)
            self.fn.carried.append(Carried(name, start, call, item, index, lax, later))

    @contextmanager
    def iteration(self) -> Iterator[None]:
        """One walk of a loop body: the guards its ``if <test>: continue`` statements add
        (``s_If``) hold until the walk ends."""
        kept = len(self.guards)
        try:
            yield
        finally:
            del self.guards[kept:]

    def silent_loop(
        self, index: int, body: list[ast.stmt], head: object, node: ast.AST | None = None
    ) -> None:
        """One walk of a loop body that only tracks what it carries (no call sites are recorded)."""
        names = _LoopNames(body)
        assigned = self.assigned[index] = names.assigned
        self.bodies[index] = body
        before = self.env
        made_before = dict(self.defs)
        first_set = self.first_set(node, body, made_before)
        self.loops.append(index)
        with self.iteration():
            after = self.walk_carrying(body, head, before, names)
        self.loops.pop()
        carried = _carried_out(after, names, LoopSrc(index))
        self.env = self.after_loop(node, before, carried, made_before, first_set)
        self.filled(index, node, before, after, assigned)

    def trip_count(
        self, node: ast.For | ast.AsyncFor, index: int, assigned: set[str]
    ) -> Length | None:
        """How many times a for loop runs its body to the end: range(...) or the length of what it
        walks; None when unknown, when the body may break or skip, or when it assigns a name the
        count is read from (asked after the loop, the count must be what it was before)."""
        if _jumps(node.body) or any(
            isinstance(n, ast.Name) and n.id in assigned for n in ast.walk(node.iter)
        ):
            return None
        call = self.items_source(node.iter)
        name = self.mod.canonical(_dotted(call.func) or "") if isinstance(call, ast.Call) else ""
        atoms: Atoms = {}
        if name == "range":
            # ``range(0, n, k)``: as many as ``arange`` gives, rounded up, an atom of its own that
            # changes with n and k only (a list filled per chunk is as long at every walk).
            return self.range_length(call) or self.arange_length(call)  # type: ignore[attr-defined]
        walked = call.args[0] if name == "enumerate" and isinstance(call, ast.Call) else call
        if isinstance(walked, ast.Name | ast.Attribute) and name in ("", "enumerate"):
            return self.length(self.length_of(walked, self.quiet(walked), 0, atoms), atoms)
        # What a function of the project returns: as long as that result, which the callers of
        # this one learn once the call is resolved (``rows_length``).
        if _rows_of_call(self.walked.get(index, UNKNOWN_VALUE)):
            return self.length(self.length_of(call, self.walked[index], 0, atoms), atoms)
        return None

    def filled(
        self,
        index: int,
        node: ast.AST | None,
        before: dict[str, Value],
        first: dict[str, Value],
        assigned: set[str],
    ) -> None:
        """Lists that each iteration of a for loop grows by the same number of items (``append`` in
        a fixed loop): their length after the loop is known, and they change with the trip count,
        not per iteration of the loop."""
        if not isinstance(node, ast.For | ast.AsyncFor):
            return
        loop = LoopSrc(index)
        trips: Length | None = None
        for name, old in before.items():
            new = first.get(name)
            if name in assigned or new is None or new is old:
                continue
            start = old.dims.length(0) if old.dims is not None else None
            end = new.dims.length(0) if new.dims is not None else None
            if start is None or end is None:
                continue
            trips = trips or self.trip_count(node, index, assigned)
            if trips is None:
                return
            step = _add(end.poly, start.poly, -1)
            atoms: Atoms = {**dict(start.atoms), **dict(end.atoms), **dict(trips.atoms)}
            if any(_per_iteration(atoms.get(a, EMPTY), loop) for a in _atoms_in(step)):
                continue
            rows = self.rows_length(index)
            # The list is as long as what the loop walks: what changes that length is the line to
            # change (a filtering comprehension), not the append; the append keeps the rest.
            walked = {d.call for d in rows.deps if isinstance(d, RetDep)}
            left = frozenset(
                s
                for s in trips.sources - frozenset().union(*(t.sources for t in rows.shape))
                if not (isinstance(s, RetSrc) and s.shape and s.call in walked)
            )
            value = self.env[name]
            shape = frozenset(
                t.with_sources((t.sources - {loop}) | left)
                if t.axis == 0 and loop in t.sources
                else t
                for t in value.shape
            )
            total = _add(start.poly, _mul(trips.poly, step), 1)
            self.env[name] = self.with_length(
                value.with_(shape=shape | rows.shape, deps=value.deps | rows.deps),
                0,
                self.length(total, atoms),
            )

    def rows_length(self, index: int) -> Value:
        """What changes the length of what for loop ``index`` walks, as the length of a list
        filled once per iteration: its taints on that axis, and the result of a project's function
        it walks (resolved for the callers: only its first axis)."""
        walked = self.walked.get(index, UNKNOWN_VALUE)
        shape = frozenset(
            replace(t, axis=0)
            for t in walked.shape
            if t.axis in (None, 0) and ItemSrc() not in t.sources
        )
        deps = frozenset(
            rows_of(d)
            for d in walked.deps
            if isinstance(d, RetDep) and not d.each and d.elem is None
        )
        return Value(shape=shape, deps=deps)

    def walk_carrying(
        self, body: list[ast.stmt], head: object, before: dict[str, Value], names: _LoopNames
    ) -> dict[str, Value]:
        """One walk of a loop body from ``before``, each name the body assigns (and each attribute
        it sets) marked as carried in from the previous iteration; the environment after it."""
        self.env = dict(before)
        for name in names.assigned & before.keys():
            # Its lengths are those before the loop only on the first iteration.
            carried = self.env[name]
            self.env[name] = carried.with_(vsrc=carried.vsrc | {CarrySrc(name)}, dims=None)
        for name in names.stored.keys() & before.keys():
            self.env[name] = _marked_fields(self.env[name], name, names.stored[name])
        head()  # type: ignore[operator]
        self.block(body)
        return self.env

    def s_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        decorators = [self.expr(deco) for deco in node.decorator_list]
        fn = None
        if self.module_level:
            fn = self.mod.summary.functions.get(f"{self.mod.module}.{node.name}")
        if fn is not None and self.mod.nodes.get(fn.qualname) is node:
            fn.jit = self.mod.jit_from_decorators(node, fn, self)
            fn.defaults = self.defaults_of(node.args)
            self.deferred.append((fn, node, None))
        else:
            qualname = f"{self.fn.qualname}.<locals>.{node.name}"
            fn = self.mod.declare_function(node, qualname, None, parent=self.fn.qualname)
            fn.defaults = self.defaults_of(node.args)
            # Its decorators run here, whenever its body is walked.
            fn.jit = self.mod.jit_from_decorators(node, fn, self)
            block, after = self.block_rest
            wraps = lambda func: self.mod.wrapper(func) is not None  # noqa: E731
            if bound_again_first(node, block[after:], wraps):
                self.late.append((self.depth, fn, node))
            else:
                self.walk_function(fn, node, None, enclosing=self)
        # Called from the body that defines it, it reads that body's names as they are then (a
        # module's function called at module level reads the module's names).
        body = one_expression(node) if fn.jit is None else None
        if body is not None:
            self.one_expressions[fn.qualname] = body
        mapped = leaf_function(node) if fn.jit is None and fn.parent is not None else None
        if mapped is not None:
            # A nested def a ``tree_map`` applies reads the names around it as a lambda does.
            self.leaf_functions[node.name] = mapped
        else:
            self.leaf_functions.pop(node.name, None)
        if fn.jit is not None:
            site = str(fn.jit)
            self.env[node.name] = Value(
                ty=JIT,
                site=fn.jit,
                fresh=self.context_src(),
                callables=funcrefs.single(("jit", "", site)),
            )
            return
        value = Value(
            ty=FUNCTION,
            ref=fn.qualname,
            fresh=self.context_src(),
            callables=funcrefs.single(("qual", fn.qualname)),
        )
        # Decorators apply from the innermost: the name is bound to what the last one returns.
        for deco, decorator in reversed(list(zip(node.decorator_list, decorators, strict=True))):
            value = self.decorated(deco, decorator, value)
        self.env[node.name] = value

    s_AsyncFunctionDef = s_FunctionDef

    def decorated(self, deco: ast.expr, decorator: Value, value: Value) -> Value:
        """A def as a decorator of the project hands it back: the name is what the decorator call
        returns, and the def itself where that is not known (a library's decorator: the def)."""
        callees = _value_callees(decorator)
        if not callees or not self.recording:
            return value
        arg = Arg(_plain(value), self.loc(deco), self.mod.pos.text(deco))
        functions = tuple((0, path, callee) for path, callee in sorted(value.callables))
        index = self.add_call(callees, (arg,), (), deco, functions=functions)
        refs = frozenset(
            (path, ("wrapped", str(index), *callee)) for path, callee in value.callables if not path
        )
        return value.with_(callables=refs)

    def defaults_of(
        self, args: ast.arguments
    ) -> tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]:
        """The parameters whose default is (or holds) a function, evaluated here, where Python
        evaluates them, and named from the function that gets them."""
        if not args.defaults and not any(args.kw_defaults):
            return ()
        positional = [*args.posonlyargs, *args.args]
        given = list(
            zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
        )
        given += [
            (a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
        ]
        out = []
        for param, default in given:
            refs = self.quiet(default).refs
            if refs:
                scoped = funcrefs.rescoped(refs, "up")
                out += [(param.arg, path, callee) for path, callee in sorted(scoped)]
        return tuple(out)

    def walk_function(
        self,
        fn: FunctionSummary,
        node: ast.FunctionDef | ast.AsyncFunctionDef,
        cls: ClassSummary | None,
        enclosing: PassState | None = None,
    ) -> None:
        if fn.jit is None:
            fn.jit = self.mod.jit_from_decorators(node, fn, self)
        type(self)(self.mod, fn, cls, enclosing=enclosing).run(
            node.body, _annotation_type(node.returns)
        )

    def s_ClassDef(self, node: ast.ClassDef) -> None:
        for deco in node.decorator_list:
            self.expr(deco)
        qualname = (
            f"{self.mod.module}.{node.name}"
            if self.module_level
            else f"{self.fn.qualname}.<locals>.{node.name}"
        )
        info = self.mod.summary.classes.get(qualname)
        if info is None:
            self.mod._declare_class(node, qualname)
            info = self.mod.summary.classes[qualname]
        for stmt in node.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                method = f"{qualname}.{stmt.name}"
                fn = self.mod.summary.functions.get(method)
                if fn is None or self.mod.nodes.get(method) is not stmt:
                    # The same class name defined again (if/else, redefinition): this def is its own.
                    fn = self.mod.declare_function(stmt, method, info, parent=None)
                if self.module_level:
                    fn.jit = self.mod.jit_from_decorators(stmt, fn, self)
                    self.deferred.append((fn, stmt, info))
                else:
                    self.walk_function(fn, stmt, info)
        self._field_initials(node, info)
        self.env[node.name] = Value(
            ty=CLASS, ref=qualname, callables=funcrefs.single(("qual", qualname))
        )

    def _field_initials(self, node: ast.ClassDef, info: ClassSummary) -> None:
        """The defaults of the generated ``__init__`` that are no literal, as values where the class
        is made: an array made there (``jnp.zeros((), jnp.float32)``) has the dtype every instance
        starts with. Read quietly (a default factory runs per instance, not here), and kept only
        when made of nothing else (no parameter, no call's result)."""
        for name, initial in field_initials(node).items():
            if name not in info.fields or name in info.field_defaults:
                continue
            value = self.quiet(initial)
            if value.deps or value.ty == UNKNOWN:
                continue
            info.field_defaults[name] = Arg(value, self.loc(initial), self.mod.pos.text(initial))

    def s_Raise(self, node: ast.Raise) -> None:
        """``raise Error`` makes an instance of the class: its ``__init__`` runs."""
        if node.exc is not None:
            value = self.expr(node.exc)
            callees = _value_callees(value)
            if callees and not isinstance(node.exc, ast.Call) and self.recording:
                self.add_call(callees, (), (), node.exc)
        if node.cause is not None:
            self.expr(node.cause)

    def s_Global(self, node: ast.AST) -> None:
        return None

    s_Nonlocal = s_Global

    # -- binding ------------------------------------------------------------------------------------
    def bind(self, target: ast.AST, value: Value, source: ast.AST | None) -> None:
        if isinstance(target, ast.Name):
            if (
                self.loops
                and source is not None
                and value.ty in (LIST, TUPLE, ARRAY, NP_ARRAY, UNKNOWN)
                and _grows_itself(target.id, source, self.mod)
                # `if mask: mask = jnp.concatenate(...)`: bool() of an array of two or more items
                # raises, so the array grows there once at most.
                and not (isinstance(source, ast.Call) and target.id in self.truth_tested)
                and not self.sized_anew(target, value)
                and not _made_in_iteration(target.id, source, self.bodies.get(self.loops[-1], []))
            ):
                axis = self.grown_axis(target, value)
                value = self.grow(value, source, ast.unparse(source), axis=axis)
            if self.loops and source is not None and target.id in self.env:
                value = self.rebound(target.id, value, source)
            self.env[target.id] = value
            self.unpacked.pop(target.id, None)
            if source is not None:
                self.defs[target.id] = source
            else:
                self.defs.pop(target.id, None)
        elif isinstance(target, ast.Tuple | ast.List):
            elements = target.elts
            starred = [i for i, e in enumerate(elements) if isinstance(e, ast.Starred)]
            if _shape_read(source) and not starred:
                # `batch, width = x.shape`: each name is one axis's length, as `x.shape[k]` is.
                assert source is not None
                for k, element in enumerate(elements):
                    index = ast.copy_location(ast.Constant(k), source)
                    part = ast.copy_location(ast.Subscript(source, index, ast.Load()), source)
                    self.bind(element, self.expr(part), part)
            elif value.items and len(value.items) == len(elements) and not starred:
                parts = (
                    source.elts
                    if isinstance(source, ast.Tuple | ast.List)
                    and len(source.elts) == len(elements)
                    else [None] * len(elements)
                )
                for element, item, part in zip(elements, value.items, parts, strict=True):
                    self.bind(element, item, part)
            elif value.items and len(starred) == 1 and len(value.items) >= len(elements) - 1:
                # `a, *rest, z = f, g, h, k`: the starred name takes the items in the middle.
                star, after = starred[0], len(elements) - starred[0] - 1
                middle = value.items[star : len(value.items) - after]
                for i, element in enumerate(elements):
                    if i < star:
                        self.bind(element, value.items[i], None)
                    elif i > star:
                        self.bind(
                            element, value.items[len(value.items) - (len(elements) - i)], None
                        )
                    else:
                        rest = Value(ty=LIST, items=middle)
                        for k, item in enumerate(middle):
                            refs = funcrefs.nested(item.refs, str(k))
                            rest = rest.with_(callables=funcrefs.union(rest.callables, refs))
                        self.bind(element.value, rest, None)  # type: ignore[attr-defined]
            else:
                for i, element in enumerate(elements):
                    item = _unpacked(value, None if starred else i)
                    if (value.callables or value.param) and not starred:
                        item = item.with_(callables=funcrefs.element(value.refs, str(i)))
                    self.bind(element, item, None)
                    if isinstance(element, ast.Name) and source is not None and not starred:
                        self.unpacked[element.id] = source
        elif isinstance(target, ast.Starred):
            self.bind(target.value, value.with_(ty=LIST, items=(), callables=EMPTY), None)
        elif isinstance(target, ast.Attribute):
            self.bind_attribute(target, value, source)
        elif isinstance(target, ast.Subscript):
            self.expr(target.value)
            self.expr(target.slice)
            self.store_item(target, value)
            if isinstance(target.value, ast.Name):
                self.store_key(target.value.id, target, value)
            else:
                self.mutate_item(target, value)

    def store_item(self, target: ast.Subscript, value: Value) -> None:
        """``d["k"] = f`` (``d[0]["k"] = f``...) with literal keys on a local name: from here on,
        that item of ``d`` is ``f``."""
        path: list[str] = []
        node: ast.AST = target
        while isinstance(node, ast.Subscript):
            index = node.slice
            if not isinstance(index, ast.Constant) or type(index.value) not in (str, int):
                return
            path.insert(0, repr(index.value))
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in self.env:
            return
        current = self.env[node.id]
        if current.callables or value.refs:
            refs = funcrefs.stored(current.refs, tuple(path), value.refs)
            self.env[node.id] = current.with_(callables=refs)

    def store_key(self, name: str, target: ast.Subscript, value: Value) -> None:
        """``d["k"] = v``: the dict's key set gains a key and its item is ``v`` (an unknown key
        makes both unknown)."""
        current = self.env.get(name)
        key = target.slice
        if current is not None and current.param == name and isinstance(key, ast.Constant):
            # A parameter's dict given a key: what the function hands back has it (a jitted
            # function filling the dict it is passed changes its structure for the next call).
            if isinstance(key.value, str):
                self.env[name] = with_field(current, entry(key.value), value)
            return
        if current is None or current.ty != DICT:
            return
        literal = isinstance(key, ast.Constant) and isinstance(key.value, str)
        keys = (
            tuple(sorted({*current.keys, key.value}))  # type: ignore[union-attr]
            if literal and current.keys is not None
            else None
        )
        # A literal key holds what is stored there, whether or not the other keys are known.
        held = entry(key.value) if literal else None  # type: ignore[union-attr]
        stored = with_field(current, held, value) if held else current.with_(fields=())
        self.env[name] = stored
        if keys != current.keys:
            self.env[name] = stored.with_(keys=keys)
            self.defs[name] = target
        if literal and any(t in self.key_flips for t in current.shape):
            self.env[name] = self.env[name].with_(
                shape=self.filled_keys(name, current.shape, key.value)
            )  # type: ignore[union-attr]

    def filled_keys(self, name: str, shape: frozenset[Taint], key: str) -> frozenset[Taint]:
        """The structure flips of dict ``name`` once ``key`` is stored in it: it has the key
        whichever keys it had, and when both sides then have the same, each execution sees one
        structure from here on (a loop that fills the dict before it passes it on)."""
        out = set()
        for taint in shape:
            flip = self.key_flips.get(taint)
            if flip is None:
                out.add(taint)
                continue
            first, then, said = flip[0] | {key}, flip[1] | {key}, flip[2]
            if first != then:
                start, end = (
                    structure_kind(Value(ty=DICT, keys=tuple(sorted(k)))) for k in (first, then)
                )
                narrowed = replace(taint, what=said.format(start=start, then=end))
                self.key_flips[narrowed] = (first, then, said)
                out.add(narrowed)
        return frozenset(out)

    def rebound(self, name: str, value: Value, source: ast.AST) -> Value:
        """``name = f(..., name, ...)`` or ``name = name[1:]``, where ``name`` comes from the
        previous iteration: resized by a helper, the value changes size per iteration (resolved
        once the helper is known: a ``REBIND`` taint); cut by a constant, it shrinks."""
        where = self.loc(source)
        if CarrySrc(name) in self.env[name].vsrc:
            self.carried_at.add(where)
        elif where not in self.carried_at:
            return value
        loop = self.loops[-1]
        if isinstance(source, ast.Call) and any(
            _is_name(a, name) for a in (*source.args, *(k.value for k in source.keywords))
        ):
            rebind = frozenset({RebindSrc(where, name, loop)})
            return value.with_(shape=value.shape | {Taint(REBIND, name, where, rebind)})
        if not (
            isinstance(source, ast.Subscript)
            and _is_name(source.value, name)
            and _end_relative(source.slice)
        ):
            return value
        # Trimmed back after it grows (`buf = push(buf, x)` ... `buf = buf[1:]`): the growth is
        # the finding.
        if any(t.code in (REBIND, "RTL102") for t in value.shape):
            return value
        taint = Taint(
            "RTL101", f"slice {self.mod.pos.text(source)}", where, frozenset({LoopSrc(loop)}), 0
        )
        return value.with_(shape=value.shape | {taint})

    def grow(
        self,
        value: Value,
        node: ast.AST,
        text: str,
        item: bool = False,
        over: tuple[int, ...] = (),
        axis: int | None = None,
    ) -> Value:
        """``value`` grown at each iteration of the innermost loop (or of the loops ``over``), or,
        with ``item``, one of the lists it holds (``log[key].append(x)``): its structure grows, not
        its length. ``axis``: the array's axis that grows (``grown_axis``), where it is known."""
        # A list's own length is its axis 0; where an array grows depends on the join.
        if value.ty in (LIST, TUPLE):
            axis = None if item else 0
        # Under an if in the loop, by as many items as pass the test: as the data it reads says,
        # whatever the trip count (the statement form of a filtering comprehension).
        depth = len(self.loops)
        tested = frozenset().union(*(when for at, when in self.guards if at == depth))
        sources = frozenset(LoopSrc(index) for index in over or self.loops[-1:]) | tested
        taint = Taint("RTL102", _clip(text), self.loc(node), sources, axis)
        return value.with_(shape=value.shape | {taint}, items=(), dims=None)

    def grown_axis(self, target: ast.Name, value: Value) -> int | None:
        """The one axis of an array rebuilt from itself whose new length holds its old one
        (``x = jnp.concatenate([x, row])``: axis 0, ``x + 1`` long): the axis it grows along, so
        that padding that axis back to a fixed length (``concatenate([x, zeros((size - len(x),
        *x.shape[1:]))])``) ends the change. None when no such axis, or several, are known."""
        lens = value.dims.lens if value.dims is not None else ()
        grown = [
            axis
            for axis, length in enumerate(lens)
            if length is not None
            and _length_atom(target, axis, self.defs, self) in _atoms_in(length.poly)
        ]
        return grown[0] if len(grown) == 1 else None

    def sized_anew(self, target: ast.AST, value: Value) -> bool:
        """Whether a value rebuilt from ``target`` has a length known without ``target``'s own: a list
        made anew in this iteration and filled by a fixed number of items does not grow."""
        length = value.dims.length(0) if value.dims is not None else None
        return length is not None and _length_atom(target, 0, self.defs, self) not in _atoms_in(
            length.poly
        )


def _from_command_line(
    node: ast.expr,
    walked: frozenset[str],
    option: Callable[[ast.expr], bool],
    local: Callable[[str], bool],
) -> bool:
    """Whether ``node`` reads the command line (an ``option``, or a name of ``walked``: an item of
    one) and nothing else but the functions it calls and constants; ``local``: whether a name is
    bound in the function (not a module it calls a function of)."""
    if option(node) or (isinstance(node, ast.Name) and node.id in walked):
        return True
    if isinstance(node, ast.Call):
        # What a call gives comes from its arguments and, for a method of a value (``open(
        # args.manifest).read().split()``), from that value; a module's function reads only the
        # arguments.
        given = [*node.args, *(k.value for k in node.keywords)]
        func = node.func
        if isinstance(func, ast.Attribute) and not (
            isinstance(func.value, ast.Name) and not local(func.value.id)
        ):
            given.append(func.value)
        return bool(given) and all(_from_command_line(a, walked, option, local) for a in given)
    if isinstance(node, ast.Constant):
        return True
    parts = [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]
    if isinstance(node, ast.Name | ast.Attribute) or not parts:
        return False
    return all(_from_command_line(p, walked, option, local) for p in parts)


def _set_when_none(body: list[ast.stmt], name: str, line: int) -> bool:
    """Whether a statement of a loop's body before ``line`` sets ``name`` or leaves the iteration
    when it is None (``if state is None: state = init(); continue``): the call at ``line`` never
    gets it as None."""
    for stmt in body:
        if (stmt.end_lineno or stmt.lineno) >= line:
            return False
        if (
            isinstance(stmt, ast.If)
            and not stmt.orelse
            and _none_test(stmt.test) == (name, 1)
            and (isinstance(stmt.body[-1], ENDS_BLOCK) or name in _assigned_in(stmt.body))
        ):
            return True
    return False


def _assigned_in(block: list[ast.stmt]) -> set[str]:
    """The names a block's own assignments bind (``a, b = ...`` too), not those under its tests."""
    return bound_names([stmt for stmt in block if isinstance(stmt, ast.Assign)], "targets")


def _skips_the_rest(node: ast.If) -> bool:
    """Whether one branch of ``node`` ends the iteration (``continue``, ``break``) and the other
    goes on to the statements after it."""
    ends = [
        bool(b) and isinstance(b[-1], ast.Continue | ast.Break) for b in (node.body, node.orelse)
    ]
    return ends[0] != ends[1]


# The block of ``if <chunk length> OP <width>:`` in which the chunk is full (0: the body, 1: the
# else block), for a chunk no longer than its width; and each comparison with its sides swapped.
_FULL_WHEN = {ast.Lt: 1, ast.NotEq: 1, ast.Eq: 0, ast.GtE: 0}
_MIRRORED: dict[type, type] = {ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.Lt: ast.Gt, ast.GtE: ast.LtE}


def _ungrown(value: Value, grown: LoopSrc) -> Value:
    """``value`` where what loop ``grown`` appends to it is not a growth: the items since it was
    last refilled, as many each time."""
    kept = frozenset(t for t in value.shape if t.code != "RTL102" or grown not in t.sources)
    return value if kept == value.shape else value.with_(shape=kept)


def _truth_tested(test: ast.expr) -> frozenset[str]:
    """The names ``if test:`` runs its body only when true: ``if mask:``, ``if mask and ...``."""
    parts = test.values if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And) else [test]
    return frozenset(p.id for p in parts if isinstance(p, ast.Name))


def _counter(target: ast.expr, source: ast.expr, canonical: Callable[[str], str]) -> str:
    """The name that counts the turns of ``for target in source``, one more at each: the target of
    ``range(a, b)`` (no step), the first of ``enumerate(...)``'s; else ""."""
    func = canonical(_dotted(source.func) or "") if isinstance(source, ast.Call) else ""
    if func not in ("range", "enumerate"):
        return ""
    assert isinstance(source, ast.Call)
    if func == "range" and len(source.args) <= 2 and isinstance(target, ast.Name):
        return target.id
    first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else None
    return first.id if func == "enumerate" and isinstance(first, ast.Name) else ""


def _dropped_chunks(
    value: Value, loops: frozenset[frozenset[Src]], flag: tuple[str, Value] | None
) -> Value:
    """``value`` after a test that skips the short last chunk of ``loops``: full, or (``flag``) full
    where the flag is true."""
    if flag is None:
        return _full_chunks(value, loops)
    shape = frozenset(
        replace(t, dropped_if=flag) if t.code == "RTL103" and t.sources in loops else t
        for t in value.shape
    )
    return value if shape == value.shape else value.with_(shape=shape)


def _full_chunks(value: Value, loops: frozenset[frozenset[Src]]) -> Value:
    """``value`` where the chunks of ``loops`` are known to be full: not the short last one."""
    kept = frozenset(t for t in value.shape if t.code != "RTL103" or t.sources not in loops)
    return value if kept == value.shape else value.with_(shape=kept)


def _shape_read(node: ast.AST | None) -> bool:
    """``x.shape`` (of a name or an attribute path)."""
    return isinstance(node, ast.Attribute) and node.attr == "shape"


def _fixed_slice(node: ast.expr) -> bool:
    """Whether ``node`` is a slice whose bounds the source spells out (``[1:]``), not ones chosen
    at run time (``[: int(sys.argv[2])]``)."""
    return isinstance(node, ast.Slice) and all(
        bound is None or (isinstance(bound, ast.Constant) and isinstance(bound.value, int))
        for bound in (node.lower, node.upper, node.step)
    )


def _one_atom(poly: Poly) -> str | None:
    """The atom ``poly`` is, when it is one atom alone (``valid`` of ``valid = stop - start``)."""
    if len(poly) != 1:
        return None
    ((monomial, coefficient),) = poly.items()
    return monomial[0] if coefficient == 1 and len(monomial) == 1 else None


def _container_written(node: ast.expr) -> bool:
    """Whether ``node`` writes a plain tuple or list: a display, or ``tuple(...)``/``list(...)``."""
    if isinstance(node, ast.Tuple | ast.List):
        return True
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("tuple", "list")
    )


def _appends(
    body: list[ast.stmt], name: str, loops: tuple[ast.For | ast.AsyncFor, ...] | None
) -> Iterator[tuple[ast.For | ast.AsyncFor, ...] | None]:
    """For each call of ``body`` that adds to ``name`` (not in a def or class it makes), the for
    loops around it in ``body``; None for one that adds the items of a collection (``extend``), or
    sits in a ``while`` loop: how many it adds is not told."""
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for child in ast.iter_child_nodes(stmt):
            if isinstance(child, ast.expr):
                for node in ast.walk(child):
                    func = node.func if isinstance(node, ast.Call) else None
                    if (
                        isinstance(func, ast.Attribute)
                        and isinstance(func.value, ast.Name)
                        and func.value.id == name
                    ):
                        yield loops if func.attr == "append" else None
        inner = loops
        if isinstance(stmt, ast.While) or loops is None:
            inner = None
        elif isinstance(stmt, ast.For | ast.AsyncFor):
            inner = (*loops, stmt)
        blocks = [getattr(stmt, f, None) for f in ("body", "orelse", "finalbody")]
        blocks += [h.body for h in getattr(stmt, "handlers", ())]
        blocks += [c.body for c in getattr(stmt, "cases", ())]
        for block in blocks:
            if isinstance(block, list):
                yield from _appends(block, name, inner)
