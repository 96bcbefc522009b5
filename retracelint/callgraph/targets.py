"""What a call links to (a function, a jit site, a class) and how its arguments bind to the parameters
of what it calls; the jit site's static parameters among them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from retracelint.summary import (
    Arg,
    CallSite,
    FunctionSummary,
    JitSpec,
    Param,
)
from retracelint.values import RetDep, Value

if TYPE_CHECKING:
    pass


Site = tuple[str, int]  # a call site: the calling function and the index of the call in it


@dataclass(frozen=True)
class FuncTarget:
    qualname: str
    bound: bool  # called through an instance: the first parameter is already bound


@dataclass(frozen=True)
class JitTarget:
    module: str
    index: int
    bound: bool  # a jitted method called through an instance

    @property
    def key(self) -> tuple[str, int]:
        return (self.module, self.index)


@dataclass(frozen=True)
class ClassTarget:
    qualname: str


Target = FuncTarget | JitTarget | ClassTarget


@dataclass(frozen=True)
class JitBinding:
    """What a call into a jit site binds to: the jitted callable's parameters and which are static."""

    spec: JitSpec
    wrapped: FunctionSummary | None
    params: tuple[
        Param, ...
    ]  # as the jitted callable sees them (self included for decorated methods)
    offset: (
        int  # leading parameters already bound (self, for a jitted method called on an instance)
    )
    static: frozenset[str]  # the parameters that are static passed at least one way
    # static_argnums and static_argnames as jax applies them: jax decides per call, by how each
    # argument is passed (see ``static_at``).
    static_positions: tuple[int, ...] = ()
    static_keywords: frozenset[str] = frozenset()

    @property
    def signature(self) -> Signature:
        """The jitted callable's parameters as a call passes them its arguments."""
        return Signature(self.params, self.offset)

    def static_at(self, call: CallSite, name: str) -> bool:
        """Whether the argument that ``call`` passes for parameter ``name`` is static: by keyword when
        the name is in static_argnames, by position when the position is in static_argnums (a negative
        one counts from the end of the positional arguments of that call)."""
        if any(key == name for key, _ in call.kwargs):
            return name in self.static_keywords
        positional = [p.name for p in self.params if p.kind in ("posonly", "normal")]
        if name not in positional:
            return False
        index = positional.index(name)
        # The bound self is the first positional argument; behind *args the count is unknown, so the
        # signature's stands in for it.
        count = len(positional) if call.star else self.offset + len(call.args)
        return any(num == index or count + num == index for num in self.static_positions)


@dataclass(frozen=True)
class Signature:
    """A function's parameters as a call passes them its arguments (``Project.signature``): without
    those a jitted partial binds (``jax.pmap(partial(train_step, model.apply))`` takes ``state``
    first), after ``offset`` leading ones bound already (``self`` of a method called on an
    instance, or of a class called)."""

    params: tuple[Param, ...]
    offset: int = 0

    @property
    def bound(self) -> bool:
        return self.offset > 0

    def arg(self, call: CallSite, name: str) -> Arg | None:
        """The argument ``call`` passes for parameter ``name`` (``bind_arg``)."""
        return bind_arg(call, self.params, self.offset, name)

    def passed(self, call: CallSite) -> frozenset[str]:
        """The parameters ``call`` passes an argument for, whichever way (the ones past those the
        function names by their position, ``*0``...); a ``*args`` or ``**kwargs`` is taken as
        passing nothing more, as most often (``log_softmax(x, 1, *extra)``, ``extra`` empty)."""
        positional = [p.name for p in self.params if p.kind in ("posonly", "normal")]
        names = positional[self.offset :][: len(call.args)]
        extra = (f"*{i}" for i in range(len(names), len(call.args)))
        return frozenset((*names, *extra, *(key for key, _ in call.kwargs)))

    def refuses(self, call: CallSite) -> bool:
        """Whether ``call``'s arguments cannot bind to these parameters, so that Python raises
        TypeError before the body runs: more positional arguments than it takes without ``*args``, a
        keyword it does not take without ``**kwargs`` (or one for a parameter already passed by
        position), a required parameter left out. A call with ``*args`` or ``**kwargs`` may pass
        anything."""
        if call.star:
            return False
        positional = [p for p in self.params if p.kind in ("posonly", "normal")][self.offset :]
        kinds = {p.kind for p in self.params}
        by_position = {p.name for p in positional[: len(call.args)] if p.kind == "normal"}
        keywords = {key for key, _ in call.kwargs}
        by_keyword = {p.name for p in self.params if p.kind in ("normal", "kwonly")}
        left = [*positional[len(call.args) :], *(p for p in self.params if p.kind == "kwonly")]
        missing = [
            p for p in left if not p.has_default and (p.kind == "posonly" or p.name not in keywords)
        ]
        return bool(
            (len(call.args) > len(positional) and "vararg" not in kinds)
            or keywords & by_position
            or ("kwarg" not in kinds and keywords - by_keyword)
            or missing
        )


def bind_arg(call: CallSite, params: tuple[Param, ...], offset: int, name: str) -> Arg | None:
    """The argument passed for parameter ``name`` at ``call``; None when not passed or not knowable."""
    for key, arg in call.kwargs:
        if key == name:
            return arg
    positional = [p for p in params if p.kind in ("posonly", "normal")]
    for i, param in enumerate(positional[offset:]):
        if param.name == name:
            if call.star and i >= len(call.args):
                return spread_item(call, i - len(call.args))
            return call.args[i] if i < len(call.args) else None
    return None


def spread_item(call: CallSite, index: int) -> Arg | None:
    """Item ``index`` of the ``*rest`` that ``call`` passes last: of a tuple or list whose items
    are known, or of what a call returns (``f(x, *helper(y))``: item ``index`` of its tuple)."""
    spread = call.spread
    if spread is None:
        return None
    value, text = spread.value, f"{spread.text}[{index}]"
    if value.items:
        return Arg(value.items[index], spread.location, text) if index < len(value.items) else None
    dep = next(iter(value.deps)) if len(value.deps) == 1 else None
    if not isinstance(dep, RetDep) or dep.item is not None or dep.each or dep.elem is not None:
        return None
    # What the item holds is known once the call is resolved: the result's own sources are those of
    # every item, and an index past its end is a parameter left at its default.
    return Arg(Value(deps=frozenset({replace(dep, item=index)})), spread.location, text)
