"""Objects: attributes read and set (the fields of objects), copies and replaced copies, what the
linker needs to tell an object's class, and what a class declaration says of its fields.

An attribute read is resolved later, along the call graph, never guessed here: ``self.buffer`` in a
method is the attribute ``buffer`` of whatever its callers pass for ``self`` (named as a parameter of
its own, ``self.buffer``), and ``model.seen`` for a local ``model = Forecaster(n)`` is the attribute
of the object that call made (``values.Made``). What a method stores on ``self`` is kept per method
(``FunctionSummary.writes``); what code stores on a local object is kept on its value
(``Value.fields``) and travels with it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from retracelint import funcrefs
from retracelint.summarise.abstract import _dtype_sources, _export
from retracelint.summarise.apis import (
    _ARRAY_ATTRIBUTES,
    _COPIES,
    _DTYPES,
    _FIELD_UPDATES,
    _FLOAT_CONSTANT_MODULES,
    _FLOAT_CONSTANTS,
    _LIST_GROW_METHODS,
    _PICKLES,
    _REPLACES,
    _SAME_TREES,
    _SETATTRS,
    _UNPICKLES,
    NEW_LEAVES,
    NODE_PICKERS,
    _array_module,
)
from retracelint.summarise.loops import set_path
from retracelint.summarise.promotion import real_floor, real_part
from retracelint.summarise.state import PassState
from retracelint.summarise.syntax import (
    _clip,
    _dotted,
    _literal_strs,
    closure_read,
    closures_of,
)
from retracelint.summary import Arg, CallSite
from retracelint.values import (
    DTYPE,
    EMPTY,
    FLOAT,
    INSTANCE,
    INT,
    LIST,
    LIST_LIKE,
    RNG,
    TUPLE,
    UNKNOWN,
    CallSrc,
    Made,
    ParamDep,
    ParamShapeSrc,
    ParamSrc,
    Src,
    Taint,
    Value,
    combine,
    constant_value,
    dtype_taken,
    objects_of,
    parts_deps,
    placed,
    read_field,
    shape_sources,
    shapeless,
    unaligned,
    with_field,
)

if TYPE_CHECKING:
    from retracelint.summarise.source import _Positions


class Objects(PassState):
    """Attribute reads and writes, copies, and the objects a call's receiver and arguments may be."""

    def e_Attribute(self, node: ast.Attribute) -> Value:
        attr = node.attr
        if attr in _DTYPES or attr in _FLOAT_CONSTANTS:
            module = self.mod.canonical(_dotted(node.value) or "")
            if attr in _FLOAT_CONSTANTS and module in _FLOAT_CONSTANT_MODULES:
                return Value(ty=FLOAT)  # jnp.inf, math.pi: a Python float
            if attr in _DTYPES and (_array_module(module) or module == "ml_dtypes"):
                return Value(ty=DTYPE, dtype=_DTYPES[attr])  # np.int16, jnp.bfloat16
        self.mod.summary.read.add(attr)
        self.fn.reads.add(attr)
        base = self.expr(node.value)
        if attr == "dtype":
            return Value(
                ty=DTYPE, dtype=base.dtype, vsrc=_dtype_sources([base]), dtype_of=dtype_taken(base)
            )
        if attr == "shape" or attr == "size":
            return Value(ty=TUPLE if attr == "shape" else INT, vsrc=shape_sources(base))
        if attr in ("real", "imag"):
            dtype, floor = real_part(base.dtype), real_floor(base.floor)
            part = base.with_(dtype=dtype, floor=floor, parted=dtype is None)
            return part.with_(items=(), ref=None, objs=EMPTY, fields=(), callables=EMPTY)
        if attr in ("T", "mT"):
            return unaligned(base).with_(items=(), ref=None, objs=EMPTY, fields=(), callables=EMPTY)
        if attr in _ARRAY_ATTRIBUTES:
            return Value(vsrc=base.vsrc, deps=parts_deps(base))
        value = read_field(base, attr)
        if value.ty == UNKNOWN and self.generator_field(base, attr):
            value = value.with_(ty=RNG)
        refs = self.attribute_refs(base, attr) if base.ref or base.callables else EMPTY  # type: ignore[attr-defined]
        return value.with_(callables=funcrefs.union(value.callables, refs)) if refs else value

    def generator_field(self, base: Value, attr: str) -> bool:
        """Whether ``base.attr`` is an attribute of this method's own object that its class sets
        to a NumPy random generator."""
        if self.cls is None or not self.fn.params:
            return False
        own = objects_of(base) == {self.fn.params[0].name}
        return own and attr in self.mod.generator_fields.get(self.cls.qualname, ())

    # -- writes -------------------------------------------------------------------------------------
    def bind_attribute(self, target: ast.Attribute, value: Value, source: ast.AST | None) -> None:
        """``obj.attr = value``: later reads here see it, the value of a local object carries it to
        the functions it is passed to, and a store on a parameter's object (``self`` included) is
        kept as one of the method's writes."""
        base = self.expr(target.value)
        cls = self.cls if base.ref == "<self>" else None
        # A store on self concerns the instances of this class (and its subclasses) alone.
        self.mod.summary.assigned.add(f"{cls.qualname}.{target.attr}" if cls else target.attr)
        if cls is not None and value.site is not None:
            cls.jit_attrs[target.attr] = value.site
        elif value.site is not None and isinstance(target.value, ast.Name):
            # `env.step = jax.jit(env.step)`: later `env.step(...)` here calls the jit.
            self.env[f"{target.value.id}.{target.attr}"] = value
        if isinstance(source, _GROWING):
            dotted = _dotted(target)
            if dotted is not None and _grows_itself(dotted, source):
                value = self.grow_field(value, source, axis=_growth_axis(source))
        elif self.windowed_growth(target, source):
            assert isinstance(source, ast.Subscript)
            value = self.grow_field(value, source, axis=_growth_axis(source.value))
        self.store(target, base, value)

    def windowed_growth(self, target: ast.Attribute, source: ast.AST | None) -> bool:
        """``self.hist = jnp.concatenate([self.hist, x])[-k:]`` where ``__init__`` makes
        ``self.hist`` empty: the last ``k`` rows, fewer until it has ``k``, so it grows per call
        until it is full."""
        if self.cls is None or not isinstance(source, ast.Subscript):
            return False
        if target.attr not in self.mod.empty_fields.get(self.cls.qualname, ()):
            return False
        window = source.slice
        if not (
            isinstance(window, ast.Slice)
            and window.upper is None
            and window.step is None
            and isinstance(window.lower, ast.UnaryOp)
            and isinstance(window.lower.op, ast.USub)
        ):
            return False
        dotted = _dotted(target)
        grown = source.value
        return dotted is not None and isinstance(grown, _GROWING) and _grows_itself(dotted, grown)

    def store(self, target: ast.Attribute, base: Value, value: Value) -> None:
        """``value`` stored in ``target`` (an attribute of ``base``)."""
        path = _attribute_path(target)
        if path is not None and path[0] in self.env:
            self.env[path[0]] = set_path(self.env[path[0]], path[1:], value)
        for obj in objects_of(base):
            if isinstance(obj, str):
                self.note_write(f"{obj}.{target.attr}", value, target)

    def note_write(self, path: str, value: Value, node: ast.AST) -> None:
        """One of the values a function stores at ``path`` (``self.seen``), as its callers' objects
        see it after the call: its own loops are over, and what it reads of the attribute's old
        value (``self.seen + 1``) makes a new value per call."""
        if not self.recording:
            return
        stored = _new_per_call(_export(value) or value, path)
        arg = Arg(stored, self.loc(node), self.mod.pos.text(node))
        self.fn.writes[path] = (*self.fn.writes.get(path, ()), arg)
        owner, _, attr = path.partition(".")
        if (
            self.cls is not None
            and self.fn.params
            and owner == self.fn.params[0].name
            and "." not in attr
        ):
            stores = self.cls.field_objects.get(attr, ())
            self.cls.field_objects[attr] = (*stores, (self.fn.qualname, self.object_refs(value)))
            refs = value.refs
            if refs:
                functions = self.cls.field_functions.get(attr, ())
                store = (self.fn.qualname, tuple(sorted(refs)))
                if store not in functions:
                    self.cls.field_functions[attr] = (*functions, store)

    def grow_field(
        self,
        value: Value,
        node: ast.AST,
        item: bool = False,
        per_call: bool = True,
        axis: int | None = None,
    ) -> Value:
        """A list or array attribute rebuilt larger from itself (``item``: one of the lists it
        holds): per iteration of a loop here, and, with ``per_call``, for the objects it is stored
        on, per call, along ``axis`` where known (a list's items: an array made of it has as many
        rows, which taking rows by position, ``probs[idx]``, no longer has)."""
        text = _clip(self.mod.pos.text(node))
        # Along the same axis in the loop here as per call: a list's items (an item taken out,
        # ``population[i]``, does not grow with them).
        grown = self.grow(value, node, text, item, axis=axis) if self.loops else value
        if not per_call:
            return grown
        taint = Taint("RTL102", text, self.loc(node), frozenset({CallSrc()}), axis)
        return grown.with_(shape=grown.shape | {taint})

    def held_in(self, node: ast.expr) -> ast.expr:
        """What holds the list ``node`` names: the container it is an item of (``self.log[key]``,
        ``rows`` of ``for key, rows in self.log.items()``), else ``node`` itself."""
        followed: set[str] = set()
        while True:
            if isinstance(node, ast.Subscript):
                node = node.value
            elif (
                isinstance(node, ast.Name) and node.id in self.elements and node.id not in followed
            ):
                followed.add(node.id)
                node = self.elements[node.id]
            else:
                return node

    def mutate_field(self, node: ast.Call, method: str) -> None:
        """``self.blocks.append(x)``: the list stored in an attribute grows, per call of this
        function for whoever reads it later, and per iteration of a loop here; so does a container
        of lists stored there when one of its lists grows (``self.log[key].append(x)``). One that
        items are taken out of (``self.active.remove(ch)``) holds other values after each call."""
        func = node.func
        if not isinstance(func, ast.Attribute):
            return
        target = self.held_in(func.value)
        if not isinstance(target, ast.Attribute) or _attribute_path(target) is None:
            return
        item = target is not func.value
        current = self.quiet(target)
        if not item and current.ty == INSTANCE:
            # ``self.storage.append(buf, x)`` on an object: a call of its own ``append`` (a
            # method, a function stored on it), not ``list.append``; it stays the same object.
            return
        # Made anew by this call before it grows (``self.log = []`` before the loop that fills
        # it): no longer with each call.
        anew = current.ty != UNKNOWN and not current.param and not current.objs
        if method not in _LIST_GROW_METHODS:
            if not anew:
                # Items taken out (``self.active.remove(ch)``): what it holds changes each time
                # this runs; the same object as before.
                changed = current.with_(vsrc=current.vsrc | self.context_src(), fresh=EMPTY)
                self.store(target, self.quiet(target.value), changed)
            return
        grown = self.grow_field(current, node, item, per_call=not anew, axis=None if item else 0)
        if not item:
            # Of unknown kind here, what the class hierarchy stores there says, once linked
            # (``Propagation.concrete``), whether it is a list: not the order of the methods.
            ty = LIST_LIKE if current.ty in (UNKNOWN, LIST_LIKE) else LIST
            grown = grown.with_(ty=ty, items=(), dims=None)
        self.store(target, self.quiet(target.value), grown)

    def mutate_item(self, target: ast.Subscript, value: Value) -> None:
        """``self.counts[i] = v``: the array or list held in an attribute changes in place, for
        whoever reads it later, when what is stored there (or where) changes."""
        held = target.value
        if not isinstance(held, ast.Attribute) or _attribute_path(held) is None:
            return
        changes = value.vsrc | self.quiet(target.slice).vsrc
        if changes:
            # The same object as before: its identity is not new.
            current = self.quiet(held).with_(fresh=EMPTY)
            self.store(held, self.quiet(held.value), current.with_(vsrc=current.vsrc | changes))

    def note_registration(self, node: ast.Call, kind: str) -> None:
        """``register_pytree_node(Cls, flatten, unflatten)`` and ``register_dataclass(Cls, ...)``:
        which attributes of a ``Cls`` are static."""
        cls = _dotted(node.args[0])
        if cls is None:
            return
        flatten: ast.AST | None = node.args[1] if len(node.args) > 1 else None
        if isinstance(flatten, ast.Name):
            flatten = self.mod.nodes.get(f"{self.mod.module}.{flatten.id}")
        self.mod.summary.pytree_static[self.class_name(cls)] = registered_static(
            node, kind, flatten
        )

    def note_assigned(self, node: ast.Call, canon: str) -> None:
        """The attribute names ``setattr(obj, "n", v)`` or ``replace(obj, n=...)`` sets ("*": not
        known)."""
        if canon in _SETATTRS:
            name = node.args[1] if len(node.args) > 1 else None
            literal = isinstance(name, ast.Constant) and isinstance(name.value, str)
            self.mod.summary.assigned.add(name.value if literal else "*")  # type: ignore[union-attr]
            return
        for keyword in node.keywords:
            self.mod.summary.assigned.add(keyword.arg or "*")

    # -- copies ---------------------------------------------------------------------------------------
    def copied(self, node: ast.Call, canon: str, receiver: Value | None) -> Value | None:
        """``copy.copy(x)``, ``copy.deepcopy(x)``, ``replicate(x)``: a new object with the same attributes;
        ``x.replace(a=...)``, ``x._replace(a=...)``, ``dataclasses.replace(x, a=...)``: one with some
        attributes changed."""
        func = node.func
        changes: list[ast.keyword] = []
        updated: dict[str, Value] = {}
        if (canon in _COPIES and len(node.args) == 1 and not node.keywords) or (
            canon in _SAME_TREES and node.args
        ):
            original = self.quiet(node.args[0])
        elif canon in _UNPICKLES and len(node.args) == 1:
            pickled = node.args[0]
            dumped = _dotted(pickled.func) if isinstance(pickled, ast.Call) else None
            if not (
                isinstance(pickled, ast.Call)
                and dumped
                and self.mod.canonical(dumped) in _PICKLES
                and len(pickled.args) == 1
            ):
                return None  # a new object of a class not known here
            original = self.quiet(pickled.args[0])
        elif canon in NEW_LEAVES and len(node.args) > NEW_LEAVES[canon]:
            position = NEW_LEAVES[canon]
            original = self.quiet(node.args[position])
            picked = self.picked_nodes(node) if canon in NODE_PICKERS else {}
            if picked is None:
                return None  # which nodes change is not known
            updated = picked
            # The leaves change as the other arguments do (compared by value).
            others = (a for i, a in enumerate(node.args) if i != position)
            varies = [self.quiet(a) for a in (*others, *(k.value for k in node.keywords))]
            original = original.with_(vsrc=combine([original, *varies]).vsrc)
        elif canon in _REPLACES and len(node.args) == 1:
            original = self.quiet(node.args[0])
            changes = node.keywords
        elif (
            isinstance(func, ast.Attribute)
            and func.attr in ("replace", "_replace")
            and receiver is not None
            and objects_of(receiver)
            and not node.args
            and node.keywords
        ):
            original = receiver
            changes = node.keywords
        elif (
            isinstance(func, ast.Attribute)
            and func.attr in _FIELD_UPDATES
            and receiver is not None
            and objects_of(receiver)
        ):
            original = receiver
            given = [self.quiet(a) for a in (*node.args, *(k.value for k in node.keywords))]
            updated = {
                field: combine([read_field(original, field), *given])
                for field in _FIELD_UPDATES[func.attr]
            }
        else:
            return None
        objs = objects_of(original)
        if not objs and not original.fields:
            return None
        # A new object: no longer the parameter itself, but one with its attributes.
        made = original.with_(objs=objs, ref=None) if original.param else original
        for field, value in updated.items():
            made = with_field(made, field, value)
        for keyword in changes:
            if keyword.arg is None:
                return None  # **changes: which attributes change is not known
            changed = placed(self.quiet(keyword.value), self.loc(keyword.value))
            # Compared by value, the object changes as the attributes given to it do.
            made = with_field(made, keyword.arg, changed).with_(vsrc=made.vsrc | changed.vsrc)
        return made.with_(fresh=self.context_src())

    def picked_nodes(self, node: ast.Call) -> dict[str, Value] | None:
        """``eqx.tree_at(lambda m: m.w, model, new_w)`` (or ``lambda m: (m.a, m.b)`` with a tuple
        written out): the attributes it replaces and their new values; None where not known."""
        where = node.args[0]
        given = node.args[2:3] or [k.value for k in node.keywords if k.arg == "replace"]
        if not (isinstance(where, ast.Lambda) and len(where.args.args) == 1 and given):
            return None
        root = where.args.args[0].arg
        body, replacement = where.body, given[0]
        if not isinstance(body, ast.Tuple):
            picks, new = [body], given
        elif isinstance(replacement, ast.Tuple | ast.List):
            picks, new = body.elts, replacement.elts
        else:
            return None  # new values in a variable: which goes where is not read here
        if len(picks) != len(new):
            return None
        updated: dict[str, Value] = {}
        for pick, value in zip(picks, new, strict=True):
            if not (
                isinstance(pick, ast.Attribute)
                and isinstance(pick.value, ast.Name)
                and pick.value.id == root
            ):
                return None
            updated[pick.attr] = placed(self.quiet(value), self.loc(value))
        return updated

    def iterated(self, iterable: Value, loop: int, node: ast.AST) -> int | None:
        """``for batch in loader``: iterating an object runs its ``__iter__`` (most often a
        generator), once per run of the loop statement: a call the linker resolves like any method
        call, whose items are what it yields."""
        if not self.recording or not isinstance(node, ast.Name | ast.Attribute | ast.Call):
            return None
        objects: tuple[str, ...] = ()
        if iterable.ty == INSTANCE and iterable.ref and not iterable.ref.startswith("<"):
            callee: tuple[str, ...] = ("method", iterable.ref, "__iter__")
        elif isinstance(node, ast.Call):
            return None  # a call's result of no known class: the items it yields (``item_of``)
        elif iterable.ty in (UNKNOWN, INSTANCE) and objects_of(iterable):
            objects = self.object_refs(iterable)
            callee = ("recv", "__iter__", *objects)
        else:
            return None
        text = self.mod.pos.text(node)
        # `for batch in Loader(data):` iterates what the constructor makes: its __iter__ is told
        # at the class's name, a place of its own (calls are found by their place).
        at = self.loc(node.func if isinstance(node, ast.Call) else node)
        receiver = Arg(iterable, at, text)
        outside = tuple(i for i in self.loops if i != loop)
        site = CallSite(callee, f"{text}.__iter__", (), (), at, outside, receiver=receiver)
        self.fn.calls.append(site)
        index = len(self.fn.calls) - 1
        if objects:
            # Then each item is its __next__'s, an iterator's __iter__ returning the object itself
            # (a known class's is recorded where the loop binds its item: ``protocol_refs``).
            callee = ("recv", "__next__", *objects)
            at = self.loc(node)
            self.fn.calls.append(
                CallSite(
                    callee, f"{text}.__next__", (), (), at, (*outside, loop), receiver=receiver
                )
            )
        return index

    # -- what objects are, for the linker ---------------------------------------------------------------
    def object_refs(self, value: Value) -> tuple[str, ...]:
        """What an object may be, as the linker reads it (``summary`` documents the forms): the
        class of an instance made here, a parameter, an object made by a call of this function."""
        if not value.objs and value.ty != INSTANCE:
            param = value.param  # most often: a parameter passed on
            return (f"p:{param}",) if param is not None else _captured_parameter(value)
        refs = []
        if value.ty == INSTANCE and value.ref and not value.ref.startswith("<"):
            refs.append(f"c:{self.class_name(value.ref)}")
        for obj in objects_of(value):
            if isinstance(obj, str):
                refs.append(f"p:{obj}")
            elif obj.at.path == self.mod.summary.path:
                refs.append(_made_ref(obj))
        return tuple(sorted(refs))

    def method_value(self, node: ast.expr, value: Value) -> Value:
        """``value``, or, for ``op.step`` passed as an argument where ``op`` is an object whose class
        only linking finds (a parameter, what a call made), the method a call of it runs, bound to
        ``op``: named as a call ``op.step(...)`` names it."""
        if value.callables or not isinstance(node, ast.Attribute):
            return value
        if not isinstance(node.value, ast.Name | ast.Attribute) or _attribute_path(node) is None:
            return value
        receiver = self.quiet(node.value)
        if receiver.ref == "<self>" or receiver.ty == INSTANCE or receiver.site is not None:
            return value  # a method of self or of a known class has its refs already
        refs = self.object_refs(receiver)
        if not refs:
            return value
        return value.with_(callables=funcrefs.single(("recv", node.attr, *refs)))

    def class_name(self, written: str) -> str:
        """A class as written here, made absolute: a class of this module by its qualified name, an
        imported one through the import."""
        local = f"{self.mod.module}.{written}"
        return local if local in self.mod.summary.classes else self.mod.canonical(written)

    def objects_passed(
        self, node: ast.Call, args: list[Value], kwargs: dict[str | None, Value]
    ) -> tuple[tuple[int | str, tuple[str, ...]], ...]:
        out: list[tuple[int | str, tuple[str, ...]]] = []
        for i, (arg, value) in enumerate(zip(node.args, args, strict=True)):
            if isinstance(arg, ast.Starred):
                break
            if value.objs or value.ref:
                out.append((i, self.object_refs(value)))
        for key, value in kwargs.items():
            if key is not None and (value.objs or value.ref):
                out.append((key, self.object_refs(value)))
        return tuple((key, refs) for key, refs in out if refs)


def _captured_parameter(value: Value) -> tuple[str, ...]:
    """A closure's free variable that is a parameter of a function around it (``env`` in a callback
    that ``make_callback(env)`` returns: the funcref ("up", "param", "env")): the object the callers
    of that function pass, ``u:p:env``, one ``u:`` per function out."""
    if len(value.callables) != 1:
        return ()
    ((path, callee),) = value.callables
    ups = 0
    while ups < len(callee) and callee[ups] == "up":
        ups += 1
    if path or not ups or callee[ups:-1] != ("param",):
        return ()
    return ("u:" * ups + f"p:{callee[-1]}",)


def _made_ref(made: Made) -> str:
    at = made.at
    item = "" if made.item is None else str(made.item)
    return f"m:{at.line}:{at.col}:{at.end_line}:{at.end_col}:{item}:{made.path}"


def _attribute_path(node: ast.AST) -> tuple[str, ...] | None:
    """``a.b.c`` as ("a", "b", "c"); None unless it is a chain of names."""
    dotted = _dotted(node)
    return tuple(dotted.split(".")) if dotted is not None else None


def _new_per_call(value: Value, path: str) -> Value:
    """A value stored at ``path`` that reads the attribute's own old value: a new value per call of
    the function that stores it. Its old shape, kept (``.at[i].set(x)``, ``* 0.9``), adds nothing."""
    old = ParamSrc(path)

    def renamed(sources: frozenset[Src]) -> frozenset[Src]:
        if not any(_reads_old(s, old) for s in sources):
            return sources
        return frozenset(s for s in sources if not _reads_old(s, old)) | {CallSrc()}

    # The old value stays a dependency for what kind of number it is (``self.k += 1``), not for its
    # shape.
    deps = frozenset(
        shapeless(d) if isinstance(d, ParamDep) and d.name == path else d for d in value.deps
    )
    shape = frozenset(t.with_sources(renamed(t.sources)) for t in value.shape)
    return value.with_(vsrc=renamed(value.vsrc), fresh=renamed(value.fresh), shape=shape, deps=deps)


def _reads_old(src: Src, old: ParamSrc) -> bool:
    return src == old or (isinstance(src, ParamShapeSrc) and src.name == old.name)


# The expressions that can rebuild an attribute larger from itself (``_grows_itself``).
_GROWING = (ast.AugAssign, ast.BinOp, ast.Call)


def _grows_itself(dotted: str, source: ast.AST) -> bool:
    """``self.buf = jnp.concatenate([self.buf, x])``, ``self.xs = self.xs + [x]``."""
    if isinstance(source, ast.AugAssign) and isinstance(source.op, ast.Add):
        return isinstance(source.value, ast.List | ast.Tuple | ast.ListComp)
    if isinstance(source, ast.BinOp) and isinstance(source.op, ast.Add):
        sides = (_dotted(source.left), _dotted(source.right))
        other = source.right if sides[0] == dotted else source.left if sides[1] == dotted else None
        return isinstance(other, ast.List | ast.Tuple | ast.ListComp)
    if isinstance(source, ast.Call) and source.args:
        name = (_dotted(source.func) or "").rpartition(".")[2]
        first = source.args[0]
        parts = first.elts if isinstance(first, ast.List | ast.Tuple) else [first]
        return name in ("concatenate", "hstack", "vstack", "append") and any(
            _dotted(p) == dotted for p in parts
        )
    return False


def _growth_axis(source: ast.AST) -> int | None:
    """The axis along which ``source``, which rebuilds an attribute larger from itself
    (``_grows_itself``), grows it: the first for a list and for ``concatenate``, ``vstack`` or
    ``append`` along axis 0 (their default; ``append`` without one flattens); else not known."""
    if not isinstance(source, ast.Call):
        return 0
    name = (_dotted(source.func) or "").rpartition(".")[2]
    axis = next((k.value for k in source.keywords if k.arg == "axis"), None)
    if name == "concatenate" and axis is None and len(source.args) > 1:
        axis = source.args[1]
    along_first = axis is None or (isinstance(axis, ast.Constant) and axis.value == 0)
    return 0 if name in ("concatenate", "vstack", "append") and along_first else None


# -- class declarations ---------------------------------------------------------------------------------
_FIELD_CALLS = ("field", "static_field")


def declared_fields(node: ast.ClassDef) -> tuple[tuple[str, ...], dict[str, ast.AnnAssign]]:
    """The fields declared in a class body (``x: int``, ``y: float = field(...)``), in order, and
    the declarations of those marked static: ``pytree_node=False`` (flax), ``static=True``
    (equinox), ``metadata=dict(static=True)`` or ``jax.tree.static()`` (jax's register_dataclass)."""
    fields: list[str] = []
    static: dict[str, ast.AnnAssign] = {}
    for stmt in node.body:
        if not isinstance(stmt, ast.AnnAssign) or not isinstance(stmt.target, ast.Name):
            continue
        annotation = _dotted(stmt.annotation) or _dotted(getattr(stmt.annotation, "value", None))
        if annotation is not None and annotation.rpartition(".")[2] in ("ClassVar", "KW_ONLY"):
            continue
        fields.append(stmt.target.id)
        if isinstance(stmt.value, ast.Call) and _is_static_field(stmt.value):
            static[stmt.target.id] = stmt
    return tuple(fields), static


def field_defaults(node: ast.ClassDef, pos: _Positions) -> dict[str, Arg]:
    """The literal defaults of the fields declared in a class body (``n_accepted: int = 0``,
    ``field(default=0)``): what the generated ``__init__`` stores when a call leaves the field
    out."""
    out: dict[str, Arg] = {}
    for stmt in node.body:
        if not (isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)):
            continue
        default = _declared_default(stmt.value)
        if default is not None:
            out[stmt.target.id] = Arg(
                constant_value(default.value),
                pos.of(default),
                pos.text(default),
                _int(default.value),
            )
    return out


def _declared_default(value: ast.expr | None) -> ast.Constant | None:
    """The literal a field declaration defaults to: ``= 0`` or ``= field(default=0)``."""
    initial = _initial(value)
    return initial if isinstance(initial, ast.Constant) else None


def field_initials(node: ast.ClassDef) -> dict[str, ast.expr]:
    """Per field declared in a class body, the expression its first value is when a call leaves
    it out and it is no literal: ``= jnp.zeros(3)``, ``field(default=...)``, or the body of the
    ``default_factory=lambda: ...`` the generated ``__init__`` calls once per instance."""
    out: dict[str, ast.expr] = {}
    for stmt in node.body:
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            initial = _initial(stmt.value)
            if initial is not None and not isinstance(initial, ast.Constant):
                out[stmt.target.id] = initial
    return out


def _initial(value: ast.expr | None) -> ast.expr | None:
    """What a field's declaration gives its first value: ``= ...``, ``field(default=...)`` or the
    body of ``field(default_factory=lambda: ...)``."""
    if not (
        isinstance(value, ast.Call)
        and (_dotted(value.func) or "").rpartition(".")[2] in _FIELD_CALLS
    ):
        return value
    given = {k.arg: k.value for k in value.keywords}
    factory = given.get("default_factory")
    if isinstance(factory, ast.Lambda) and not factory.args.args:
        return factory.body
    if isinstance(factory, ast.Name) and factory.id in _EMPTY_CONTAINERS:
        # ``default_factory=dict``: a new empty one per instance, as ``lambda: {}`` makes.
        return ast.copy_location(_EMPTY_CONTAINERS[factory.id](), factory)
    return given.get("default")


# Builtin container types a field's ``default_factory`` names, and the empty display each call of
# one is like.
_EMPTY_CONTAINERS: dict[str, Callable[[], ast.expr]] = {
    "dict": lambda: ast.Dict(keys=[], values=[]),
    "list": lambda: ast.List(elts=[], ctx=ast.Load()),
}


def _int(value: object) -> int | None:
    return value if type(value) is int else None


# Calls that declare a static field by themselves: flax's ``struct.static_field()``, and jax's own
# ``jax.tree.static()`` for ``register_dataclass`` (as ``field(metadata=dict(static=True))``).
_STATIC_FIELD_CALLS = ("static_field", "tree.static")


def _is_static_field(call: ast.Call) -> bool:
    dotted = _dotted(call.func) or ""
    name = dotted.rpartition(".")[2]
    if any(dotted == c or dotted.endswith(f".{c}") for c in _STATIC_FIELD_CALLS):
        return True
    if name not in _FIELD_CALLS:
        return False
    for keyword in call.keywords:
        value = keyword.value
        if keyword.arg == "pytree_node" and isinstance(value, ast.Constant):
            return value.value is False
        if keyword.arg == "static" and isinstance(value, ast.Constant):
            return value.value is True
        if keyword.arg == "metadata":
            return any(
                _is_static_key(k) and isinstance(v, ast.Constant) and v.value is True
                for k, v in _items(value)
            )
    return False


def _items(node: ast.AST) -> Iterator[tuple[ast.AST | str | None, ast.AST]]:
    """The key/value pairs of a dict display or a ``dict(...)`` call."""
    if isinstance(node, ast.Dict):
        yield from zip(node.keys, node.values, strict=True)
    elif isinstance(node, ast.Call) and _dotted(node.func) == "dict":
        for keyword in node.keywords:
            yield keyword.arg, keyword.value


def _is_static_key(key: ast.AST | str | None) -> bool:
    if isinstance(key, ast.Constant):
        key = key.value
    return key == "static"


def flattened_static(flatten: ast.FunctionDef | ast.Lambda) -> tuple[str, ...]:
    """The attributes of its argument that a ``tree_flatten`` function puts in the aux data (the
    second item of what it returns): they are part of the treedef."""
    return tuple(flattened_static_reads(flatten))


def flattened_static_reads(
    flatten: ast.FunctionDef | ast.Lambda, displays: Mapping[str, ast.expr] | None = None
) -> dict[str, ast.expr]:
    """Each attribute ``flattened_static`` names, with where the aux data reads it: ``obj.attr``,
    or ``getattr(obj, name)`` for each name of a literal list a comprehension walks (written
    there, or one of the module's ``displays``: ``for name in _STATIC_FIELDS``)."""
    args = flatten.args.posonlyargs + flatten.args.args
    if not args:
        return {}
    obj = args[0].arg
    if isinstance(flatten, ast.Lambda):
        returned = [flatten.body]
        assigned: dict[str, ast.AST] = {}
    else:
        returned = [n.value for n in _own_returns(flatten.body) if n.value is not None]
        assigned = {
            t.id: n.value
            for n in ast.walk(flatten)
            if isinstance(n, ast.Assign)
            for t in n.targets
            if isinstance(t, ast.Name)
        }
    # The aux data made by a closure (``aux = _make_aux()``) is what the closure returns.
    closures = closures_of(flatten.body) if isinstance(flatten, ast.FunctionDef) else {}
    out: dict[str, ast.expr] = {}
    for value in returned:
        if not isinstance(value, ast.Tuple) or len(value.elts) != 2:
            continue
        aux = value.elts[1]
        aux = assigned.get(aux.id, aux) if isinstance(aux, ast.Name) else aux
        aux = closure_read(aux, closures)
        for sub in ast.walk(aux):
            if (
                isinstance(sub, ast.Attribute)
                and isinstance(sub.value, ast.Name)
                and sub.value.id == obj
                and sub.attr not in out
            ):
                out[sub.attr] = sub
            elif isinstance(sub, ast.GeneratorExp | ast.ListComp):
                for name in _got_by_name(sub, obj, displays or {}):
                    out.setdefault(name, sub.elt)
    return out


def _got_by_name(
    comp: ast.GeneratorExp | ast.ListComp, obj: str, displays: Mapping[str, ast.expr]
) -> tuple[str, ...]:
    """The attributes ``(getattr(obj, name) for name in NAMES)`` reads: the strings of ``NAMES``,
    a literal list written there or a module's display; none for any other comprehension."""
    elt = comp.elt
    if (
        len(comp.generators) != 1
        or not isinstance(elt, ast.Call)
        or not (isinstance(elt.func, ast.Name) and elt.func.id == "getattr")
        or len(elt.args) != 2
        or not (isinstance(elt.args[0], ast.Name) and elt.args[0].id == obj)
    ):
        return ()
    (walk,) = comp.generators
    name = elt.args[1]
    if not (
        isinstance(walk.target, ast.Name)
        and isinstance(name, ast.Name)
        and name.id == walk.target.id
        and not walk.ifs
    ):
        return ()
    listed = displays.get(walk.iter.id) if isinstance(walk.iter, ast.Name) else walk.iter
    if not isinstance(listed, ast.List | ast.Tuple | ast.Set):
        return ()
    return _literal_strs(listed) or ()


def registered_static(node: ast.Call, kind: str, flatten: ast.AST | None) -> tuple[str, ...]:
    """The static fields a registration call gives its class: ``register_dataclass(C, data, meta)``
    names them; ``register_pytree_node(C, flatten, unflatten)`` puts what ``flatten`` (its def or
    lambda) returns second in the treedef."""
    if kind == "register_dataclass":
        given = next((k.value for k in node.keywords if k.arg == "meta_fields"), None)
        if given is None and len(node.args) > 2:
            given = node.args[2]
        return (_literal_strs(given) or ()) if given is not None else ()
    if isinstance(flatten, ast.Lambda | ast.FunctionDef):
        return flattened_static(flatten)
    return ()


def compared_fields(node: ast.ClassDef) -> tuple[str, ...] | None:
    """The attributes a class's own ``__eq__`` and ``__hash__`` read, through the properties and
    methods of the class they use: instances equal there are one cache key of a static argument,
    whatever else they hold (a molecule hashed by its atoms, not its coordinates). None unless it
    defines both and they use the objects only attribute by attribute (``isinstance(other, C)`` and
    ``type(other)`` aside): ``vars(self)`` or ``astuple(self)`` may read anything."""
    methods = {
        s.name: s for s in node.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
    }
    if "__eq__" not in methods or "__hash__" not in methods:
        return None
    read: set[str] = set()
    todo, seen = ["__eq__", "__hash__"], set()
    while todo:
        method = methods[todo.pop()]
        if method.name in seen:
            continue
        seen.add(method.name)
        params = [a.arg for a in method.args.posonlyargs + method.args.args]
        objects = set(params[: 2 if method.name == "__eq__" else 1])
        if not objects:
            return None
        # The Name nodes used as the objects they are, attribute by attribute.
        allowed: set[int] = set()
        for sub in ast.walk(method):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name):
                if sub.value.id not in objects:
                    continue
                if sub.attr.startswith("__"):
                    return None  # self.__dict__, self.__class__: not one field
                allowed.add(id(sub.value))
                if sub.attr in methods:
                    todo.append(sub.attr)
                else:
                    read.add(sub.attr)
            elif isinstance(sub, ast.Call) and _dotted(sub.func) in ("isinstance", "type"):
                allowed.update(id(a) for a in sub.args if isinstance(a, ast.Name))
        if any(
            isinstance(sub, ast.Name) and sub.id in objects and id(sub) not in allowed
            for sub in ast.walk(method)
        ):
            return None
    return tuple(sorted(read))


def hashed_by_identity(node: ast.ClassDef, inherits: bool) -> bool | None:
    """Whether the ``__eq__`` a class defines still compares its instances by identity (``self is
    other``, ``id(self) == id(other)``, ``object.__eq__(self, other)``): a new instance then never
    finds the cache entry of an equal one, whatever its ``__hash__`` says. jax 0.10.2 finds a static
    argument by ``==``: an instance hashed by ``id(self)`` but compared by its fields traces once
    (tests/fixtures/value_hashed_holders). None when it leaves equality to its bases
    (``super().__eq__(other)`` where it ``inherits`` from a class of the project or a library);
    ``super()`` of a class without bases is ``object``'s, which compares identities."""
    eq = next(
        (
            s
            for s in node.body
            if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef) and s.name == "__eq__"
        ),
        None,
    )
    return False if eq is None else _by_identity(eq, inherits)


def _by_identity(method: ast.FunctionDef | ast.AsyncFunctionDef, inherits: bool) -> bool | None:
    """Whether every value ``method`` returns compares its object's identity to the other's;
    constants such as ``NotImplemented`` and ``False`` do not count. None when one of them defers
    to the bases."""
    params = [a.arg for a in method.args.posonlyargs + method.args.args]
    if not params:
        return False
    verdicts = [
        _identity_of(r.value, params, inherits)
        for r in _own_returns(method.body)
        if r.value is not None and not _constant(r.value)
    ]
    if not verdicts or False in verdicts:
        return False
    return None if None in verdicts else True


def _own_returns(body: list[ast.stmt]) -> Iterator[ast.Return]:
    """The returns of a function body, not of the functions and classes it defines."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Return):
            yield node
        elif not isinstance(
            node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda
        ):
            stack.extend(ast.iter_child_nodes(node))


def _identity_of(node: ast.AST, params: list[str], inherits: bool) -> bool | None:
    """Whether ``node`` compares the identity of ``params[0]`` to ``params[1]``'s: ``self is
    other``, ``id(self) == id(other)``, ``object.__eq__(self, other)``, ``isinstance(other, C) and
    self is other``."""
    if len(params) < 2:
        return False
    own = sorted(params[:2])
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        pair = [node.left, node.comparators[0]]
        if isinstance(node.ops[0], ast.Is):
            return sorted(str(_name(n)) for n in pair) == own
        if isinstance(node.ops[0], ast.Eq):
            return sorted(str(_id_of(n)) for n in pair) == own
        return False
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        # Equal only when identical, whatever else is asked.
        return any(_identity_of(v, params, inherits) for v in node.values)
    if not isinstance(node, ast.Call):
        return False
    if _dotted(node.func) == "object.__eq__":
        return [_name(a) for a in node.args] == params[:2]
    if (
        isinstance(node.func, ast.Attribute)
        and node.func.attr == "__eq__"
        and isinstance(node.func.value, ast.Call)
        and _dotted(node.func.value.func) == "super"
    ):
        return None if inherits else True
    return False


def _id_of(node: ast.AST) -> str | None:
    """The name in ``id(name)``."""
    if (
        isinstance(node, ast.Call)
        and _dotted(node.func) == "id"
        and len(node.args) == 1
        and not node.keywords
    ):
        return _name(node.args[0])
    return None


def _constant(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) or _name(node) == "NotImplemented"


def _name(node: ast.AST) -> str | None:
    return node.id if isinstance(node, ast.Name) else None
