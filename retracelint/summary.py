"""Per-module summaries: the plain, picklable facts the summariser extracts from one file.

Everything the later stages need is here, so a summary can be cached by file content and the source never
parsed again: imports, definitions with their parameters, jit sites, and every call site with the abstract
value of each argument and the loops around it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from retracelint.funcrefs import Callee, FuncRef, Path
from retracelint.jitspec import Wrapper
from retracelint.model import Location
from retracelint.values import Value

# How a call site names its callee, resolved against the module's scope at link time.
#   ("name", "a.b.c")        a global, import or dotted attribute chain
#   ("method", "Cls", "m")   method m called on an instance of class Cls (a name in module scope)
#   ("self", "", "m")        self.m(...) / cls.m(...) inside a method
#   ("super", "", "m")       super().m(...) inside a method: m of the classes after this one
#   ("jit", "", "<index>")   a jit object created at jit site <index> of this module
#   ("param", "name")        a call of parameter `name`: what the callers pass for it
#   ("recv", "m", *objs)     method m of an object whose class is found at link time: each of
#                            ``objs`` is what the object may be (``object_ref``): a parameter (its
#                            callers say), an object made by a call of this function (the callee
#                            says), an instance of a class, a parameter of a function around this
#                            one (``u:p:name``, one ``u:`` per function out)
#   ("new", *objs)           a new instance of the class of an object (``type(x)(...)``,
#                            ``x.__class__(...)``), ``objs`` as for "recv"
# and the callees of functions as values (``funcrefs``): a call's result, an enclosing function's
# local, a decorated def, a partial.


@dataclass(frozen=True)
class Points:
    """The points of a sweep the source spells out (``summarise.points``): how many, and whether
    each gives a size of its own (an int literal that differs between points, ``[64, 128]``)."""

    count: int
    sizes: bool
    # Every point is a number literal: data that a jit built once would take as a traced argument.
    numbers: bool = False


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # "posonly", "normal", "vararg", "kwonly", "kwarg"
    has_default: bool = False
    annotation: str | None = None  # coarse type of a scalar annotation ("int", "float", ...)
    default: str | None = None  # coarse type of a number written as the default ("float", ...)
    # An int written as the default: the size a call that leaves the parameter out passes (Chunking).
    size: int | None = None
    # Annotated as a collection held in memory (``Sequence[int]``, ``list``, ``Mapping``), not as a
    # stream (``Iterable``, ``Iterator``): a loop over it walks the same items each time.
    held: bool = False
    # A class named as its annotation (``state: rpa.SamplingState``), as written: what it is an
    # instance of where its callers do not tell (``Project.classes_of``).
    declared: str | None = None
    # The points its default spells out (``cell_nums=[40, 80, 160]``), for a loop over it.
    points: Points | None = None
    # Whether the body reads it: one it never names (``iteration=None`` kept for a caller's sake)
    # makes nothing of what the function returns, whatever a call passes for it.
    read: bool = True
    # The dtype its default names (``dtype=jnp.float32``, ``dtype=float``): what an array made with
    # it is of when a call leaves it out.
    dtype: str | None = None


@dataclass(frozen=True)
class Arg:
    value: Value
    location: Location
    text: str
    # What the walk knew of it as a constant (for ``Chunking``): an int's value, the module constant
    # it reads, imported (its qualified name: read once the project is linked), or the lengths of
    # an array's (a list's) axes, None where one is not known.
    known: int | str | tuple[int | None, ...] | None = None
    # The points it spells out, a collection passed for a parameter a loop walks (``Points``).
    points: Points | None = None


@dataclass(frozen=True)
class TraceContext:
    """A ``with`` of a context manager that is part of jit's trace cache key, around a call."""

    name: str  # canonical: "jax.default_matmul_precision"
    setting: str  # its argument as written, literals normalised ("'float32'"), or the bare setting
    location: Location  # the context manager's call
    text: str  # as written: "jax.default_matmul_precision('float32')"
    varies: frozenset = frozenset()  # what makes the setting change between executions


@dataclass(frozen=True)
class Arm:
    """One arm of an ``if`` around a call: ``test``, the key of the test (its text where its value
    is fixed for one call of the function, ``Arm.fixed``; else where the ``if`` is, an ``if`` no loop
    of the function repeats), and whether the call runs where it is true. Two calls on opposite arms
    of one key never both run in one call of their function (issue 36, paths)."""

    test: str
    taken: bool

    def excludes(self, other: Arm) -> bool:
        return self.test == other.test and self.taken != other.taken

    @property
    def fixed(self) -> bool:
        """Whether the test keeps its value through a call of the function: keyed by its text, not
        by the place (``line:col``) of an ``if`` that runs once."""
        line, _, col = self.test.partition(":")
        return not (line.isdigit() and col.isdigit())


def exclusive(a: CallSite, b: CallSite) -> bool:
    """Whether calls ``a`` and ``b`` of one function sit on opposite arms of one test."""
    return any(x.excludes(y) for x in a.arms for y in b.arms)


@dataclass(frozen=True)
class CarryStart:
    """The call of a lax carry loop's body that the loop is recorded as (``apis.CarryLoop``): jax
    gives back the initial carry's treedef, so the static parts (aux data, non-pytree fields) of
    the carry the loop returns are those of argument ``arg`` of the call, as it went in. ``item``:
    the item of the body's result that is the carry (None: the whole result)."""

    arg: int
    item: int | None

    def path(self, item: int | None, below: tuple[int, ...]) -> tuple[int, ...] | None:
        """The items to take, outermost first, from the initial carry for item ``item`` of the
        loop's result unpacked further by ``below`` (``RetDep``); None when that is no part of
        the carry (the ``ys`` a scan stacks)."""
        if self.item is None:
            return below if item is None else (item, *below)
        return below if item == self.item else None


@dataclass(frozen=True)
class CallSite:
    callee: Callee
    text: str  # the callee as written, e.g. "self.step" or "run_epoch"
    args: tuple[Arg, ...]
    kwargs: tuple[tuple[str, Arg], ...]
    location: Location
    loops: tuple[int, ...]  # indices of the enclosing loops of the function, outermost first
    star: bool = False  # *args or **kwargs: argument positions after it are unknown
    receiver: Arg | None = None  # obj in obj.method(...): the argument bound to self
    # A last positional ``*args`` (no ``**kwargs``): its items are the arguments after the others
    # (``spread_item``).
    spread: Arg | None = None
    # Arguments that are or hold a function, by position or keyword, and where inside the argument
    # (kept in heads: linking reads them).
    functions: tuple[tuple[int | str, Path, Callee], ...] = ()
    # Further callees when the called value may be one of several functions.
    alternatives: tuple[Callee, ...] = ()
    # Arguments that are objects, by position or keyword: what each may be (``object_ref``), so that
    # linking can tell the class of the parameter that receives it (kept in heads).
    objects: tuple[tuple[int | str, tuple[str, ...]], ...] = ()
    # The trace-context managers around the call in its function (kept in heads: the rule follows
    # them down the call graph).
    contexts: tuple[TraceContext, ...] = ()
    # An attribute (``self.state``) that an ``if self.state is None:`` around the call tests: the call
    # runs only until it is set, once per object when the callee sets it (lazy initialisation).
    unless_set: str = ""
    # A name (``fn``) that an ``if fn is not self._fn: ...; self._fn = fn`` around the call keys on:
    # the call runs again only when ``fn`` is another than last time (a cache of one entry).
    unless_same: str = ""
    # The name (``t``) of an ``if t != new_t: t = new_t; ...`` around the call, where the call
    # reads what the block makes from the value (``syntax.changed_value``): it runs again only
    # when the value changed, each time with another.
    on_change: str = ""
    # The arms of the ``if``s around the call whose test keeps one value through a call of the
    # function (``summarise/branches.arm_key``), outermost first.
    arms: tuple[Arm, ...] = ()
    # A lax carry loop's body call: where the carry the loop returns keeps its static parts from.
    carry: CarryStart | None = None


@dataclass(frozen=True)
class Carried:
    """``x = f(..., x, ...)`` (or ``a, x = f(...)``) in a loop, where ``x`` was made before the loop
    (``start``): when ``f`` is jitted, its first call gets ``start`` and the next ones what it
    returned (item ``item`` of it), which may be another pytree, or hold other kinds of leaves."""

    name: str
    start: Arg
    call: int  # index in the function's calls
    item: int | None
    # The loop that rebinds it; None for an attribute of ``self`` that a method rebinds from what
    # it held (``self.total = accumulate(self.total, g)``): it starts as the class's other stores.
    loop: int | None
    # ``f`` is the body of a lax loop (``x = lax.fori_loop(0, n, f, x)``): what the loop gives back
    # is what ``f`` returns, which only linking tells, so no summary flip tells its weak type.
    lax: bool = False
    # Another call of the loop rebinds it before this one (``state = step(state, dt)``, then
    # ``state = unravel(flat)``): the calls before this one get the start first and this one's
    # result next; its own first call gets the earlier call's result, not the start.
    later: bool = False


@dataclass(frozen=True)
class LoopInfo:
    index: int
    location: Location
    text: str  # "for i in range(0, n, bs)"
    over_axes: bool = False  # iterates the axes of an array: a small set of values that repeats
    # Iterations, when the source shows them: `for s in (32, 48)`, `range(3)`.
    count: int | None = None
    # It walks a collection held in memory (a dict's items, a list or tuple, enumerate/zip/sorted of
    # one, range(len(one))): walked again, it gives the same items, so what varies with them takes
    # one value per item over the whole run; a range over a count, a while loop or an iterator (a
    # loader, a generator) may run on with new values as long as the program does.
    over_items: bool = False
    # The attribute of the method's own object it walks (``for t in self.trainers``: "trainers"):
    # a collection the object holds, if what its class stores there is one (told once linked).
    walks: str = ""
    # The calls whose results it walks (``for m in list_models()``, ``models = fnmatch.filter(models,
    # p)`` before): a list a function builds by walking collections held in memory is held too,
    # which only the linked project can tell (``Propagation.walks_held``).
    walks_calls: tuple[int, ...] = ()
    # A while loop or a range over a count (``range(epochs)``, ``tqdm.trange(n)``): it runs as
    # long as the program says, the steps or epochs of a run, where a walk over items may be a
    # few generators or layers.
    runs_on: bool = False
    # The points its items are, when the source spells them out (a display, a name bound once to
    # one, ``zip`` of those): what ``Frequency.sweep`` reads, with whether each gives a size.
    points: Points | None = None
    # The name it walks the items of, through calls that keep their count (``enumerate(tasks)``:
    # "tasks"), read from its head once: a parameter's callers give the points of a loop over it.
    walked: str | None = None
    # Its items are fixed by the source, each another, however many (``points.distinct_items``: a
    # range, a display, a comprehension or concatenation of those): the stages of a curriculum,
    # the sizes of a benchmark, never a loader's batches.
    distinct: bool = False
    # The name whose items a ``range(len(xs))`` or ``range(k, len(xs))`` numbers, with ``k``: a
    # parameter's callers give how many turns it takes (``Frequency.turns``).
    numbers: tuple[str, int] | None = None

    @property
    def repeats(self) -> bool:
        """Whether the body may run more than once (``for t in [0.5]`` runs it once)."""
        return self.count is None or self.count > 1


@dataclass(frozen=True)
class JitSpec:
    """A place where a function becomes jitted, and how."""

    index: int
    wrapper: str  # canonical name of the wrapper, "jax.jit"
    location: Location
    target: Callee | None  # the wrapped function, when it is a reference we can resolve
    target_text: str
    fresh: str | None  # "lambda", "partial", "nested def", ... when a new function object each time
    # When that object is made anew: per iteration, per call of the enclosing function.
    fresh_sources: frozenset = frozenset()
    decorated: bool = False  # @jax.jit on a def (else a jax.jit(...) call)
    static_argnums: tuple[int, ...] = ()
    static_argnames: tuple[str, ...] = ()
    static_unknown: bool = False  # static_argnums/static_argnames given but not as literals
    # Only one of the two given (None counts as not given): jax fills in the other from the signature.
    static_inferred: bool = False
    nonarray_static: bool = False  # equinox.filter_jit: every non-array argument is static
    function: str = ""  # qualified name of the function in which the jit site is evaluated
    loops: tuple[int, ...] = ()  # loops around the jit(...) call in that function
    # The call of ``function`` that returns the wrapped function (``jax.jit(make_loss(w))``): it is
    # new per call of the maker when the maker makes it (a def or lambda inside it, not memoised).
    maker_call: int | None = None
    # A lax primitive called with a function (``lax.fori_loop(0, n, body, x)``): it traces that
    # function when it is called, not when the result is called.
    traces_on_call: bool = False
    # ... and where that lax call is: the functions handed to one call (a cond's branches) are one
    # cause of its re-traces.
    handed_to: Location | None = None
    # ... and whether what it is handed reads a name of the function it is made in (a parameter or
    # a local): defined once elsewhere, it would need those passed, so the fix is to jit the caller.
    closes_over: bool = False
    # `jax.jit(obj.method)` of an object whose class linking finds: a new bound method each time
    # only if ``target`` turns out to be a method of an instance (a parameter may hold a module).
    fresh_if_bound: bool = False
    # ... of an object held in an attribute of ``self`` (``jax.jit(self.policy.apply)``): no module,
    # so a bound method unless linking finds the function it stores there.
    on_self: bool = False
    # The name an ``if fn is not self._fn: ...; self._fn = fn`` around the build keys on (as
    # ``CallSite.unless_same``): it is built again only when ``fn`` is another than last time.
    unless_same: str = ""
    # ... and the name of an ``if t != new_t: t = new_t`` around it whose value it reads
    # (``CallSite.on_change``): built again only for another value.
    on_change: str = ""
    # The sources of what defines the computation built (``Calls.configured_by``): the function
    # wrapped, a transform's ``in_axes``; a new value of one is a new program, not a new input.
    configured_by: frozenset = frozenset()
    # The parameters a decorated def reads as a length of what it traces (``perm[:num]``,
    # ``size=n``, ``jnp.zeros(n)``: ``closures.lengths_read``): static, each value another output
    # shape, which a traced argument could not give.
    lengths: tuple[str, ...] = ()


@dataclass(frozen=True)
class Steady:
    """``calls``: the calls that are a statement of their own (``buf.push(x)``, ``y = f(x)``) in
    the function's body or in the body of a loop with no ``break``, ``continue``, ``return`` or
    ``raise`` in it, nested in such loops; ``loops``: those of them that walk ``range(...)`` of a
    count no enclosing loop rebinds (``range(self.n_steps)``): each runs its body to the end the
    same number of times."""

    calls: frozenset[Location] = frozenset()
    loops: frozenset[Location] = frozenset()


@dataclass
class FunctionSummary:
    qualname: str
    name: str
    location: Location
    params: tuple[Param, ...]
    cls: str | None = None  # qualified name of the class, for methods
    kind: str = "function"  # "function", "method", "staticmethod", "classmethod", "module"
    jit: int | None = None  # index of the jit site when the def is decorated with a jit wrapper
    parent: str | None = None  # qualified name of the enclosing function, for nested defs
    calls: list[CallSite] = field(default_factory=list)
    loops: list[LoopInfo] = field(default_factory=list)
    returns: Value | None = None
    yields: Value | None = None
    # Functions this one hands to a transform or lax primitive (``lax.scan(body, ...)``): they run
    # only while that traces.
    traces: list[Callee] = field(default_factory=list)
    # Where it drops jax's caches (``jax.clear_caches()``), each with its enclosing loops (kept in
    # heads: the rule reads every function's).
    clears: tuple[tuple[Location, tuple[int, ...]], ...] = ()
    memoised: bool = False  # @functools.cache / lru_cache: runs once per distinct arguments
    # Its calls that run once each time their block runs, and its loops of a fixed count that run
    # to the end (``summarise.steady``): a buffer filled by them has one length at every read.
    steady: Steady = field(default_factory=Steady)
    # The functions it returns or yields (yields under ``funcrefs.ITER``), kept in heads: linking
    # follows a call's result through them.
    returned_refs: tuple[FuncRef, ...] = ()
    # Where it returns which of them, by return statement (its value's location), when its returns
    # hand back different ones (``if jit: return jax.jit(f)`` then ``return f``): which is taken may
    # depend on what a caller passes (``evidence``).
    returned_at: tuple[tuple[Location, tuple[FuncRef, ...]], ...] = ()
    # Parameters whose default is or holds a function: (parameter, path, callee in the enclosing
    # scope, as ``funcrefs.rescoped`` names it).
    defaults: tuple[tuple[str, Path, Callee], ...] = ()
    # What the object it returns may be (``object_ref``), for linking (kept in heads).
    returned: tuple[str, ...] = ()
    # The same for each item of a tuple it returns (``model, state = build(...)``).
    returned_items: tuple[tuple[str, ...], ...] = ()
    # Attributes it sets, by path from a parameter (``self.total``, ``self.cfg.lr``): every value it
    # stores there, each where it is stored, in terms of its parameters; the value written reads the
    # attribute's old value as a new value per call (``self.seen += 1``).
    writes: dict[str, tuple[Arg, ...]] = field(default_factory=dict)
    carried: list[Carried] = field(default_factory=list)
    # Its parameters that set what a function it makes and returns is (``Calls.closure_settings``
    # of it: a length or mode it reads, the sizes of what it closes over, ``leggauss(order)``): a
    # new value of one makes another program.
    configures: tuple[str, ...] = ()
    # The attribute names its body reads off an object as a value, not calling it (``jax.vmap(
    # self.energy)``, ``f = env.step``; "*" for ``getattr`` of a name not known): with its calls,
    # where an attribute may be used (``ModuleSummary.read`` is the module's union, calls too).
    reads: set[str] = field(default_factory=set)

    def param(self, name: str) -> Param | None:
        """Its parameter ``name``, if it has one."""
        return next((p for p in self.params if p.name == name), None)

    @property
    def bound_per_read(self) -> bool:
        """Whether each read of it off an instance or class is a new object: a method or a
        classmethod is bound anew at each read (``obj.step is obj.step`` is False), so a jit of it
        built per call starts with an empty cache; a staticmethod is the plain function each time,
        whose jit caches jax shares (keyed by the function)."""
        return self.kind in ("method", "classmethod")


@dataclass
class ClassSummary:
    qualname: str
    name: str
    location: Location
    bases: tuple[str, ...]
    methods: dict[str, str] = field(default_factory=dict)  # name -> function qualname
    jit_attrs: dict[str, int] = field(default_factory=dict)  # self.X = jax.jit(...) -> jit site
    value_hashed: bool = False  # frozen dataclass, NamedTuple, or defines __hash__ and __eq__
    # Compares its instances by value: an ``__eq__`` of its own not by identity, or the one a
    # dataclass or NamedTuple generates (hashable or not: that is ``unhashable``).
    value_equal: bool = False
    # Defines __hash__ or __eq__ by identity (``id(self)``, ``self is other``): whatever its bases
    # say, a new instance is a new cache key.
    identity_hashed: bool = False
    # The attributes its own __eq__ and __hash__ read (``objects.compared_fields``), when it defines
    # both and they read the objects attribute by attribute: instances equal on them are equal.
    compared: tuple[str, ...] | None = None
    # Fields declared in the class body of a dataclass, a NamedTuple, a flax struct or an equinox
    # module, in order: the parameters of the __init__ they generate.
    fields: tuple[str, ...] = ()
    field_defaults: dict[str, Arg] = field(default_factory=dict)  # literal defaults of those fields
    # Attributes that a pytree of this class keeps in its treedef, not as leaves (tree_flatten's aux
    # data, static dataclass fields): a jitted function that takes the object traces per value.
    static_fields: tuple[str, ...] = ()
    # Where each of those its class body declares is made static: its field, or the aux data of
    # tree_flatten that reads it.
    static_at: dict[str, Location] = field(default_factory=dict)
    # What its methods store in ``self.attr``, for linking: per attribute, each store's method and
    # what the stored object may be (``object_ref``; none when it is no known object).
    field_objects: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = field(default_factory=dict)
    # The functions its methods store in ``self.attr`` (``self.act = self.relu``, ``self.fn = fn``),
    # for linking ``self.attr(...)``: per attribute, each store's method and the stored value's
    # functions (``funcrefs``, named in that method).
    field_functions: dict[str, tuple[tuple[str, tuple[FuncRef, ...]], ...]] = field(
        default_factory=dict
    )
    # Why its instances cannot be hashed ("" when they can): a non-frozen dataclass (eq=True sets
    # __hash__ = None), ``__hash__ = None``, or ``__eq__`` defined without ``__hash__``.
    unhashable: str = ""


@dataclass
class ModuleSummary:
    path: str
    module: str
    is_package: bool
    imports: dict[str, str] = field(default_factory=dict)  # local name -> qualified target
    # The modules of its ``from m import *`` (in order; a later one binds over an earlier one), and
    # the names it exports to one (``__all__`` as a literal; None: its public names).
    star_imports: tuple[str, ...] = ()
    exports: tuple[str, ...] | None = None
    functions: dict[str, FunctionSummary] = field(default_factory=dict)
    classes: dict[str, ClassSummary] = field(default_factory=dict)
    jits: list[JitSpec] = field(default_factory=list)
    globals: dict[str, Value] = field(default_factory=dict)  # module-level names bound to values
    # Module-level names bound once, to an int (``BATCH = 32``): sizes the callers' chunks read.
    constants: dict[str, int] = field(default_factory=dict)
    # Module-level names bound once to a collection that spells out its points and that no code
    # resizes (``TASKS = ((4, 1), (8, 1))``): a module importing one passes those points.
    points: dict[str, Points] = field(default_factory=dict)
    # Classes registered as pytrees by a call (``register_pytree_node(Cls, flatten, ...)``,
    # ``register_dataclass(Cls, ..., meta_fields=[...])``): the class as written -> static fields.
    pytree_static: dict[str, tuple[str, ...]] = field(default_factory=dict)
    error: str | None = None  # why the file could not be analysed
    error_line: int = 1  # where, when the parser says
    error_col: int = 1
    lines: int = 0
    x64: bool = (
        False  # the module turns on jax's 64-bit types (jax_enable_x64): for the whole process
    )
    # The trace-context options its top level sets (``jax.config.update("jax_default_matmul_precision",
    # "highest")``), each with the setting as ``TraceContext.setting`` writes it: for the whole process.
    settings: dict[str, str] = field(default_factory=dict)
    # The attribute names its code may set on an object: stores (``obj.n = ...``; ``Cls.n`` for
    # ``self.n = ...`` in a method of class ``Cls``), ``setattr`` and the keywords of
    # ``replace``/``_replace``; "*" when a name is not known (``setattr(o, k, v)``,
    # ``replace(o, **changes)``). A field no module sets keeps what its constructor calls give it.
    assigned: set[str] = field(default_factory=set)
    # The attribute names its code reads off an object or calls on one, whatever the object
    # (``flux=runtime.flux``, ``rt.project(q)``, ``getattr(o, "name")``; "*" for ``getattr`` of a
    # name not known): an attribute no module reads is never used through its object.
    read: set[str] = field(default_factory=set)
    # Module-level names bound to a jit wrapper or a partial of one (``summarise.module``), which
    # the modules importing them use as that wrapper (``aliases``).
    wrapper_aliases: tuple[tuple[str, Wrapper], ...] = ()
    # Read as a head (see ``HEAD_LEFT_OUT``): how it was loaded, not a fact of the code (nor of the
    # rules' reads, ``readlog.told``).
    head: bool = field(default=False, compare=False, metadata={"loading": True})

    @property
    def toplevel(self) -> str:
        return f"{self.module}.<module>"


class _Unloaded(tuple):  # type: ignore[type-arg]
    """Stands, in a head summary, for what was left out: reading it is a bug, so it fails loudly
    instead of looking like a call without arguments."""

    def _fail(self, *args: object) -> None:
        raise RuntimeError("retracelint: read a call's arguments from a head summary")

    __iter__ = __len__ = __getitem__ = __getattr__ = _fail  # type: ignore[assignment]

    def __reduce__(self) -> tuple[object, tuple[()]]:
        return (_unloaded, ())


def _unloaded() -> _Unloaded:
    return UNLOADED


UNLOADED = _Unloaded()


# A summary's head is the summary without what only the propagation reads: the arguments of each call
# and what each function returns, yields or writes (most of a summary's objects). Linking needs the
# rest, of every module; the propagation needs the whole of the few functions on a call path to a
# jit site, and ``callgraph.Project.function`` loads those when asked (after a one-file edit of the
# speed corpus: 1,100 functions of the 8,955 in the 238 modules they are in). A head is pickled
# straight from its summary, with ``UNLOADED`` in the place of what it leaves out (``HEAD_LEFT_OUT``,
# which the cache's pickler reads), and what it leaves out is pickled apart, function by function
# (``rest_of``), so that each fact is pickled once; ``fill_in`` puts one function's back, ``whole_of``
# all.
_CALL_LEFT_OUT = {"args": UNLOADED, "kwargs": UNLOADED, "receiver": UNLOADED, "spread": UNLOADED}
_FUNCTION_LEFT_OUT = {"returns": UNLOADED, "yields": UNLOADED, "writes": UNLOADED}

# The fields a head pickles otherwise, by class, and what it holds there instead.
HEAD_LEFT_OUT: dict[type, dict[str, object]] = {
    CallSite: _CALL_LEFT_OUT,
    FunctionSummary: _FUNCTION_LEFT_OUT,
    ModuleSummary: {"head": True},
}

# What a head leaves out of one function: each call's arguments (positional, keyword, receiver,
# spread), then what the function returns, yields and writes.
FunctionRest = tuple[
    tuple[tuple[tuple[Arg, ...], tuple[tuple[str, Arg], ...], Arg | None, Arg | None], ...],
    Value | None,
    Value | None,
    dict[str, tuple[Arg, ...]],
]


def rest_of(summary: ModuleSummary) -> list[FunctionRest]:
    """What the head of ``summary`` leaves out, function by function in order: ``fill_in`` puts
    each back."""
    return [
        (
            tuple((call.args, call.kwargs, call.receiver, call.spread) for call in fn.calls),
            fn.returns,
            fn.yields,
            fn.writes,
        )
        for fn in summary.functions.values()
    ]


def fill_in(fn: FunctionSummary, rest: FunctionRest) -> None:
    """Put back what a head left out of ``fn`` (``HEAD_LEFT_OUT``, ``rest_of``). ``fn`` itself is
    filled in, so it must be one that only this run holds: one unpickled for it."""
    calls, fn.returns, fn.yields, fn.writes = rest
    for call, (args, kwargs, receiver, spread) in zip(fn.calls, calls, strict=True):
        # A frozen call, filled in as unpickling fills it: what linking read of it stays as it was.
        state = call.__dict__
        state["args"], state["kwargs"], state["receiver"] = args, kwargs, receiver
        state["spread"] = spread


def loaded(fn: FunctionSummary) -> bool:
    """Whether ``fn`` holds what a head leaves out (it was summarised here, or filled in)."""
    return fn.writes is not UNLOADED


def whole_of(head: ModuleSummary, rests: list[FunctionRest]) -> ModuleSummary:
    """The summary that ``head`` and ``rests`` were made of, ``head`` itself filled in."""
    for fn, rest in zip(head.functions.values(), rests, strict=True):
        fill_in(fn, rest)
    head.head = False
    return head
