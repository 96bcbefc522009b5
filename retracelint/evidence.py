"""Evidence: what each finding's chain takes for granted, and the findings no single run can make.

A finding is a chain: where a value is made (its location, in some function), the calls that carry it
(``call_path``) and the jitted call it reaches. The rules follow every chain the linker can build; this
stage asks, of each chain, what in it the code does not prove, and records that as ``Assumption``s
(``model.confidence_of`` turns them into the finding's confidence, in one place):

- ``guessed-type``: the rule takes a value of unknown kind for the kind that makes the finding
  (an attribute ``append`` is called on, which no store shows to be a list, for a list); the rule
  records it where it makes the finding (``make_finding``), and it is kept here;
- ``guessed-callee``: a call on the chain is linked to the one class that defines the method, the
  receiver's class being unknown (``Project.method_of``'s fallback), unless the receiver is a
  parameter annotated with that class (``_declared_receiver``);
- ``entry-splice``: no one entry point (``Frequency.entries``: a test, a script, a CLI command, a public
  function) runs every function of the chain, so its value and its jitted call may never meet in one
  process;
- ``mocked-callee``: a test on the chain replaces (``mock.patch``, ``monkeypatch.setattr``) a function
  the chain goes through;
- ``flag-off``: a step of the chain sits under ``if cfg.flag:`` (or ``if FLAG:``) where the flag is
  declared ``False`` and nothing in the project sets it otherwise; or under an ``if`` on an argument
  of its function whose ``False`` default switches it off, where a call passes a value no source
  says (a field of a YAML configuration);
- ``jit-off``: the chain runs a function eagerly where the code beside it jits that function under
  an ``if`` (``if params.use_jit: step_fn = jax.jit(step_fn)``, or ``step_fn = lambda s: ...`` in
  the ``else`` of one that compiles it, or ``solve = jax.jit(_solve) if jit else _solve``): the
  eager path exists only when the test skips the jit, and no value the code gives the test (a flag's declaration, an argument passed) is known to.

A chain through code that cannot run at all (after a ``return``, ``raise``, ``break`` or ``continue``
in the same block, or under an ``if`` on an argument that the chain's own call into its function
(else every known call) switches off (or on
a field of one, ``if config.debug:``, that the chain's own caller builds switched off), or after
such an ``if`` whose body leaves the block; or through a factory's ``return f`` that every call
switches off, ``if jit: return jax.jit(f)`` before it) is no finding, nor one whose jitted call repeats the same call of an earlier statement of its block
(``f(dist)`` twice in a loop body, nothing rebinding ``f`` or ``dist`` between): the first filled the
cache the second hits, and the finding at the first tells the cause; nor one whose calls on ``self``
go through methods of classes no one object can be (``_self_of_another_class``).

Severity is decided here, by one rule (``severity``): a finding is an **error** only when its rule
claims one, its re-traces grow with the run (``Finding.grows``: driven by a loop over steps, data, a
loader, ``while``, not by a loop over a configuration, a model's structure or a few spelled-out
values) and its chain rests on no assumption, which only a proven chain can claim; every other
finding is a warning.
"""

from __future__ import annotations

import ast
import copy
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache, partial
from itertools import pairwise
from typing import TypeGuard, cast

from retracelint.buckets import ITEM, KEEPING, Helper, Step, bound_by, buckets_sizes
from retracelint.callgraph import ClassTarget, FuncTarget, JitTarget, Project, Target
from retracelint.frequency import Sweep, is_test, is_test_file
from retracelint.funcrefs import FuncRef, scoped_kind
from retracelint.held_items import Walk, looked_up, read_per_item, walked, written_out
from retracelint.model import PER_ITEM, Assumption, Bound, Finding, JitSite, Location, PathStep
from retracelint.propagate import Propagation
from retracelint.run_arms import RunArms
from retracelint.summarise import columns, desugar
from retracelint.summarise.apis import CAPS, STRUCTURE_TESTS, counted
from retracelint.summarise.loops import never_runs
from retracelint.summarise.points import distinct_items, last_name
from retracelint.summarise.statements import names_settings
from retracelint.summarise.syntax import ENDS_BLOCK, ast_span, bound_names, own_nodes
from retracelint.summary import Arg, Callee, CallSite, FunctionSummary, LoopInfo, ModuleSummary
from retracelint.values import (
    ARRAYS,
    DICT,
    FUNCTION,
    INSTANCE,
    JIT,
    JIT_RESULTS,
    LAMBDA,
    LIST,
    PARTIAL,
    SCALARS,
    SET,
    STR,
    TRANSFORM,
    TUPLE,
    ChoiceSrc,
    LoopSrc,
    Made,
    ParamDep,
    ParamSrc,
    RetDep,
    Value,
)

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
# Calls that replace an attribute or a dotted name for the duration of a test.
_PATCHERS = frozenset({"patch", "patch.object", "setattr", "patch.dict"})


def sources_of(
    project: Project, read_lines: Callable[[str], list[str]], parsed: dict[str, Parsed] | None
) -> _Sources:
    """The source of the project's files, read as asked: ``read_lines`` gives a file's lines as the
    run reads it (standard input for its file). ``parsed``: the trees of the files a run before
    parsed, by path, each with its text (a long-lived process's, which an unchanged file's tree is
    taken from, and which the trees parsed here join)."""
    return _Sources(project, read_lines, parsed if parsed is not None else {})


@dataclass
class Paths:
    """What the source says of the paths two values meet on, asked by the checks that pair them
    (``Propagation.paths``): the same facts ``assess`` weighs each chain by."""

    project: Project
    prop: Propagation
    sources: _Sources
    _never: dict[tuple[Location, JitSite], bool] = field(default_factory=dict)
    _runs: RunArms | None = None

    def never_made(self, at: Location, site: JitSite) -> bool:
        """``never_made`` of the call at ``at``, once per call and jit (asked of each pair)."""
        key = (at, site)
        if key not in self._never:
            self._never[key] = never_made(self.project, self.prop, self.sources, at, site)
        return self._never[key]

    def overwritten(self, owner: FunctionSummary, at: Location) -> bool:
        """``_overwritten`` of the store of ``self.attr`` at ``at`` in method ``owner``."""
        return _overwritten(self.project, self.sources, owner, at, 0)

    def apart(self, a: tuple[str, int], b: tuple[str, int]) -> bool:
        """Whether the calls ``a`` and ``b`` (function, call index) sit on the two sides of a test
        that keeps its side for the whole run (``run_arms``): no process runs both."""
        if self._runs is None:
            self._runs = RunArms(self.project, self.prop.frequency, self.sources.program_start)
        return self._runs.apart(a, b)


def assess(
    project: Project, prop: Propagation, findings: list[Finding], sources: _Sources
) -> list[Finding]:
    """The findings whose chain can run, each with the assumptions it rests on."""
    out = []
    for finding in findings:
        places = _places(finding)
        if (
            any(sources.unreachable(at) for at, _ in places)
            or sources.repeats_call(places[-1][0])
            or _self_of_another_class(project, sources, finding)
        ):
            continue
        decided = [a for at, chain in places for a in sources.branches(prop, at, chain)]
        decided += _returns_taken(project, prop, sources, finding)
        if None in decided:
            continue  # every known call passes what switches a branch of the chain off
        if not _one_side_each(
            prop, sources, finding, [*places, *_jit_made(project, sources, finding)]
        ):
            continue  # one flag read twice on the chain, each time the other way
        site, path = finding.jit_site, finding.call_path
        if _paired_off(project, prop, sources, finding) or (
            site and path and never_made(project, prop, sources, path[-1].location, site)
        ):
            continue  # the function it calls is never given with the flag that runs the call
        assumptions = tuple(_assumptions(project, prop, sources, finding, places, decided))
        told = replace(finding, bound=_bound(prop, sources, finding), item=_item(sources, finding))
        out.append(weighed(told, assumptions))
    return out


def _item(sources: _Sources, finding: Finding) -> Location | None:
    """The for loop around a shape's or a static argument's finding whose unpacked item alone gives
    what changes (``Finding.item``): the bounds of a slice, or the static value, read off the
    item's names (``for start, end, n in batches``), or off a name the loop binds once from them
    and from what the loop leaves alone (``n = len(np.unique(panels[start:end]))``)."""
    at = finding.made_at
    if not finding.code.startswith(("RTL10", "RTL20")):
        return None
    loop = next(
        (s for s, _ in reversed(sources.enclosing(at)) if isinstance(s, (*_DEFS, *_LOOPS))), None
    )
    if not isinstance(loop, ast.For) or not isinstance(loop.target, ast.Tuple):
        return None
    # Indexed once per statement: walking it per finding was quadratic in a chain of slices.
    node = sources.expression_at(at)
    if finding.code.startswith("RTL10"):
        # What starts there may hold the slice (``x[start:end] - x[start]``).
        node = next(
            (
                n.slice
                for n in ast.walk(node)
                if isinstance(n, ast.Subscript)
                and isinstance(n.slice, ast.Slice)
                and _starts_at(n, at)
            ),
            None,
        )
    target: ast.expr = loop.target
    if isinstance(loop.iter, ast.Call) and last_name(loop.iter.func) == "enumerate":
        target = loop.target.elts[-1]  # the count beside it is no part of the item
    item = {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    stores, bound = sources.loop_names(loop)
    if (
        node is None
        or any(stores[name] for name in item)
        or not _read_off(node, item, stores, bound, True)
    ):
        return None
    return Location(at.path, loop.lineno, loop.col_offset + 1)


def _read_off(
    expr: ast.AST, item: set[str], stores: Counter[str], bound: dict[str, ast.expr], follow: bool
) -> bool:
    """Whether ``expr`` reads names of the loop's item and otherwise names the loop leaves alone,
    or (``follow``) names its body binds once, at its top level, from those."""
    names = {n.id for n in ast.walk(expr) if _loads(n)}
    made = {name for name in names - item if stores[name]}
    return all(
        follow
        and stores[name] == 1
        and name in bound
        and _read_off(bound[name], item, stores, bound, False)
        for name in made
    ) and bool(names & item or made)


def _loads(node: ast.AST) -> TypeGuard[ast.Name]:
    return isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)


def _stores_name(node: ast.AST) -> TypeGuard[ast.Name]:
    return isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)


def _bound(prop: Propagation, sources: _Sources, finding: Finding) -> Bound | None:
    """What caps a finding's re-traces: what its driver or its rule found, else what the source
    of its value says (a few sections of a loop, a key of a table, a count kept under a cap)."""
    return (
        finding.bound
        or _in_sections(prop, sources, finding.made_at)
        or _picked(sources, finding)
        or _drawn(sources, finding)
        or _bucketed(sources, finding)
        or _capped(sources, finding)
        or _last_batch(sources, finding)
        or _sampled(prop, sources, finding)
        or _rows_bound(prop, sources, finding)
    )


def _rows_bound(prop: Propagation, sources: _Sources, finding: Finding) -> Bound | None:
    """One trace per row of the steady collections a loop over indices reads the value off, where
    their items are written out or not shown (an assumption then)."""
    rows = _indexed(prop, sources, finding)
    if rows is None or rows.proof == _DISTINCT:
        return None  # items each another, as many as the run makes: no cap
    return Bound(f"one per item of {rows.names}")


def _sampled(prop: Propagation, sources: _Sources, finding: Finding) -> Bound | None:
    """Whether the chain runs only at the iterations of its driver's loop over a ``range`` whose
    index a membership test picks from a collection of a fixed count (``if epoch in video_epochs``,
    ``video_epochs = np.linspace(0, epochs - 1, num_videos)``, or a display): at most that many
    times per walk of the loop, however long the run, in a function no loop repeats without
    bound. Asked at the driver's call, else (a loop driver) at the chain's places in its file."""
    driver = finding.driver
    if driver is None:
        return None
    places = [at for at, _ in _places(finding) if at.path == driver.path]
    for at in (driver, *places):
        loop, picks = _picking(sources, at)
        if loop is None or picks is None or not _holds(loop, driver.line):
            continue
        index = cast(ast.Name, loop.target).id
        test = picks.test
        both = isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And)
        for part in test.values if both else [test]:  # type: ignore[attr-defined]
            chosen = _member_of(part, index)
            count = _fixed_count(_scopes(sources, at), chosen) if chosen is not None else None
            if chosen is None or count is None:
                continue
            owner = sources.function_at(at)
            again = prop.repeated(owner) if owner is not None else None
            if again is not None and again.grows:
                return None
            return Bound(f"one per item of `{chosen}`", count if isinstance(count, int) else None)
    return None


def _picking(
    sources: _Sources, at: Location
) -> tuple[ast.For | ast.AsyncFor | None, ast.If | None]:
    """The innermost loop around ``at`` in its function, when a for loop over a ``range``, and the
    ``if`` inside it whose body holds ``at`` (with no loop between)."""
    loop: ast.For | ast.AsyncFor | None = None
    picks: ast.If | None = None
    for stmt, _ in sources.enclosing(at):
        if isinstance(stmt, (*_DEFS, *_LOOPS)):
            loop, picks = (stmt if isinstance(stmt, ast.For | ast.AsyncFor) else None), None
        elif isinstance(stmt, ast.If) and loop is not None and picks is None:
            picks = stmt if any(_holds(s, at.line) for s in stmt.body) else None
    return (loop, picks) if loop is not None and _walks_range(loop) else (None, None)


def _walks_range(loop: ast.For | ast.AsyncFor) -> bool:
    """Whether ``loop`` binds one name to the ints of a ``range``, each met once per walk."""
    it = loop.iter
    return (
        isinstance(loop.target, ast.Name)
        and isinstance(it, ast.Call)
        and isinstance(it.func, ast.Name)
        and it.func.id == "range"
    )


def _member_of(test: ast.expr, index: str) -> str | None:
    """The name of the collection ``test`` asks ``index`` to be in (``epoch in video_epochs``)."""
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.In)
        and isinstance(test.left, ast.Name)
        and test.left.id == index
        and isinstance(test.comparators[0], ast.Name)
    ):
        return None
    return test.comparators[0].id


def _fixed_count(scopes: list[ast.AST], name: str) -> int | str | None:
    """How many items ``name``, bound once and never resized, holds whatever the run's length: a
    display's items, the count a ``linspace`` is told (an int, or the code that gives it), through
    ``.astype(...)``, ``set(...)``, ``list(...)`` and the like; None when not fixed."""
    bound = _binding(scopes, name)
    if bound is None or any(_resizes(n, name) for n in ast.walk(bound[0])):
        return None
    value: ast.expr | None = bound[1].value
    while isinstance(value, ast.Call) and last_name(value.func) in _KEEP_ITEMS | _KEEP_COUNT:
        inner = value.func.value if isinstance(value.func, ast.Attribute) else None
        value = inner if last_name(value.func) == "astype" else (value.args or [None])[0]
    if isinstance(value, ast.List | ast.Tuple | ast.Set):
        starred = any(isinstance(e, ast.Starred) for e in value.elts)
        return None if starred else len(value.elts)
    sized = counted(last_name(value.func)) if isinstance(value, ast.Call) else None
    if sized is None or not isinstance(value, ast.Call):
        return None
    given = next((k.value for k in value.keywords if k.arg == sized.keyword), None)
    if given is None and sized.position is not None and len(value.args) > sized.position:
        given = value.args[sized.position]
    if given is None:
        return sized.default
    if isinstance(given, ast.Constant) and type(given.value) is int:
        return given.value
    return _code(given)


# Calls that keep how many items their argument (or receiver) holds: ``np.linspace(...).astype(int)``.
_KEEP_COUNT = frozenset({"set", "array", "asarray", "astype"})


def _resizes(node: ast.AST, name: str) -> bool:
    """Whether ``node`` changes how many items ``name`` holds: a method call on it
    (``picks.append(x)``), ``picks += [x]``, ``del picks[0]``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return isinstance(node.func.value, ast.Name) and node.func.value.id == name
    if isinstance(node, ast.AugAssign):
        return _root(node.target) == name
    if isinstance(node, ast.Delete):
        return any(_root(t) == name for t in node.targets)
    return False


# What a loop's collection is walked through, item for item (``zip(loader_a, loader_b)``).
_WALKED_THROUGH = frozenset({"zip", "enumerate", "tqdm"})


def _last_batch(sources: _Sources, finding: Finding) -> Bound | None:
    """Whether a shape finding's size is the length of a batch (``batch.shape[0]``) a loop takes
    from PyTorch ``DataLoader``s kept without ``drop_last`` (through ``zip``, ``enumerate``,
    ``tqdm``): full batches and the one short last batch, two shapes however many epochs, as
    RTL103 says of the loader (round 31 S1)."""
    at = finding.made_at
    stmt = sources.statement_at(at)
    tree = sources.tree(at.path)
    if finding.code != "RTL105" or stmt is None or tree is None:
        return None
    node = sources.expression_at(at)
    if node is None:
        return None
    batches = {
        n.value.value.id
        for n in ast.walk(node)
        if isinstance(n, ast.Subscript)
        and isinstance(n.value, ast.Attribute)
        and n.value.attr == "shape"
        and isinstance(n.value.value, ast.Name)
    }
    scopes = _scopes(sources, at)
    for around, _ in sources.enclosing(at):
        if not isinstance(around, ast.For | ast.AsyncFor) or not any(
            _stores(around.target, name) for name in batches
        ):
            continue
        loaders = [_short_last(tree, scopes, part) for part in _walked_parts(around.iter)]
        if loaders and None not in loaders:
            made = loaders[0]
            where = Location(at.path, made.lineno, made.col_offset + 1)  # type: ignore[union-attr]
            return Bound("the full batches and the short last one", 2, at=where)
    return None


def _walked_parts(node: ast.expr) -> list[ast.expr]:
    """The collections a loop over ``node`` takes its items from, through ``_WALKED_THROUGH``."""
    if isinstance(node, ast.Call) and last_name(node.func) in _WALKED_THROUGH and node.args:
        args = node.args if last_name(node.func) == "zip" else node.args[:1]
        return [part for arg in args for part in _walked_parts(arg)]
    return [node]


def _short_last(tree: ast.Module, scopes: list[ast.AST], node: ast.expr) -> ast.Call | None:
    """The PyTorch ``DataLoader`` without ``drop_last`` that ``node`` is (or a name bound once to);
    None when it is none."""
    if isinstance(node, ast.Name):
        bound = _binding(scopes, node.id)
        node = bound[1].value if bound is not None else node
    loader = (
        isinstance(node, ast.Call)
        and last_name(node.func) == "DataLoader"
        and not any(k.arg == "drop_last" for k in node.keywords)
        and any(
            isinstance(stmt, ast.ImportFrom)
            and (stmt.module or "").startswith("torch")
            and any(alias.name == "DataLoader" for alias in stmt.names)
            for stmt in ast.walk(tree)
        )
    )
    return node if loader else None  # type: ignore[return-value]


def weighed(finding: Finding, assumptions: tuple[Assumption, ...]) -> Finding:
    """``finding`` with its assumptions and its severity; a proven one that its rule claims as an
    error but a bound keeps a warning ends its message with the bound ("at most 2 traces: one per value of
    `s`"), so that a deliberate sweep reads apart from a leak."""
    told = finding.severity == "error" and finding.bound is not None and not assumptions
    return replace(
        finding,
        assumptions=assumptions,
        severity=severity(finding, assumptions),
        message=f"{finding.message} ({finding.bound})" if told else finding.message,
    )


def severity(finding: Finding, assumptions: tuple[Assumption, ...]) -> str:
    """Error only for re-traces that grow with the run, on a chain proven whole; else a warning."""
    unbounded = finding.severity == "error" and finding.grows
    return "error" if unbounded and not assumptions else "warning"


def _in_sections(prop: Propagation, sources: _Sources, at: Location) -> Bound | None:
    """Whether ``at`` runs only at the first step of each of a few sections of a loop over a range
    (``if step % (num_steps // k) == 0:`` in ``for step in range(..., num_steps)``): k times or so
    per walk of the loop however long the run, in a function that runs no more often than a loop
    over a bounded collection makes it. The count is per site, not per iteration."""
    walks: dict[str, ast.expr] = {}  # each loop variable around ``at``: what its loop walks
    section: ast.If | None = None  # the ``if`` that runs ``at`` once per section
    for stmt, _ in sources.enclosing(at):
        if isinstance(stmt, _DEFS):
            walks.clear()
            section = None
        elif isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            section = None  # a loop inside the section repeats what it holds
            if isinstance(stmt, ast.For | ast.AsyncFor) and isinstance(stmt.target, ast.Name):
                walks[stmt.target.id] = stmt.iter
        elif (
            isinstance(stmt, ast.If)
            and section is None
            and any(_holds(s, at.line) for s in stmt.body)
            and any(
                name in walks and _mentions(walks[name], total)
                for name, total in _section_tests(stmt.test)
            )
        ):
            section = stmt
    if section is None:
        return None
    owner = sources.function_at(at)
    again = prop.repeated(owner) if owner is not None else None
    if again is not None and again.grows:
        return None
    return Bound(f"one per section of its loop, `{_code(section.test)}`")


def _picked(sources: _Sources, finding: Finding) -> Bound | None:
    """Whether a static argument is (read off) an item that each iteration looks up in a table by
    one of a list of keys, neither of which the loops change (``task = task_reg[task_ids[i]]``,
    then ``task.cond_fn``: a registry of the configured tasks): it takes one value per key at most,
    however long the run."""
    at = finding.made_at
    stmt = sources.statement_at(at)
    if finding.code != "RTL201" or stmt is None:
        return None
    node = sources.expression_at(at)
    name = _root(node) if node is not None else None
    loops: list[ast.stmt] = []  # the loops around ``at``, in its function, innermost first
    for around, _ in reversed(sources.enclosing(at)):
        if isinstance(around, _DEFS):
            break
        if isinstance(around, _LOOPS):
            loops.append(around)
    if name is None or not loops:
        return None
    # The one place the innermost loop binds the name (under a ``with`` or an ``if`` too).
    stores = [
        n
        for n in ast.walk(loops[0])
        if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
    ]
    binds = [n for n in ast.walk(loops[0]) if isinstance(n, ast.Assign) and n.targets == stores]
    if len(stores) != 1 or len(binds) != 1:
        return None
    picked = binds[0].value
    if not (
        isinstance(picked, ast.Subscript)
        and isinstance(picked.value, ast.Name)
        and not isinstance(picked.slice, ast.Slice)
    ):
        return None
    table, key = picked.value.id, picked.slice
    keys = (
        key.value.id
        if isinstance(key, ast.Subscript)
        and isinstance(key.value, ast.Name)
        and not isinstance(key.slice, ast.Slice)
        else None
    )
    if keys is None and not _dict_table(_scopes(sources, at), table):
        return None
    fixed = {table} | ({keys} if keys else set())
    walked = {
        n.id
        for loop in loops
        if isinstance(loop, ast.For | ast.AsyncFor)
        for n in ast.walk(loop.target)
        if isinstance(n, ast.Name)
    }
    if not fixed.isdisjoint(walked) or any(
        _touches(part, fixed) for loop in loops for part in loop.body
    ):
        return None
    if keys is None:
        return Bound(f"one per value of the table `{table}`")
    return Bound(f"one per key of `{keys}`")


def _stores(node: ast.AST, name: str) -> bool:
    """Whether ``node`` or what it holds binds ``name``."""
    return any(_binds(part, name) for part in ast.walk(node))


def _scopes(sources: _Sources, at: Location) -> list[ast.AST]:
    """The defs around ``at``, innermost first, then its module: where a name it reads is bound."""
    defs = [around for around, _ in sources.enclosing(at) if isinstance(around, _DEFS)]
    tree = sources.tree(at.path)
    return [*reversed(defs), *([tree] if tree is not None else [])]


def _binding(scopes: list[ast.AST], name: str) -> tuple[ast.AST, ast.Assign] | None:
    """The scope that binds ``name`` (the innermost that does) and its one assignment there."""
    scope = next((s for s in scopes if _bindings(s, name)), None)
    assign = _sole_assignment(scope, name) if scope is not None else None
    return (scope, assign) if scope is not None and assign is not None else None


def _dict_table(scopes: list[ast.AST], name: str) -> bool:
    """Whether ``name`` is bound once to a dict (a display, ``{}`` filled by item, ``dict(...)``):
    a lookup in it gives one of its values, however many keys are asked."""
    bound = _binding(scopes, name)
    value = bound[1].value if bound is not None else None
    return isinstance(value, ast.Dict) or (
        isinstance(value, ast.Call) and last_name(value.func) == "dict"
    )


# What keeps the items a loop walks: ``for d in sorted(dims)`` walks the items of ``dims``.
_KEEP_ITEMS = frozenset({"sorted", "list", "tuple", "reversed"})


def _drawn(sources: _Sources, finding: Finding) -> Bound | None:
    """Whether a static argument is the item a loop around its call takes from a collection a
    configuration holds: an attribute of it named as settings, not data (``for dim in
    config.mlp_dims``, through a local bound once to it, in the function or one around it), a
    display, or a list filled once only with tuples of such items (``combos.append((d1, d2))``
    under ``for d1 in dims: for d2 in dims``, a warm-up over width pairs). The loops around the call
    (a loop over batches too) take it from the same few values again: one trace per item."""
    at = finding.made_at
    stmt = sources.statement_at(at)
    if finding.code != "RTL201" or stmt is None:
        return None
    node = sources.expression_at(at)
    if not isinstance(node, ast.Name):
        return None
    loops: list[ast.For | ast.AsyncFor] = []  # the for loops around ``at`` in its function
    for around, _ in sources.enclosing(at):
        if isinstance(around, _DEFS):
            loops.clear()
        elif isinstance(around, ast.For | ast.AsyncFor):
            loops.append(around)
    # A comprehension of the statement around the call walks too (``[f(d) for d in dims]``).
    walks: list[tuple[ast.expr, ast.expr, list[ast.AST]]] = [
        (loop.target, loop.iter, list(loop.body)) for loop in loops
    ]
    walks += [
        (made.target, made.iter, [])
        for made in ast.walk(stmt)
        if isinstance(made, ast.comprehension)
        and any(part is node for part in ast.walk(_comprehension_of(stmt, made)))
    ]
    taking = next((walk for walk in reversed(walks) if _stores(walk[0], node.id)), None)
    if taking is None or any(_stores(part, node.id) for part in taking[2]):
        return None
    held = _settings_items(_scopes(sources, at), taking[1], set())
    if held is None or any(_touches(part, {held}) for loop in loops for part in loop.body):
        return None
    return Bound(f"one per item of `{held}`")


# The rules whose value is a size or a static count that a bucket may set.
_BUCKETED_RULES = frozenset({"RTL101", "RTL105", "RTL201"})


def _bucketed(sources: _Sources, finding: Finding) -> Bound | None:
    """Whether the size a shape finding's expression gives (``jnp.pad(x, (0, padded - n))``,
    ``x[:padded]``) or its static count is a name its function binds once to what a helper of the
    project returns (``pad_size(n, "pixels")``, through ``int``), or to a part of it (``start,
    size = chunk`` for each chunk of the list ``chunker(n)`` returns), whose body rounds sizes to a
    few buckets (``buckets.buckets_sizes``): a project that buckets its sizes so that jit traces
    few times makes a few sizes, however long the run (round 28 S1, round 30 S1)."""
    at = finding.made_at
    stmt = sources.statement_at(at)
    scopes = _scopes(sources, at)
    qualname = sources.function_at(at)
    if finding.code not in _BUCKETED_RULES or stmt is None or not scopes or qualname is None:
        return None
    node = sources.expression_at(at)
    names = sorted({n.id for n in ast.walk(node) if isinstance(n, ast.Name)}) if node else []
    for name in names:
        made = _part_made(scopes[0], name)
        helper = _bucket_helper(sources, qualname, *made) if made is not None else None
        if helper is not None:
            return Bound(f"`{name}` bucketed by `{helper}`")
    return None


def _part_made(scope: ast.AST, name: str) -> tuple[ast.Call, tuple[Step, ...]] | None:
    """The call whose result ``name`` is, bound once in ``scope``, and the part of that result it
    is: through ``int``, unpacking (``start, size = chunk``) and loops over the result, one of its
    items or of what ``enumerate`` pairs them with (``for i, chunk in enumerate(chunks)``)."""
    path: tuple[Step, ...] = ()
    for _ in range(_MAX_PARTS):
        binders = [s for s in _own_statements(scope) if name in bound_by(s)]
        if len(binders) != 1:
            return None
        (stmt,) = binders
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.For):
            target, value = stmt.target, stmt.iter
        else:
            return None
        where = _position(target, name)
        if where is None:
            return None
        path = (ITEM, *where, *path) if isinstance(stmt, ast.For) else (*where, *path)
        if isinstance(stmt, ast.For) and _enumerated(value) and path[1:2] == (1,):
            path, value = (ITEM, *path[2:]), value.args[0]  # type: ignore[attr-defined]
        value = _kept(value)
        if isinstance(value, ast.Call):
            return value, path
        if not isinstance(value, ast.Name):
            return None
        name = value.id
    return None


_MAX_PARTS = 4  # names followed back from the size to the call


def _own_statements(scope: ast.AST) -> list[ast.stmt]:
    return [n for n in own_nodes(scope.body) if isinstance(n, ast.stmt)]  # type: ignore[attr-defined]


def _position(target: ast.expr, name: str) -> tuple[int, ...] | None:
    """Where ``name`` is in an unpacking target: () for the name itself, (k,) for the k-th of a
    tuple of names; None deeper (``for i, (a, b) in ...``)."""
    if isinstance(target, ast.Tuple | ast.List):
        return next(
            ((i,) for i, e in enumerate(target.elts) if isinstance(e, ast.Name) and e.id == name),
            None,
        )
    return ()


def _enumerated(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and last_name(node.func) == "enumerate" and bool(node.args)


def _kept(value: ast.expr) -> ast.expr:
    """``value`` through the conversions that keep the number they are given (``int(...)``)."""
    while (
        isinstance(value, ast.Call)
        and last_name(value.func) in KEEPING
        and len(value.args) == 1
        and not value.keywords
    ):
        value = value.args[0]
    return value


def _bucket_helper(
    sources: _Sources, qualname: str, call: ast.Call, path: tuple[Step, ...]
) -> str | None:
    """The name of the helper ``call`` (written in ``qualname``) runs when its body rounds sizes,
    at ``path`` of what it returns, to a few buckets (``buckets.buckets_sizes``), else None."""
    helper = _called_helper(sources, qualname, call)
    resolve = partial(_resolved_in, sources)
    bucketed = helper is not None and buckets_sizes(helper, resolve, path)
    return last_name(call.func) if bucketed else None


def _resolved_in(sources: _Sources, call: ast.Call, within: Helper) -> Helper | None:
    return _called_helper(sources, within.qualname, call)


def _called_helper(sources: _Sources, qualname: str, call: ast.Call) -> Helper | None:
    """The one function of the project that ``call``, written in ``qualname``, runs (imported, a
    method), as written; None when it is none or several."""
    project = sources.project
    fn = project.functions.get(qualname)
    site = sources._site_of(fn, call) if fn is not None else None
    targets = project.site_targets.get(site, ()) if site is not None else ()
    funcs = [t for t in targets if isinstance(t, FuncTarget)]
    callee = project.functions.get(funcs[0].qualname) if len(funcs) == len(targets) == 1 else None
    node = sources.scope_of(callee) if callee is not None else None
    tree = sources.tree(callee.location.path) if callee is not None else None
    if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or tree is None:
        return None
    return Helper(node, tree, callee.qualname)  # type: ignore[union-attr]


def _comprehension_of(stmt: ast.stmt, generator: ast.comprehension) -> ast.expr:
    """The comprehension that ``generator`` is one of."""
    return next(
        n
        for n in ast.walk(stmt)
        if isinstance(n, _COMPREHENSION_KINDS) and generator in n.generators
    )


_COMPREHENSION_KINDS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _settings_items(scopes: list[ast.AST], node: ast.expr, seen: set[str]) -> str | None:
    """What a loop over ``node`` walks, as the bound names it, where it is a collection of settings
    (``_drawn``); else None."""
    if isinstance(node, ast.Call) and last_name(node.func) in _KEEP_ITEMS and len(node.args) == 1:
        return _settings_items(scopes, node.args[0], seen)
    if isinstance(node, ast.List | ast.Tuple | ast.Set) and node.elts:
        return _code(node)
    if _configured(node):
        return _code(node)
    if not isinstance(node, ast.Name) or node.id in seen:
        return None
    bound = _binding(scopes, node.id)
    if bound is None:
        return None
    scope, assign = bound
    seen = seen | {node.id}
    if _settings_items(scopes, assign.value, seen) is not None:
        return node.id
    filled = isinstance(assign.value, ast.List) and not assign.value.elts
    return node.id if filled and _filled_with_items(scopes, scope, node.id, seen) else None


def _configured(node: ast.expr) -> bool:
    """An attribute a configuration holds named as settings (``config.elastic_mlp_dims``,
    ``getattr(cfg, "top_ks", [0, 1])``): read once, the same items each time round."""
    if isinstance(node, ast.Call) and last_name(node.func) == "getattr" and len(node.args) >= 2:
        key = node.args[1]
        return (
            isinstance(key, ast.Constant)
            and isinstance(key.value, str)
            and names_settings(key.value)
        )
    return (
        isinstance(node, ast.Attribute)
        and _root(node) is not None
        and _root(node) != "self"
        and names_settings(node.attr)
    )


def _filled_with_items(scopes: list[ast.AST], scope: ast.AST, name: str, seen: set[str]) -> bool:
    """Whether every change of the list ``name`` in ``scope`` appends a tuple of (or one) item of
    loops around the append that walk collections of settings."""
    fills = 0
    for loop in ast.walk(scope):
        if not isinstance(loop, ast.For | ast.AsyncFor):
            continue
        for part in loop.body:
            if not _touches_directly(part, name):
                continue
            if not (
                isinstance(part, ast.Expr) and _appends_items(scopes, scope, part.value, name, seen)
            ):
                return False
            fills += 1
    changes = sum(
        1
        for part in ast.walk(scope)
        if isinstance(part, ast.stmt) and _touches_directly(part, name)
    )
    return fills > 0 and changes == fills + 1  # the ``= []`` and the appends, nothing else


def _touches_directly(stmt: ast.stmt, name: str) -> bool:
    """Whether ``stmt`` itself, not a block it holds, may change ``name``."""
    return next(_blocks(stmt), None) is None and _touches(stmt, {name})


def _appends_items(
    scopes: list[ast.AST], scope: ast.AST, call: ast.expr, name: str, seen: set[str]
) -> bool:
    """Whether ``call`` is ``name.append(item)`` or ``name.append((a, b))`` where each is the target
    of a loop around it that walks a collection of settings."""
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "append"
        and _is_name_of(call.func.value, name)
        and len(call.args) == 1
    ):
        return False
    item = call.args[0]
    parts = item.elts if isinstance(item, ast.Tuple) else [item]
    around = [
        loop
        for loop in ast.walk(scope)
        if isinstance(loop, ast.For | ast.AsyncFor) and any(n is call for n in ast.walk(loop))
    ]
    return all(
        isinstance(part, ast.Name)
        and any(
            _stores(loop.target, part.id) and _settings_items(scopes, loop.iter, seen) is not None
            for loop in around
        )
        for part in parts
    )


def _capped(sources: _Sources, finding: Finding) -> Bound | None:
    """Whether a static argument is a local count that every store keeps under a cap: a constant
    (a reset), ``min(..., cap)`` or a clip, a copy of such a count, or a step (``n += k``) under a
    ``while`` whose test bounds it (``while err > tol and n < cap``). An adaptive iteration count
    retried up to a cap takes a few values however long the run, each traced once: bounded (round
    23, S1). So does an array made (RTL105) with such counts for the sizes that its loops change
    (a bond dimension grown up to ``max_bond_dim``: ``zeros((chi, d, d, chi))``, round 26 S1). A
    static local bound once to what takes two values is bounded too (``_bound_to_two_values``). A
    parameter is not: its callers may pass anything."""
    at = finding.made_at
    stmt = sources.statement_at(at)
    if finding.code not in ("RTL201", "RTL105") or stmt is None:
        return None
    node = sources.expression_at(at)
    if isinstance(node, ast.Call) and last_name(node.func) in KEEPING and node.args:
        node = node.args[0]  # ``int(n_iter)``: the count itself
    defs = [around for around, _ in sources.enclosing(at) if isinstance(around, _DEFS)]
    tree = sources.tree(at.path)
    scope = defs[-1] if defs else tree
    if scope is None:
        return None
    params = _parameter_names(defs[-1]) if defs else set()
    if finding.code == "RTL201":
        names = [node.id] if isinstance(node, ast.Name) and node.id not in params else []
    else:
        names = _sizes_set_in_loops(sources, at, node, params)
    if finding.code == "RTL201" and names and _bound_to_two_values(scope, names[0]):
        return Bound(f"one per value of `{names[0]}`", 2)
    if not names or not all(_kept_under_cap(scope, name, {name}) for name in names):
        return None
    return Bound(f"{', '.join(f'`{n}`' for n in names)} kept under a cap")


def _bound_to_two_values(scope: ast.AST, name: str) -> bool:
    """Whether ``name`` is bound once in ``scope``, to what takes two values: a comparison, a
    ``not``, ``int``/``bool`` of one (a spin channel, ``s = int(e >= n_up)``, round 28 S1), or a
    choice between two literals. However long the loop runs, two traces."""
    stores = list(_stores_of(scope.body, name, ()))  # type: ignore[attr-defined]
    return (
        len(stores) == 1 and isinstance(stores[0][0], ast.Assign) and _takes_two(stores[0][0].value)
    )


def _takes_two(node: ast.expr) -> bool:
    if isinstance(node, ast.Compare) or (
        isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    ):
        return True
    if isinstance(node, ast.BoolOp):
        return all(_takes_two(value) for value in node.values)
    if isinstance(node, ast.IfExp):
        return isinstance(node.body, ast.Constant) and isinstance(node.orelse, ast.Constant)
    return (
        isinstance(node, ast.Call)
        and last_name(node.func) in ("int", "bool")
        and len(node.args) == 1
        and not node.keywords
        and _takes_two(node.args[0])
    )


def _sizes_set_in_loops(
    sources: _Sources, at: Location, node: ast.expr | None, params: set[str]
) -> list[str]:
    """The names in the shape an array constructor ``node`` is given (a tuple or list of sizes,
    ``zeros((chi, d))``, ``normal(key, (chi, d))``, else its first argument, ``zeros(n)``) that a
    loop around ``at`` binds: the sizes that change from one iteration to the next."""
    if not (isinstance(node, ast.Call) and node.args):
        return []
    given = [*node.args, *(k.value for k in node.keywords)]
    shapes = [a for a in given if isinstance(a, ast.Tuple | ast.List)] or node.args[:1]
    loops = [around for around, _ in sources.enclosing(at) if isinstance(around, _LOOPS)]
    named = {n.id for s in shapes for n in ast.walk(s) if isinstance(n, ast.Name)} - params
    return sorted(
        name for name in named if any(next(_stores_of(loop.body, name, ()), None) for loop in loops)
    )


def _kept_under_cap(scope: ast.AST, name: str, seen: set[str]) -> bool:
    """Whether every store of ``name`` in ``scope`` keeps it under a cap (``_keeps_under_cap``),
    or copies a local name every store of which does (``chi = n_keep``)."""
    stores = list(_stores_of(scope.body, name, ()))  # type: ignore[attr-defined]
    return bool(stores) and all(
        _keeps_under_cap(store, name, whiles) or _copies_capped(scope, store, seen)
        for store, whiles in stores
    )


def _copies_capped(scope: ast.AST, store: ast.stmt, seen: set[str]) -> bool:
    """Whether ``store`` binds a name to another local name kept under a cap."""
    value = store.value if isinstance(store, ast.Assign) else None
    if not isinstance(value, ast.Name) or value.id in seen:
        return False
    return _kept_under_cap(scope, value.id, seen | {value.id})


def _parameter_names(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    args = fn.args
    every = (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
    return {a.arg for a in every if a is not None}


def _stores_of(
    body: list[ast.stmt], name: str, whiles: tuple[ast.While, ...]
) -> Iterator[tuple[ast.stmt, tuple[ast.While, ...]]]:
    """Each statement of ``body`` (nested blocks too, not nested defs) that binds ``name``, with
    the ``while`` loops around it."""
    for stmt in body:
        if isinstance(stmt, (*_DEFS, ast.ClassDef)):
            continue
        heads = [stmt] if not isinstance(stmt, (*_LOOPS, ast.If, ast.With, ast.Try)) else []
        if isinstance(stmt, ast.For | ast.AsyncFor):
            heads = [stmt.target]  # type: ignore[list-item]
        bound = any(
            isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
            for head in heads
            for n in ast.walk(head)
        )
        if bound:
            yield stmt, whiles
        inner = (*whiles, stmt) if isinstance(stmt, ast.While) else whiles
        for block in _blocks(stmt):
            yield from _stores_of(block, name, inner)


def _keeps_under_cap(stmt: ast.stmt, name: str, whiles: tuple[ast.While, ...]) -> bool:
    """Whether a store of ``name`` keeps it among a bounded set: a number, a minimum or a clip,
    or a step under a ``while`` whose test bounds it."""
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name):
        return _stepped_to_bound(stmt.op, name, whiles)
    if not isinstance(stmt, ast.Assign | ast.AnnAssign) or stmt.value is None:
        return False
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
    if not all(isinstance(t, ast.Name) for t in targets):
        return False
    value = stmt.value
    if isinstance(value, ast.Constant) and type(value.value) in (int, float):
        return True
    if isinstance(value, ast.Call) and last_name(value.func) in CAPS:
        return len(value.args) + len(value.keywords) >= 2
    return (
        isinstance(value, ast.BinOp)
        and isinstance(value.left, ast.Name)
        and value.left.id == name
        and _stepped_to_bound(value.op, name, whiles)
    )


def _stepped_to_bound(op: ast.operator, name: str, whiles: tuple[ast.While, ...]) -> bool:
    """Whether ``name`` stepped by ``op`` (up, or down) runs in a ``while`` that stops it past a
    bound on that side (``n < cap`` for a step up)."""
    if not isinstance(op, ast.Add | ast.Sub):
        return False
    up = isinstance(op, ast.Add)
    return any(_bounds(loop.test, name, up) for loop in whiles)


def _bounds(test: ast.expr, name: str, up: bool) -> bool:
    """Whether a loop's test (or one of its ``and`` conjuncts) bounds ``name`` from above (``n <
    cap``, ``cap >= n``), or with ``up`` False from below: the loop stops stepping it past there."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_bounds(value, name, up) for value in test.values)
    if not isinstance(test, ast.Compare) or len(test.ops) != 1:
        return False
    left, op, right = test.left, test.ops[0], test.comparators[0]
    below, above = (ast.Lt, ast.LtE), (ast.Gt, ast.GtE)
    if not up:
        below, above = above, below
    return (_is_name_of(left, name) and isinstance(op, below)) or (
        _is_name_of(right, name) and isinstance(op, above)
    )


def _section_tests(test: ast.expr) -> Iterator[tuple[str, ast.expr]]:
    """The (variable, total) of each conjunct of ``test`` that says ``variable % (total // k) == 0``
    (or ``not variable % (total // k)``)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        for value in test.values:
            yield from _section_tests(value)
        return
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        rest: ast.expr = test.operand
    elif (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == 0
    ):
        rest = test.left
    else:
        return
    if (
        isinstance(rest, ast.BinOp)
        and isinstance(rest.op, ast.Mod)
        and isinstance(rest.left, ast.Name)
        and isinstance(rest.right, ast.BinOp)
        and isinstance(rest.right.op, ast.FloorDiv)
    ):
        yield rest.left.id, rest.right.left


def _mentions(node: ast.expr, part: ast.expr) -> bool:
    """Whether ``part`` (as written) is a sub-expression of ``node``."""
    wanted = ast.dump(part)
    return any(ast.dump(n) == wanted for n in ast.walk(node) if type(n) is type(part))


def _self_of_another_class(project: Project, sources: _Sources, finding: Finding) -> bool:
    """Whether the chain runs, through ``self.m()``, the override of a class that ``self`` cannot be
    there: a method of ``Custom`` calls ``super().__init__()``, whose ``self.load()`` the linker
    takes to every subclass's ``load``, one of a sibling class among them (the call graph links
    each call once, whoever ``self`` is); or a script's loop calls ``sim.run()`` on the
    ``Vortex`` it builds, and the base's ``run`` reaches, through ``self.init()``, the override of
    a ``Channel`` another script defines. Along consecutive calls on ``self`` the object is one: the
    class the call into the first of them was made on (``_receiver_classes``), else the first
    method's, and each method's class must be one that object can be (``_narrowed``)."""
    path = finding.call_path
    callees = [*(s.function for s in path[1:]), sources.function_at(finding.location)][: len(path)]
    receiver: _Classes = frozenset()  # what ``self`` may be below the step before, if told
    for step, callee in zip(path, callees, strict=True):
        fn = project.functions.get(step.function)
        target = project.functions.get(callee) if callee else None
        index = _call_index(fn, step) if fn is not None else None
        if fn is None or target is None or index is None:
            receiver = frozenset()  # a value handed back up the chain rather than down a call
            continue
        cls = project.symbols.class_of_method(target)
        if not _self_call(project, fn, index, target.qualname):
            # Another object's method, or a function: ``self`` below is that object.
            receiver = _receiver_classes(project, fn, index, target.qualname)
            continue
        own = project.symbols.class_of_method(fn)
        receiver = receiver or (frozenset({(own, False)}) if own is not None else frozenset())
        if cls is None:
            continue
        receiver = _narrowed(project, receiver, cls)
        if not receiver:
            return True
    return False


# The classes an object may be an instance of, each with whether it is exactly that class (made by
# its constructor) or may be a subclass of it (a class the linker found for a parameter).
_Classes = frozenset[tuple[str, bool]]


def _narrowed(project: Project, receiver: _Classes, cls: str) -> _Classes:
    """What an object that may be ``receiver`` may be once it runs a method of ``cls``: each class
    that has ``cls`` among its bases, or, where it may be a subclass, ``cls`` below it; none when
    no such object runs ``cls``'s method (a sibling's override)."""
    out: set[tuple[str, bool]] = set()
    for known, exact in receiver:
        if cls in project.symbols.mro(known):
            out.add((known, exact))
        elif not exact and known in project.symbols.mro(cls):
            out.add((cls, False))
    return frozenset(out)


def _receiver_classes(project: Project, fn: FunctionSummary, index: int, callee: str) -> _Classes:
    """The classes of the object the call ``index`` of ``fn`` runs ``callee`` on, where linking
    tells: the class a constructor call makes (exactly that one), the class of an instance made by
    its constructor (``sim = Vortex(n); sim.run()``), or the classes the linker found for an
    object of no class known where it is called (``recv``; subclasses of them too)."""
    call, module = fn.calls[index], project.owner[fn.qualname]
    target = project.target_to((fn.qualname, index), callee)
    if isinstance(target, ClassTarget):
        return frozenset({(target.qualname, call.callee[0] != "new")})
    kind = call.callee[0]
    if kind == "method" and len(call.callee) == 3:
        cls = project.symbols.class_named(module, call.callee[1])
        return frozenset({(cls, True)}) if cls is not None else frozenset()
    if kind == "recv":
        classes = project.classes_of(module, fn, call.callee[2:], 0)
        return frozenset((c, False) for c in classes or ())
    return frozenset()


def _call_index(fn: FunctionSummary, step: PathStep) -> int | None:
    return next((i for i, c in enumerate(fn.calls) if c.location == step.location), None)


def _self_call(project: Project, fn: FunctionSummary, index: int, qualname: str) -> bool:
    """Whether call ``index`` of ``fn`` is ``self.m()`` or ``super().m()`` and runs the function
    ``qualname``."""
    if fn.calls[index].callee[0] not in ("self", "super"):
        return False
    return project.calls_function((fn.qualname, index), qualname)


def _places(finding: Finding) -> list[tuple[Location, tuple[PathStep, ...]]]:
    """Where the chain runs code: the origin, then each call that carries it; each with the calls
    of the chain that run its function, the last one calling it (none for the first: anyone may
    call it)."""
    path = finding.call_path
    return [
        (finding.location, path),
        *((step.location, path[:i]) for i, step in enumerate(path)),
        *((at, path[:-1]) for at in finding.runs_with),
    ]


def _assumptions(
    project: Project,
    prop: Propagation,
    sources: _Sources,
    finding: Finding,
    places: list[tuple[Location, tuple[PathStep, ...]]],
    decided: list[Assumption | None],
) -> Iterator[Assumption]:
    seen: set[tuple[str, Location]] = set()
    for found in (
        *finding.assumptions,  # the rule's own: sizes it does not know, a type it guesses
        *_guessed_callees(project, finding.call_path),
        *_guessed_arrays(project, sources, finding),
        *_spliced(project, prop, sources, finding),
        *_swept(project, prop, sources, finding),
        *_per_item(project, prop, sources, finding),
        *_items_alike(project, prop, sources, finding),
        *_mocked(sources, finding),
        *(a for at, path in places for a in sources.flags_off(at, path)),
        *(a for at, _ in places for a in sources.structure_guards(at)),
        *_jit_skipped(prop, sources, finding, places),
        *(a for a in decided if a is not None),
    ):
        if (found.kind, found.location) not in seen:
            seen.add((found.kind, found.location))
            yield found


# -- the linker's guesses -------------------------------------------------------------------------
def _guessed_callees(project: Project, path: tuple[PathStep, ...]) -> Iterator[Assumption]:
    """Calls on the chain that the linker could only guess: a method called on an object of no
    known class, linked to the one class that defines it (``Project.method_of``), or ``self.m()``
    in a class without ``m``, linked to what its subclasses have (``Project._self_attribute``)."""
    for step in path:
        fn = project.functions.get(step.function)
        call = next((c for c in fn.calls if c.location == step.location), None) if fn else None
        if call is None or len(call.callee) < 3:
            continue
        kind = call.callee[0]
        if (
            kind == "recv"
            and project.classes_of(project.owner[fn.qualname], fn, call.callee[2:], 0) is None
            and not _declared_receiver(project, fn, call.callee)
        ):
            text = f"`{step.call}` taken as the one method of that name"
        elif kind == "self" and project.linked_by_subclasses(fn, call.callee[2]):
            text = f"`{step.call}` taken from the subclasses"
        else:
            continue
        yield Assumption("guessed-callee", step.location, text)


def _declared_receiver(project: Project, fn: FunctionSummary, callee: Callee) -> bool:
    """Whether ``state.m(...)``, ``state`` a parameter annotated with a class of the project
    (``state: rpa.SamplingState``), calls that class's ``m``: the annotation declares the name's
    type in the whole function, values bound to it later included (``state = state.step()``), as a
    type checker reads it, so the linker's one definer of ``m`` is then no guess."""
    method, refs = callee[1], callee[2:]
    module = project.owner[fn.qualname]
    linked = project.method_of(module, fn, method, refs)
    declared = {p.name: p.declared for p in fn.params if p.declared is not None}
    return linked is not None and any(
        (cls := project.symbols.class_named(module, declared[ref[2:]])) is not None
        and project.symbols.member(cls, method) == linked
        for ref in refs
        if ref.startswith("p:") and ref[2:] in declared
    )


def _guessed_arrays(project: Project, sources: _Sources, finding: Finding) -> Iterator[Assumption]:
    """The value is made by a method named like an array's (``reshape``) of a local name bound once
    to what a call the project does not define returns (``reshaper = ParameterReshaper(...)``, an
    object of a library's class): an array method only by guess."""
    at = finding.location
    call = sources.call_at(at)
    if call is None or not isinstance(call.func, ast.Attribute):
        return
    receiver = call.func.value
    defs = [s for s, _ in sources.enclosing(at) if isinstance(s, _DEFS)]
    scope = defs[-1] if defs else sources.tree(at.path)  # a script's top level
    if not isinstance(receiver, ast.Name) or scope is None:
        return
    assign = sources.sole_assignment(at.path, scope, receiver.id)
    made = assign.value if assign is not None else None
    if not isinstance(made, ast.Call):
        return
    site = project.symbols.call_span(at.path, ast_span(made))
    if site is not None and not project.site_targets.get(site):
        text = f"`{receiver.id}`, made by a call of a library, taken for an array"
        yield Assumption("guessed-array", at, text)


# -- entry points ---------------------------------------------------------------------------------
def _spliced(
    project: Project, prop: Propagation, sources: _Sources, finding: Finding
) -> Iterator[Assumption]:
    """The first function of the chain that no entry point of the functions before it runs."""
    chain = [
        (sources.function_at(finding.location), finding.location),
        *((s.function, s.location) for s in finding.call_path),
    ]
    names = list(
        dict.fromkeys(
            name
            for name, at in chain
            if name is not None and _has_entries(project, prop, sources, name, at)
        )
    )
    common: frozenset[str] | None = None
    for index, name in enumerate(names):
        entries = prop.frequency.entries(name)
        if not all(sources.program_start(entry) for entry in entries):
            continue  # a library's function, a callback: who else runs it is not known
        if common is not None and not (common & entries):
            before = _short(names[index - 1])
            yield Assumption(
                "entry-splice",
                finding.location,
                f"no one entry point runs both {before} and {_short(name)}",
            )
            return
        common = entries if common is None else common & entries


def _has_entries(
    project: Project, prop: Propagation, sources: _Sources, name: str, at: Location
) -> bool:
    """Whether the code of ``name`` at ``at`` runs only from some entry points: not code that runs
    only while a jit traces (its callers' entry points count), nor a module's top level, which every
    import runs, unless ``at`` is in its ``if __name__ == "__main__":`` block (a script's own)."""
    fn = project.functions.get(name)
    if fn is None or prop.frequency.traced(name):
        return False
    return fn.kind != "module" or sources.in_main_block(at) or sources.script(fn)


def _code(node: ast.expr, limit: int = 40) -> str:
    """An expression's code as a message shows it, shortened."""
    text = " ".join(ast.unparse(node).split())
    return text if len(text) <= limit else text[: limit - 3].rstrip() + "..."


def _short(qualname: str) -> str:
    """A function by its own name; a module's top level by its module's last two names
    (``exp_a.train``): two scripts' top levels are both ``<module>``."""
    module, _, name = qualname.rpartition(".")
    if name == "<module>" and module:
        return ".".join(module.split(".")[-2:])
    return name or qualname


# -- sweeps ---------------------------------------------------------------------------------------
# The rules whose re-trace a sweep over a few problems makes by design: a new shape or static value
# at each point, made from the point's item. A structure or type that a branch on the item flips
# (RTL40x) is one jit fed two kinds of value, the second trace removable: it stays.
_SWEPT_RULES = ("RTL10", "RTL20")
_LOOP_DETAIL = re.compile(r"loop: (?P<path>.+?):(?P<line>\d+): ")


def _swept(
    project: Project, prop: Propagation, sources: _Sources, finding: Finding
) -> Iterator[Assumption]:
    """A shape or static finding driven only by a sweep whose every point compiles once and then
    uses its jit in a loop of its own (``Frequency.sweep``, ``Frequency.used_per_point``): each
    point is a new problem whose one trace serves a whole run (issue 36, round 12: resolution
    sweeps), where the points give sizes (``Points.sizes``) and the item reaches the finding
    as itself (``_item_reaches``: years that pick a codebook are no sizes). A static object made
    anew at each point (an agent per configuration, RTL204) is not excused: held-out programs
    judge that rebuild removable. A loop over steps, data or a count is never a sweep, and a point
    that calls its jit once (a per-size benchmark) stays."""
    if not finding.code.startswith(_SWEPT_RULES):
        return
    found = _driver_loop(project, sources, finding)
    if found is None:
        return
    fn, loop = found
    key = (fn.qualname, loop.index)
    if key not in sources.sweeps:  # asked by every finding the same sweep drives
        sources.sweeps[key] = _amortised_sweep(prop, fn, loop)
    sweep = sources.sweeps[key]
    if sweep is None:
        return
    if sweep.sizes and _item_reaches(project, fn, loop, finding):
        text = f"a sweep over {sweep.points} fixed points, each using its jit in a loop of its own"
        yield Assumption("sweep", loop.location, text)


def _per_item(
    project: Project, prop: Propagation, sources: _Sources, finding: Finding
) -> Iterator[Assumption]:
    """A static object (an env, a problem: RTL204's, or RTL201's ``self``) made at each turn of a
    loop by a call given the turn's item, where the loop walks items the run fixes
    (``Frequency.spelled``: written out, imported, a default a command line may replace) that
    are settings, not plain numbers, in a function that runs once: each item's jit traces once with its own object, and one object built once
    would serve no other item (issue 36 cause 2, round 32 S1), however many items. A walk over
    numbers (seeds, rates: data a jit could trace) is not one; a function that runs again makes
    every item's object again, which building once per item would not."""
    if finding.code != "RTL204" and not (finding.code == "RTL201" and finding.parameter == "self"):
        return
    found = _driver_loop(project, sources, finding)
    if found is None:
        return
    fn, loop = found
    frequency = prop.frequency
    if frequency.traced(fn.qualname) or frequency.repeated(fn.qualname) is not None:
        return
    points = frequency.spelled(fn, loop)
    if points is None or (points.numbers and not points.sizes):
        return
    # The static value itself made from the item, where the loop passes it: not only some other
    # argument of the call that takes it (``find(tx, rx, optimizer=adam(rate))`` per layout).
    if _given_item_at(project, fn, loop, finding.made_at):
        walked = loop.text.partition(" in ")[2]
        yield Assumption("per-item", loop.location, f"{PER_ITEM}: an object per item of `{walked}`")


def _amortised_sweep(prop: Propagation, fn: FunctionSummary, loop: LoopInfo) -> Sweep | None:
    """The sweep ``loop`` of ``fn`` walks, where it runs in runtime code that nothing repeats
    without bound and each of its points uses its jit in a loop of its own."""
    frequency = prop.frequency
    if frequency.traced(fn.qualname):
        return None
    driver = frequency.repeated(fn.qualname)
    if driver is not None and driver.grows:
        return None  # the sweep itself runs again per step of something longer
    sweep = frequency.sweep(fn, loop)
    if sweep is None or not frequency.used_per_point(fn, loop):
        return None
    return sweep


def _item_reaches(project: Project, fn: FunctionSummary, loop: LoopInfo, finding: Finding) -> bool:
    """Whether the loop's item reaches the finding as itself: a call of the chain made in the
    loop's function (or the value the finding is made at, where there is no chain) is given the
    item, arithmetic on it, or an object a class makes from it (``Config(num_cells=n)``). A value
    a function of the project returns for the item (``load_wave(year)``: a codebook looked up, a
    seed drawn from) is no size of a problem, nor a key split at each turn."""
    if not finding.call_path:
        return _given_item_at(project, fn, loop, finding.made_at)
    sites = [project.symbols.call_at(step.location) for step in finding.call_path]
    calls = [fn.calls[site[1]] for site in sites if site is not None and site[0] == fn.qualname]
    args = [arg for call in calls for arg in _call_args(call)]
    item = _Given(LoopSrc(loop.index), _targets(loop.text))
    return any(_from_item(project, fn, arg.value, item, arg.text) for arg in args)


def _given_item_at(project: Project, fn: FunctionSummary, loop: LoopInfo, at: Location) -> bool:
    """Whether the value ``fn`` passes at ``at`` (an argument, a receiver) is the loop's item or
    made from it (``_from_item``)."""
    args = [arg for call in fn.calls for arg in _call_args(call) if arg.location == at]
    item = _Given(LoopSrc(loop.index), _targets(loop.text))
    return any(_from_item(project, fn, arg.value, item, arg.text) for arg in args)


@dataclass(frozen=True)
class _Given:
    """What a sweep's item is in a function: its source (the loop's, or the parameter given it)
    and the names it is bound to."""

    src: LoopSrc | ParamSrc
    names: frozenset[str]


def _targets(loop_text: str) -> frozenset[str]:
    """The names a loop binds (``for (n, style) in ...``: n, style)."""
    try:
        target = ast.parse(loop_text.removeprefix("for ").partition(" in ")[0], mode="eval")
    except SyntaxError:
        return frozenset()
    return frozenset(node.id for node in ast.walk(target) if isinstance(node, ast.Name))


def _call_args(call: CallSite) -> list[Arg]:
    receiver = [call.receiver] if call.receiver is not None else []
    return [*receiver, *call.args, *(arg for _, arg in call.kwargs)]


def _from_item(
    project: Project,
    fn: FunctionSummary,
    value: Value,
    item: _Given,
    text: str,
    depth: int = 0,
    asked: dict[int, bool] | None = None,
) -> bool:
    """Whether ``value`` of ``fn`` (written ``text``, where an argument) is the sweep's ``item``
    as itself or by arithmetic (not a look-up keyed by it, ``CODEBOOKS.get(year)``), or an object
    a class makes from such a value there or in a function of the project given one
    (``setup(num_cells=n)`` returning ``Config(num_cells=...)``), or what a library's method of
    such an object returns (``config._replace(...)``), or an array whose shape it sets, a few
    calls deep. ``asked``: the answer
    for each call of ``fn`` asked already (False while it is asked: a value a loop carries
    through a call depends on that call)."""
    asked = {} if asked is None else asked
    from_call = any(isinstance(dep, RetDep) for dep in value.deps)
    if item.src in value.vsrc and not from_call and _arithmetic_of(text, item.names):
        return True
    if not text and not from_call and _version_of(value, item.src):
        return True  # returned: the parameter, or a copy of it with fields replaced
    if any(item.src in taint.sources for taint in value.shape):
        return True  # an array sized by it (``np.random.uniform(size=(n, 3))``)
    # In call order: what a cycle's placeholder hides must not depend on the hash seed.
    for index in sorted({dep.call for dep in value.deps if isinstance(dep, RetDep)}):
        if index >= len(fn.calls):
            continue
        if index not in asked:
            asked[index] = False
            asked[index] = _call_from_item(project, fn, index, item, depth, asked)
        if asked[index]:
            return True
    return False


def _version_of(value: Value, src: LoopSrc | ParamSrc) -> bool:
    """Whether a value a function returns is its parameter ``src`` or made from it as a whole
    (``config._replace(...)``, ``replace(config, ...)``)."""
    return isinstance(src, ParamSrc) and any(
        isinstance(dep, ParamDep) and dep.name == src.name for dep in value.deps
    )


def _call_from_item(
    project: Project,
    fn: FunctionSummary,
    index: int,
    item: _Given,
    depth: int,
    asked: dict[int, bool],
) -> bool:
    """Whether call ``index`` of ``fn`` returns what ``item`` makes (``_from_item``)."""
    call = fn.calls[index]
    args = _call_args(call)
    given = [a for a in args if _from_item(project, fn, a.value, item, a.text, depth, asked)]
    if not given:
        return False
    targets = project.site_targets.get((fn.qualname, index), ())
    if not targets and call.receiver is not None and call.receiver in given:
        return True  # a library's method of the object itself (``config._replace(...)``)
    return any(
        isinstance(target, ClassTarget)
        or (depth < _ITEM_DEPTH and _returns_given(project, call, target, given, depth))
        for target in targets
    )


def _returns_given(
    project: Project, call: CallSite, target: Target, given: list[Arg], depth: int
) -> bool:
    """Whether the function of the project ``call`` runs returns what one of its parameters that
    the call passes ``given`` arguments for makes (by ``_from_item``)."""
    callee = project.callee_function(target)
    if callee not in project.functions:
        return False
    made = project.function(callee)
    if made.returns is None:
        return False
    # Positions count from the first parameter a call fills: after `self` for a bound method.
    params = [p.name for p in made.params][1 if getattr(target, "bound", False) else 0 :]
    names = {params[i] for i, arg in enumerate(call.args) if arg in given and i < len(params)}
    names |= {name for name, arg in call.kwargs if arg in given}
    return any(
        _from_item(
            project, made, made.returns, _Given(ParamSrc(name), frozenset({name})), "", depth + 1
        )
        for name in sorted(names)
    )


@lru_cache(maxsize=1024)
def _arithmetic_of(text: str, names: frozenset[str]) -> bool:
    """Whether an argument written ``text`` is ``names`` (their attributes) and numbers joined by
    arithmetic (``n``, ``n // 16``, ``2 * cfg.n``), or a number conversion of such (``int(n)``
    of a point of ``2 ** np.arange(4, 10, 0.5)``): a size kept a size, not a look-up, a call's
    result or another value of the turn."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return False
    converters = {
        id(node.func)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _CONVERSIONS
        and len(node.args) == 1
        and not node.keywords
    }
    # A field read off the item by a literal key (``task["n"]``), as an attribute is.
    fields = {
        id(node)
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant)
    }
    allowed = (ast.Expression, ast.Attribute, ast.Constant, ast.BinOp, ast.UnaryOp)
    return all(
        (isinstance(node, ast.Name) and (node.id in names or id(node) in converters))
        or (isinstance(node, ast.Call) and id(node.func) in converters)
        or id(node) in fields
        or isinstance(node, (*allowed, ast.operator, ast.unaryop, ast.expr_context))
        for node in ast.walk(tree)
    )


# Builtins that turn a number into a number of another kind, keeping what it counts.
_CONVERSIONS = frozenset({"int", "round"})


# Calls of the project's functions followed from a sweep's item to what reaches the finding.
_ITEM_DEPTH = 3


def _driver_loop(
    project: Project, sources: _Sources, finding: Finding
) -> tuple[FunctionSummary, LoopInfo] | None:
    """The loop a finding names as what changes its value (``loop: run.py:19: for n in sizes``),
    with its function."""
    match = next(filter(None, map(_LOOP_DETAIL.match, finding.details)), None)
    if match is None:
        return None
    line = int(match["line"])
    name = sources.function_at(Location(match["path"], line, 1))
    if name not in project.functions:
        return None
    fn = project.function(name)
    loop = next((lp for lp in fn.loops if lp.location.line == line), None)
    return (fn, loop) if loop is not None else None


# -- items of a held collection -------------------------------------------------------------------
# The rules whose change a loop over items may make by reading a value off each item: a shape or a
# static value (RTL102 grows, RTL103 cuts chunks, RTL104 masks data, RTL204 makes objects: none is
# read off an item).
_PER_ITEM_RULES = frozenset({"RTL101", "RTL105", "RTL201", "RTL202"})
_ITEMS_ALIKE = "values read off the items of a held collection, not known to differ"


def _items_alike(
    project: Project, prop: Propagation, sources: _Sources, finding: Finding
) -> Iterator[Assumption]:
    """A shape or static finding whose driving loop walks a collection held in memory (a dict of
    detector planes, a model's layers), or numbers the rows of collections every call gives it
    unchanged (``for fp in range(num_filter): p = int(filt[fp])``, ``_indexed``), and whose value is
    only read off each item (``2 * kernel.num_wires``): one value per item, and whether the items
    hold different values the source does not say (``held_items.read_per_item``). Proven where the
    source spells the items out (``Frequency.spelled``, ``held_items.written_out``), where the value
    is the loop's index or key, computed or loaded per item, carried between iterations, or an
    attribute of objects the project makes with different values (``ChoiceSrc``, which the rule
    follows only where they differ)."""
    if finding.code not in _PER_ITEM_RULES:
        return
    found = _driver_loop(project, sources, finding)
    if found is None:
        return
    fn, loop = found
    if loop.over_axes or prop.frequency.spelled(fn, loop) is not None:
        return
    if prop.walks_held(fn, loop):
        walk = _walk_at(sources, loop.location)
        carriers = _carriers(sources, walk, loop.location.path, finding) if walk is not None else []
        if (
            walk is not None
            and carriers
            and read_per_item(walk, carriers)
            and not _chosen(fn, loop, carriers)
            and not _items_written(prop, sources, fn, walked(walk.iterable))
        ):
            yield Assumption("items-alike", loop.location, _ITEMS_ALIKE)
        return
    indexed = _indexed(prop, sources, finding)
    if indexed is not None and indexed.proof is None:
        text = f"values read off the items of {indexed.names}, not known to differ"
        yield Assumption("items-alike", loop.location, text)


@dataclass(frozen=True)
class _Rows:
    """The collections whose rows a loop over a ``range`` reads a finding's value off, where every
    call of its function gives them unchanged: one value per row, however often the loop runs."""

    tables: frozenset[str]
    # What the source shows of their items: WRITTEN (each written out: a few, counted), DISTINCT
    # (each another by construction, a ``range``: as many as the run makes), or None (not shown).
    proof: str | None

    @property
    def names(self) -> str:
        return ", ".join(f"`{name}`" for name in sorted(self.tables))


_WRITTEN, _DISTINCT = "written", "distinct"


def _indexed(prop: Propagation, sources: _Sources, finding: Finding) -> _Rows | None:
    """The collections a shape or static finding's driving loop over a ``range`` of indices reads
    its value off (``held_items.looked_up``: ``int(filt[fp])``, ``int(layers[p])``), where each is a
    table its module binds once or a parameter every call passes a value that no loop of the
    callers changes (``_steady_table``): each row's value traces once and is then reused by every
    walk of the loop, a step loop that runs the function again included (issue 36, round 37 F1:
    the patches of a filter, the layers of each). Not where the value is the index itself,
    computed per row, or carried between rows (``held_items.read_per_item``)."""
    if finding.code not in _PER_ITEM_RULES:
        return None
    found = _driver_loop(sources.project, sources, finding)
    if found is None:
        return None
    fn, loop = found
    walk = _walk_at(sources, loop.location)
    carriers = _carriers(sources, walk, loop.location.path, finding) if walk is not None else []
    if walk is None or not carriers or not read_per_item(walk, carriers):
        return None
    tables = looked_up(walk, carriers)
    if not tables or not all(_steady_table(prop, sources, fn, name, 0) for name in tables):
        return None
    made = [_origins(prop, sources, fn, name) for name in sorted(tables)]
    if all(made) and all(written_out(node, at) for given in made for node, at in given):
        return _Rows(tables, _WRITTEN)
    if all(made) and all(distinct_items(node, at) for given in made for node, at in given):
        return _Rows(tables, _DISTINCT)
    return _Rows(tables, None)


def _origins(
    prop: Propagation, sources: _Sources, fn: FunctionSummary, name: str
) -> list[tuple[ast.expr, Callable[[str], ast.expr | None]]]:
    """Where the collection ``name`` of ``fn`` is made, each with the bindings of its scope: what
    its module binds it to, or what each known call passes for it (none where nothing calls)."""
    if fn.param(name) is None:
        value = _bound_once(sources, fn, name)
        return [(value, partial(_bound_once, sources, fn))] if value is not None else []
    made = []
    for caller, _, arg, _, _ in prop.calls_of(fn, name):
        node = sources.expression_at(arg.location) if arg is not None else None
        if node is None:
            return []
        made.append((node, partial(_bound_once, sources, caller)))
    return made


def _steady_table(
    prop: Propagation, sources: _Sources, fn: FunctionSummary, name: str, depth: int
) -> bool:
    """Whether the collection ``name`` of ``fn`` is the same at every call: a name its module binds
    once, at its top level, or a parameter every known call passes a value no loop of the caller changes, and, where the
    caller passes on a parameter of its own, so do its callers (a few calls up). A parameter no
    known call gives is steady: nothing runs the function again with another collection, and its
    own loop walks the one it is given once (as ``range(len(xs))`` does, ``LoopInfo.over_items``)."""
    if fn.param(name) is None:
        module = sources.project.owner.get(fn.qualname)
        tree = sources.tree(module.path) if module is not None else None
        if module is None or tree is None:
            return False
        bound = sources.sole_assignment(module.path, tree, name)
        return bound is not None and bound in tree.body
    return all(
        arg is not None and _steady(prop, sources, caller, arg.value, depth)
        for caller, _, arg, _, _ in prop.calls_of(fn, name)
    )


def _steady(
    prop: Propagation, sources: _Sources, caller: FunctionSummary, value: Value, depth: int
) -> bool:
    """Whether ``value`` that ``caller`` passes changes with none of its loops: it varies with
    nothing, or only with the caller's parameters, each steady where its callers give it."""
    if any(not isinstance(src, ParamSrc) for src in value.vsrc):
        return False
    return depth < _ITEM_DEPTH and all(
        _steady_table(prop, sources, caller, src.name, depth + 1)
        for src in value.vsrc
        if isinstance(src, ParamSrc)
    )


def _items_written(
    prop: Propagation, sources: _Sources, fn: FunctionSummary, collection: ast.expr
) -> bool:
    """Whether the items ``fn`` walks are written out (``held_items.written_out``) in ``fn``, or,
    for a parameter, where every known call makes what it passes."""
    if written_out(collection, lambda name: _bound_once(sources, fn, name)):
        return True
    if not isinstance(collection, ast.Name) or fn.param(collection.id) is None:
        return False
    passed = [(caller, arg) for caller, _, arg, _, _ in prop.calls_of(fn, collection.id)]
    return bool(passed) and all(
        arg is not None
        and (given := sources.expression_at(arg.location)) is not None
        and written_out(given, lambda name, at=caller: _bound_once(sources, at, name))
        for caller, arg in passed
    )


def _bound_once(sources: _Sources, fn: FunctionSummary, name: str) -> ast.expr | None:
    """What ``name`` is bound to where one assignment alone binds it: in ``fn``, else at the top
    level of its module, or of the module it is imported from."""
    scope = sources.scope_of(fn)
    assignment = (
        sources.sole_assignment(fn.location.path, scope, name) if scope is not None else None
    )
    if assignment is not None:
        return assignment.value
    module = sources.project.owner.get(fn.qualname)
    return _module_binding(sources, module, name) if module is not None else None


def _module_binding(
    sources: _Sources, module: ModuleSummary, name: str, depth: int = 0
) -> ast.expr | None:
    """``_bound_once`` at the top level of ``module``, through the imports of the name."""
    tree = sources.tree(module.path)
    assignment = sources.sole_assignment(module.path, tree, name) if tree is not None else None
    if assignment is not None:
        return assignment.value
    imported = module.imports.get(name)
    found = sources.project.symbols.module_of(imported, module) if imported else None
    if found is None or depth >= _ITEM_DEPTH:
        return None
    return _module_binding(sources, found[0], found[1], depth + 1)


def _walk_at(sources: _Sources, at: Location) -> Walk | None:
    """The loop whose head starts at ``at``: a for statement, or a comprehension's ``for`` (its
    location starts at its target)."""
    stmt = sources.statement_at(at)
    if stmt is None:
        return None
    if isinstance(stmt, ast.For | ast.AsyncFor) and _starts_at(stmt, at):
        return Walk.of(stmt)
    for node in ast.walk(stmt):
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            for comp in node.generators:
                if _starts_at(comp.target, at):
                    return Walk.of(comp, node)
    return None


def _carriers(sources: _Sources, loop: Walk, path: str, finding: Finding) -> list[ast.expr]:
    """The expressions of ``loop``'s body that carry the finding's change: the value it is told at,
    where that is in the body (a constructor's arguments, for a shape it makes), else the arguments
    of the call of the chain made in the body, where the value is made in what that call runs.
    Empty where the value is made elsewhere and only walked here (a list of arrays cut before)."""
    at = finding.location
    if at.path == path and loop.inside(at.line, at.col):
        made = sources.expression_at(at)
        if made is None:
            return []
        if finding.code == "RTL105" and isinstance(made, ast.Call):
            return [*made.args, *(k.value for k in made.keywords)]
        return [made]
    chain = finding.call_path
    made_in = sources.function_at(at)
    for k, step in enumerate(chain):
        if step.location.path == path and loop.inside(step.location.line, step.location.col):
            if made_in not in {later.function for later in chain[k + 1 :]}:
                return []
            call = sources.call_at(step.location)
            return [*call.args, *(kw.value for kw in call.keywords)] if call is not None else []
    return []


def _chosen(fn: FunctionSummary, loop: LoopInfo, carriers: list[ast.expr]) -> bool:
    """Whether an argument ``carriers`` start at is read off objects the loop walks that the project
    makes itself (``ChoiceSrc``): the rule follows such a value only where their fields differ."""
    starts = {(c.lineno, c.col_offset + 1) for c in carriers}
    return any(
        isinstance(src, ChoiceSrc) and src.loop == loop.index
        for call in fn.calls
        for arg in _call_args(call)
        if (arg.location.line, arg.location.col) in starts
        for src in arg.value.vsrc
    )


# -- source-level facts ---------------------------------------------------------------------------
@dataclass
class Parsed:
    """A file's syntax tree (None where it does not parse), the text it was parsed from, the
    names each statement of it binds, by the statement's ``id`` (the tree holds them), and what
    binds each name in each scope asked about (a def, the module), by the scope's ``id``: kept
    from run to run with the tree (a module's top level was walked twice per name asked, 0.3 CPU s
    of an edit of the speed corpus that runs the rules)."""

    text: str | None
    tree: ast.Module | None
    stored: dict[int, frozenset[str]] = field(default_factory=dict)
    binders: dict[int, Binders] = field(default_factory=dict)


@dataclass(frozen=True)
class Binders:
    """What binds each name in a scope, nested scopes too (``_bindings``), and the plain
    assignment each name stored is a target of, by the name's ``id``."""

    names: dict[str, list[ast.AST]]
    assigned: dict[int, ast.Assign]

    @classmethod
    def of(cls, scope: ast.AST) -> Binders:
        names: dict[str, list[ast.AST]] = {}
        assigned: dict[int, ast.Assign] = {}
        for node in ast.walk(scope):
            if isinstance(node, ast.Name):
                if not isinstance(node.ctx, ast.Load):
                    names.setdefault(node.id, []).append(node)
            elif isinstance(node, ast.Assign):
                assigned.update((id(t), node) for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.arg):
                names.setdefault(node.arg, []).append(node)
            elif isinstance(node, ast.alias):
                names.setdefault(node.asname or node.name, []).append(node)
            elif isinstance(node, (ast.ClassDef, *_DEFS)):
                names.setdefault(node.name, []).append(node)
        return cls(names, assigned)

    def sole_assignment(self, name: str) -> ast.Assign | None:
        """The assignment ``name = ...`` that is the only thing binding ``name`` in the scope."""
        bound = self.names.get(name, [])
        found = self.assigned.get(id(bound[0])) if bound else None
        return found if found is not None and found.targets == bound else None


@dataclass
class _Sources:
    """The parsed source of the files a chain runs through, read once per run, and what a flag's
    declaration and uses across the project say."""

    project: Project
    read_lines: Callable[[str], list[str]]
    # The trees parsed by this run or one before it, by path.
    parsed: dict[str, Parsed]
    _trees: dict[str, Parsed] = field(default_factory=dict)  # read by this run
    _flags: dict[str, bool] = field(default_factory=dict)
    _declared: dict[str, object] = field(default_factory=dict)
    _known: dict[tuple[str, str], _Known | None] = field(default_factory=dict)
    # Asked of the same places by most of a project's findings (thousands, before one per origin
    # is kept), each answer a walk of a function's tree: read once per run.
    _around: dict[tuple[str, int], list[tuple[ast.AST, list[ast.stmt]]]] = field(
        default_factory=dict
    )
    _alternatives: dict[Location, list[tuple[ast.If, bool, str]]] = field(default_factory=dict)
    _rebinds: dict[Location, list[tuple[ast.If | ast.IfExp, bool, str]]] = field(
        default_factory=dict
    )
    _starts: dict[int, dict[tuple[int, int], list[ast.expr]]] = field(default_factory=dict)
    _branches: dict[tuple[Location, PathStep | None], list[Assumption | None]] = field(
        default_factory=dict
    )
    # By sweep loop (function, loop index): the sweep it walks, amortised by each point's own
    # loop (``_amortised_sweep``), None where it is no such sweep.
    sweeps: dict[tuple[str, int], Sweep | None] = field(default_factory=dict)
    _functions_at: dict[str, list[tuple[str, FunctionSummary]]] = field(default_factory=dict)
    _raising: dict[int, bool] = field(default_factory=dict)  # by statement (``_raises_in``)
    _loop_names: dict[int, tuple[Counter[str], dict[str, ast.expr]]] = field(default_factory=dict)

    def function_at(self, at: Location) -> str | None:
        """The innermost function (else the module body) of the project whose code holds ``at``."""
        # Strictly after the start: a lambda or a decorated def made at ``at`` is made by the code
        # around it, not run there.
        here = (at.line, at.col)
        inside = [
            ((loc.line, loc.col), name)
            for name, fn in self._functions(at.path)
            if fn.kind != "module"
            and (loc := fn.location)
            and (loc.line, loc.col) < here <= (loc.end_line or loc.line, loc.end_col or 1 << 30)
        ]
        if inside:
            return max(inside)[1]
        return next((n for n, fn in self._functions(at.path) if fn.kind == "module"), None)

    def _functions(self, path: str) -> list[tuple[str, FunctionSummary]]:
        """The functions of the file at ``path``, by name: listed for the few files the findings'
        chains run through, not for the whole project (100,000 functions in the speed corpus)."""
        found = self._functions_at.get(path)
        if found is None:
            found = self._functions_at[path] = [
                item for module in self._modules(path) for item in module.functions.items()
            ]
        return found

    def _modules(self, path: str) -> list[ModuleSummary]:
        return self.project.symbols.modules_at(path)

    def tree(self, path: str) -> ast.Module | None:
        return self._parsed(path).tree

    def _parsed(self, path: str) -> Parsed:
        found = self._trees.get(path)
        if found is None:
            text = self._text(path)
            found = self.parsed.get(path)
            if found is None or found.text != text:
                found = self.parsed[path] = Parsed(text, _parse(text))
            self._trees[path] = found
        return found

    def stored_names(self, path: str, node: ast.AST) -> frozenset[str]:
        """The names ``node``, a statement of the file ``path``, binds anywhere inside it."""
        parsed = self._parsed(path)
        found = parsed.stored.get(id(node))
        if found is None:
            found = parsed.stored[id(node)] = frozenset(
                n.id
                for n in ast.walk(node)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
            )
        return found

    def enclosing(self, at: Location) -> list[tuple[ast.AST, list[ast.stmt]]]:
        """The statements around ``at``, outermost first, each with the block that holds it (not
        to be changed: the list is shared by every question about that line)."""
        key = (at.path, at.line)
        found = self._around.get(key)
        if found is None:
            found = self._around[key] = self._enclosing(at)
        return found

    def _enclosing(self, at: Location) -> list[tuple[ast.AST, list[ast.stmt]]]:
        tree = self.tree(at.path)
        out: list[tuple[ast.AST, list[ast.stmt]]] = []
        block: list[ast.stmt] = tree.body if tree is not None else []
        while block:
            stmt = next((s for s in block if _holds(s, at.line)), None)
            if stmt is None:
                break
            out.append((stmt, block))
            block = next((b for b in _blocks(stmt) if any(_holds(s, at.line) for s in b)), [])
        return out

    def program_start(self, qualname: str) -> bool:
        """Whether a run starts at the function: a test in a test file, or a script's top level
        (a module with an ``if __name__ == "__main__":`` block, or one nothing imports). Other functions nothing calls (a
        library's API, a callback, ``tree_flatten``) may be called from anywhere."""
        fn = self.project.functions.get(qualname)
        if fn is None:
            return False
        if fn.kind != "module":
            return is_test_file(fn.location.path) and is_test(qualname) and not self._fixture(fn)
        if self.script(fn):
            return True
        tree = self.tree(fn.location.path)
        body = tree.body if tree is not None else []
        return any(isinstance(s, ast.If) and _is_main_test(s.test) for s in body)

    def script(self, fn: FunctionSummary) -> bool:
        """Whether ``fn`` is the top level of a script nothing imports (``Symbols.is_script``): a
        loop there runs in that script's process alone, as under ``if __name__ == "__main__":``."""
        owner = self.project.owner.get(fn.qualname)
        return (
            fn.kind == "module"
            and owner is not None
            and self.project.symbols.is_script(owner.module)
        )

    def _fixture(self, fn: FunctionSummary) -> bool:
        """Whether ``fn`` is a pytest fixture (``test_data``): the tests that ask for it run it."""
        defs = [s for s, _ in self.enclosing(fn.location) if isinstance(s, _DEFS)]
        decorators = defs[-1].decorator_list if defs else []
        return any("fixture" in ast.unparse(d) for d in decorators)

    def in_main_block(self, at: Location) -> bool:
        return any(
            isinstance(stmt, ast.If) and _is_main_test(stmt.test) for stmt, _ in self.enclosing(at)
        )

    def unreachable(self, at: Location) -> bool:
        """Whether ``at`` follows a ``return``/``raise``/``break``/``continue`` in its own block, or
        a statement whose call raises (``raises``), or sits in such a statement, or in the body of
        a statement that never runs it (``for _ in range(0):``, ``if False:``)."""
        chain = self.enclosing(at)
        if chain and self._raises_in(at.path, chain[-1][0]):
            return True
        for stmt, block in chain:
            earlier = block[: block.index(stmt)]
            if any(isinstance(s, ENDS_BLOCK) or self._raises_in(at.path, s) for s in earlier):
                return True
            body = getattr(stmt, "body", None)
            if (
                never_runs(stmt)
                and isinstance(body, list)
                and any(_holds(s, at.line) for s in body)
            ):
                return True
        return False

    def loop_names(self, loop: ast.For) -> tuple[Counter[str], dict[str, ast.expr]]:
        """How often the body of ``loop`` binds each name, and what its top-level assignments bind
        (``_item``): read once per loop, asked by each finding in it."""
        found = self._loop_names.get(id(loop))
        if found is None:
            stores = Counter(n.id for s in loop.body for n in ast.walk(s) if _stores_name(n))
            bound = {
                s.targets[0].id: s.value
                for s in loop.body
                if isinstance(s, ast.Assign)
                and len(s.targets) == 1
                and isinstance(s.targets[0], ast.Name)
            }
            found = self._loop_names[id(loop)] = (stores, bound)
        return found

    def _raises_in(self, path: str, stmt: ast.AST) -> bool:
        """Whether a simple statement makes, whenever it runs, a call that raises (``raises``):
        asked of the statements before each place of every finding, answered once each."""
        if not isinstance(stmt, _SIMPLE):
            return False
        found = self._raising.get(id(stmt))
        if found is None:
            found = self._raising[id(stmt)] = any(
                self.raises(path, call) for call in _unconditional_calls(stmt)
            )
        return found

    def raises(self, path: str, call: ast.Call) -> bool:
        """Whether ``call`` (in the file ``path``) raises TypeError before its callee runs: it
        names one project function or class, as written (no method of an object whose class a
        subclass may change), whose parameters its arguments cannot bind to (``Signature.refuses``:
        ``Task(agent)`` without ``Task.__init__``'s required ``sequence``, a keyword it does not
        take). A decorated def or class may take other arguments than it declares: never."""
        site = self.project.symbols.call_span(path, ast_span(call))
        if site is None:
            return False
        made = self.project.symbols.function(site[0]).calls[site[1]]
        targets = self.project.site_targets.get(site, ())
        if made.alternatives or len(targets) != 1 or scoped_kind(made.callee) != "name":
            return False
        target = targets[0]
        if isinstance(target, ClassTarget):
            init = self._declared_init(target.qualname)
            fn = self.project.functions.get(init) if init is not None else None
        elif isinstance(target, FuncTarget) and not target.bound:
            fn = self.project.functions.get(target.qualname)
            fn = fn if fn is not None and self._undecorated(fn.location) else None
        else:
            return False
        return fn is not None and self.project.signature(target, fn).refuses(made)

    def _declared_init(self, cls: str) -> str | None:
        """The ``__init__`` that a call of class ``cls`` runs, where the source says for sure: its
        own or a base's along single inheritance of undecorated project classes (no ``__new__``, no
        metaclass, no generated ``__init__``)."""
        classes = self.project.symbols.classes
        while cls in classes:
            info = classes[cls]
            if info.fields or "__new__" in info.methods or not self._undecorated(info.location):
                return None
            if "__init__" in info.methods:
                return info.methods["__init__"]
            module = self.project.symbols.owner[cls]
            bases = [self.project.symbols.resolve_base(module, b) for b in info.bases]
            if len(bases) != 1 or bases[0] is None:
                return None
            cls = bases[0]
        return None

    def _undecorated(self, at: Location) -> bool:
        """Whether the def or class made at ``at`` has no decorator and no metaclass."""
        made = next(
            (s for s, _ in reversed(self.enclosing(at)) if isinstance(s, (*_DEFS, ast.ClassDef))),
            None,
        )
        return (
            made is not None
            and made.lineno == at.line
            and not made.decorator_list
            and not getattr(made, "keywords", ())
        )

    def repeats_call(self, at: Location) -> bool:
        """Whether the call at ``at`` repeats, argument for argument, a call an earlier statement of
        its block makes unconditionally, with nothing between that rebinds or calls a method of a
        name the call reads. Arguments that make something (a call, a lambda) are new each time."""
        chain = self.enclosing(at)
        if not chain:
            return False
        stmt, block = chain[-1]
        call = next((c for c in _unconditional_calls(stmt) if _starts_at(c, at)), None)
        if call is None or not all(map(_plain, [call.func, *call.args, *call.keywords])):
            return False
        names = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
        same = ast.dump(call)
        for earlier in reversed(block[: block.index(stmt)]):
            if _touches(earlier, names):
                return False
            if any(ast.dump(c) == same for c in _unconditional_calls(earlier)):
                return True
        return False

    def flags_off(self, at: Location, path: tuple[PathStep, ...]) -> Iterator[Assumption]:
        """The ``if`` tests around ``at`` that decide against it when their flag is off: the whole
        test, or, for its body, one of the tests it ``and``s (``if cfg.probe_interval > 0 and
        step % cfg.probe_interval == 0:``). ``path``: the calls that reach ``at``; a test's own
        setting of an environment variable holds only where one starts in a test file."""
        from_test = is_test_file((path[0].location if path else at).path)
        scope: ast.AST | None = self.tree(at.path)
        for stmt, _ in self.enclosing(at):
            if isinstance(stmt, _DEFS):
                scope = stmt
            if not isinstance(stmt, ast.If):
                continue
            in_body = any(_holds(s, at.line) for s in stmt.body)
            both = isinstance(stmt.test, ast.BoolOp) and isinstance(stmt.test.op, ast.And)
            tests = stmt.test.values if both and in_body else [stmt.test]
            tests = [self._read_in(at.path, scope, t) for t in tests]
            why = next((w for t in tests if (w := self._switched_off(t, in_body, from_test))), None)
            if why is not None:
                where = Location(at.path, stmt.lineno, stmt.col_offset + 1)
                yield Assumption("flag-off", where, why)

    def structure_guards(self, at: Location) -> Iterator[Assumption]:
        """The ``if`` tests around ``at`` on whether a pytree holds leaves (``if
        jax.tree_util.tree_leaves(state.batch_stats):``, ``len(...) > 0``, ``not ...``), in either
        arm: a loop keeps a pytree's structure, so the step runs at every turn or never, and which
        one depends on the models the program builds, which the source does not say."""
        for stmt, _ in self.enclosing(at):
            if not isinstance(stmt, ast.If):
                continue
            tests = stmt.test.values if isinstance(stmt.test, ast.BoolOp) else [stmt.test]
            tested = next((t for t in tests if _structure_tested(t)), None)
            if tested is not None:
                where = Location(at.path, stmt.lineno, stmt.col_offset + 1)
                yield Assumption(
                    "structure-guard", where, f"`{_code(tested, 60)}`: every turn or never"
                )

    def _read_in(self, path: str, scope: ast.AST | None, test: ast.expr) -> ast.expr:
        """``test`` with the name it tests or compares replaced by the read its one assignment in
        ``scope`` (of file ``path``) binds it to (``backend = os.getenv("BACKEND", "python")``
        then ``backend == "jax"``; ``every = config.train.probe_every`` then ``every > 0``)."""
        compared = isinstance(test, ast.Compare) and len(test.ops) == 1
        name = test.left if isinstance(test, ast.Compare) and compared else test
        if scope is None or not isinstance(name, ast.Name):
            return test
        assign = self.sole_assignment(path, scope, name.id)
        read = assign.value if assign is not None else None
        if not isinstance(read, ast.Call | ast.Attribute | ast.Subscript):
            return test
        if isinstance(test, ast.Compare):
            return ast.Compare(left=read, ops=test.ops, comparators=test.comparators)
        return read

    def _switched_off(self, test: ast.expr, in_body: bool, from_test: bool) -> str | None:
        """Why ``test`` takes the other arm than ``in_body`` says unless something is set: a flag
        the project declares off (False, or 0 tested as ``> 0``) and never gives another value, or
        an environment variable no file of the project sets, read with a default that decides
        the test (``os.getenv("MODE", "vectorized") == "streamed"``)."""
        flag, negated = _flag_tested(test)
        if flag is not None and negated != in_body and self.off(flag):
            return f"`{flag}` is {self.declared(flag)!r} unless set"
        read = _environment_tested(test)
        if read is not None and read[2] != in_body and self.unset(read[0], from_test):
            return f"`{read[0]}` is {read[1]!r} unless set in the environment"
        return None

    def jit_alternatives(self, at: Location) -> Iterator[tuple[ast.If, bool, str]]:
        """The ``if`` statements that hold ``at`` in a lambda or def bound to a name in one arm,
        where another arm binds that name and builds a jit (``if cfg.use_jit: step_jit =
        jax.jit(...); step_fn = step_jit.lower(s).compile()``, ``else: step_fn = lambda s:
        step(s)``); each with whether the eager arm is its body, and its file."""
        found = self._alternatives.get(at)
        if found is None:
            found = self._alternatives[at] = list(self._jit_alternatives(at))
        return iter(found)

    def _jit_alternatives(self, at: Location) -> Iterator[tuple[ast.If, bool, str]]:
        for (stmt, _), (inner, arm) in pairwise(self.enclosing(at)):
            if not isinstance(stmt, ast.If):
                continue
            in_body = arm is stmt.body
            other = stmt.orelse if in_body else stmt.body
            names = _binding_around(inner, at)
            if other and names and self._jit_bound(at.path, other, names):
                yield stmt, in_body, at.path

    def jit_rebinds(self, at: Location) -> Iterator[tuple[ast.If | ast.IfExp, bool, str]]:
        """The ``if`` statements before the call ``name(...)`` at ``at``, in its function, with an
        arm that rebinds ``name`` and builds a jit (``if params.use_jit: step_fn =
        jax.jit(step_fn)``), and the conditional expressions that bind it so (``solve =
        jax.jit(_solve) if jit else _solve``); each with whether the arm that leaves ``name``
        eager is its body, and its file."""
        found = self._rebinds.get(at)
        if found is None:
            found = self._rebinds[at] = list(self._jit_rebinds(at))
        return iter(found)

    def _jit_rebinds(self, at: Location) -> Iterator[tuple[ast.If | ast.IfExp, bool, str]]:
        call = self.call_at(at)
        if call is None or not isinstance(call.func, ast.Name):
            return
        names = {call.func.id}
        around = self.enclosing(at)
        defs = [i for i, (s, _) in enumerate(around) if isinstance(s, _DEFS)]
        for inner, block in around[defs[-1] + 1 if defs else 0 :]:
            for earlier in block[: block.index(inner)]:  # type: ignore[arg-type]
                yield from self._jit_chosen(at.path, earlier, names)
                if not isinstance(earlier, ast.If):
                    continue
                for arm, in_body in ((earlier.body, True), (earlier.orelse, False)):
                    if arm and self._jit_bound(at.path, arm, names):
                        yield earlier, not in_body, at.path

    def _jit_chosen(
        self, path: str, stmt: ast.stmt, names: set[str]
    ) -> Iterator[tuple[ast.IfExp, bool, str]]:
        """``name = jax.jit(f) if jit else f`` binding one of ``names``: the conditional
        expression, whether the eager arm is its body, and its file. The eager arm is the path
        only where the test takes it, as for an ``if`` statement."""
        if not (
            isinstance(stmt, ast.Assign | ast.AnnAssign)
            and isinstance(stmt.value, ast.IfExp)
            and bound_names([stmt], "nested") & names
        ):
            return
        choice = stmt.value
        jitted = [self._jit_in(path, arm) for arm in (choice.body, choice.orelse)]
        if jitted[0] != jitted[1]:
            yield choice, jitted[1], path

    def _jit_in(self, path: str, node: ast.expr) -> bool:
        """Whether ``node`` holds a jit site of the summaries (not a lax primitive's body)."""
        line, col, end_line, end_col = ast_span(node)
        start, end = (line, col), (end_line, end_col)
        return any(
            start <= (spec.location.line, spec.location.col) <= end
            for module in self._modules(path)
            for spec in module.jits
            if not spec.traces_on_call
        )

    def _jit_bound(self, path: str, block: list[ast.stmt], names: set[str]) -> bool:
        """Whether ``block`` binds one of ``names`` and builds a jitted function (a jit site of the
        summaries: every wrapper spelling, aliases included; not a lax primitive's body)."""
        first, last = block[0].lineno, block[-1].end_lineno or block[-1].lineno
        lines = (
            spec.location.line
            for module in self._modules(path)
            for spec in module.jits
            if not spec.traces_on_call
        )
        return any(first <= line <= last for line in lines) and any(
            bound_names([stmt], "nested") & names for stmt in block
        )

    def declared(self, flag: str) -> object:
        """The literal of ``flag``'s one declaration (``use_jit: bool = False``), else unknown."""
        if flag not in self._declared:
            self._declared[flag] = _declared_value(flag, self._texts)
        return self._declared[flag]

    def scope_of(self, fn: FunctionSummary) -> ast.AST | None:
        """The tree of a module's top level, or the def of a function."""
        if fn.kind == "module":
            return self.tree(fn.location.path)
        defs = [s for s, _ in self.enclosing(fn.location) if isinstance(s, _DEFS)]
        return defs[-1] if defs else None

    def expression_at(self, at: Location) -> ast.expr | None:
        """The outermost expression that starts at ``at``."""
        return next(iter(self.starting_at(at)), None)

    def assignment_of(self, path: str, target: ast.AST) -> ast.Assign | None:
        """The plain assignment whose one target is ``target`` (a name stored in the file)."""
        stmt = self.statement_at(Location(path, target.lineno, target.col_offset + 1))  # type: ignore[attr-defined]
        if isinstance(stmt, ast.Assign) and stmt.targets == [target]:
            return stmt
        return None

    def literal_passed(self, caller: FunctionSummary, passed: Arg) -> object:
        """The literal an argument is: written out (``jit=True``), or a name of the caller bound
        once, to a literal, before the call (``jit = True  # set False to debug``, then
        ``jit=jit``); an object a construction written there makes (``value_of``); else
        ``_FUNCTION`` for a function or a jit; ``_SOME`` where the summary knows it for a kind of
        value that is never None (an array however often its name is rebound: ``_never_none``),
        ``_UNKNOWN`` otherwise."""
        found = self._passed_value(caller, passed)
        if found is _UNKNOWN and passed.value.ty in _FUNCTIONS:
            return _FUNCTION
        return _SOME if found is _UNKNOWN and _never_none(passed.value) else found

    def _passed_value(self, caller: FunctionSummary, passed: Arg) -> object:
        known = _literal_text(passed.text)
        if known is not _UNKNOWN:
            return known
        if not passed.text.isidentifier():
            return self.value_of(caller, self.expression_at(passed.location))
        if caller.kind == "module":
            scope: ast.AST | None = self.tree(caller.location.path)
        else:
            defs = [s for s, _ in self.enclosing(caller.location) if isinstance(s, _DEFS)]
            scope = defs[-1] if defs else None
        assign = (
            self.sole_assignment(caller.location.path, scope, passed.text)
            if scope is not None
            else None
        )
        if assign is None or assign.lineno >= passed.location.line:
            return _UNKNOWN
        return self.value_of(caller, assign.value)

    def value_of(self, fn: FunctionSummary, node: ast.expr | None) -> object:
        """What ``node``, in ``fn``, is: a literal; an ``_Instance`` a construction of a class of
        declared fields makes (``GameParams(mirrored=True)``); ``_FUNCTION`` for a function a call
        makes (``_makes_function``); ``_BUILT`` for another object a display or a call makes that is
        never None (``_builds``); else ``_UNKNOWN``."""
        found = _literal(node)
        if found is not _UNKNOWN or node is None:
            return found
        made = self.instance_of(fn, node) if isinstance(node, ast.Call) else None
        if made is not None:
            return made
        if self._makes_function(fn, node):
            return _FUNCTION
        return _BUILT if self._builds(fn, node) else _UNKNOWN

    def _makes_function(self, fn: FunctionSummary, node: ast.expr) -> bool:
        """Whether ``node`` calls functions of the project that each return a function or a jit
        (``loss_grad = make_loss_grad(target)``, ``return jax.jit(jax.value_and_grad(loss))``)."""
        site = self._site_of(fn, node) if isinstance(node, ast.Call) else None
        targets = self.project.site_targets.get(site, ()) if site is not None else ()
        return bool(targets) and all(
            isinstance(t, FuncTarget)
            and (returned := self.project.function(t.qualname).returns) is not None
            and returned.ty in _FUNCTIONS
            for t in targets
        )

    def instance_of(self, fn: FunctionSummary, call: ast.Call) -> _Instance | None:
        """The object ``call`` makes where it constructs a class of the project whose ``__init__``
        its declared fields generate (a NamedTuple, a dataclass): each field as the call passes it
        (a literal, else unknown), else its declared default. None for any other call, or one
        that passes ``*args``/``**kwargs``."""
        site = self._site_of(fn, call)
        targets = self.project.site_targets.get(site, ()) if site is not None else ()
        if len(targets) != 1 or not isinstance(targets[0], ClassTarget):
            return None
        symbols, cls = self.project.symbols, targets[0].qualname
        fields = symbols.init_fields(cls)
        if not fields or symbols.method(cls, "__init__") is not None:
            return None
        if any(isinstance(a, ast.Starred) for a in call.args) or any(
            k.arg is None for k in call.keywords
        ):
            return None
        given = dict(zip(fields, call.args, strict=False))
        given.update((k.arg, k.value) for k in call.keywords if k.arg is not None)
        values = []
        for name in fields:
            if name in given:
                values.append((name, self.value_of(fn, given[name])))
            else:
                default = symbols.field_default(cls, name)
                values.append((name, _literal_text(default.text) if default else _UNKNOWN))
        return _Instance(cls, tuple(values))

    def declared_field(self, caller: FunctionSummary, passed: Arg, attr: str) -> object:
        """The declared default of field ``attr`` of the class whose instances the summary knows
        ``passed`` for (``GameParams(...)`` passed, or bound to the name passed), else unknown."""
        ref = passed.value.ref
        owner = self.project.owner[caller.qualname]
        cls = self.project.symbols.class_named(owner, ref) if ref else None
        default = self.project.symbols.field_default(cls, attr) if cls else None
        return _literal_text(default.text) if default is not None else _UNKNOWN

    def _site_of(self, fn: FunctionSummary, node: ast.expr) -> tuple[str, int] | None:
        """The call site of ``fn`` that ``node``, a call written in it, is."""
        where = (node.lineno, node.col_offset + 1)
        index = next(
            (i for i, c in enumerate(fn.calls) if (c.location.line, c.location.col) == where), None
        )
        return (fn.qualname, index) if index is not None else None

    def _builds(self, fn: FunctionSummary, node: ast.expr) -> bool:
        """Whether ``node`` makes an object, never None: a display, a lambda, an instance of a
        class of the project, or a call of functions of the project that each return one at
        every return (``fns = build_fns(...)``, passed for ``if cached is not None:``)."""
        if isinstance(node, _DISPLAYS):
            return True
        if not isinstance(node, ast.Call):
            return False
        site = self._site_of(fn, node)
        targets = self.project.site_targets.get(site, ()) if site is not None else ()
        return bool(targets) and all(
            isinstance(t, ClassTarget)
            or (
                isinstance(t, FuncTarget) and self._returns_built(self.project.function(t.qualname))
            )
            for t in targets
        )

    def _returns_built(self, fn: FunctionSummary) -> bool:
        defs = [s for s, _ in self.enclosing(fn.location) if isinstance(s, _DEFS)]
        if not defs or not defs[-1].body or not isinstance(defs[-1].body[-1], ast.Return):
            return False
        returns = [n for n in own_nodes(defs[-1].body) if isinstance(n, ast.Return | ast.Yield)]
        return all(isinstance(r, ast.Return) and isinstance(r.value, _DISPLAYS) for r in returns)

    def branches(
        self, prop: Propagation, at: Location, chain: tuple[PathStep, ...]
    ) -> list[Assumption | None]:
        """``_argument_branches``, once per place and chain of calls into it."""
        key = (at, chain)
        found = self._branches.get(key)
        if found is None:
            found = self._branches[key] = list(_argument_branches(prop, self, at, chain))
        return found

    def sole_assignment(self, path: str, scope: ast.AST, name: str) -> ast.Assign | None:
        """``_sole_assignment`` in ``scope``, a def of file ``path`` or its tree."""
        binders = self._parsed(path).binders
        found = binders.get(id(scope))
        if found is None:
            found = binders[id(scope)] = Binders.of(scope)
        return found.sole_assignment(name)

    def call_at(self, at: Location) -> ast.Call | None:
        """The outermost call that starts at ``at``."""
        return next((n for n in self.starting_at(at) if isinstance(n, ast.Call)), None)

    def starting_at(self, at: Location) -> list[ast.expr]:
        """The expressions of ``at``'s statement that start at ``at``, outermost first: the
        statement's expressions are indexed once, not walked again per finding (a statement of a
        thousand slices had a finding at each, a quadratic walk)."""
        stmt = self.statement_at(at)
        if stmt is None:
            return []
        starts = self._starts.get(id(stmt))
        if starts is None:
            starts = self._starts[id(stmt)] = _expressions_by_start(stmt)
        return starts.get((at.line, at.col), [])

    def statement_at(self, at: Location) -> ast.stmt | None:
        """The innermost statement holding ``at``."""
        around = self.enclosing(at)
        return around[-1][0] if around else None

    def known(self, prop: Propagation, fn: FunctionSummary, subject: str) -> _Known | None:
        """What ``subject`` of ``fn`` (a parameter, or ``self.attr``) holds over every known call
        (``_known``), read once per run."""
        key = (fn.qualname, subject)
        if key not in self._known:
            self._known[key] = None  # what a store passes on from it again is not known
            self._known[key] = _known(prop, self, fn, subject)
        return self._known[key]

    def off(self, flag: str) -> bool:
        """Whether ``flag`` is False wherever the project gives it a value (``_declared_off``); any
        doubt keeps the branch taken."""
        if flag not in self._flags:
            self._flags[flag] = _declared_off(flag, self._texts)
        return self._flags[flag]

    def unset(self, variable: str, with_tests: bool) -> bool:
        """Whether no file of the project names the environment variable but to read it
        (``os.getenv("NAME", ...)``, ``os.environ.get("NAME", ...)``): none sets it. Without
        ``with_tests`` the test files are not read: ``monkeypatch.setenv`` there holds in a test."""
        name = re.escape(variable)
        named = re.compile(rf"[\"']{name}[\"']")
        read = re.compile(rf"(?:getenv|environ\.get)\(\s*[\"']{name}[\"']")
        texts = self._texts if with_tests else self._texts_beside_tests
        return sum(len(named.findall(t)) for t in texts) == sum(len(read.findall(t)) for t in texts)

    @cached_property
    def _texts(self) -> list[str]:
        return [text for m in self.project.modules.values() if (text := self._text(m.path))]

    @cached_property
    def _texts_beside_tests(self) -> list[str]:
        return [
            text
            for m in self.project.modules.values()
            if not is_test_file(m.path) and (text := self._text(m.path))
        ]

    def _text(self, path: str) -> str | None:
        """The file's text as the run reads it, lines counted as Python counts them; None when it
        could not be read."""
        lines = self.read_lines(path)
        return "\n".join(lines) if lines else None


def _sole_assignment(scope: ast.AST, name: str) -> ast.Assign | None:
    """The assignment ``name = ...`` that is the only thing binding ``name`` in ``scope``."""
    return Binders.of(scope).sole_assignment(name)


def _bindings(scope: ast.AST, name: str) -> list[ast.AST]:
    """What binds ``name`` in ``scope``, nested scopes too (a ``global`` there rebinds it): each
    name stored, parameter, import and def."""
    return Binders.of(scope).names.get(name, [])


def _parse(text: str | None) -> ast.Module | None:
    try:
        return desugar.plain(columns.parse(text), text) if text is not None else None
    except (SyntaxError, ValueError, RecursionError):
        return None


def _is_main_test(test: ast.expr) -> bool:
    """``__name__ == "__main__"``, either way round."""
    if not isinstance(test, ast.Compare) or len(test.comparators) != 1:
        return False
    sides = [test.left, test.comparators[0]]
    names = [s.id for s in sides if isinstance(s, ast.Name)]
    texts = [s.value for s in sides if isinstance(s, ast.Constant)]
    return names == ["__name__"] and texts == ["__main__"]


def _holds(stmt: ast.stmt, line: int) -> bool:
    first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
    return first <= line <= (stmt.end_lineno or stmt.lineno)


# Statements whose calls all run when the statement does (no branch, loop or body of their own).
_SIMPLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)
# Parts of an expression that may not run, or run later.
_DEFERRED = (ast.Lambda, ast.IfExp, ast.BoolOp, ast.comprehension)


def _unconditional_calls(stmt: ast.stmt) -> Iterator[ast.Call]:
    """The calls a simple statement makes whenever it runs."""
    if not isinstance(stmt, _SIMPLE):
        return
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Call):
            yield node
        todo.extend(n for n in ast.iter_child_nodes(node) if not isinstance(n, _DEFERRED))


def _expressions_by_start(stmt: ast.stmt) -> dict[tuple[int, int], list[ast.expr]]:
    """The statement's expressions by where each starts (line, 1-based column), in the order
    ``ast.walk`` meets them: the outermost first."""
    found: dict[tuple[int, int], list[ast.expr]] = {}
    for node in ast.walk(stmt):
        if isinstance(node, ast.expr):
            found.setdefault((node.lineno, node.col_offset + 1), []).append(node)
    return found


def _starts_at(node: ast.expr, at: Location) -> bool:
    return (node.lineno, node.col_offset + 1) == (at.line, at.col)


def _plain(node: ast.AST) -> bool:
    """A name, a constant, or attributes and constant subscripts of one: the same object each time
    the same bindings are read."""
    if isinstance(node, ast.keyword | ast.Starred):
        return _plain(node.value)
    while isinstance(node, ast.Attribute | ast.Subscript):
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
            return False
        node = node.value
    return isinstance(node, ast.Name | ast.Constant)


def _touches(stmt: ast.stmt, names: set[str]) -> bool:
    """Whether ``stmt`` may change what one of ``names`` holds: binds or deletes it, stores into it,
    or calls a method of it (``batch.append(x)``); a nested def or class binds its name."""
    for node in ast.walk(stmt):
        if isinstance(node, (*_DEFS, ast.ClassDef)):
            changed: str | None = node.name
        elif isinstance(node, ast.Name | ast.Attribute | ast.Subscript):
            changed = _root(node) if not isinstance(node.ctx, ast.Load) else None
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            changed = _root(node.func.value)
        else:
            continue
        if changed in names:
            return True
    return False


def _root(node: ast.expr) -> str | None:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _blocks(stmt: ast.stmt) -> Iterator[list[ast.stmt]]:
    for name in ("body", "orelse", "finalbody"):
        block = getattr(stmt, name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            yield block
    for handler in getattr(stmt, "handlers", ()):
        yield handler.body
    for case in getattr(stmt, "cases", ()):
        yield case.body


def _flag_tested(test: ast.expr) -> tuple[str | None, bool]:
    """The flag an ``if`` tests by itself (``cfg.use_x``, ``self.cfg.use_x``, ``cfg["use_x"]``,
    ``USE_X``, or a count compared with zero as its truth: ``cfg.every > 0``, ``cfg.every == 0``),
    and whether the test negates it."""
    negated = isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not)
    inner = test.operand if isinstance(test, ast.UnaryOp) and negated else test
    truth = _truth_of_count(inner)
    if truth is not None:
        inner, negated = truth[0], negated != truth[1]
    if isinstance(inner, ast.Attribute):
        return inner.attr, negated
    if isinstance(inner, ast.Subscript) and isinstance(inner.slice, ast.Constant):
        key = inner.slice.value
        return (key, negated) if isinstance(key, str) and key.isidentifier() else (None, False)
    if isinstance(inner, ast.Name) and inner.id.isupper():
        return inner.id, negated
    return None, False


def _structure_tested(test: ast.expr) -> bool:
    """Whether ``test`` is the truth of a pytree's leaves (``apis.STRUCTURE_TESTS``), negated or
    not, or of their count (``len(jax.tree_util.tree_leaves(x)) > 0``)."""
    inner = test.operand if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) else test
    truth = _truth_of_count(inner)
    inner = truth[0] if truth is not None else inner
    if isinstance(inner, ast.Call) and ast.unparse(inner.func) == "len" and inner.args:
        inner = inner.args[0]
    if not isinstance(inner, ast.Call):
        return False
    # as imported: ``jax.tree_util.tree_leaves``, ``tree_util.tree_leaves``, ``tree_leaves``
    called = ast.unparse(inner.func)
    return "tree" in called and any(f".{name}".endswith(f".{called}") for name in STRUCTURE_TESTS)


def _truth_of_count(test: ast.expr) -> tuple[ast.expr, bool] | None:
    """``n > 0``, ``n != 0``, ``n >= 1`` (the truth of ``n``) or ``n == 0`` (its negation) of a
    count ``n``: the count, and whether the test negates it."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    bound = test.comparators[0]
    if not isinstance(bound, ast.Constant) or type(bound.value) is not int:
        return None
    op = test.ops[0]
    if (bound.value, type(op)) in ((0, ast.Gt), (0, ast.NotEq), (1, ast.GtE)):
        return test.left, False
    if (bound.value, type(op)) == (0, ast.Eq):
        return test.left, True
    return None


# Reads of an environment variable with a default: ``os.getenv(name, default)``, ``os.environ.get``.
_ENVIRONMENT_READS = frozenset({"getenv", "os.getenv", "environ.get", "os.environ.get"})


def _environment_tested(test: ast.expr) -> tuple[str, object, bool] | None:
    """``os.getenv("NAME", default) == literal`` (``!=``, ``in`` or ``not in`` literals; the read
    normalised, ``.strip().lower()``): the variable, its default, and whether the test holds where
    the environment leaves it at the default."""
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq | ast.NotEq | ast.In | ast.NotIn)
    ):
        return None
    read = _environment_read(test.left)
    try:
        compared = ast.literal_eval(test.comparators[0])
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if read is None:
        return None
    name, default = read
    if isinstance(test.ops[0], ast.Eq | ast.NotEq):
        holds = default == compared
    elif isinstance(compared, tuple | list | set | frozenset):
        holds = default in compared
    else:
        return None
    return name, default, holds == isinstance(test.ops[0], ast.Eq | ast.In)


# What a read is normalised with before it is tested (``os.getenv(...).strip().lower()``).
_NORMALISERS = frozenset({"strip", "lstrip", "rstrip", "lower", "upper", "casefold"})


def _environment_read(node: ast.expr) -> tuple[str, object] | None:
    """``os.getenv("NAME", default)`` (``os.environ.get``), normalised or not: the variable and
    the default as the test sees it."""
    methods = []
    while (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _NORMALISERS
        and not node.args
        and not node.keywords
    ):
        methods.append(node.func.attr)
        node = node.func.value
    if not (
        isinstance(node, ast.Call)
        and ast.unparse(node.func) in _ENVIRONMENT_READS
        and len(node.args) == 2
        and not node.keywords
        and all(isinstance(a, ast.Constant) for a in node.args)
    ):
        return None
    name, default = (a.value for a in node.args)  # type: ignore[attr-defined]
    if not isinstance(name, str):
        return None
    for method in reversed(methods):
        if not isinstance(default, str):
            return None
        default = getattr(default, method)()
    return name, default


def _declared_off(flag: str, texts: list[str]) -> bool:
    """Whether ``flag`` is declared once (a class field, a module constant: at the start of a line)
    and every value the project gives it, there or anywhere else (an assignment, a keyword, an
    attribute store), is ``False``; a mention that may carry another value (a dict key, a
    ``--flag`` option) counts as one."""
    name = re.escape(flag)
    declared = _declaration(flag)
    given = re.compile(rf"(?:(?<![\w.])|\.){name}[ \t]*(?::[^=\n]*)?=(?!=)[ \t]*(\w*)")
    mentioned = re.compile(rf"[\"']{name}[\"']|--{name.replace('_', '[-_]')}\b")
    # ``every += 1``: a count changed where it is used.
    changed = re.compile(rf"(?:(?<![\w.])|\.){name}[ \t]*[-+*/|&^%@]=")
    if sum(len(declared.findall(text)) for text in texts) != 1:
        return False
    values = [value for text in texts for value in given.findall(text)]
    return (
        all(v in ("False", "0") for v in values)
        and not any(mentioned.search(t) for t in texts)
        and not any(changed.search(t) for t in texts)
    )


def _declaration(flag: str) -> re.Pattern[str]:
    """A line that declares ``flag`` (a class field, a module constant, a keyword on its own line),
    the word it is given first captured."""
    name = re.escape(flag)
    return re.compile(rf"^[ \t]*{name}[ \t]*(?::[^=\n]*)?=(?!=)[ \t]*(\w*)", re.MULTILINE)


def _declared_value(flag: str, texts: list[str]) -> object:
    """The literal ``flag`` is given where it is declared, when the project declares it once."""
    found = [value for text in texts for value in _declaration(flag).findall(text)]
    return _literal_text(found[0]) if len(found) == 1 and found[0] else _UNKNOWN


# -- eager paths beside a jit ---------------------------------------------------------------------
def _jit_skipped(
    prop: Propagation,
    sources: _Sources,
    finding: Finding,
    places: list[tuple[Location, tuple[PathStep, ...]]],
) -> Iterator[Assumption]:
    """``jit-off`` for each ``if`` that must skip the jit beside the chain for it to run a function
    eagerly: a place of the chain in the eager alternative (``_Sources.jit_alternatives``), or a
    call of the chain that runs the function itself where an earlier ``if`` rebinds the name to a
    jit (``_Sources.jit_rebinds``); unless a value the code gives the test takes that way
    (``_eager_given``). A function reached from a jitted one runs while it traces, and the eager
    path beside it is the one a flag turned off takes."""
    path = finding.call_path
    # The function each call of the chain runs next (none without a call).
    runs = [*(s.function for s in path[1:]), sources.function_at(finding.location)][: len(path)]
    eager_calls = [
        step.location
        for step, ran in zip(path, runs, strict=True)
        if ran is not None
        and (site := sources.project.symbols.call_at(step.location)) is not None
        and sources.project.calls_function(site, ran)
    ]
    decisions = [
        *(d for at, _ in places for d in sources.jit_alternatives(at)),
        *(d for at in eager_calls for d in sources.jit_rebinds(at)),
    ]
    for stmt, eager_in_body, path_of in decisions:
        where = Location(path_of, stmt.lineno, stmt.col_offset + 1)
        if not _eager_given(prop, sources, where, stmt.test, eager_in_body):
            outcome = "true" if eager_in_body else "false"
            text = f"runs without the jit only if `{ast.unparse(stmt.test)}` is {outcome}"
            yield Assumption("jit-off", where, text)


def _eager_given(
    prop: Propagation, sources: _Sources, at: Location, test: ast.expr, eager_in_body: bool
) -> bool:
    """Whether a value the code gives ``test`` (at ``at``) makes it ``eager_in_body``: the one
    declaration of the flag it tests (``use_jit: bool = False``), or a literal a known call passes
    (or a default left to) an argument it reads."""
    flag, negated = _flag_tested(test)
    value = sources.declared(flag) if flag is not None else _UNKNOWN
    if isinstance(value, bool) and (value != negated) == eager_in_body:
        return True
    qualname = sources.function_at(at)
    fn = sources.project.functions.get(qualname) if qualname else None
    defs = [stmt for stmt, _ in sources.enclosing(at) if isinstance(stmt, _DEFS)]
    if fn is None or fn.kind == "module" or not defs:
        return False
    return any(
        _truth(test, subject, v) == eager_in_body
        for subject in _subjects(test, fn, sources.stored_names(at.path, defs[-1]))
        if (known := sources.known(prop, fn, subject)) is not None
        for v in known.values
    )


def _binding_around(stmt: ast.stmt, at: Location) -> set[str]:
    """The names ``stmt`` binds to a lambda or def whose code holds ``at``."""
    out: set[str] = set()
    for node in ast.walk(stmt):
        if isinstance(node, _DEFS) and _inside(node, at):
            out.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign) and _lambda_holds(node.value, at):
            out |= bound_names([node], "nested")
    return out


def _lambda_holds(value: ast.expr | None, at: Location) -> bool:
    return value is not None and any(
        isinstance(n, ast.Lambda) and _inside(n, at) for n in ast.walk(value)
    )


def _inside(node: ast.AST, at: Location) -> bool:
    """Whether ``at`` is in ``node``'s code, after where it starts."""
    line, col, end_line, end_col = ast_span(node)
    return (line, col) < (at.line, at.col) <= (end_line, end_col)


# -- branches the chain's own arguments decide ---------------------------------------------------
class _Unknown:
    """A value no reading of the source can know: a caller's expression, a field read from YAML."""

    def __repr__(self) -> str:
        return "unknown"


_UNKNOWN = _Unknown()


class _Built:
    """An object a display or a call makes: not None, its truth and contents not known."""

    def __repr__(self) -> str:
        return "built"


_BUILT = _Built()


@dataclass(frozen=True)
class _Instance:
    """An object a construction of a class of declared fields makes (``_Sources.instance_of``):
    never None, each field's value as passed or declared (``_UNKNOWN`` where not a literal)."""

    cls: str
    fields: tuple[tuple[str, object], ...]

    def field(self, name: str) -> object:
        return next((v for f, v in self.fields if f == name), _UNKNOWN)


class _Some:
    """A value known not to be None, nothing else of it (a flag computed by the caller)."""

    def __repr__(self) -> str:
        return "some"


_SOME = _Some()


class _Function:
    """A function, a jitted one or a partial: never None, and always true."""

    def __repr__(self) -> str:
        return "function"


_FUNCTION = _Function()

# Kinds of value (``Value.ty``) that are functions: true in a test, as Python's are.
_FUNCTIONS = frozenset({LAMBDA, PARTIAL, FUNCTION, TRANSFORM, JIT})


def _built(value: object) -> bool:
    """Whether ``value`` is known not to be None: an object known to be made, or ``_SOME``."""
    return value is _BUILT or value is _SOME or value is _FUNCTION or isinstance(value, _Instance)


# Kinds of value (``Value.ty``) that are never None: arrays, numbers, displays, functions, objects.
_NEVER_NONE = frozenset(
    {
        *ARRAYS,
        *JIT_RESULTS,
        *SCALARS,
        STR,
        LIST,
        TUPLE,
        DICT,
        SET,
        LAMBDA,
        PARTIAL,
        FUNCTION,
        TRANSFORM,
        JIT,
        INSTANCE,
    }
)


def _never_none(value: Value) -> bool:
    """Whether the summary knows ``value`` for a kind that is never None (``a = f(x); a = a / n``
    passed for ``if a is None:``)."""
    return value.ty in _NEVER_NONE


# What makes an object, never None, wherever it runs.
_DISPLAYS = (
    ast.Tuple,
    ast.List,
    ast.Dict,
    ast.Set,
    ast.ListComp,
    ast.DictComp,
    ast.SetComp,
    ast.Lambda,
    ast.JoinedStr,
)


_LITERALS = (type(None), bool, int, float, str)


@dataclass(frozen=True)
class _Known:
    """What a function's parameter (or an attribute of its object) holds: one value per known call
    (or store), ``_UNKNOWN`` where it is not a literal; and what a call that leaves it out gets."""

    values: tuple[object, ...]
    default: object


def _argument_branches(
    prop: Propagation, sources: _Sources, at: Location, chain: tuple[PathStep, ...]
) -> Iterator[Assumption | None]:
    """The ``if`` tests around ``at`` in its function that read one of its arguments (a parameter,
    an attribute of ``self``) and nothing else not written out: None for a test that every known
    value decides against ``at`` (that path is never taken), a ``flag-off`` assumption for one a
    flag's default (``False``) decides against where some call passes a value not known (a
    configuration's field).
    ``chain``: the calls of the chain down to the one that runs the function; none where the
    function starts the chain, so callers outside the project may pass anything."""
    by = chain[-1] if chain else None
    qualname = sources.function_at(at)
    fn = sources.project.functions.get(qualname) if qualname else None
    if fn is None or fn.kind == "module":
        return
    around = [stmt for stmt, _ in sources.enclosing(at)]
    defs = _defs_running(around, at)
    if not defs:
        return
    node = around[defs[-1]]
    inside = sources.enclosing(at)[defs[-1] + 1 :]
    for stmt, in_body in _deciding_tests(inside, at.line):
        test = _resolved(sources, fn, stmt.test)
        for subject in _subjects(test, fn, sources.stored_names(at.path, node)):
            field = _param_field(fn, subject)
            if field is not None:
                known = _fields_built(prop, sources, fn, by, *field)
            else:
                known = (
                    _receivers_made(sources, by, subject)
                    or _passed_by(prop, sources, fn, subject, chain)
                    or sources.known(prop, fn, subject)
                )
            if known is None:
                continue
            values = (*known.values, _UNKNOWN) if by is None else known.values
            off = [_truth(test, subject, v) not in (None, in_body) for v in values]
            if all(off):
                yield None
                return
            unknown = [v is _UNKNOWN or v is _SOME for v in values]
            # A flag: a bool default. A None default is an optional input, which callers that
            # pass something mostly fill in.
            flag = isinstance(known.default, bool)
            default_off = _truth(test, subject, known.default) not in (None, in_body)
            if flag and default_off and all(o or u for o, u in zip(off, unknown, strict=True)):
                where = Location(at.path, stmt.lineno, stmt.col_offset + 1)
                text = f"`{subject}` is {known.default!r} unless set"
                yield Assumption("flag-off", where, text)
    fallback = _fallback(inside, at, node, fn)
    known = _passed_by(prop, sources, fn, fallback[0], chain) if fallback else None
    if fallback is not None and known is not None and known.values:
        param, test, in_body = fallback
        if all(_truth(test, param, v) not in (None, in_body) for v in known.values):
            yield None  # the chain's call passes what the fallback is built for: never built


def _fallback(
    inside: list[tuple[ast.AST, list[ast.stmt]]], at: Location, scope: ast.AST, fn: FunctionSummary
) -> tuple[str, ast.expr, bool] | None:
    """The parameter whose fallback ``at`` builds, the test that decides it and the outcome that
    builds it: ``p = p or make()`` (built where ``p`` is false), ``p = make() if p is None else p``,
    and ``if p is None: p = make()`` (``if not p:``), where nothing else binds ``p``: the caller's
    argument is what the test reads."""
    if not inside:
        return None
    stmt = inside[-1][0]
    target: str | None = None
    found: tuple[ast.expr, bool] | None = None
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0].id if isinstance(stmt.targets[0], ast.Name) else None
        value = stmt.value
        if isinstance(value, ast.BoolOp) and isinstance(value.op, ast.Or):
            if _is_name_of(value.values[0], target) and _within(value.values[1:], at):
                found = value.values[0], False
        elif isinstance(value, ast.IfExp) and _within([value.body], at):
            found = value.test, True
        elif isinstance(value, ast.IfExp) and _within([value.orelse], at):
            found = value.test, False
    if found is None and len(inside) > 1 and isinstance(inside[-2][0], ast.If):
        branch = inside[-2][0]
        bound = {
            t.id
            for s in branch.body
            if isinstance(s, ast.Assign)
            for t in s.targets
            if isinstance(t, ast.Name)
        }
        if any(_holds(s, at.line) for s in branch.body) and not branch.orelse:
            found = branch.test, True
            target = next(iter(bound)) if len(bound) == 1 else None
    if found is None or target is None or fn.param(target) is None:
        return None
    test = found[0]
    if {n.id for n in ast.walk(test) if isinstance(n, ast.Name)} != {target}:
        return None
    # The parameter, and the one binding that falls back.
    if len(_bindings(scope, target)) != 2:
        return None
    return target, test, found[1]


def _within(nodes: list[ast.expr], at: Location) -> bool:
    """Whether ``at`` is in one of ``nodes``' code, where it starts included."""
    return any(_starts_at(n, at) or _inside(n, at) for n in nodes)


def _resolved(sources: _Sources, fn: FunctionSummary, test: ast.expr) -> ast.expr:
    """``test`` with each plain name that one assignment binds written as what it is bound to: a
    number, in ``fn`` or at the top level of its module (``BATCHED_ABOVE = 5000``: a threshold
    decides as a number written out does; a flag declared once is ``flag-off``'s to weigh), or, in
    ``fn``, an argument or a field of one read into a local (``nfa = self.n_alternatives``)."""
    params = {p.name for p in fn.params}
    scope = sources.scope_of(fn)
    found: dict[str, ast.expr] = {}
    for name in sorted({n.id for n in ast.walk(test) if isinstance(n, ast.Name)} - params):
        value = _literal(_bound_once(sources, fn, name))
        local = (
            sources.sole_assignment(fn.location.path, scope, name) if scope is not None else None
        )
        if _number(value):
            found[name] = ast.Constant(value)
        elif local is not None and _argument_read(local.value, params):
            found[name] = local.value
    if not found:
        return test

    class _Bound(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return copy.deepcopy(found[node.id]) if node.id in found else node

    return _Bound().visit(copy.deepcopy(test))


def _argument_read(node: ast.expr, params: set[str]) -> bool:
    """Whether ``node`` is a parameter, or a field of one (``self.n``, ``config.size``)."""
    if isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id in params


def _defs_running(around: list[ast.AST], at: Location) -> list[int]:
    """The positions in ``around`` (the statements around ``at``) of the defs whose code runs
    ``at``: not one that ``at`` is the head of (a jitted def is made by the code around it)."""
    return [
        i
        for i, stmt in enumerate(around)
        if isinstance(stmt, _DEFS) and (stmt.lineno, stmt.col_offset + 1) < (at.line, at.col)
    ]


def _deciding_tests(
    inside: list[tuple[ast.AST, list[ast.stmt]]], line: int
) -> Iterator[tuple[ast.If, bool]]:
    """The ``if`` statements of a function that decide whether ``line`` runs (``inside``: the
    statements around it there, each with its block), each with the outcome that runs it: an ``if``
    around it (true in its body, false in its ``else``), and one before it in a block it is in whose
    body leaves that block (``if jit: return jax.jit(f)`` before ``return f``: false)."""
    for stmt, block in inside:
        for earlier in block[: block.index(stmt)]:  # type: ignore[arg-type]
            if isinstance(earlier, ast.If) and not earlier.orelse and _leaves(earlier.body):
                yield earlier, False
        if not isinstance(stmt, ast.If):
            continue
        in_body = any(_holds(s, line) for s in stmt.body)
        if in_body or any(_holds(s, line) for s in stmt.orelse):  # not in the test itself
            yield stmt, in_body


def _leaves(block: list[ast.stmt]) -> bool:
    """Whether a block ends by leaving the block around it (a ``return``, ``raise``, ...)."""
    return isinstance(block[-1], ENDS_BLOCK)


def _returns_taken(
    project: Project, prop: Propagation, sources: _Sources, finding: Finding
) -> Iterator[Assumption | None]:
    """``_argument_branches`` of the returns a call of the chain gets its function from: after
    ``fn = make_fn(g, jit=jit)``, ``fn(x)`` runs what ``make_fn`` returns, and where its returns hand
    back different functions (``if jit: return jax.jit(f)``, then ``return f``) the chain runs on
    only through those that hand back the function it runs next. None when what the calls pass
    switches every one of them off; the assumptions of the first, when each rests on one."""
    path = finding.call_path
    if not path:
        return
    runs = [*(step.function for step in path[1:]), sources.function_at(finding.location)]
    for index, (step, ran) in enumerate(zip(path, runs, strict=True)):
        site = project.symbols.call_at(step.location)
        if site is None or ran is None:
            continue
        caller = project.function(site[0])
        callee = caller.calls[site[1]].callee
        if callee[0] != "ret" or len(callee) != 2:
            continue
        maker_call = caller.calls[int(callee[1])]
        chain = (*path[:index], PathStep(caller.qualname, maker_call.text, maker_call.location))
        makers = project.site_targets.get((caller.qualname, int(callee[1])), ())
        returns = [
            at
            for maker in makers
            if isinstance(maker, FuncTarget)
            for at, refs in project.functions[maker.qualname].returned_at
            if _hands_back(project, project.functions[maker.qualname], refs, ran)
        ]
        taken = [
            decided
            for at in returns
            if not sources.unreachable(at)
            and None not in (decided := sources.branches(prop, at, chain))
        ]
        if returns and not taken:
            yield None
        elif taken and all(taken):
            yield from taken[0]


def _jit_made(
    project: Project, sources: _Sources, finding: Finding
) -> list[tuple[Location, tuple[PathStep, ...]]]:
    """Where the jit the chain calls is made, with the chain's calls down to the one that made it,
    where a call of a project function returned it (``step = make_step(use_cache)``, then
    ``step(...)``): the maker's ``if`` tests around the jitted def are read on the chain too."""
    path, site = finding.call_path, finding.jit_site
    called = project.symbols.call_at(path[-1].location) if path and site else None
    if called is None or site is None:
        return []
    caller = project.function(called[0])
    callee = caller.calls[called[1]].callee
    if callee[0] != "ret" or len(callee) != 2:
        return []
    maker_call = caller.calls[int(callee[1])]
    maker = sources.function_at(site.location)
    makers = project.site_targets.get((caller.qualname, int(callee[1])), ())
    if not any(isinstance(t, FuncTarget) and t.qualname == maker for t in makers):
        return []
    step = PathStep(caller.qualname, maker_call.text, maker_call.location)
    return [(site.location, (*path[:-1], step))]


def _one_side_each(
    prop: Propagation,
    sources: _Sources,
    finding: Finding,
    places: list[tuple[Location, tuple[PathStep, ...]]],
) -> bool:
    """Whether no flag is read both ways on the chain: the start of a carried state made under
    ``if use_cache:`` and the jitted step made under the ``else`` of the same ``use_cache``, handed
    down unchanged, never meet in one run (issue 36, paths). ``places``: where the chain runs code
    (and where its jit is made), each with the calls of the chain into its function. What the
    finding's own place assigns goes on to the jit unless an object made elsewhere is what does
    (``runs_with``)."""
    sides: dict[tuple[str, str, str], bool] = {}
    for at, chain in places:
        flows = at == finding.location and not finding.runs_with
        for reading, side in _flag_readings(prop, sources, at, chain, flows):
            if sides.setdefault(reading, side) != side:
                return False
    return True


def _flag_readings(
    prop: Propagation,
    sources: _Sources,
    at: Location,
    chain: tuple[PathStep, ...],
    flows: bool = False,
) -> Iterator[tuple[tuple[str, str, str], bool]]:
    """The ``if`` tests that decide whether ``at`` runs and read one parameter of its function
    alone (``if use_cache:``, ``if not jit:``, ``if cache is None:``), each as the parameter it
    is handed down from, up the chain (``_passed_up``: the function and parameter), with the test's
    text (the parameter written ``_``), and the outcome that runs ``at``. ``flows``: what an
    assignment at ``at`` makes goes on, so an ``if`` after it that binds the name again is not
    taken (``_rebinding_after``)."""
    qualname = sources.function_at(at)
    fn = sources.project.functions.get(qualname) if qualname else None
    around = sources.enclosing(at)
    defs = _defs_running([stmt for stmt, _ in around], at)
    if fn is None or fn.kind == "module" or not defs:
        return
    rebound = sources.stored_names(at.path, around[defs[-1]][0])
    inside = around[defs[-1] + 1 :]
    overwritten = _rebinding_after(inside, at) if flows else ()
    for stmt, in_body in (*_deciding_tests(inside, at.line), *overwritten):
        test, taken = _positive(stmt.test, in_body)
        names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
        if len(names) != 1 or any(isinstance(n, ast.Attribute | ast.Call) for n in ast.walk(test)):
            continue
        param = names.pop()
        if fn.param(param) is None or param in rebound:
            continue
        owner, name = _passed_up(prop, sources, fn, param, chain)
        text = ast.unparse(test).replace(param, "_")
        yield (owner, name, text), taken


def _rebinding_after(
    inside: list[tuple[ast.AST, list[ast.stmt]]], at: Location
) -> Iterator[tuple[ast.If, bool]]:
    """Where ``at`` is an assignment of a name, the ``if`` statements after it in its block and
    before the next loop whose body binds the name again (``cache = None``, then ``if use_cache:
    cache = Cache(...)``): what it assigns goes on only where each is false."""
    if not inside:
        return
    stmt, block = inside[-1]
    if not (isinstance(stmt, ast.Assign) and stmt.lineno == at.line):
        return
    names = {t.id for t in stmt.targets if isinstance(t, ast.Name)}
    for later in block[block.index(stmt) + 1 :]:  # type: ignore[arg-type]
        if isinstance(later, (*_LOOPS, *_DEFS)):
            return
        if isinstance(later, ast.If) and names & bound_names(later.body, "targets"):
            yield later, False


def _positive(test: ast.expr, taken: bool) -> tuple[ast.expr, bool]:
    """``test`` without its negations (``not x``, ``x is not None``, ``x != k``), and the outcome
    ``taken`` of it becomes."""
    while isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, taken = test.operand, not taken
    negated = {ast.IsNot: ast.Is, ast.NotEq: ast.Eq}
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in negated:
        op = negated[type(test.ops[0])]()
        return ast.Compare(test.left, [op], test.comparators), not taken
    return test, taken


def _passed_up(
    prop: Propagation,
    sources: _Sources,
    fn: FunctionSummary,
    param: str,
    chain: tuple[PathStep, ...],
) -> tuple[str, str]:
    """The function and parameter that ``param`` of ``fn`` comes from: the chain's call of ``fn``
    (the last of ``chain``) hands on a parameter of its caller as it came, up the chain."""
    for caller, call, passed, _, _ in prop.calls_of(fn, param) if chain else ():
        if call.location != chain[-1].location or passed is None:
            continue
        handed = _handed_on(sources, caller, passed)
        if handed is not None:
            return _passed_up(prop, sources, caller, handed, chain[:-1])
    return fn.qualname, param


def never_made(
    project: Project, prop: Propagation, sources: _Sources, at: Location, site: JitSite
) -> bool:
    """Whether the call at ``at`` runs a function that each maker call giving it makes on another
    branch than the jit ``site``: the function comes from calls of a project function (``step =
    make(...)``, or ``self.image_fn, ... = self._make(size, modality="image")`` in a method of the
    class), and each switches the branch that makes ``site``'s jit off by what it passes (``if
    modality == "image":``): two makers' products, which linking joins for every call, never meet
    at this one (issue 36, paths). The call flips pair no such call with another."""
    givers = _givers(project, at)
    maker = sources.function_at(site.location) if givers else None
    return bool(givers) and all(
        any(isinstance(t, FuncTarget) and t.qualname == maker for t in targets)
        and None in sources.branches(prop, site.location, (step,))
        for step, targets in givers
    )


def _overwritten(
    project: Project, sources: _Sources, owner: FunctionSummary, at: Location, depth: int
) -> bool:
    """Whether the store of ``self.attr`` at ``at`` in method ``owner`` is stored over before the
    method returns, whichever way it runs: a statement after it, in its block or a block around it
    up to the method's body (no loop between), stores ``self.attr`` again or calls a method of
    ``self`` whose body does (``self._code = err`` then ``self._resolve()``, whose last statement
    is ``self._code = 0``). What it stores never reaches the next call that reads the field."""
    this = owner.params[0].name if owner.kind == "method" and owner.params else None
    stored = [
        attr
        for name, attr, node in _stored_attributes(sources.statement_at(at))
        if name == this and _starts_at(node, at)
    ]
    if this is None or not stored:
        return False
    for inner, block in reversed(sources.enclosing(at)):
        if isinstance(inner, (*_LOOPS, *_DEFS)):
            return False
        for later in block[block.index(inner) + 1 :]:  # type: ignore[arg-type]
            if _stores_self(project, sources, owner, later, (this, stored[0]), depth):
                return True
            if any(isinstance(n, (*ENDS_BLOCK, ast.Yield)) for n in ast.walk(later)):
                return False
    return False


def _stored_attributes(stmt: ast.stmt | None) -> list[tuple[str, str, ast.Attribute]]:
    """(name, attribute, target) of each attribute of a name an assignment stores (``self.a,
    self.b = ...`` too)."""
    targets = stmt.targets if isinstance(stmt, ast.Assign) else []
    return [
        (node.value.id, node.attr, node)
        for target in targets
        for node in ast.walk(target)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and isinstance(node.ctx, ast.Store)
    ]


def _stores_self(
    project: Project,
    sources: _Sources,
    owner: FunctionSummary,
    stmt: ast.stmt,
    field: tuple[str, str],
    depth: int,
) -> bool:
    """Whether ``stmt``, run whole, stores ``field`` (``self``'s name, the attribute): an assignment
    of it, or a call of a method of ``self`` (its class's) that stores it over at its top level, a
    couple of calls deep."""
    this, attr = field
    if any((name, stored) == field for name, stored, _ in _stored_attributes(stmt)):
        return True
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    func = call.func if isinstance(call, ast.Call) else None
    if depth > 2 or owner.cls is None or not isinstance(func, ast.Attribute):
        return False
    method = project.symbols.method(owner.cls, func.attr) if _is_name_of(func.value, this) else None
    callee = project.functions.get(method) if method else None
    if callee is None or not callee.params:
        return False
    defs = [s for s, _ in sources.enclosing(callee.location) if isinstance(s, _DEFS)]
    inner = (callee.params[0].name, attr)
    for later in defs[-1].body if defs else ():
        if _stores_self(project, sources, callee, later, inner, depth + 1):
            return True
        if any(isinstance(n, (*ENDS_BLOCK, ast.Yield)) for n in ast.walk(later)):
            return False  # a path that leaves before it
    return False


def _givers(project: Project, at: Location) -> list[tuple[PathStep, tuple[Target, ...]]]:
    """The calls that give the function the call at ``at`` runs, each with what it may call: the
    call whose result it is (``step = make(...)``, then ``step(x)``), or, for ``self.fn(...)``, the
    call every store of ``self.fn`` in the class's methods assigns (an item of its result or the
    whole). None where anything else may give it. Read off the summaries: the call pairs of a
    project ask it, not only its findings."""
    called = project.symbols.call_at(at)
    if called is None:
        return []
    caller = project.function(called[0])
    callee = caller.calls[called[1]].callee
    if callee[0] == "ret" and len(callee) == 2:
        return [_giver(project, caller, int(callee[1]))]
    cls = project.symbols.class_of_method(caller)
    if callee[0] != "self" or len(callee) != 3 or cls is None:
        return []
    out = []
    for klass in project.symbols.mro(cls):
        for method in project.classes[klass].methods.values():
            writer = project.function(method) if method in project.functions else None
            this = writer.params[0].name if writer is not None and writer.params else None
            for stored in writer.writes.get(f"{this}.{callee[2]}", ()) if writer else ():
                deps = list(stored.value.deps)
                made = deps[0] if len(deps) == 1 and isinstance(deps[0], RetDep) else None
                if writer is None or made is None or made.call >= len(writer.calls):
                    return []
                out.append(_giver(project, writer, made.call))
    return out


def _giver(
    project: Project, caller: FunctionSummary, index: int
) -> tuple[PathStep, tuple[Target, ...]]:
    call = caller.calls[index]
    step = PathStep(caller.qualname, call.text, call.location)
    return step, tuple(project.site_targets.get((caller.qualname, index), ()))


def _paired_off(project: Project, prop: Propagation, sources: _Sources, finding: Finding) -> bool:
    """Whether a jitted call of the chain (its own, or the other call of a flip, ``paired``) is
    made through a function its maker is given (``jitted_fn``) under an ``if`` on a flag given
    with it (``per_dim``) that every known call of the maker switches off wherever it gives the
    jit the finding is about: the two travel together, from one row of a table (``for name,
    jitted_fn, per_dim in MODELS:``) or one call, so a branch taken with another row's function
    never runs with this one (issue 36, paths)."""
    site = finding.jit_site
    calls = (finding.call_path[-1].location if finding.call_path else None, finding.paired)
    return site is not None and any(
        at is not None and _never_given(project, prop, sources, at, site) for at in calls
    )


def _never_given(
    project: Project, prop: Propagation, sources: _Sources, at: Location, site: JitSite
) -> bool:
    """``_paired_off`` of the call at ``at``."""
    called = project.symbols.call_at(at)
    if called is None:
        return False
    callee = project.function(called[0]).calls[called[1]].callee
    if callee[-2:-1] != ("param",):
        return False
    func = str(callee[-1])
    around = sources.enclosing(at)
    defs = [stmt for stmt, _ in around if isinstance(stmt, _DEFS)]
    maker = next((d for d in reversed(defs) if func in _parameter_names(d)), None)
    if maker is None or func in sources.stored_names(at.path, maker):
        return False
    qualname = sources.function_at(Location(at.path, maker.body[0].lineno, 1))
    made_by = project.functions.get(qualname) if qualname else None
    if made_by is None:
        return False
    inside = around[[stmt for stmt, _ in around].index(maker) + 1 :]
    for stmt, in_body in _deciding_tests(inside, at.line):
        flag = stmt.test.id if isinstance(stmt.test, ast.Name) else None
        if flag is None or flag not in _parameter_names(maker) - {func}:
            continue
        rows = [
            (caller, row)
            for caller, call, _, _, _ in prop.calls_of(made_by, flag)
            for row in _rows_given(project, sources, made_by, caller, call, (func, flag))
        ]
        kept = [
            _literal(row[flag])
            for caller, row in rows
            if _gives_jit(project, caller, row[func], site)
        ]
        if rows and all(_truth(stmt.test, flag, value) not in (None, in_body) for value in kept):
            return True
    return False


def _rows_given(
    project: Project,
    sources: _Sources,
    fn: FunctionSummary,
    caller: FunctionSummary,
    call: CallSite,
    params: tuple[str, ...],
) -> list[dict[str, ast.expr | None]]:
    """What ``call`` of ``fn`` gives each of ``params`` together, as written: one row of the
    expressions it passes, or, where it passes names a ``for`` around it unpacks from a table
    written out (``for name, fn, flag in MODELS:``, each row a tuple display), one row per row of
    the table. A parameter left out is its default (None where that is no literal)."""
    signature = project.signature(FuncTarget(fn.qualname, bound=False), fn)
    given: dict[str, ast.expr | None] = {}
    for param in params:
        passed = signature.arg(call, param)
        if passed is None and call.star:
            return []
        if passed is None:
            default = _default(sources, fn, param)
            given[param] = ast.Constant(default) if default is not _UNKNOWN else None
        else:
            given[param] = sources.expression_at(passed.location)
    names = {p: n.id for p, n in given.items() if isinstance(n, ast.Name)}
    table = _table_walked(sources, caller, call.location, set(names.values()))
    if table is None:
        return [given]
    targets, rows = table
    return [
        {p: row[targets.index(names[p])] if p in names else node for p, node in given.items()}
        for row in rows
    ]


def _table_walked(
    sources: _Sources, caller: FunctionSummary, at: Location, names: set[str]
) -> tuple[list[str], list[list[ast.expr]]] | None:
    """The targets of a ``for`` around ``at`` that binds every one of ``names`` by unpacking the
    rows of a table written out (a name bound once to a list or tuple of tuple displays of one
    length), and each row's items."""
    for stmt, _ in reversed(sources.enclosing(at)):
        if not isinstance(stmt, ast.For) or not isinstance(stmt.target, ast.Tuple):
            continue
        targets = [t.id if isinstance(t, ast.Name) else "" for t in stmt.target.elts]
        if not names <= set(targets):
            continue
        table = stmt.iter
        if isinstance(table, ast.Name):
            table = _bound_once(sources, caller, table.id)
        if not isinstance(table, ast.List | ast.Tuple):
            return None
        rows = [
            r.elts for r in table.elts if isinstance(r, ast.Tuple) and len(r.elts) == len(targets)
        ]
        return (targets, rows) if len(rows) == len(table.elts) else None
    return None


def _gives_jit(
    project: Project, caller: FunctionSummary, given: ast.expr | None, site: JitSite
) -> bool:
    """Whether ``given``, what a row of ``caller`` gives for the function, may be the jitted
    function ``site``: a name that resolves to another function or jit is not; anything else may
    be."""
    if not isinstance(given, ast.Name):
        return True
    target = project.symbols.resolve_name(project.owner[caller.qualname], given.id)
    if isinstance(target, FuncTarget):
        return target.qualname == site.function
    if isinstance(target, JitTarget):
        binding = project.jit_binding(target)
        wrapped = binding.wrapped if binding is not None else None
        return wrapped is None or wrapped.qualname == site.function
    return True


def _hands_back(
    project: Project, maker: FunctionSummary, refs: tuple[FuncRef, ...], ran: str
) -> bool:
    """Whether a return of ``maker`` with functions ``refs`` hands back function ``ran`` itself
    (not jitted: a jit runs it only while it traces)."""
    return any(
        isinstance(target, FuncTarget) and target.qualname == ran
        for path, callee in refs
        if not path
        for target in project.resolve_ref(maker, callee)
    )


def _subjects(test: ast.expr, fn: FunctionSummary, rebound: frozenset[str]) -> list[str]:
    """What ``test`` reads of the function's arguments: its parameters that the function never
    rebinds (``rebound``: the names it binds), the attributes of ``self`` (``self.period``) and
    those of such a parameter (``config.debug``)."""
    params = [p.name for p in fn.params]
    this = params[0] if fn.kind == "method" and params else None
    out: list[str] = []
    fielded: set[int] = set()  # a parameter read only for a field is no subject of its own
    for sub in ast.walk(test):
        if isinstance(sub, ast.Attribute) and _is_name_of(sub.value, this):
            out.append(f"{this}.{sub.attr}")
        elif (
            isinstance(sub, ast.Attribute)
            and isinstance(sub.value, ast.Name)
            and sub.value.id in params
            and sub.value.id not in rebound | {this}
        ):
            out.append(f"{sub.value.id}.{sub.attr}")
            fielded.add(id(sub.value))
        elif (
            isinstance(sub, ast.Name)
            and sub.id in params
            and sub.id not in rebound | {this}
            and id(sub) not in fielded
        ):
            out.append(sub.id)
    return list(dict.fromkeys(out))


def _is_name_of(node: ast.expr, name: str | None) -> bool:
    return name is not None and isinstance(node, ast.Name) and node.id == name


def _known(
    prop: Propagation, sources: _Sources, fn: FunctionSummary, subject: str
) -> _Known | None:
    """What ``subject`` holds. A parameter: what each known call passes, or its default; no call
    known, a value not known. ``self.attr``: each literal stored there by the class's methods (and
    its subclasses'), and what ``__init__``'s calls pass for a parameter it stores; None when no
    method stores it."""
    _, dot, attr = subject.partition(".")
    if not dot:
        return _passed(prop, sources, fn, subject)
    project = sources.project
    cls = fn.cls
    if cls is None or cls not in project.classes:
        return None
    values: list[object] = []
    default: object = _UNKNOWN
    family = [
        *project.symbols.mro(cls),
        *(k for k in project.classes if cls in project.symbols.mro(k)[1:]),
    ]
    for klass in dict.fromkeys(family):
        methods = project.classes[klass].methods.values() if klass in project.classes else ()
        for writer in (project.function(q) for q in methods if q in project.functions):
            if not writer.params:
                continue
            for stored in writer.writes.get(f"{writer.params[0].name}.{attr}", ()):
                stmt = sources.statement_at(stored.location)
                value = stmt.value if isinstance(stmt, ast.Assign | ast.AnnAssign) else None
                init = writer.name == "__init__"
                if isinstance(value, ast.Name) and writer.param(value.id) and init:
                    given = _passed(prop, sources, writer, value.id)
                    values.extend(given.values)
                    default = given.default
                else:
                    values.append(sources.value_of(writer, value))
                    default = values[-1] if init else default
    return _Known(tuple(values), default) if values else None


def _param_field(fn: FunctionSummary, subject: str) -> tuple[str, str] | None:
    """(parameter, field) of a subject that reads a field of a parameter other than ``self``."""
    root, dot, attr = subject.partition(".")
    this = fn.params[0].name if fn.kind == "method" and fn.params else None
    return (root, attr) if dot and root != this else None


def _fields_built(
    prop: Propagation,
    sources: _Sources,
    fn: FunctionSummary,
    by: PathStep | None,
    param: str,
    attr: str,
) -> _Known | None:
    """``param.attr`` where the chain's call ``by`` passes a configuration its caller builds
    (``_field_built``). The chain's own caller decides it, not every caller: a script that turns
    debugging on makes a chain of its own. A chain that starts in ``fn`` (its own loop drives it)
    may be called with anything: then what every known call builds, with the field's declared
    default, so that a flag each of them leaves off is an assumption (``flag-off``), not a proof.
    None when anything else may reach it."""
    calls = [
        (caller, passed)
        for caller, _, passed, step, _ in prop.calls_of(fn, param)
        if passed is not None and (by is None or step.location == by.location)
    ]
    if by is not None:
        return _field_built(sources, *calls[0], attr) if calls else None
    found = [_field_built(sources, caller, passed, attr) for caller, passed in calls]
    if not found or None in found:
        return None
    declared = {sources.declared_field(c, p, attr) for c, p in calls}
    default = declared.pop() if len(declared) == 1 else _UNKNOWN
    return _Known(tuple(v for k in found if k for v in k.values), default)


def _field_built(
    sources: _Sources, caller: FunctionSummary, passed: Arg, attr: str
) -> _Known | None:
    """``attr`` of the configuration ``passed`` to a call in ``caller``, built with ``attr``
    written out or left at its declared default (``config = SimulationConfig(debug=False, ...)``,
    then ``run(config)``): each value it is built with, where every binding of the name passed is
    such a construction or a project function's update of it that never sets ``attr`` (``config =
    finalize(config, n)``). None when anything else may reach it (a parameter, a loop variable)."""
    node = sources.expression_at(passed.location)
    if isinstance(node, ast.Call):  # built in the call itself: run(Config(debug=False))
        value = _field_given(sources, caller, node, attr)
        return _Known((value,), value) if value is not _UNKNOWN else None
    scope = sources.scope_of(caller)
    local = _local_bindings(scope, node.id) if isinstance(node, ast.Name) and scope else None
    if node is None or local is None:
        return None
    values: list[object] = []
    for bound in local:
        assign = sources.assignment_of(caller.location.path, bound)
        call = assign.value if assign is not None else None
        if not isinstance(call, ast.Call):
            return None
        value = _field_given(sources, caller, call, attr)
        if value is not _UNKNOWN:
            values.append(value)
        elif not _keeps_field(sources, caller, call, node.id, attr):
            return None
    return _Known(tuple(values), _UNKNOWN) if values else None


def _local_bindings(scope: ast.AST, name: str) -> list[ast.AST] | None:
    """What binds ``name`` in ``scope`` itself (a def's parameters, its stores, imports), not in
    the functions and classes it holds; None where one of those declares it ``global`` or
    ``nonlocal`` and so may rebind it too."""
    out: list[ast.AST] = []
    todo = list(ast.iter_child_nodes(scope))
    if isinstance(scope, _DEFS):
        out += [a for a in ast.walk(scope.args) if isinstance(a, ast.arg) and a.arg == name]
        todo = list(scope.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (*_DEFS, ast.ClassDef, ast.Lambda)):
            shared = (n for n in ast.walk(node) if isinstance(n, ast.Global | ast.Nonlocal))
            if any(name in n.names for n in shared):
                return None
            if getattr(node, "name", None) == name:
                out.append(node)
            continue
        if _binds(node, name):
            out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _binds(node: ast.AST, name: str) -> bool:
    """Whether ``node`` itself binds ``name`` (a store, an import, ``except ... as name``)."""
    if isinstance(node, ast.Name):
        return node.id == name and not isinstance(node.ctx, ast.Load)
    if isinstance(node, ast.alias):
        return (node.asname or node.name) == name
    return isinstance(node, ast.ExceptHandler) and node.name == name


def _built_with(call: ast.Call, attr: str) -> object:
    """The literal ``call`` passes as the keyword ``attr`` (unknown: none, or not a literal)."""
    return next((_literal(k.value) for k in call.keywords if k.arg == attr), _UNKNOWN)


def _field_given(sources: _Sources, fn: FunctionSummary, call: ast.Call, attr: str) -> object:
    """``attr`` of what ``call`` in ``fn`` builds: the literal keyword it passes, else, for a
    construction of a class of declared fields, the field as passed or its declared default
    (``iPEPSConfig(chi=16)`` leaves ``su_init`` at ``False``)."""
    given = _built_with(call, attr)
    if given is not _UNKNOWN:
        return given
    made = sources.instance_of(fn, call)
    return made.field(attr) if made is not None else _UNKNOWN


def _keeps_field(
    sources: _Sources, caller: FunctionSummary, call: ast.Call, name: str, attr: str
) -> bool:
    """Whether ``call`` hands back an update of ``name`` that leaves its ``attr`` as it was: it
    passes ``name`` to one project function, and nothing in that function gives ``attr`` a value
    (a keyword, an attribute store, a ``**`` mapping it is handed)."""
    if not any(isinstance(a, ast.Name) and a.id == name for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return False
    site = sources.project.symbols.call_span(caller.location.path, ast_span(call))
    targets = sources.project.site_targets.get(site, ()) if site is not None else ()
    if len(targets) != 1 or not isinstance(targets[0], FuncTarget):
        return False
    callee = sources.project.functions.get(targets[0].qualname)
    defs = (
        [s for s, _ in sources.enclosing(callee.location) if isinstance(s, _DEFS)] if callee else []
    )
    return bool(defs) and not any(
        (isinstance(n, ast.keyword) and n.arg in (attr, None))
        or (isinstance(n, ast.Attribute) and n.attr == attr and not isinstance(n.ctx, ast.Load))
        for n in ast.walk(defs[-1])
    )


def _receivers_made(sources: _Sources, by: PathStep | None, subject: str) -> _Known | None:
    """``self.attr`` of the object the chain's call ``by`` is made on, where every object it may be
    is made by a call of its class in the project whose ``__init__`` stores a parameter there
    (``sampler = Sampler(None)`` then ``sampler.sample(...)``): what those constructions pass."""
    _, dot, attr = subject.partition(".")
    project = sources.project
    site = project.symbols.call_at(by.location) if by is not None and dot else None
    receiver = project.function(site[0]).calls[site[1]].receiver if site is not None else None
    objs = receiver.value.objs if receiver is not None else frozenset()
    if not objs or not all(isinstance(o, Made) and not o.path and o.item is None for o in objs):
        return None
    values: list[object] = []
    defaults: set[object] = set()
    for made in sorted(objs, key=lambda o: (o.at.path, o.at.line, o.at.col)):
        given = _constructed(sources, made.at, attr)
        if given is None:
            return None
        values.extend(given.values)
        defaults.add(given.default)
    return _Known(tuple(values), defaults.pop() if len(defaults) == 1 else _UNKNOWN)


def _constructed(sources: _Sources, at: Location, attr: str) -> _Known | None:
    """What the construction at ``at`` passes for the ``__init__`` parameter stored in ``attr``."""
    project = sources.project
    site = project.symbols.call_at(at)
    targets = project.site_targets.get(site, ()) if site is not None else ()
    if len(targets) != 1 or not isinstance(targets[0], ClassTarget):
        return None
    init = project.symbols.method(targets[0].qualname, "__init__")
    fn = project.function(init) if init is not None else None
    if fn is None or not fn.params:
        return None
    stored = fn.writes.get(f"{fn.params[0].name}.{attr}", ())
    stmt = sources.statement_at(stored[0].location) if len(stored) == 1 else None
    value = stmt.value if isinstance(stmt, ast.Assign | ast.AnnAssign) else None
    param = _stored_param(fn, value)
    if value is None or param is None:
        return None
    default = _default(sources, fn, param)
    call = project.function(site[0]).calls[site[1]]
    passed = project.signature(targets[0], fn).arg(call, param)
    if passed is None and call.star:
        return None
    caller = project.function(site[0])
    given = default if passed is None else sources.literal_passed(caller, passed)
    return _Known(
        (_stored_as(sources, fn, value, param, given),),
        _stored_as(sources, fn, value, param, default),
    )


def _stored_param(fn: FunctionSummary, value: ast.expr | None) -> str | None:
    """The parameter of ``__init__`` that a store ``self.attr = value`` keeps: the parameter
    itself, or it unless a test of it picks another value (``params if params is not None else
    Params()``)."""
    if isinstance(value, ast.Name):
        return value.id if fn.param(value.id) is not None else None
    if not isinstance(value, ast.IfExp):
        return None
    arms = [n.id for n in (value.body, value.orelse) if isinstance(n, ast.Name)]
    named = {n.id for n in ast.walk(value.test) if isinstance(n, ast.Name)}
    if len(arms) != 1 or named != {arms[0]} or fn.param(arms[0]) is None:
        return None
    return arms[0]


def _stored_as(
    sources: _Sources, fn: FunctionSummary, value: ast.expr, param: str, given: object
) -> object:
    """What ``self.attr = value`` stores where ``param`` is ``given`` (``_stored_param``)."""
    if not isinstance(value, ast.IfExp):
        return given
    taken = _truth(value.test, param, given)
    if taken is None:
        return _UNKNOWN
    arm = value.body if taken else value.orelse
    return given if isinstance(arm, ast.Name) else sources.value_of(fn, arm)


def _passed(prop: Propagation, sources: _Sources, fn: FunctionSummary, param: str) -> _Known:
    """What each known call of ``fn`` passes for ``param`` (its default where it leaves it out)."""
    default = _default(sources, fn, param)
    values = []
    for caller, call, passed, _, _ in prop.calls_of(fn, param):
        if passed is not None:
            values.append(_attribute_passed(prop, sources, caller, passed))
        else:
            values.append(_UNKNOWN if call.star else default)
    return _Known(tuple(values) or (_UNKNOWN,), default)


def _passed_by(
    prop: Propagation,
    sources: _Sources,
    fn: FunctionSummary,
    param: str,
    chain: tuple[PathStep, ...],
) -> _Known | None:
    """What the chain's own call of ``fn`` (the last of ``chain``) passes for ``param`` (its
    default where it leaves it out): what other callers pass (another entry point's) never meets
    this chain's loop in one run (issue 36, a path spliced from two entry points). A parameter of
    the caller handed on as it came is what the chain's call of the caller passed for it, up the
    chain. None without such a call."""
    if not chain:
        return None
    default = _default(sources, fn, param)
    for caller, call, passed, _, _ in prop.calls_of(fn, param):
        if call.location != chain[-1].location:
            continue
        if passed is None:
            return _Known((_UNKNOWN if call.star else default,), default)
        handed = _handed_on(sources, caller, passed)
        above = _passed_by(prop, sources, caller, handed, chain[:-1]) if handed else None
        if above is not None:
            return _Known(above.values, default)
        return _Known((_attribute_passed(prop, sources, caller, passed),), default)
    return None


def _handed_on(sources: _Sources, caller: FunctionSummary, passed: Arg) -> str | None:
    """The parameter of ``caller`` that ``passed`` is, as it came (the caller never rebinds it)."""
    name = passed.text
    scope = sources.scope_of(caller) if caller.param(name) is not None else None
    if scope is None or name in sources.stored_names(caller.location.path, scope):
        return None
    return name


def _attribute_passed(
    prop: Propagation, sources: _Sources, caller: FunctionSummary, passed: Arg
) -> object:
    """``_Sources.literal_passed``, and for ``self.attr`` of a method, ``_BUILT`` where every store
    of it makes an object (``self._fns = build_fns(...)`` behind ``if not hasattr(self, ...)``)."""
    found = sources.literal_passed(caller, passed)
    this = caller.params[0].name if caller.kind == "method" and caller.params else None
    root, dot, attr = passed.text.partition(".")
    if found is not _UNKNOWN or root != this or not dot or not attr.isidentifier():
        return found
    stored = sources.known(prop, caller, passed.text)
    built = stored is not None and all(_built(v) for v in stored.values)
    return _BUILT if built else _UNKNOWN


def _default(sources: _Sources, fn: FunctionSummary, param: str) -> object:
    """The literal default of ``param`` as the def writes it (``_UNKNOWN``: none, or not a literal)."""
    defs = [s for s, _ in sources.enclosing(fn.location) if isinstance(s, _DEFS)]
    if not defs:
        return _UNKNOWN
    args = defs[-1].args
    positional = [*args.posonlyargs, *args.args]
    pairs = list(
        zip(positional[len(positional) - len(args.defaults) :], args.defaults, strict=True)
    )
    pairs += [
        (a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
    ]
    return next((_literal(d) for a, d in pairs if a.arg == param), _UNKNOWN)


def _literal(node: ast.expr | None) -> object:
    if isinstance(node, ast.Constant) and isinstance(node.value, _LITERALS):
        return node.value
    return _UNKNOWN


def _literal_text(text: str) -> object:
    try:
        return _literal(ast.parse(text, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return _UNKNOWN


def _truth(test: ast.expr, subject: str, value: object) -> bool | None:
    """Whether ``test`` holds when ``subject`` is ``value``; None when that does not decide it."""
    if value is _UNKNOWN:
        return None
    if isinstance(test, ast.BoolOp):
        terms = [_truth(t, subject, value) for t in test.values]
        decisive = isinstance(test.op, ast.Or)  # a true term decides `or`, a false one `and`
        if decisive in terms:
            return decisive
        return None if None in terms else not decisive
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _truth(test.operand, subject, value)
        return None if inner is None else not inner
    if isinstance(test, ast.Compare):
        if len(test.ops) != 1:
            return None
        left, right = (_operand(e, subject, value) for e in (test.left, test.comparators[0]))
        if left is _UNKNOWN or right is _UNKNOWN:
            return None
        return _compare(test.ops[0], left, right)
    found = _operand(test, subject, value)
    if found is _FUNCTION:
        return True
    return None if found is _UNKNOWN or _built(found) else bool(found)


def _operand(node: ast.expr, subject: str, value: object) -> object:
    """``node``'s value where ``subject`` is ``value``: the subject itself, a field of it where it
    is a known construction (``self.params.mirrored``), or a literal."""
    if ast.unparse(node) == subject:
        return value
    if (
        isinstance(value, _Instance)
        and isinstance(node, ast.Attribute)
        and ast.unparse(node.value) == subject
    ):
        return value.field(node.attr)
    return _literal(node)


# Comparisons of two numbers (a size a caller passes against a threshold: ``if n > 5000:``).
_ORDERS: dict[type, Callable[[float, float], bool]] = {
    ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b,
    ast.Gt: lambda a, b: a > b,
    ast.GtE: lambda a, b: a >= b,
}


def _compare(op: ast.cmpop, left: object, right: object) -> bool | None:
    """``is``/``is not``/``==``/``!=`` between literals (``is`` as Python's small constants
    behave: equal values of one type); an object known to be made is only known not to be None;
    ``<``, ``<=``, ``>``, ``>=`` between numbers. Other comparisons are not decided here."""
    if isinstance(op, ast.Is | ast.IsNot):
        if (_built(left) or _built(right)) and None not in (left, right):
            return None
        same = type(left) is type(right) and left == right
        return same if isinstance(op, ast.Is) else not same
    if isinstance(op, ast.Eq | ast.NotEq) and not (_built(left) or _built(right)):
        return (left == right) == isinstance(op, ast.Eq)
    order = _ORDERS.get(type(op))
    if order is None or not (_number(left) and _number(right)):
        return None
    return order(left, right)


def _number(value: object) -> TypeGuard[float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


# -- mocks ----------------------------------------------------------------------------------------
def _mocked(sources: _Sources, finding: Finding) -> Iterator[Assumption]:
    """A test on the chain that replaces a function the chain calls after it: the real one never
    runs there."""
    path = finding.call_path
    for index, step in enumerate(path):
        if not _short(step.function).startswith("test"):
            continue
        patched = _patched_names(sources, step.location)
        for later in path[index:]:
            name = later.call.rpartition(".")[2]
            if name in patched:
                yield Assumption(
                    "mocked-callee",
                    later.location,
                    f"`{name}` is replaced in {_short(step.function)}",
                )
                return


def _patched_names(sources: _Sources, inside: Location) -> frozenset[str]:
    """The last names of what the test around ``inside`` patches, in its decorators and body."""
    test = next(
        (stmt for stmt, _ in reversed(sources.enclosing(inside)) if isinstance(stmt, _DEFS)),
        None,
    )
    if test is None:
        return frozenset()
    names = set()
    for call in ast.walk(test):  # its decorators too
        if isinstance(call, ast.Call) and _dotted_tail(call.func) in _PATCHERS:
            names.update(_target_names(call))
    return frozenset(names)


def _dotted_tail(func: ast.expr) -> str:
    """``patch`` for ``mock.patch``/``patch``, ``patch.object`` for ``mock.patch.object``, ``setattr``
    for ``monkeypatch.setattr`` (not the builtin)."""
    if isinstance(func, ast.Name):
        return func.id if func.id == "patch" else ""
    if isinstance(func, ast.Attribute):
        if isinstance(func.value, ast.Attribute) and func.value.attr == "patch":
            return f"patch.{func.attr}"
        if isinstance(func.value, ast.Name) and func.value.id == "patch":
            return f"patch.{func.attr}"
        return func.attr
    return ""


def _target_names(call: ast.Call) -> Iterator[str]:
    """What a patch call replaces: ``"pkg.mod.fn"`` (first argument) or ``(obj, "fn")``."""
    texts = [a.value for a in call.args[:2] if isinstance(a, ast.Constant)]
    for text in texts:
        if isinstance(text, str):
            yield text.rpartition(".")[2]
