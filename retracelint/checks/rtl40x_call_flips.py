"""RTL401, RTL402 and RTL404: one parameter of a jitted function passed two ways by its calls
(a Python scalar here and an array there, two dtypes, by position and by keyword)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial

from retracelint.callgraph import FuncTarget, JitBinding, Project
from retracelint.checks.common import (
    Fix,
    apart,
    at_text,
    fresh_maker,
    jit_site,
    jitted_text,
    made_by,
    make_finding,
    shown_code,
    size_read,
    tree_node,
    trees_differ,
    where_text,
)
from retracelint.model import Assumption, Finding, JitSite, Location, PathStep
from retracelint.objects import _literal
from retracelint.propagate import MAX_FRAMES, Propagation
from retracelint.returned import as_called
from retracelint.summary import Arg, CallSite, FunctionSummary
from retracelint.values import (
    AXISLESS,
    FLIP_KINDS,
    FLOAT,
    INT,
    STRONG,
    WEAK,
    LoopSrc,
    ParamDep,
    RetDep,
    Value,
    dtype_kind,
    kinds_differ,
    weak_said,
)
from retracelint.weak import WeakKinds, WeakOrigin

# The rules this module's checks emit (``checks.FAMILIES``).
CODES = ("RTL401", "RTL402", "RTL404")


# Two calls of the same jitted function that pass one parameter differently compile twice: a Python
# scalar is weakly typed and an array is not, dtypes are part of the key, and so is the pytree
# structure; an argument passed by position is a different key from the same argument passed by keyword.
# The calls are compared across the whole project (one jitted function object, one cache), except the
# pytree structure, compared within one function body only: `None` here and an array there, from two
# functions, is most often an optional argument used on purpose. Each is a warning: one extra trace.
_ACROSS_FUNCTIONS = frozenset({"RTL401", "RTL402"})  # the kinds compared across function bodies
# (calling function, call, binding, argument, passed by keyword)
_JitArg = tuple[FunctionSummary, CallSite, JitBinding, Arg, bool]


def flip_findings(project: Project, prop: Propagation) -> Iterator[Finding]:
    return _one_per_call(_param_flips(project, prop))


def _param_flips(project: Project, prop: Propagation) -> Iterator[Finding]:
    groups: dict[tuple[str, int, str], list[_JitArg]] = {}
    kinds = prop.weak_kinds
    for fn, index, target in prop.jit_calls():
        binding = project.jit_binding(target)
        # Two signatures met while an enclosing jit traces cost two traces per trace of it, which
        # only a re-trace of the enclosing function repeats (reported at its own call).
        if binding is None or prop.frequency.traced(fn.qualname) or _shadowed(project, fn):
            continue
        call = fn.calls[index]
        for param in binding.params[binding.offset :]:
            arg = binding.signature.arg(call, param.name)
            if arg is not None:
                by_keyword = any(key == param.name for key, _ in call.kwargs)
                key = (target.module, target.index, param.name)
                groups.setdefault(key, []).append((fn, call, binding, arg, by_keyword))
    for (_, _, param), calls in groups.items():
        calls.sort(key=lambda c: c[3].location)
        by_function: dict[str, list[_JitArg]] = {}
        for call in calls:
            by_function.setdefault(call[0].qualname, []).append(call)
        # Two calls in one body flip for sure whenever the body runs; calls from several functions
        # are compared only when no body holds a flip of its own, and what the arguments are made
        # from (their callers, the fields of a pytree) only when the arguments say nothing.
        within = [f for same in by_function.values() for f in _flips(prop, same, param, True)]
        found = within or list(_flips(prop, calls, param, False))
        yield from found or _traced_back_flip(prop, kinds, calls, param)


def _shadowed(project: Project, fn: FunctionSummary) -> bool:
    """Whether ``fn`` is a method no call on an instance runs: each class whose instances have it
    (its own, the subclasses that inherit it) sets an attribute of its name on ``self`` when it
    makes them, and the instance's attribute hides the class's method (``self.kernel = rbf``, then
    ``self.kernel(x, x)`` calls ``rbf``)."""
    if fn.kind != "method" or fn.cls is None:
        return False
    symbols, own = project.symbols, fn.cls

    def holders() -> Iterator[str]:
        # Its own class first: most make no attribute of the method's name, and the subclasses are
        # then not asked for (an index of the whole project's classes, built again on each edit).
        yield own
        yield from symbols.subclasses().get(own, ())

    return all(
        _made_with(project, cls, fn.name)
        for cls in holders()
        if symbols.method(cls, fn.name) == fn.qualname
    )


def _made_with(project: Project, cls: str, attr: str) -> bool:
    """Whether making an object of ``cls`` sets ``self.<attr>``: its ``__init__`` does, or the
    ``__init__`` of a base that it runs through ``super().__init__(...)``."""
    for klass in project.symbols.mro(cls):
        summary = project.classes.get(klass)
        init = summary.methods.get("__init__") if summary is not None else None
        if init is None or init not in project.functions:
            continue
        made = project.function(init)
        if made.params and f"{made.params[0].name}.{attr}" in made.writes:
            return True
        if not any(call.text == "super().__init__" for call in made.calls):
            return False
    return False


# Flips that one call makes in several arguments are one extra trace: one finding tells them all.
_ONE_PER_CALL = frozenset({"RTL401", "RTL402", "RTL404"})
# ... told at the last argument for RTL404: its fix passes the last positional argument by keyword
# (one per round of ``--fix``; the next round finds the one before it last).
_TOLD_AT_LAST = frozenset({"RTL404"})


def _one_per_call(findings: Iterator[Finding]) -> Iterator[Finding]:
    """The findings, those of one rule in ``_ONE_PER_CALL`` at one call merged into the first (by
    position; the last for ``_TOLD_AT_LAST``): its headline names every argument that flips, its
    details say how each is passed."""
    calls: dict[tuple[str, Location, JitSite | None], list[Finding]] = {}
    for finding in findings:
        if finding.code not in _ONE_PER_CALL or not finding.call_path:
            yield finding
            continue
        key = (finding.code, finding.call_path[-1].location, finding.jit_site)
        calls.setdefault(key, []).append(finding)
    for same in calls.values():
        ordered = sorted(same, key=lambda f: f.location)
        if ordered[0].code in _TOLD_AT_LAST:
            ordered = ordered[-1:] + ordered[:-1]
        first, *others = ordered
        if not others:
            yield first
            continue
        named = f"'{first.parameter}'"
        also = ", ".join(f"'{f.parameter}'" for f in others)
        yield replace(
            first,
            message=first.message.replace(named, f"{named} (and {also})", 1),
            details=(
                *first.details,
                *(f"'{f.parameter}', {f.details[0]}" for f in others if f.details),
            ),
        )


def _flips(
    prop: Propagation, calls: list[_JitArg], param: str, one_body: bool
) -> Iterator[Finding]:
    """The first call of ``calls`` that passes ``param`` differently from the first one: by keyword vs
    by position, else a weak type, a dtype or (in one body) a pytree structure of its own."""
    if len(calls) < 2:
        return
    binding = calls[0][2]
    site = jit_site(binding)
    keyword = list(_keyword_flip(prop, calls, site, param, one_body))
    yield from keyword
    if keyword or any(_static(c, param) for c in calls):
        return
    for code, kind_of, what in FLIP_KINDS:
        if not (one_body or code in _ACROSS_FUNCTIONS) or (
            code == "RTL401" and binding.spec.nonarray_static
        ):
            continue  # under filter_jit a Python scalar is static and an array traced
        # A dtype is also what every caller of a helper passes for the parameter it hands on.
        typed = partial(as_called, prop) if code == "RTL402" else prop.resolve
        found = _first_flip(
            prop,
            calls,
            lambda c, kind_of=kind_of, typed=typed: kind_of(
                typed(c[0], c[3].value), prop.x64(c[0])
            ),
            one_body,
            partial(_one_dtype_family, prop) if code == "RTL401" else lambda a, b: True,
        )
        if found is not None:
            (fn, call, arg, now), (first, before) = found
            if code == "RTL401":
                now = weak_said(now, typed(fn, arg.value))
                first_fn = next(c[0] for c in calls if c[3] is first)
                before = weak_said(before, typed(first_fn, first.value))
            # A dtype decided inside a helper is changed there; one made in this body, at the call.
            returned = code == "RTL402" and any(isinstance(d, RetDep) for d in arg.value.deps)
            made = typed(fn, arg.value).made if returned else None
            other = next(c for c in calls if c[3] is first)
            flip = _flip_finding(code, what, site, param, arg, fn, call, first, before, now, made)
            sizes = _sizes_unproven(next(c for c in calls if c[1] is call), other)
            yield replace(flip, paired=other[1].location, assumptions=sizes)
            return  # one flip per parameter: the weak-type flip explains a dtype flip too
    if one_body:
        yield from _class_node_flip(prop, calls, site, param)


# Pytree nodes that are no class of the project's: ``values.structure_kind`` compares them already.
_PLAIN_NODES = ("None", "a tuple", "a list", "a dict")


def _first_passed(jit_arg: _JitArg) -> Value:
    """What a call passes first: the start of a state its loop carries (``params, loss =
    step(params, x)`` after ``params = swap(params)``: the swapped parameters; a node the step
    gives back otherwise is a carried flip of its own), else the argument."""
    fn, call, _, arg, _ = jit_arg
    carried = (c for c in fn.carried if fn.calls[c.call] is call and c.name == arg.text)
    return next((c.start.value for c in carried if not c.later), arg.value)


def _handed_back_from(prop: Propagation, fn: FunctionSummary, value: Value) -> Location | None:
    """The call that makes ``value`` where a chain of helpers hands back one call's result as it is
    (``graft(params)`` returning ``unfreeze(params)``'s copy): the innermost such call, the line
    that makes the new container."""
    made = None
    for _ in range(MAX_FRAMES):
        if len(value.deps) != 1 or not isinstance(dep := next(iter(value.deps)), RetDep):
            return made
        targets = prop.project.site_targets.get((fn.qualname, dep.call), ())
        if dep.call >= len(fn.calls) or len(targets) != 1:
            return made
        made = fn.calls[dep.call].location
        (target,) = targets
        if not isinstance(target, FuncTarget):
            return made
        fn = prop.project.function(target.qualname)
        if fn.returns is None:
            return made
        value = fn.returns
    return made


def _class_differs(a: str, b: str) -> bool:
    """A class's instance against a plain node: two classes (two models a test compares) are most
    often two on purpose, and two plain nodes are ``values.structure_kind``'s to compare."""
    return trees_differ(a, b) and a.startswith(_PLAIN_NODES) != b.startswith(_PLAIN_NODES)


def _class_node_flip(
    prop: Propagation, calls: list[_JitArg], site: JitSite, param: str
) -> Iterator[Finding]:
    """A class's instance (a FrozenDict ``init`` returns) here and a plain node there (the dict an
    ``unfreeze`` copy is) passed for ``param`` by one body: told where the later value is made."""
    found = _first_flip(
        prop,
        calls,
        lambda c: tree_node(prop, c[0], prop.resolve(c[0], _first_passed(c))),
        True,
        differ=_class_differs,
    )
    if found is None:
        return
    (fn, call, arg, now), (first, before) = found
    value = _first_passed((fn, call, calls[0][2], arg, False))
    made = prop.resolve(fn, value).made or _handed_back_from(prop, fn, value)
    paired = next(c[1].location for c in calls if c[3] is first)
    flip = _flip_finding(
        "RTL403", "pytree structure", site, param, arg, fn, call, first, before, now, made
    )
    yield replace(flip, paired=paired)


def _traced_back_flip(
    prop: Propagation, kinds: WeakKinds, calls: list[_JitArg], param: str
) -> Iterator[Finding]:
    """A weakly typed and a strongly typed value that reach ``param`` (or one field of it) from
    where they are made, in one process: reported where the weak one is made."""
    binding = calls[0][2]
    if binding.spec.nonarray_static or any(_static(c, param) for c in calls):
        return
    leaves: dict[str, list[tuple[WeakOrigin, _JitArg]]] = {}
    for jit_arg in calls:
        fn, call, _, arg, _ = jit_arg
        if any(fn.calls[c.call] is call and c.name == arg.text for c in fn.carried):
            continue  # what it starts as against what comes back: carried_flip_findings
        for leaf, origins in kinds.leaves(jit_arg[0], jit_arg[3]).items():
            leaves.setdefault(leaf, []).extend((o, jit_arg) for o in origins)
    site = jit_site(binding)
    for leaf, origins in leaves.items():
        origins.sort(key=lambda o: (o[0].location, o[1][3].location))
        pair = _origin_pair(prop, origins, lambda o: o.kind == WEAK, lambda o: o.kind == STRONG)
        if pair is not None:
            yield _origin_flip(site, param, leaf, *pair)
            return  # one flip per parameter
        # Two weakly typed numbers, a Python int and a float: one weak type, two dtypes.
        pair = _origin_pair(
            prop,
            origins,
            lambda o: o.kind == WEAK and o.scalar == INT,
            lambda o: o.scalar == FLOAT,
        )
        if pair is not None:
            yield _origin_flip(site, param, leaf, *pair, dtypes=True)
            return


_Origin = tuple[WeakOrigin, _JitArg]


def _origin_pair(
    prop: Propagation,
    origins: list[_Origin],
    first: Callable[[WeakOrigin], bool],
    other: Callable[[WeakOrigin], bool],
) -> tuple[_Origin, _Origin] | None:
    """The first origin of one kind and one of the other that reach the argument in one process,
    by different calls or different routes, with the same static arguments and shapes."""
    return next(
        (
            (a, b)
            for a in origins
            if first(a[0])
            for b in origins
            if other(b[0])
            and (a[1][1].location, a[0].route) != (b[1][1].location, b[0].route)
            and not _axes_differ(a[0].axes, b[0].axes)
            and _share_cache(prop, a[1], b[1])
            and _run_together(prop, a[0].fn, b[0].fn)
            and _run_together(prop, a[1][0], b[1][0])
        ),
        None,
    )


def _origin_flip(
    site: JitSite,
    param: str,
    leaf: str,
    weak: _Origin,
    strong: _Origin,
    dtypes: bool = False,
) -> Finding:
    """A weakly and a strongly typed value that reach ``param`` (with ``dtypes``: a Python int and
    a float), told where the first is made."""
    (made, (fn, call, _, arg, _)), (other, (_, other_call, _, other_arg, _)) = weak, strong
    part = leaf if leaf.startswith("[") or not leaf else f".{leaf}"  # a dict's item, a field
    what = f"'{param}{part}'"
    here = f"from the default of '{made.default}'" if made.default is not None else "here"
    kinds = ("an int", "a float") if dtypes else ("weakly typed", "strongly typed")
    head = (
        f"{what} is {kinds[0]} {here} but {kinds[1]} from {shown_code(other.text, 32)} at"
        f" {at_text(other.location, made.location)}, so {jitted_text(site, call.text)} traces twice"
    )
    details = [
        f"{kinds[0]}: passed at {where_text(arg.location)}",
        f"{kinds[1]}: {shown_code(other.text)} at {where_text(other.location)}, passed at"
        f" {where_text(other_arg.location)}",
        f"a different {'dtype' if dtypes else 'weak type'} is a different cache entry",
    ]
    step = PathStep(fn.qualname, call.text, call.location)
    code = "RTL402" if dtypes else "RTL401"
    found = make_finding(code, head, details, made.location, site, param, (step,))
    return replace(found, paired=other_call.location)


def _first_flip(
    prop: Propagation,
    calls: list[_JitArg],
    kind_of: Callable[[_JitArg], str | None],
    one_body: bool,
    alike: Callable[[_JitArg, _JitArg], bool] = lambda a, b: True,
    differ: Callable[[str, str], bool] = kinds_differ,
) -> tuple[tuple[FunctionSummary, CallSite, Arg, str], tuple[Arg, str]] | None:
    """The first call whose kind differs from an earlier call's, with that argument and kind. Calls
    from different bodies count only when an entry point reaches both: two tests, or two public
    functions of a library, may never run in one process; calls that pass a static parameter as two
    different literals never share a cache entry; nor do two that ``alike`` tells apart."""
    earlier: list[tuple[_JitArg, str]] = []
    for jit_arg in calls:
        fn, call, _, arg, _ = jit_arg
        kind = kind_of(jit_arg)
        if kind is None:
            continue
        for other, before in earlier:
            if (
                differ(kind, before)
                and (one_body or _run_together(prop, fn, other[0]))
                and _share_cache(prop, jit_arg, other)
                and alike(jit_arg, other)
            ):
                return (fn, call, arg, kind), (other[3], before)
        earlier.append((jit_arg, kind))
    return None


def _run_together(prop: Propagation, a: FunctionSummary, b: FunctionSummary) -> bool:
    entries = prop.frequency.entries
    return a is b or bool(entries(a.qualname) & entries(b.qualname))


def _share_cache(prop: Propagation, a: _JitArg, b: _JitArg) -> bool:
    """Whether two calls of one jit site may meet in one cache entry but for the kind compared: the
    same jitted object, the same static literals, and no traced argument of two shapes (a Python
    float here, ``jnp.linspace(a, b, 1000)`` there: two computations, each traced once whatever
    their weak types, dtypes or ways of passing are)."""
    return (
        not _statics_differ(a, b)
        and not _shapes_differ(prop, a, b)
        and not _distinct_objects(prop.project, a, b)
        and not (a[0] is b[0] and apart(prop.project, a[2], a[0], a[1], b[1]))
        and not _made_elsewhere(prop, a, b)
        and not _one_side_per_run(prop, a, b)
    )


def _made_elsewhere(prop: Propagation, a: _JitArg, b: _JitArg) -> bool:
    """Whether one of two calls never runs their jit: what it calls comes from maker calls that
    each take the branch making another (``evidence.Paths.never_made``)."""
    paths, site = prop.paths, jit_site(a[2])
    return paths is not None and any(paths.never_made(c[1].location, site) for c in (a, b))


def _one_side_per_run(prop: Propagation, a: _JitArg, b: _JitArg) -> bool:
    """Whether two calls are reached only on the two sides of a test that keeps its side for the
    whole run (a mode a script's ``main`` reads once: ``evidence.Paths.apart``)."""
    paths = prop.paths
    sites = [
        (c[0].qualname, next(i for i, x in enumerate(c[0].calls) if x is c[1])) for c in (a, b)
    ]
    return paths is not None and paths.apart(*sites)


def _shapes_differ(prop: Propagation, a: _JitArg, b: _JitArg) -> bool:
    """Whether two calls of one jitted function pass some traced parameter in two shapes: two
    known shapes that differ, or a batch one call's loop cuts against a whole collection the other
    passes (``_cut``, ``_whole``)."""
    binding = a[2]
    for param in binding.params[binding.offset :]:
        if _static(a, param.name) or _static(b, param.name):
            continue
        args = [binding.signature.arg(c[1], param.name) for c in (a, b)]
        if _axes_differ(*(_axes(prop, c[0], arg) for c, arg in zip((a, b), args, strict=True))):
            return True
        left, right = args
        if (
            left is not None
            and right is not None
            and (
                (_cut(left.value) and _whole(prop, b[0], right))
                or (_cut(right.value) and _whole(prop, a[0], left))
            )
        ):
            return True
    return False


def _cut(value: Value) -> bool:
    """Whether ``value`` is a batch cut from a collection: a part of a parameter, a field or an
    iterated item (not its whole: ``aligned``; not an item of what a call returns, a carried state)
    that a loop takes anew per iteration or whose length a slice or chunk sets
    (``train[start:start + bs]``, ``ds["x"][perm]`` for each ``perm``)."""
    parted = any(not dep.aligned and not isinstance(dep, RetDep) for dep in value.deps)
    return parted and (bool(value.shape) or any(isinstance(s, LoopSrc) for s in value.vsrc))


def _whole(prop: Propagation, fn: FunctionSummary, arg: Arg) -> bool:
    """Whether ``arg`` is a whole collection of unknown shape that no loop of ``fn`` changes: a
    parameter or what a function of the project returns (``valid``, ``get_datasets(...)[1]``), as it
    is. A batch cut from a dataset has the batch's length, the whole one its own: the two calls are
    two computations unless the collection holds one batch (issue 36, round 37 F4: a validation
    fold against training batches), whatever else they pass (round 33's rule: that fix removes no
    trace). A value made with its shape written out (``jnp.zeros((bs, d))``) is no whole."""
    value = arg.value
    if value.ty in AXISLESS or prop.known_axes(fn, arg) is not None or not value.deps:
        return False
    if any(isinstance(s, LoopSrc) for s in value.vsrc):
        return False
    return all(
        dep.aligned
        and not dep.fixed
        and (
            isinstance(dep, ParamDep) or (isinstance(dep, RetDep) and _project_call(prop, fn, dep))
        )
        for dep in value.deps
    )


def _project_call(prop: Propagation, fn: FunctionSummary, dep: RetDep) -> bool:
    """Whether the call ``dep`` reads the result of runs a function of the project (a loader of its
    own, not a library's ``next`` or ``asarray``)."""
    targets = prop.project.site_targets.get((fn.qualname, dep.call), ())
    return bool(targets) and all(isinstance(t, FuncTarget) for t in targets)


def _axes(prop: Propagation, fn: FunctionSummary, arg: Arg | None) -> tuple[int | None, ...] | None:
    """The shape of an array argument: a tuple of another length is another pytree structure,
    which RTL403 tells."""
    return None if arg is None else prop.known_axes(fn, arg, arrays=True)


def _axes_differ(left: tuple[int | None, ...] | None, right: tuple[int | None, ...] | None) -> bool:
    """Whether two shapes surely differ: a length is known only along an axis the array has, so
    a number and an array with a known length differ, and so do two arrays with other lengths
    along one axis."""
    if left is None or right is None:
        return False
    if not left or not right:
        return left != right
    return any(
        x is not None and y is not None and x != y for x, y in zip(left, right, strict=False)
    )


def _dtype_family(dtype: str | None) -> str | None:
    """int, uint, float, complex or bool: bfloat16 and float32 are one family, int32 and float32
    two."""
    if dtype is None:
        return None
    return next((f for f in ("uint", "int", "complex", "bool") if dtype.startswith(f)), "float")


def _one_dtype_family(prop: Propagation, a: _JitArg, b: _JitArg) -> bool:
    """Whether two arguments may be of one dtype family: a Python float and an int32 array are two
    dtypes whatever their weak types (RTL402 tells that)."""
    families = {
        _dtype_family(dtype_kind(prop.resolve(c[0], c[3].value), prop.x64(c[0]))) for c in (a, b)
    }
    return None in families or len(families) == 1


def _distinct_objects(project: Project, a: _JitArg, b: _JitArg) -> bool:
    """Whether two calls reach two objects that a jit site inside a factory made in two different
    calls of it (``train = make_step(lr)``, ``evaluate = make_step(0.0)``): each call of the factory
    jits a new nested def or lambda, so the two share no cache. Where a call's object is not known to
    come straight from one call of the factory, the two may be one object."""
    maker = fresh_maker(project, a[2].spec)
    if maker is None:
        return False
    left, right = (made_by(project, jit_arg[0], jit_arg[1].callee, maker) for jit_arg in (a, b))
    return left is not None and right is not None and left != right


def _sizes_unproven(a: _JitArg, b: _JitArg) -> tuple[Assumption, ...]:
    """Where two calls pass a static parameter as the sizes of two different arrays (``rho.shape``
    here, ``u.shape`` there): unless the arrays are of one shape, the calls are two computations
    anyway, and passing the flipped argument one way removes no trace. Nothing here says the
    shapes are one, so the flip rests on it."""
    binding = a[2]
    for param in binding.params[binding.offset :]:
        if not (_static(a, param.name) and _static(b, param.name)):
            continue
        passed = [binding.signature.arg(c[1], param.name) for c in (a, b)]
        if passed[0] is None or passed[1] is None:
            continue
        arrays = [size_read(arg.text) for arg in passed]
        if None not in arrays and (arrays[0] != arrays[1] or a[0] is not b[0]):
            text = f"`{passed[0].text}` taken for `{passed[1].text}`"
            return (Assumption("static-sizes", passed[0].location, text),)
    return ()


def _statics_differ(a: _JitArg, b: _JitArg) -> bool:
    """Whether two calls of one jitted function pass a static parameter as two different literals
    (``False, 0.0`` and ``True, 4.0``): two cache entries whatever their traced arguments are."""
    binding = a[2]
    for param in binding.params[binding.offset :]:
        if not (_static(a, param.name) and _static(b, param.name)):
            continue
        passed = [binding.signature.arg(c[1], param.name) for c in (a, b)]
        left, right = (_literal(arg) if arg is not None else None for arg in passed)
        if left is not None and right is not None and left[1] != right[1]:
            return True
    return False


def _static(jit_arg: _JitArg, param: str) -> bool:
    """Whether this call passes ``param`` static: that depends on how it passes it."""
    _, call, binding, _, _ = jit_arg
    return binding.static_at(call, param)


def _keyword_flip(
    prop: Propagation, calls: list[_JitArg], site: JitSite, param: str, one_body: bool
) -> Iterator[Finding]:
    # A static value that changes between the calls re-traces anyway (RTL201/RTL202 say so): how it
    # is passed matters where it is the same.
    calls = [c for c in calls if not (_static(c, param) and c[3].value.vsrc)]
    found = _first_flip(
        prop, calls, lambda c: "by keyword" if c[4] else "by position", one_body, _same_params
    )
    if found is None:
        return
    (fn, call, arg, style), (first, other) = found
    here, there = (next(_static(c, param) for c in calls if c[3] is a) for a in (arg, first))
    step = PathStep(fn.qualname, call.text, call.location)
    jitted = jitted_text(site, call.text)
    elsewhere = at_text(first.location, arg.location)
    if here == there:
        head = f"'{param}' is passed {style} here and {other} at {elsewhere}, so {jitted} compiles twice"
        details = [
            f"{'static' if here else 'traced'} parameter '{param}'; passed {other} at"
            f" {where_text(first.location)}",
            "jax keys its cache on how arguments are passed",
        ]
        yield make_finding("RTL404", head, details, arg.location, site, param, (step,))
        return
    head = (
        f"'{param}' is {'static' if here else 'traced'} {style} here but"
        f" {'static' if there else 'traced'} {other} at {elsewhere}, so {jitted} compiles twice"
    )
    details = [
        f"passed {other} at {where_text(first.location)}",
        "static_argnums and static_argnames each name it only one way: two cache entries",
    ]
    yield make_finding("RTL404", head, details, arg.location, site, param, (step,), fix=_BOTH_WAYS)


def _same_params(a: _JitArg, b: _JitArg) -> bool:
    """Whether two calls pass arguments for the same parameters, so that passing each the same way
    makes them one signature: calls that differ in another keyword (``emit_signature=`` here,
    ``with_costs=`` there) or in how many arguments they pass are two cache entries whichever way
    the parameter is passed, and the advice would remove nothing."""
    return a[2].signature.passed(a[1]) == b[2].signature.passed(b[1])


# Passing the argument the other way would change what it is, so this hint comes with no --fix.
_BOTH_WAYS = Fix(
    "pass it one way",
    "pass it the same way at every call, and name it in both static_argnums and static_argnames if"
    " it is meant to be static (jax fills in one from the other only when the other is not given)",
)


def _flip_finding(
    code: str,
    what: str,
    site: JitSite,
    param: str,
    arg: Arg,
    fn: FunctionSummary,
    call: CallSite,
    first: Arg,
    before: str,
    now: str,
    made: Location | None = None,
) -> Finding:
    """A flip reported at the argument, or where the odd value's dtype was decided (``made``) when
    that is elsewhere: the line to change."""
    jitted = jitted_text(site, call.text)
    passed = f"{now}: {shown_code(arg.text)} at {where_text(arg.location)}"
    if made is not None and not made.starts_in(arg.location):
        said = f"this makes {now} for '{param}'"
    else:
        made, said = arg.location, f"'{param}' gets {now} here"
    head = f"{said} but {before} at {at_text(first.location, made)}, so {jitted} traces twice"
    details = [
        passed,
        f"{before}: {shown_code(first.text)} at {where_text(first.location)}",
        f"a different {what} is a different cache entry",
    ]
    step = PathStep(fn.qualname, call.text, call.location)
    return make_finding(code, head, details, made, site, param, (step,))
