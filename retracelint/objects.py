"""The object model at link time: where the value of an object's attribute is made.

The summaries name attributes symbolically (``summarise/objects.py``): ``self.buffer`` in a method is
the attribute of whatever its callers pass for ``self``, and ``model.seen`` for a local object is the
attribute of the object a call made (``values.Made``). Here each is traced to the places its value is
made, each a ``Origin``: the argument a constructor call passes for the ``__init__`` parameter stored
there (or the field of a dataclass, a NamedTuple...), the value ``__init__`` computes, a value stored
by another method of the class (as often as that method runs), the attribute of what a factory
returns, or a value set on the object itself. An object whose class is not known keeps today's
answer: its attributes vary with it.

The origins are asked the same questions as any value (``Propagation``): a constructor's argument in
the constructing function, with that function's loops; a method's store in the method, as often as
it runs. The constructor's arguments are substituted per call: two instances made with different
arguments have different attributes (object sensitivity).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import replace
from itertools import chain
from typing import TYPE_CHECKING

from retracelint.callgraph import (
    ClassTarget,
    FuncTarget,
    JitTarget,
    Project,
    Signature,
    Site,
    Target,
)
from retracelint.fills import filled_evenly, grows, without_calls
from retracelint.funcrefs import Callee, unwrapped
from retracelint.model import Location, PathStep
from retracelint.readlog import query
from retracelint.summary import Arg, CallSite, FunctionSummary, ModuleSummary
from retracelint.values import (
    EMPTY,
    INSTANCE,
    LIST,
    LIST_LIKE,
    NONE,
    UNKNOWN,
    CallSrc,
    Dep,
    DrawSrc,
    IterDep,
    LoopSrc,
    Made,
    ParamDep,
    RetDep,
    Value,
    join,
    objects_of,
    read_path,
    unaligned,
)

if TYPE_CHECKING:
    from retracelint.propagate import Candidate, Propagation

_MAX_DEPTH = 8  # factories and constructors followed to find where one attribute is made
_MAX_ORIGINS = 12  # origins kept per attribute
_MAX_PLACE_DEPTH = 32  # attribute origins followed through callers, one inside another (MAX_FRAMES)
# Bases that give an instance no way to be iterated (a dataclass's usual ones).
# What an attribute that ``append`` grows may be, as its ``__init__`` stores say: anything else has
# an ``append`` of its own.
_MAY_BE_LISTS = frozenset({LIST, LIST_LIKE, UNKNOWN})
_NOT_ITERABLE_BASES = frozenset({"object", "ABC", "Generic", "Protocol"})

# Where an attribute's value is made: the function, the value there (as an argument: its value,
# location and text), and the calls from that function down to where it is read.
Origin = tuple[FunctionSummary, Arg, tuple[PathStep, ...]]


class ObjectModel:
    """The attributes of objects, for ``Propagation`` (which it is mixed into)."""

    _made: dict[Made, list[Origin]]
    _place_memo: dict[tuple[str, Value, tuple[int, ...]], list[Candidate]]
    _placing: int
    _classes: dict[tuple[str, Value], frozenset[str]]
    _settled: dict[tuple[str, str], Arg | None]
    _constructions: dict[str, list[Site]] | None
    _assigned_names: set[str] | None
    _read_names: set[str] | None
    _assigning: dict[str, list[ModuleSummary]] | None
    _param_writes: dict[str, list[tuple[FunctionSummary, str, tuple[Arg, ...]]]]
    _stored_kinds: dict[tuple[str, str], str]

    def attribute_read(self: Propagation, fn: FunctionSummary, value: Value, path: str) -> Value:
        """Attribute ``path`` of ``value`` (in ``fn``), as ``attribute_of`` reads it, except that
        an instance of classes that all hold one literal in that field, wherever they are made,
        holds that literal (a field no caller sets keeps its default) even where which instance
        it is, is not known."""
        if "." in path or objects_of(value) or value.fields:
            return attribute_of(value, path)
        classes = sorted(self.constructed_classes(fn, value))
        settled = [arg for cls in classes if (arg := self.settled_field(cls, path)) is not None]
        if classes and len(settled) == len(classes) and len(set(map(_literal, settled))) == 1:
            return settled[0].value
        read = attribute_of(value, path)
        loop = self._walked_alike(fn, value, path)
        return read if loop is None else read.with_(vsrc=read.vsrc - {LoopSrc(loop)})

    def _walked_alike(
        self: Propagation, fn: FunctionSummary, value: Value, path: str
    ) -> int | None:
        """The loop of ``fn`` that ``value`` is the item of, walking the elements of a parameter,
        where every element its callers pass holds the same attribute ``path``
        (``elements_alike``): read off the item, the attribute does not change with the loop."""
        walked = [d for d in value.deps if isinstance(d, ParamDep) and d.elem is not None]
        if len(walked) != 1 or LoopSrc(walked[0].elem) not in value.vsrc:
            return None
        dep = walked[0]
        return dep.elem if self.elements_alike(fn, dep.name, path) else None

    def elements_alike(self: Propagation, fn: FunctionSummary, param: str, path: str) -> bool:
        """Whether every element of every list the callers of ``fn`` pass for ``param`` holds one
        value in attribute ``path``: each list filled by calls in a loop (``[init_chain(key(i),
        data, 16) for i in ...]``, ``append`` of ``pack_state(state, max_views=8)``), that each
        give the attribute what does not change with the loops the call is in (the shared data's
        row count, the configuration's sizes), not what does (the key). Chains built alike from
        one configuration: round 36's F5."""
        key = (fn.qualname, param, path)
        known = self._alike.get(key)
        if known is not None:
            return known
        self._alike[key] = False  # reached again while answering itself: not known so
        self.charge(fn)
        passed = list(self.caller_args(fn, param))
        found = bool(passed) and all(
            self._made_alike(caller, arg.value, path, 0) for caller, _, arg, _ in passed
        )
        self._alike[key] = found
        return found

    def _made_alike(
        self: Propagation, fn: FunctionSummary, value: Value, path: str, depth: int
    ) -> bool:
        """Whether each element of list ``value`` (in ``fn``) holds one value at ``path``: one
        the callers pass on (``elements_alike`` of the caller's own parameter), one that each
        call making an element gives the same (``made_origins``), or, for what a helper returns
        (``states, data = make_states(key)``), one of those in the helper."""
        if value.param is not None and not value.elements:
            return self.elements_alike(fn, value.param, path)
        if not value.elements:
            made_by = [d for d in value.deps if isinstance(d, RetDep)]
            return (
                bool(made_by)
                and len(made_by) == len(value.deps)
                and depth < _MAX_DEPTH
                and all(self._returned_alike(fn, dep, path, depth) for dep in made_by)
            )
        for made in value.elements:
            site = self.project.symbols.call_at(made.at)
            if site is None or made.path:
                return False
            loops = self.project.function(site[0]).calls[site[1]].loops
            origins = self.made_origins(replace(made, path=path))
            if not origins or any(
                _changes_per_call(arg.value, loops if owner.qualname == site[0] else None)
                for owner, arg, _ in origins
            ):
                return False
        return True

    def _returned_alike(
        self: Propagation, fn: FunctionSummary, dep: RetDep, path: str, depth: int
    ) -> bool:
        """``_made_alike`` of what call ``dep`` of ``fn`` returns (its item ``dep.item``), in the
        function of the project it calls."""
        targets = self.project.site_targets.get((fn.qualname, dep.call), ())
        if len(targets) != 1 or not isinstance(targets[0], FuncTarget):
            return False
        callee = self.project.function(targets[0].qualname)
        returned = callee.returns
        if returned is not None and dep.item is not None:
            returned = returned.items[dep.item] if dep.item < len(returned.items) else None
        return returned is not None and self._made_alike(callee, returned, path, depth + 1)

    def constructed_classes(self: Propagation, fn: FunctionSummary, value: Value) -> frozenset[str]:
        """The classes of ``value`` when it can only be what constructor calls of ``fn`` made
        (one of them, an element collected from them); empty when it may be anything else."""
        out: set[str] = set()
        for dep in value.deps:
            if not isinstance(dep, RetDep | IterDep) or dep.item is not None:
                return EMPTY
            targets = self.project.site_targets.get((fn.qualname, dep.call), ())
            made = [t.qualname for t in targets if isinstance(t, ClassTarget)]
            if not made or len(made) != len(targets):
                return EMPTY
            # The summary reads iterating a display of constructor calls (`for r in [Req(1),
            # Req(2)]`) as iterating each call's result; an instance that cannot be iterated
            # is not, so the item is the instance itself.
            iterated = isinstance(dep, IterDep) or (dep.elem is not None and not dep.each)
            if iterated and not all(map(self._not_iterable, made)):
                return EMPTY
            out.update(made)
        return frozenset(out)

    def _not_iterable(self: Propagation, cls: str) -> bool:
        """Whether instances of ``cls`` cannot be iterated: no ``__iter__`` or ``__getitem__`` in
        the class or its bases, every base a class of the project or one known to add neither."""
        chain = self.project.symbols.mro(cls)
        names = {self.project.classes[klass].name for klass in chain}
        for klass in chain:
            methods = self.project.classes[klass].methods
            if "__iter__" in methods or "__getitem__" in methods:
                return False
            for base in self.project.classes[klass].bases:
                name = base.rpartition(".")[2].partition("[")[0]
                if name not in names and name not in _NOT_ITERABLE_BASES:
                    return False
        return True

    @query("prop")
    def settled_field(self: Propagation, cls: str, attr: str) -> Arg | None:
        """The literal every instance of ``cls`` (or of a subclass) holds in field ``attr`` of its
        generated ``__init__``, when the project shows one: every constructor call leaves it at
        the same literal (the field's default, or the same literal passed) and no code sets it
        (``obj.attr = ...``, ``setattr``, ``replace(obj, attr=...)``). None otherwise."""
        key = (cls, attr)
        if key not in self._settled:
            self._settled[key] = self._settled_field(cls, attr)
        return self._settled[key]

    def _settled_field(self: Propagation, cls: str, attr: str) -> Arg | None:
        assigned = self._assigned()
        if attr in assigned or "*" in assigned:
            return None
        made: list[Arg] = []
        for klass in self.project.classes:
            if cls not in self.project.symbols.mro(klass):
                continue
            given = self._constructed_with(klass, attr)
            if given is None:
                return None
            for found in given:
                if found is None or _literal(found) is None:
                    return None
                made.append(found)
        if not made or len({_literal(arg) for arg in made}) != 1:
            return None
        return made[0]

    @query("prop")
    def static_kept(self: Propagation, attr: str) -> bool:
        """Whether static field ``attr`` changes only where an instance is made: no code sets it
        (``obj.attr = ...``, ``setattr``, ``replace(obj, attr=...)``), and every constructor call
        of a class that declares it leaves it at its default, writes a literal, or passes a
        parameter on as it came in (``period=period``, ``factor=self.factor``): never a value
        computed there, which could differ from the instance's it is made from."""
        assigned = self._assigned()
        if attr in assigned or "*" in assigned:
            return False
        for klass in self.project.classes:
            if attr not in self.project.symbols.static_fields(klass):
                continue
            given = self._constructed_with(klass, attr)
            if given is None or not all(
                found is None or written_out(found.text) or found.value.param is not None
                for found in given
            ):
                return False
        return True

    def _constructed_with(self: Propagation, klass: str, attr: str) -> list[Arg | None] | None:
        """What each constructor call of ``klass`` gives field ``attr`` of its generated
        ``__init__``: the argument, else the field's default (None: neither). None when that
        is not all: the class or a base sets it in a method (``__post_init__``), an ``__init__``
        of its own stores what it computes, or a call spreads its arguments (``**kw``)."""
        symbols = self.project.symbols
        assigned = self._assigned()
        if any(f"{k}.{attr}" in assigned for k in symbols.mro(klass)):
            return None
        fields = symbols.init_fields(klass)
        if attr not in fields or isinstance(symbols.member(klass, "__init__"), FuncTarget):
            return None
        out: list[Arg | None] = []
        for caller, index in self._constructions_of(klass):
            call = self.project.function(caller).calls[index]
            given = _field_arg(call, fields, attr)
            if given is None and call.star:
                return None
            out.append(given or symbols.field_default(klass, attr))
        return out

    @query("prop")
    def _assigned(self: Propagation) -> set[str]:
        """The attribute names any module of the project may set on an object."""
        if self._assigned_names is None:
            modules = self.project.modules.values()
            self._assigned_names = set().union(*(summary.assigned for summary in modules))
        return self._assigned_names

    @query("prop")
    def attribute_used(self: Propagation, name: str) -> bool:
        """Whether any module of the project may read attribute ``name`` off an object or call it
        (``bot._move(pos)``), on whatever object (``ModuleSummary.read``)."""
        if self._read_names is None:
            modules = self.project.modules.values()
            self._read_names = set().union(*(summary.read for summary in modules))
        return name in self._read_names or "*" in self._read_names

    @query("prop")
    def attribute_users(self: Propagation, name: str) -> tuple[str, ...]:
        """The functions that may use attribute ``name`` of an object, whatever the object: read
        it as a value (``jax.vmap(self.H)``, ``FunctionSummary.reads``, ``getattr`` of a name not
        known too) or call it (``self.H(x)``, ``env.H(x)``, ``jax.grad(self.H)(x)``). Only the
        modules that read the name are walked (``ModuleSummary.read``)."""
        return tuple(
            fn.qualname
            for summary in self.project.modules.values()
            if name in summary.read or "*" in summary.read
            for fn in summary.functions.values()
            if name in fn.reads
            or "*" in fn.reads
            or any(attribute_called(call.callee) == name for call in fn.calls)
        )

    @query("prop")
    def _constructions_of(self: Propagation, cls: str) -> list[Site]:
        """The call sites of the project that construct ``cls`` (one of their targets)."""
        if self._constructions is None:
            self._constructions = {}
            for site, targets in self.project.site_targets.items():
                for target in targets:
                    if isinstance(target, ClassTarget):
                        self._constructions.setdefault(target.qualname, []).append(site)
        return self._constructions.get(cls, [])

    def made_origins(self: Propagation, made: Made, depth: int = 0) -> list[Origin]:
        """Where attribute ``made.path`` of the object made by the call at ``made.at`` is made."""
        known = self._made.get(made)
        if known is not None:
            return known
        self._made[made] = []  # an object reached again while resolving itself adds nothing
        first, _, rest = made.path.partition(".")
        found = self.project.symbols.call_at(made.at)
        origins: list[Origin] = []
        if first and found is not None and depth <= _MAX_DEPTH:
            qualname, index = found
            fn = self.project.function(qualname)
            target = self.project.targets.get((qualname, index))
            origins = self.made_attribute(fn, fn.calls[index], target, made.item, first, depth)
            if rest:
                origins = [
                    deeper
                    for owner, arg, path in origins
                    for deeper in self.value_origins(owner, arg, rest, path, depth + 1)
                ]
        self._made[made] = origins = origins[:_MAX_ORIGINS]
        return origins

    def made_attribute(
        self: Propagation,
        fn: FunctionSummary,
        call: CallSite,
        target: Target | None,
        item: int | None,
        attr: str,
        depth: int,
    ) -> list[Origin]:
        """Where attribute ``attr`` of what ``call`` (in ``fn``) returns is made."""
        kept = self.carry_static(fn, call, item, (), attr, (), depth)
        if kept is not None:
            return kept
        if isinstance(target, ClassTarget) and item is None:
            return self.constructed(fn, call, target.qualname, attr)
        if isinstance(target, JitTarget):
            return self.jit_result_attribute(fn, call, target, item, attr, depth)
        if isinstance(target, FuncTarget):
            callee = self.project.function(target.qualname)
            seen = self.project.signature(target, callee)
            return self.returned_attribute(fn, call, callee, seen, item, attr, depth)
        if target is None:
            if attr in self.project.symbols.static_field_names() and self.static_kept(attr):
                # A treedef part no code writes: what the call returns (``replace(self, a=..)``
                # naming other fields) holds it as the object it came from did.
                return []
            # A call not linked: its attributes vary with its arguments, as its result does.
            varies = frozenset().union(
                *(a.value.vsrc for a in (*call.args, *dict(call.kwargs).values()))
            )
            return [(fn, Arg(Value(vsrc=varies), call.location, call.text), ())]
        return []

    def carried_static(
        self: Propagation,
        fn: FunctionSummary,
        dep: Dep,
        path: str,
        steps: tuple[PathStep, ...],
        depth: int,
    ) -> list[Origin] | None:
        """``carry_static`` for a value that is (an item of) what call ``dep`` of ``fn`` returns."""
        if not isinstance(dep, RetDep) or dep.key is not None or dep.elem is not None:
            return None
        call = fn.calls[dep.call]
        return self.carry_static(fn, call, dep.item, dep.below, path, steps, depth)

    def carry_static(
        self: Propagation,
        fn: FunctionSummary,
        call: CallSite,
        item: int | None,
        below: tuple[int, ...],
        path: str,
        steps: tuple[PathStep, ...],
        depth: int,
    ) -> list[Origin] | None:
        """Where attribute ``path`` of the carry a lax loop returns (``call``, its body's call in
        ``fn``: ``summary.CarryStart``) is made when its first part is a static field: where the
        initial carry's is, since jax gives the carry back with the initial carry's treedef. None
        when ``call`` is no such loop, the field no static one, or the part of the initial carry
        not known here: as any call's result."""
        start = call.carry
        if start is None or path.partition(".")[0] not in self.project.symbols.static_field_names():
            return None
        items = start.path(item, below)
        if items is None or start.arg >= len(call.args):
            return None
        given = call.args[start.arg]
        part = given.value
        for index in items:
            if index >= len(part.items):
                return None
            part = part.items[index]
        return self.value_origins(fn, Arg(part, given.location, given.text), path, steps, depth + 1)

    def returned_attribute(
        self: Propagation,
        fn: FunctionSummary,
        call: CallSite,
        callee: FunctionSummary,
        seen: Signature,
        item: int | None,
        attr: str,
        depth: int,
    ) -> list[Origin]:
        """Where attribute ``attr`` of what ``callee`` returns to ``call`` (in ``fn``) is made;
        ``seen``: the callee's parameters as the call passes them."""
        returned = callee.returns
        if returned is None:
            return []
        if item is not None:
            if item >= len(returned.items):
                return []
            returned = returned.items[item]
        receiver = call.receiver.value if call.receiver is not None else None
        step = PathStep(fn.qualname, call.text, call.location)
        out: list[Origin] = []
        returned_arg = Arg(returned, callee.location, callee.name)
        for owner, arg, path in self.value_origins(callee, returned_arg, attr, (), depth + 1):
            if owner is not callee:
                out.append((owner, arg, path))
                continue
            # Made from the factory's parameters: this call's arguments (object sensitivity),
            # where the factory makes it; but a new object the factory stores as it came in is
            # made where this call passes it (the lambda handed to the helper that builds the
            # pytree): the line to change. So is any value an alternative constructor (a
            # classmethod: `Model.from_profile(init_fn)`) stores as it came in: that call is
            # the constructor call as the user writes it.
            # What the factory's own calls return (`PaddedGraph(positions=_pad_to(...))`)
            # is read in the factory first: a call's result is not known past its caller.
            resolved = self.resolve(callee, arg.value, depth + 1)
            value = self.substitute(resolved, call, callee, seen, None, receiver)
            as_given = value.fresh or callee.kind == "classmethod"
            passed = arg.value.param if as_given else None
            given = seen.arg(call, passed) if passed else None
            where = given or arg
            # Constant lengths (``jnp.zeros((0, d))``) hold in any caller; a module constant's name
            # is read in the module that wrote it, which is not ``fn``'s when the factory made it.
            known = where.known if given is not None or not isinstance(where.known, str) else None
            out.append((fn, Arg(value, where.location, where.text, known), (*path, step)))
        return out

    def jit_result_attribute(
        self: Propagation,
        fn: FunctionSummary,
        call: CallSite,
        target: JitTarget,
        item: int | None,
        attr: str,
        depth: int,
    ) -> list[Origin]:
        """Attribute ``attr`` of what a jitted function returns: where the function it wraps makes
        it, when it returns an object it makes or passes on; else it varies with the arguments,
        as the result does (a new array per call, read eagerly)."""
        binding = self.project.jit_binding(target)
        wrapped = binding.wrapped if binding is not None else None
        returned = self.project.function(wrapped.qualname).returns if wrapped else None
        if returned is not None and item is not None:
            returned = returned.items[item] if item < len(returned.items) else None
        if returned is not None and (objects_of(returned) or returned.fields):
            callee = self.project.function(wrapped.qualname)  # type: ignore[union-attr]
            seen = self.project.signature(target, callee)
            found = self.returned_attribute(fn, call, callee, seen, item, attr, depth)
            if found:
                return found
        if attr in self.project.symbols.static_field_names():
            return []  # a treedef part: jit, tree_map and the like hand it back as it came in
        return self.made_attribute(fn, call, None, item, attr, depth)

    def value_origins(
        self: Propagation,
        fn: FunctionSummary,
        arg: Arg,
        path: str,
        steps: tuple[PathStep, ...],
        depth: int,
    ) -> list[Origin]:
        """Where attribute ``path`` of ``arg``'s value (in ``fn``) is made: what was set on it, the
        attribute of each object a call made, or the attribute of a parameter (left for the
        callers of ``fn`` to say)."""
        self.charge(fn)
        value = arg.value
        first, _, rest = path.partition(".")
        for name, stored in value.fields:
            if name == first:
                here = Arg(stored, arg.location, f"{arg.text}.{first}")
                return (
                    self.value_origins(fn, here, rest, steps, depth)
                    if rest
                    else [(fn, here, steps)]
                )
        objs = objects_of(value)
        if not objs and len(value.deps) == 1:
            kept = self.carried_static(fn, next(iter(value.deps)), path, steps, depth)
            if kept is not None:
                return kept
        if not objs and any(isinstance(d, RetDep) for d in value.deps):
            # What a helper returns (a ``lax.scan``'s carry): the object it makes, when known.
            value = self.resolve(fn, value)
            objs = objects_of(value)
        if not objs:
            return [(fn, Arg(attribute_of(value, path), arg.location, f"{arg.text}.{path}"), steps)]
        out: list[Origin] = []
        for obj in sorted(objs, key=str):
            if isinstance(obj, Made):
                for owner, found, more in self.made_origins(_attr_path(obj, path), depth + 1):
                    out.append((owner, found, (*more, *steps)))
            else:
                read = read_path(Value(objs=frozenset({obj})), path)
                out.append((fn, Arg(read, arg.location, f"{arg.text}.{path}"), steps))
        return out

    def constructed(
        self: Propagation, fn: FunctionSummary, call: CallSite, cls: str, attr: str
    ) -> list[Origin]:
        """Where attribute ``attr`` of an instance of ``cls`` made by ``call`` is made: what its
        ``__init__`` stores there for this call's arguments (the declared field of a dataclass or a
        NamedTuple), and what the other methods of the class store there, as often as they run."""
        project = self.project
        out: list[Origin] = []
        init = project.symbols.member(cls, "__init__")
        made = Value(objs=frozenset({Made(call.location)}))
        if isinstance(init, FuncTarget):
            init_fn = project.function(init.qualname)
            for stored in self.init_stores(init_fn, attr, made, 0):
                seen = Signature(init_fn.params, 1)
                value = self.substitute(stored.value, call, init_fn, seen, None, made)
                passed = stored.value.param
                given = seen.arg(call, passed) if passed is not None else None
                where = given or Arg(value, call.location, f"{call.text}(...)")
                out.append((fn, Arg(value, where.location, where.text, where.known), ()))
        elif attr in project.symbols.init_fields(cls):
            given = _field_arg(
                call, project.symbols.init_fields(cls), attr
            ) or project.symbols.field_default(cls, attr)
            if given is not None:
                out.append((fn, given, ()))
        for method, stored in self.stores(cls, attr):
            out.append((method, stored, ()))
        return out

    def fields_differ(self: Propagation, fields: frozenset[Made]) -> bool:
        """Whether the same attribute of several objects may hold different values: unless each is
        known as a literal (or the default of the parameter no call passes) and all are equal."""
        keys = set()
        for made in fields:
            given = self._given_field(made)
            keys.add(_literal(given) if isinstance(given, Arg) else given)
        return None in keys or len(keys) > 1

    def given_per_iteration(
        self: Propagation, fields: frozenset[Made]
    ) -> list[tuple[FunctionSummary, Arg]] | None:
        """Whether an attribute of the objects a call makes once per iteration of a loop (a
        comprehension, ``append``) differs from one to the next: where the constructor is given
        what changes with a loop around the call (``part_id=i``), with the function that gives it;
        none when each gets the same (a literal, a default, a value made before the loop); None
        when not known (``__init__`` computes it, or a method or other code may set it)."""
        assigned = self._assigned()
        found = []
        for made in sorted(fields, key=str):
            given = self._given_field(made)
            if given is None or made.path in assigned or "*" in assigned:
                return None
            if isinstance(given, Arg) and any(isinstance(s, LoopSrc) for s in given.value.vsrc):
                site = self.project.symbols.call_at(made.at)
                found.append((self.project.function(site[0]), given))  # type: ignore[index]
        return found

    def _given_field(self: Propagation, made: Made) -> Arg | tuple[str, str] | None:
        """What the call at ``made.at`` gives attribute ``made.path`` of the object it makes: the
        constructor's argument stored as it came in, or ``("default", param)`` when the call leaves
        that parameter out. None when not known so, or another method may store there."""
        site = self.project.symbols.call_at(made.at)
        target = self.project.targets.get(site) if site is not None else None
        if made.item is not None or "." in made.path or not isinstance(target, ClassTarget):
            return None
        if self.stores(target.qualname, made.path):
            return None
        call = self.project.function(site[0]).calls[site[1]]  # type: ignore[index]
        init = self.project.symbols.member(target.qualname, "__init__")
        if isinstance(init, FuncTarget):
            init_fn = self.project.function(init.qualname)
            stored = self.init_stores(init_fn, made.path, Value(), 0)
            param = stored[0].value.param if len(stored) == 1 else None
            if param is None or param.partition(".")[2]:
                return None
            given = Signature(init_fn.params, 1).arg(call, param)
            if given is None:
                return None if call.star else ("default", param)
            return given
        fields = self.project.symbols.init_fields(target.qualname)
        given = _field_arg(call, fields, made.path) if made.path in fields else None
        return given or self.project.symbols.field_default(target.qualname, made.path)

    def init_stores(
        self: Propagation, init: FunctionSummary, attr: str, made: Value, depth: int
    ) -> list[Arg]:
        """What an ``__init__`` stores in ``self.attr``, itself or through ``super().__init__(...)``
        (in terms of its own parameters)."""
        out = list(init.writes.get(_self_path(init, attr), ()))
        for index, call in enumerate(init.calls):
            target = self.project.targets.get((init.qualname, index))
            if call.callee[:1] != ("super",) or not isinstance(target, FuncTarget):
                continue
            base = self.project.function(target.qualname)
            if base.name != "__init__" or depth > _MAX_DEPTH:
                continue
            for stored in self.init_stores(base, attr, made, depth + 1):
                value = self.substitute(
                    stored.value, call, base, Signature(base.params, 1), None, made
                )
                out.append(Arg(value, stored.location, stored.text))
        return out

    def stores(self: Propagation, cls: str, attr: str) -> list[tuple[FunctionSummary, Arg]]:
        """What the methods of ``cls`` other than ``__init__`` store in ``self.attr``: a new value
        for the object each time one of them runs."""
        out = []
        for klass in self.project.symbols.mro(cls):
            for name, qualname in self.project.classes[klass].methods.items():
                if name == "__init__" or qualname not in self.project.functions:
                    continue
                method = self.project.function(qualname)
                for stored in method.writes.get(_self_path(method, attr), ()):
                    if (
                        stored.value.ty == LIST_LIKE
                        and self.stored_kind(cls, attr) not in _MAY_BE_LISTS
                    ):
                        continue  # a call of the object's own ``append``: the same object
                    out.append((method, stored))
        return _evenly_filled(self.project, out) + self.outside_stores(cls, attr)

    def outside_stores(self: Propagation, cls: str, attr: str) -> list[tuple[FunctionSummary, Arg]]:
        """What functions other than the methods of ``cls`` store in ``obj.attr`` of a parameter
        ``obj`` their callers pass an instance of ``cls`` for (a scheduler's
        ``update(sim)`` setting ``sim.dt``): a new value each time one of them runs."""
        return [
            (fn, arg)
            for fn, owner, stored in self.param_writes(attr)
            if not (fn.cls is not None and cls in self.project.symbols.mro(fn.cls))
            and cls in self.classes_of_value(fn, Value(objs=frozenset({owner})))
            for arg in stored
        ]

    @query("prop")
    def param_writes(
        self: Propagation, attr: str
    ) -> list[tuple[FunctionSummary, str, tuple[Arg, ...]]]:
        """Each store in ``p.attr`` of a parameter ``p`` (the function, ``p``, what it stores), in
        the modules that set ``attr`` somewhere: a fact of the project, read once per attribute."""
        known = self._param_writes.get(attr)
        if known is not None:
            return known
        if self._assigning is None:
            # The modules that set each name, in the project's order: an index built once, not a
            # walk of every module per attribute (240 attributes of 1,750 modules, a tenth of
            # an edit of the speed corpus).
            self._assigning = {}
            for module in self.project.modules.values():
                for name in module.assigned:
                    self._assigning.setdefault(name, []).append(module)
        found = []
        for module in self._assigning.get(attr, ()):
            for qualname in module.functions:
                fn = self.project.function(qualname)
                for param in fn.params:
                    stored = fn.writes.get(f"{param.name}.{attr}", ())
                    if stored:
                        found.append((fn, param.name, stored))
        self._param_writes[attr] = found
        return found

    def field_candidates(
        self: Propagation,
        fn: FunctionSummary,
        arg: Arg,
        loops: tuple[int, ...],
        path: tuple[PathStep, ...],
    ) -> list[Candidate]:
        """The places where the value of an attribute read (``arg``, at a point of ``fn`` inside
        ``loops``) is made, as ``static_candidates`` gives them for a parameter: the argument of
        a constructor call, a value ``__init__`` computes, a method's store, each with the loops
        of its own function that count (those of ``fn`` only in ``fn``). Empty when ``arg`` is no
        attribute read, or where its value is made is not known."""
        return [(o, a, at, (*p, *path)) for o, a, at, p in self._places(fn, arg.value, loops)]

    def _places(
        self: Propagation, fn: FunctionSummary, value: Value, loops: tuple[int, ...]
    ) -> list[Candidate]:
        if not _is_read(value):
            return []
        key = (fn.qualname, value, loops)
        known = self._place_memo.get(key)
        if known is not None:
            return known
        if self._placing >= _MAX_PLACE_DEPTH:
            # Each level can read a longer path (``self.agent.step`` linked to itself follows
            # ``self.agent``, ``self.agent.agent``, ...): no key repeats, so the memo cannot stop it.
            # As for an attribute reached again while resolving itself, that says nothing of it.
            return []
        self._place_memo[key] = []  # an attribute reached again while resolving itself: nothing
        self._placing += 1
        try:
            out = self._origins_of_places(fn, value, loops)
        finally:
            self._placing -= 1
        self._place_memo[key] = out = out[:_MAX_ORIGINS]
        return out

    def _origins_of_places(
        self: Propagation, fn: FunctionSummary, value: Value, loops: tuple[int, ...]
    ) -> list[Candidate]:
        out: list[Candidate] = []
        for obj in sorted(value.objs, key=str):
            if isinstance(obj, Made):
                origins: Iterable[Candidate] = [
                    (owner, found, loops if owner is fn else (), steps)
                    for owner, found, steps in self.made_origins(obj)
                ]
            else:
                origins = chain(
                    self._passed_attribute(fn, obj),
                    ((method, stored, (), ()) for method, stored in self.self_stores(fn, obj)),
                )
            for owner, found, at, steps in origins:
                if len(out) >= _MAX_ORIGINS:
                    # No more are kept (``_places``): the rest, each read off what a caller
                    # passes and followed up its callers, is not worth reading. A recursive
                    # interpreter passes its environment down from tens of calls, each level of
                    # them reached again (bqn-jax's evaluator: a minute, all of it past the first
                    # few).
                    return out
                self.charge(owner)
                if not _is_read(found.value):
                    out.append((owner, found, at, steps))
                    continue
                for o, a, a_at, more in self._places(owner, found.value, at):
                    out.append((o, a, a_at, (*more, *steps)))
        return out

    def _passed_attribute(self: Propagation, fn: FunctionSummary, name: str) -> Iterator[Candidate]:
        """For ``p.attr`` in ``fn``: the attribute of the object each caller passes for ``p``
        (a caller that passes no object says nothing of it), read when asked for."""
        head, _, path = name.partition(".")
        for caller, call, passed, step in self.passed_for(fn, head, receiver=True):
            if objects_of(passed.value) or passed.value.fields:
                read = read_path(passed.value, path)
                yield (
                    caller,
                    Arg(read, passed.location, f"{passed.text}.{path}"),
                    call.loops,
                    (step,),
                )

    def concrete(self: Propagation, fn: FunctionSummary, value: Value) -> Value:
        """``value`` with what the origins of an attribute read say of its type and identity; a
        new object made from known ones (``copy.deepcopy(p)``, a pickle round trip of a parameter
        ``p``) is an instance of their class."""
        found = [self.resolve(c[0], c[1].value) for c in self._places(fn, value, ())]
        # An attribute set to None until a method sets it (`self.recover = None` in `__init__`):
        # what it is when it is set says what it is.
        found = [v for v in found if v.ty != NONE] or found
        if not found:
            if value.ty == UNKNOWN and value.fresh and objects_of(value):
                classes = self.classes_of_value(fn, value)
                if len(classes) == 1:
                    return value.with_(ty=INSTANCE, ref=next(iter(classes)))
            if value.ty == LIST_LIKE:
                return value.with_(ty=self.initial_kind(fn, value))
            return value
        kinds = found[0]
        for other in found[1:]:
            kinds = join(kinds, other)
        if kinds.ty == LIST_LIKE:
            kinds = kinds.with_(ty=self.initial_kind(fn, value))
        return value.with_(ty=kinds.ty, ref=kinds.ref, items=kinds.items, site=kinds.site)

    def initial_kind(self: Propagation, fn: FunctionSummary, value: Value) -> str:
        """The kind of what the ``__init__`` methods of the hierarchy of ``fn``'s class store in
        the attribute of ``self`` that ``value`` reads (``self.lengths``); ``LIST_LIKE`` when none
        says (``stored_kind``)."""
        cls = self.project.symbols.class_of_method(fn)
        kinds = {
            self.stored_kind(cls, attr)
            for obj in value.objs
            if cls is not None
            and fn.params
            and isinstance(obj, str)
            and (attr := _own_attribute(obj, fn.params[0].name))
        }
        return kinds.pop() if len(kinds) == 1 else LIST_LIKE

    def stored_kind(self: Propagation, cls: str, attr: str) -> str:
        """What ``self.attr`` holds for the ``__init__`` of each class of the hierarchy of ``cls``,
        joined with a list grown by ``append`` (``LIST_LIKE``): a list where one stores a list,
        the kind of object one stores where that object has an ``append`` of its own, whichever
        class stores it and wherever the methods that call ``append`` are; ``LIST_LIKE`` where no
        ``__init__`` says. (The other methods' stores are among those ``concrete`` joins.)"""
        key = (cls, attr)
        known = self._stored_kinds.get(key)
        if known is None:
            self._stored_kinds[key] = LIST_LIKE  # reached again while resolving itself
            self._stored_kinds[key] = known = self._init_kind(cls, attr)
        return known

    def _init_kind(self: Propagation, cls: str, attr: str) -> str:
        out = Value(ty=LIST_LIKE)
        for klass in self.project.symbols.mro(cls):
            init = self.project.classes[klass].methods.get("__init__")
            if init not in self.project.functions:
                continue
            method = self.project.function(init)
            for stored in method.writes.get(_self_path(method, attr), ()):
                out = join(out, self.resolve(method, stored.value))
        return out.ty

    def self_stores(
        self: Propagation, fn: FunctionSummary, param: str
    ) -> list[tuple[FunctionSummary, Arg]]:
        """For ``self.attr...`` in a method: what the methods of its class store in ``self.attr``
        (the rest of the path read off that)."""
        head, _, path = param.partition(".")
        cls = self.project.symbols.class_of_method(fn)
        if cls is None or not fn.params or head != fn.params[0].name:
            return []
        attr, _, rest = path.partition(".")
        out = []
        for method, stored in self.stores(cls, attr):
            value = attribute_of(stored.value, rest) if rest else stored.value
            out.append((method, Arg(value, stored.location, stored.text)))
        return out

    def classes_of_value(
        self: Propagation, fn: FunctionSummary, value: Value, depth: int = 0
    ) -> frozenset[str]:
        """The project classes ``value`` (in ``fn``) may be an instance of, as far as known."""
        key = (fn.qualname, value)
        known = self._classes.get(key)
        if known is None:
            self._classes[key] = EMPTY  # reached again while resolving itself: nothing new
            self.charge(fn)
            self._classes[key] = known = self._classes_of(fn, value, depth)
        return known

    def _classes_of(
        self: Propagation, fn: FunctionSummary, value: Value, depth: int
    ) -> frozenset[str]:
        out: set[str] = set()
        if value.ty == INSTANCE and value.ref and not value.ref.startswith("<"):
            cls = self.project.symbols.class_named(self.project.owner[fn.qualname], value.ref)
            if cls is not None:
                out.add(cls)
        if depth > _MAX_DEPTH:
            return frozenset(out)
        for obj in objects_of(value):
            if isinstance(obj, Made) and not obj.path:
                out |= self.made_classes(obj, depth)
            elif isinstance(obj, str) and "." not in obj:
                for caller, _, arg, _ in self.caller_args(fn, obj):
                    out |= self.classes_of_value(caller, arg.value, depth + 1)
        for owner, found, _, _ in self._places(fn, value, ()):
            out |= self.classes_of_value(owner, found.value, depth + 1)
        if not out and value.ref == "<self>" and fn.cls is not None:
            # A method's self whose callers say nothing (``Walker(x).walk(4)``): its own class.
            out.add(fn.cls)
        return frozenset(out)

    def construction_site(self: Propagation, made: Made, depth: int = 0) -> Location | None:
        """Where the constructor call is that makes the object ``made`` names: that call, or, for
        what a factory returns (an item of it: ``records, domain = load(year)``), the constructor
        call the factory returns, followed down a few factories. None when not one such call."""
        found = self.project.symbols.call_at(made.at)
        if found is None or made.path or depth > _MAX_DEPTH:
            return None
        target = self.project.targets.get(found)
        if isinstance(target, ClassTarget):
            return made.at if made.item is None else None
        if not isinstance(target, FuncTarget):
            return None
        returned = self.project.function(target.qualname).returns
        if returned is not None and made.item is not None:
            returned = returned.items[made.item] if made.item < len(returned.items) else None
        inner = [m for m in returned.objs if isinstance(m, Made)] if returned is not None else []
        return self.construction_site(inner[0], depth + 1) if len(inner) == 1 else None

    def made_classes(self: Propagation, made: Made, depth: int) -> frozenset[str]:
        found = self.project.symbols.call_at(made.at)
        if found is None:
            return EMPTY
        target = self.project.targets.get(found)
        if isinstance(target, ClassTarget):
            return frozenset({target.qualname}) if made.item is None else EMPTY
        if isinstance(target, JitTarget):
            # A jitted function returns an object of the classes its wrapped function returns
            # (``replace(state, ...)``: a pytree of the same class, rebuilt from its leaves).
            binding = self.project.jit_binding(target)
            wrapped = binding.wrapped if binding is not None else None
            target = FuncTarget(wrapped.qualname, target.bound) if wrapped is not None else None
        if isinstance(target, FuncTarget):
            callee = self.project.function(target.qualname)
            returned = _returned_item(callee.returns, made.item)
            if returned is not None:
                return self.classes_of_value(callee, returned, depth + 1)
        return EMPTY


def _returned_item(returned: Value | None, item: int | None) -> Value | None:
    """What a function returns (``returned``), or item ``item`` of the tuple it returns
    (``state, obs = reset(key)``); None when that item is not known."""
    if returned is None or item is None:
        return returned
    return returned.items[item] if item < len(returned.items) else None


def _evenly_filled(
    project: Project, stores: list[tuple[FunctionSummary, Arg]]
) -> list[tuple[FunctionSummary, Arg]]:
    """The stores of a class's methods, each that grows the attribute from its old value without
    what changes it per call where every call fills it evenly between resets (``fills``)."""
    resets = [method for method, stored in stores if not grows(stored.value)]
    return [
        (method, replace(stored, value=without_calls(stored.value)))
        if grows(stored.value) and filled_evenly(project, method, resets)
        else (method, stored)
        for method, stored in stores
    ]


def _is_read(value: Value) -> bool:
    """Whether ``value`` is an attribute read whose origins are resolved along the call graph."""
    return (
        value.ty == UNKNOWN
        and bool(value.objs)
        and all(
            (isinstance(o, Made) and o.path) or (isinstance(o, str) and "." in o)
            for o in value.objs
        )
    )


def _changes_per_call(value: Value, loops: tuple[int, ...] | None) -> bool:
    """Whether ``value`` may differ between the calls that make a list's elements: it changes with
    one of ``loops`` (None: with any loop), per call or draw, or comes from what a call returns."""
    return any(
        isinstance(src, CallSrc | DrawSrc)
        or (isinstance(src, LoopSrc) and (loops is None or src.index in loops))
        for src in value.vsrc
    ) or any(isinstance(dep, RetDep | IterDep) for dep in value.deps)


def attribute_of(value: Value, path: str) -> Value:
    """Attribute ``path`` of ``value``: of an object, read as such; of any other value, a part of
    it, which varies with it (its shape changes included, on no known axis)."""
    if objects_of(value) or value.fields:
        return read_path(value, path)
    return unaligned(Value(vsrc=value.vsrc, shape=value.shape, deps=value.deps))


def _field_arg(call: CallSite, fields: tuple[str, ...], attr: str) -> Arg | None:
    """The argument a call of a generated ``__init__`` passes for field ``attr``."""
    for key, arg in call.kwargs:
        if key == attr:
            return arg
    index = fields.index(attr)
    if call.star or index >= len(call.args):
        return None
    return call.args[index]


_NO_LITERAL = object()


def _evaluated(text: str) -> object:
    """The value of an argument written as a literal; ``_NO_LITERAL`` for any other."""
    try:
        return ast.literal_eval(text)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return _NO_LITERAL


def written_out(text: str) -> bool:
    """Whether an argument is a literal (``["O", "H"]``, ``"minimal"``)."""
    return _evaluated(text) is not _NO_LITERAL


def _literal(arg: Arg) -> tuple[type, object] | None:
    """The value of a literal argument with its type (jax tells ``1`` from ``1.0`` and ``True``
    in a static argument), or None when it is no literal or cannot be hashed."""
    value = _evaluated(arg.text)
    try:
        hash(value)
    except TypeError:
        return None
    return None if value is _NO_LITERAL else (type(value), value)


def _own_attribute(obj: str, this: str) -> str:
    """``attr`` for ``obj`` ``self.attr`` (``this``: the method's first parameter), else empty."""
    head, _, attr = obj.partition(".")
    return attr if head == this and "." not in attr else ""


def _self_path(method: FunctionSummary, attr: str) -> str:
    return f"{method.params[0].name}.{attr}" if method.params else attr


def _attr_path(made: Made, path: str) -> Made:
    for attr in path.split("."):
        made = made.attr(attr)
    return made


# Callee kinds that name the attribute a call reads off an object: its last part.
_ATTRIBUTE_CALLEES = frozenset({"self", "super", "method"})


def attribute_called(callee: Callee) -> str | None:
    """The attribute a call reads off an object and calls (``self.H(x)``, ``env.H(x)``, ``jax.grad(
    self.H)(x)``, from a closure too), or None where it calls no attribute."""
    while callee and callee[0] in ("up", "module", "transform", "mapped", "partial"):
        callee = callee[1:] if callee[0] in ("up", "module") else unwrapped(callee)[0] or ()
    if not callee:
        return None
    if callee[0] in _ATTRIBUTE_CALLEES and len(callee) == 3:
        return callee[2]
    if callee[0] == "recv":
        return callee[1]
    if callee[0] == "name" and "." in callee[1]:
        return callee[1].rpartition(".")[2]
    return None
