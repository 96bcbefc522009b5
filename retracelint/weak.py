"""Where the weak type of a jitted function's argument is decided, followed along the call graph.

jax keys its cache on whether each leaf is weakly typed: a Python number (and an array made from
Python numbers only, ``jnp.asarray(0.5)``) is, an array made with a dtype is not, and arithmetic is
strong as soon as one operand is (``values.weak_class``). Two call sites in one body are compared by
``checks.rtl40x_call_flips.flip_findings`` from their summaries; here an argument that is a parameter is answered by
every call of its function (a call that leaves it out passes its default), a value that follows its
inputs' weak type (``jnp.asarray(x)``, ``x * 2.0``) by what those inputs are, and a NamedTuple or
dataclass argument leaf by leaf, where each field's value is made (``objects.value_origins``,
through factories and ``_replace``). Only kinds that are sure count: an argument of unknown kind
adds none.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from retracelint import funcrefs
from retracelint.callgraph import JitTarget
from retracelint.model import Location, PathStep
from retracelint.objects import _is_read
from retracelint.ordering import stable_repr
from retracelint.propagate import MAX_FRAMES
from retracelint.summary import Arg, FunctionSummary
from retracelint.values import (
    AXISLESS,
    DICT,
    FLOAT,
    FLOAT_LIKE,
    FOLLOWS,
    INT,
    JIT_OUT,
    STRONG,
    UNKNOWN,
    UNSURE,
    WEAK,
    ParamDep,
    Value,
    item_key,
    items_of,
    of_parameters,
    positional_item,
    scalar_class,
    weak_class,
)

if TYPE_CHECKING:
    from retracelint.propagate import Propagation

_MAX_ORIGINS = 12  # origins kept per parameter


@dataclass(frozen=True)
class WeakOrigin:
    """A place that decides a leaf's weak type: ``kind`` (WEAK or STRONG), where, as written, and
    the function that runs it (two origins count together only when one process runs both)."""

    kind: str
    location: Location
    text: str
    fn: FunctionSummary
    default: str | None = None  # the parameter whose default this is, when it is one
    # The calls it reaches the argument through: two kinds that come the same way are the
    # alternatives of one value (two branches that store an attribute), one per run.
    route: tuple[Location, ...] = ()
    # Of a weakly typed number, whether an int or a float when known: a Python ``0`` and ``0.5``
    # are both weak, and still two dtypes (``scalar_class``).
    scalar: str | None = None
    # The lengths of its axes known where it is made (``Propagation.known_axes``; () for a number):
    # a weak and a strong value of two shapes are two traces whatever their weak types.
    axes: tuple[int | None, ...] | None = None


class WeakKinds:
    def __init__(self, prop: Propagation) -> None:
        self.prop = prop
        self._params: dict[tuple[str, str], list[WeakOrigin]] = {}

    def leaves(self, fn: FunctionSummary, arg: Arg) -> dict[str, list[WeakOrigin]]:
        """The origins of the argument's weak type, or of each field of a NamedTuple or dataclass
        argument (by field name; the argument itself is ``""``)."""
        prop = self.prop
        whole = self.of(fn, arg, 0)
        if whole:
            return {"": whole}
        value = self._imported(fn, prop.resolve(fn, arg.value))
        if value.ty == DICT:
            # Each item at a literal key: `{**defaults, "scale": jnp.float32(s)}` against a module's
            # `DEFAULTS = {"scale": 1.0}` passed as it is.
            items = {
                name: self.of(fn, replace(arg, value=item, text=f"{arg.text}{name}"), 0)
                for name, item in items_of(value).items()
            }
            return {name: found for name, found in items.items() if found}
        classes = prop.classes_of_value(fn, value)
        if len(classes) != 1:
            return {}
        cls = next(iter(classes))
        static = set(prop.project.symbols.static_fields(cls))
        out: dict[str, list[WeakOrigin]] = {}
        for name in prop.project.symbols.init_fields(cls):
            if name in static:
                continue
            found = [
                kind
                for owner, origin, steps in prop.value_origins(fn, arg, name, (), 0)
                for kind in self._through(steps, self.of(owner, origin, 0))
            ]
            if found:
                out[name] = found
        return out

    def of(self, fn: FunctionSummary, arg: Arg, depth: int) -> list[WeakOrigin]:
        """Where the weak type of ``arg`` (a value in ``fn``) is decided: none when not known."""
        prop = self.prop
        prop.charge(fn)
        if depth > MAX_FRAMES or prop.frequency.traced(fn.qualname):
            # Made while a jit traces: as weak as its tracers (what ``carried_flip_findings`` asks).
            return []
        value = self._imported(fn, prop.resolve(fn, arg.value))
        if value.param is not None:
            return self._param(fn, value.param, depth, item_key(value))
        if _is_read(value):  # an attribute: where its value is made
            return [
                origin
                for place, made, _, steps in prop.field_candidates(fn, arg, (), ())
                for origin in self._through(steps, self.of(place, made, depth + 1))
            ]
        found = weak_class(value)
        if value.ty == JIT_OUT:
            return []  # as weak as what the jitted function got (``carried_flip_findings``)
        axes = () if value.ty in AXISLESS else prop.known_axes(fn, arg, arrays=True)
        if found is not None and found != FOLLOWS:
            where = value.made or arg.location
            return [WeakOrigin(found, where, arg.text, fn, scalar=scalar_class(value), axes=axes)]
        if (found is None or value.weak != FOLLOWS) and not of_parameters(value):
            return []  # a call's result not expanded, or no array
        # As weakly typed as the parameters it is computed from: strong with one strong one.
        inputs = []
        # In one order whatever the hashes: the first strong input is the one told.
        for dep in sorted(value.deps, key=stable_repr):
            if not isinstance(dep, ParamDep) or dep.elem is not None:
                return []
            inputs.append(self._param(fn, dep.name, depth + 1, dep.key))
        where = value.made or arg.location
        if not all(inputs):
            # Of unknown weak type, but a float whatever its inputs are (`t + dt / 2`): enough to
            # tell it from a Python int (``checks.rtl40x_call_flips._traced_back_flip``).
            float_ = value.ty == FLOAT_LIKE
            return (
                [WeakOrigin(UNSURE, where, arg.text, fn, scalar=FLOAT, axes=axes)] if float_ else []
            )
        kinds = [{o.kind for o in origins} for origins in inputs]
        if all(k == {WEAK} for k in kinds):
            # An int with a float is a float; ints alone stay ints (`/` made a float already).
            scalars = {o.scalar for origins in inputs for o in origins}
            scalar = scalar_class(value) or (
                FLOAT if FLOAT in scalars else INT if scalars == {INT} else None
            )
            return [WeakOrigin(WEAK, where, arg.text, fn, scalar=scalar, axes=axes)]
        strong = next((o for o, k in zip(inputs, kinds, strict=True) if k == {STRONG}), None)
        if strong is not None:
            return [WeakOrigin(STRONG, where, arg.text, fn, axes=axes)]
        mixed = [o for o, k in zip(inputs, kinds, strict=True) if k != {WEAK}]
        if len(mixed) != 1:
            return []
        # Each origin still decides the weak type, but arithmetic that makes a float of anything
        # (`x / n`, `x * 1.0`) hands the jit a float whichever number the caller passed.
        return _promoted(mixed[0], scalar_class(value))

    def _imported(self, fn: FunctionSummary, value: Value) -> Value:
        """``value``, or, when it is a module-level name another module of the project binds to a
        value that never changes (a dict of defaults), that value."""
        if value.ty != UNKNOWN or value.varies or not value.callables:
            return value
        refs = funcrefs.called(value.callables)
        if (
            len(refs) != 1
            or len(value.callables) != 1
            or refs[0][0] != "global"
            or len(refs[0]) != 2
        ):
            return value
        project = self.prop.project
        found = project.symbols.global_value(refs[0][1], project.owner[fn.qualname])
        return found if found is not None and not found.varies else value

    def _through(self, steps: tuple[PathStep, ...], origins: list[WeakOrigin]) -> list[WeakOrigin]:
        """``origins``, reached through the calls of ``steps``: none through a jitted function's
        call, whose results are as weak as its arguments were (``checks.rtl40x_carried_flips.carried_flip_findings``
        compares a state carried through it)."""
        project = self.prop.project
        for step in steps:
            site = project.symbols.call_at(step.location)
            if site is not None and any(
                isinstance(t, JitTarget) for t in project.site_targets.get(site, ())
            ):
                return []
        route = tuple(step.location for step in steps)
        return [replace(o, route=(*route, *o.route)) for o in origins] if route else origins

    def _param(
        self, fn: FunctionSummary, name: str, depth: int, key: str | None = None
    ) -> list[WeakOrigin]:
        """What the calls of ``fn`` pass for parameter ``name`` (for its item at ``key``, when
        given): a call that leaves out a parameter whose default is a number passes a weakly
        typed scalar."""
        cache_key = (fn.qualname, name if key is None else f"{name}{key}")
        known = self._params.get(cache_key)
        if known is not None:
            return known
        param = fn.param(name)
        if param is None or depth > MAX_FRAMES:
            return []
        # A parameter reached again while resolving itself adds nothing.
        self._params[cache_key] = []
        prop = self.prop
        out: list[WeakOrigin] = []
        for caller, call, passed, _, target in prop.calls_of(fn, name):
            if isinstance(target, JitTarget):
                continue  # traced: its values are tracers, whatever the caller passes
            if passed is not None:
                found = (
                    self.of(caller, passed, depth + 1)
                    if key is None
                    else self._item(caller, passed, key, depth + 1)
                )
                out += [replace(o, route=(call.location, *o.route)) for o in found]
            elif param.default is not None and not call.star and key is None:
                scalar = param.default if param.default in (INT, FLOAT) else None
                origin = WeakOrigin(WEAK, fn.location, name, caller, name, (call.location,), scalar)
                out.append(replace(origin, axes=()))  # a number written as the default
        self._params[cache_key] = out = _unique(out)[:_MAX_ORIGINS]
        return out

    def _item(self, fn: FunctionSummary, arg: Arg, key: str, depth: int) -> list[WeakOrigin]:
        """Where the weak type of the item at ``key`` of the dict ``arg`` is decided: none when the
        dict's items are not known."""
        value = self._imported(fn, self.prop.resolve(fn, arg.value))
        if value.param is not None and item_key(value) is None:
            return self._param(fn, value.param, depth, key)
        item = items_of(value).get(key) if value.ty == DICT else positional_item(value, key)
        if item is None:
            return []
        return self.of(fn, replace(arg, value=item, text=f"{arg.text}{key}"), depth)


def _promoted(origins: list[WeakOrigin], scalar: str | None) -> list[WeakOrigin]:
    """``origins`` of a value computed so that it is a ``scalar`` whatever they are (a FLOAT):
    a weakly typed int among them reaches the jit as a float."""
    if scalar != FLOAT:
        return origins
    return [replace(o, scalar=FLOAT) if o.kind == WEAK else o for o in origins]


def _unique(origins: list[WeakOrigin]) -> list[WeakOrigin]:
    seen: set[tuple[str, Location, tuple[Location, ...]]] = set()
    out = []
    for origin in origins:
        key = (origin.kind, origin.location, origin.route)
        if key not in seen:
            seen.add(key)
            out.append(origin)
    return out
