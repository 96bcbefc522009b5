"""The confirm observer in-process: what it reports of JAX's trace-cache misses, whatever made the
jitted function, and that the program sees JAX's own objects, untouched.

Each test makes its own runtime, the one JAX's hooks report to for that test only; `guard.jit` and
`guard.pmap` are jax.jit and jax.pmap themselves (the runtime replaces neither).
"""

from __future__ import annotations

import importlib.util
import inspect
import threading
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from confirm_programs.support import jax_available

from retracelint.confirm import runtime
from retracelint.confirm.plan import site_line_range
from retracelint.confirm.report import aggregate, read_events

pytestmark = pytest.mark.skipif(not jax_available(), reason="confirm needs jax (pip install jax)")

if jax_available():
    import jax
    import jax.numpy as jnp
    import numpy as np
    from jax import lax


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


class Guard:
    def __init__(self, tmp_path: Path, sites: list[dict] | None = None) -> None:
        self.events_file = tmp_path / "events.jsonl"
        guard = "flagged" if sites is not None else "all"
        self.rt = runtime.Runtime(
            {"report": str(self.events_file), "guard": guard, "sites": sites or []}
        )
        assert self.rt.attach(jax)
        runtime.use(self.rt)
        self.jit = jax.jit
        self.pmap = jax.pmap

    def events(self, kind: str = "trace") -> list[dict]:
        return [e for e in read_events(self.events_file) if e["ev"] == kind]

    def retraces(self) -> list[dict]:
        return [e for e in self.events() if e["retrace"]]

    def site(self, name: str) -> runtime.Site:
        return next(s for s in self.rt.sites.values() if s.meta["name"] == name)


@pytest.fixture
def guard(tmp_path: Path) -> Iterator[Guard]:
    g = Guard(tmp_path)
    yield g
    runtime.release(g.rt)


def test_a_shape_change_is_confirmed_with_the_argument_and_the_call(guard: Guard) -> None:
    @guard.jit
    def step(params, batch):
        return params + batch.sum(0)

    params = jnp.zeros(4)
    step(params, jnp.ones((8, 4)))
    step(params, jnp.ones((8, 4)))
    out = step(params, jnp.ones((3, 4)))  # the line the evidence must point at
    assert out.shape == (4,)
    first, event = guard.events()
    assert first["kind"] == "first" and not first["retrace"]
    assert event["kind"] == "shape"
    assert event["evidence"] == ["batch: f32[8,4] -> f32[3,4]"]
    assert event["changes"][0]["param"] == "batch"
    assert event["params"] == ["params", "batch"]
    frame = event["stack"][0]
    assert frame["function"] == inspect.currentframe().f_code.co_name
    assert frame["code"].startswith("out = step(params, jnp.ones((3, 4)))")
    assert event["call"].endswith(f":{frame['line']}")


@pytest.mark.parametrize(
    "second",
    ["numpy", "numpy_f64", "committed", "python_scalar_same_weak_type"],
)
def test_dispatch_only_misses_are_not_retraces(guard: Guard, second: str) -> None:
    @guard.jit
    def f(x, y):
        return x * y

    f(jnp.ones(3), 2.0)
    x = {
        "numpy": np.ones(3, np.float32),
        "numpy_f64": np.ones(3),
        "committed": jax.device_put(jnp.ones(3), jax.devices()[0]),
        "python_scalar_same_weak_type": jnp.ones(3),
    }[second]
    f(x, 5.0)
    f(x, 7.0)
    assert guard.retraces() == []


def test_debug_print_donation_and_nested_jit_are_not_retraces(guard: Guard, capfd) -> None:
    @guard.jit
    def loud(x):
        jax.debug.print("value {}", x.sum())
        return x

    @partial(guard.jit, donate_argnums=0)
    def accumulate(total, x):
        return total + x

    @guard.jit
    def inner(x):
        return x * 3

    @guard.jit
    def outer(x):
        return inner(x) + 1

    x = jnp.ones(2)
    for _ in range(3):
        loud(x)
        total = accumulate(jnp.zeros(2), x)
        outer(x)
        inner(x)
    assert float(total[0]) == 1.0
    assert guard.retraces() == []
    assert capfd.readouterr().out.count("value 2.0") == 3
    site = guard.site("inner")
    assert (site.nested, site.traces) == (1, 0)  # traced inside outer; its own calls reused that
    assert site.nested_in == {"outer"}


def test_methods_bind_and_identity_hashed_self_is_named(guard: Guard) -> None:
    class Model:
        def __init__(self, scale):
            self.scale = scale

        @partial(guard.jit, static_argnums=0)
        def apply(self, x):
            return x * self.scale

    x = jnp.ones(2)
    model = Model(3.0)
    assert float(model.apply(x)[0]) == 3.0
    assert float(model.apply(x)[0]) == 3.0
    assert guard.retraces() == []
    assert float(Model(4.0).apply(x)[0]) == 4.0
    [event] = guard.retraces()
    assert event["kind"] == "static"
    assert event["changes"][0]["param"] == "self"
    assert "Model object at" in event["evidence"][0]


def test_static_arguments_by_keyword_and_the_decorator_factory_form(guard: Guard) -> None:
    @guard.jit(static_argnames=("n",))
    def power(x, n):
        return x**n

    x = jnp.full(2, 2.0)
    assert float(power(x, n=3)[0]) == 8.0
    power(x, n=3)
    assert guard.retraces() == []
    power(x, n=4)
    power(x, 4)  # positional instead of keyword: a different cache key too
    first, second = guard.retraces()
    assert first["evidence"] == ["n: Static(val=3) -> Static(val=4)"]
    assert second["kind"] == "keyword"
    assert second["evidence"] == ["n: Static(val=4) (by keyword) -> Static(val=4)"]


def test_the_aux_data_of_a_registered_class_is_named(guard: Guard) -> None:
    """A custom pytree's aux data is part of its treedef: a new value of it, or a new object
    compared by identity that prints like the last, re-traces and is named as a structure change
    of that argument (not as a dropped cache entry)."""

    @jax.tree_util.register_pytree_node_class
    class Graph:
        def __init__(self, edges, num_nodes):
            self.edges, self.num_nodes = edges, num_nodes

        def tree_flatten(self):
            return (self.edges,), self.num_nodes

        @classmethod
        def tree_unflatten(cls, num_nodes, leaves):
            return cls(leaves[0], num_nodes)

    @guard.jit
    def degree(graph):
        return graph.edges.sum() / len(graph.edges)

    edges = jnp.ones(4)
    degree(Graph(edges, 3))
    degree(Graph(edges, 3))  # equal aux data: the same treedef
    degree(Graph(edges, 4))
    degree(Graph(edges, jax.jit(jnp.sin)))
    degree(Graph(edges, jax.jit(jnp.sin)))  # a new wrapper of the same function
    events = guard.retraces()
    assert [e["kind"] for e in events] == ["structure"] * 3
    assert events[0]["evidence"] == ["graph: Graph[3] -> Graph[4]"]
    assert all(e["changes"][0]["param"] == "graph" for e in events)
    assert "(object 0x" in events[2]["evidence"][0]


def test_a_new_static_object_that_prints_like_the_last_is_named(guard: Guard) -> None:
    """functools.partial (and any object without value equality) is compared by identity: a new one
    per call re-traces though it prints alike; the evidence says which object, not 'traced again'."""

    @guard.jit(static_argnums=(0,))
    def apply(f, x):
        return f(x)

    def drift(x, rate):
        return x * rate

    x = jnp.ones(2)
    for _ in range(2):
        apply(partial(drift, rate=0.5), x)
    [event] = guard.retraces()
    assert event["kind"] == "static"
    assert event["changes"][0]["param"] == "f"
    assert "(object 0x" in event["evidence"][0]


def test_an_object_hashed_by_value_but_compared_by_identity_is_named(guard: Guard) -> None:
    """A class with a ``__hash__`` of its own and no ``__eq__``: two equal-looking beams never
    compare equal, so JAX traces again; the evidence names the two objects (not an eviction)."""

    class Beam:
        def __init__(self, width):
            self.width = width

        def __hash__(self):
            return hash(("Beam", self.width))

        def __repr__(self):
            return f"Beam({self.width})"

        def __call__(self, x):
            return x * self.width

    @guard.jit(static_argnums=(0,))
    def blur(beam, x):
        return beam(x)

    x = jnp.ones(2)
    for _ in range(2):
        blur(Beam(3.0), x)
    [event] = guard.retraces()
    assert event["kind"] == "static"
    assert event["changes"][0]["param"] == "beam"
    assert "(object 0x" in event["evidence"][0]


def test_weak_type_none_dict_keys_and_dtype_flips_are_named(guard: Guard) -> None:
    @guard.jit
    def f(state, opts, scale):
        out = jax.tree.map(lambda v: v * scale, opts)
        return out if state is None else (out, state + 1)

    f(None, {"a": jnp.ones(2)}, 1.0)
    f(None, {"a": jnp.ones(2)}, jnp.float32(1.0))  # weak -> strong
    f(jnp.ones(3), {"a": jnp.ones(2)}, jnp.float32(1.0))  # None -> array
    f(jnp.ones(3), {"a": jnp.ones(2), "b": jnp.ones(2)}, jnp.float32(1.0))  # dict keys
    f(jnp.ones(3, jnp.int32), {"a": jnp.ones(2), "b": jnp.ones(2)}, jnp.float32(1.0))  # dtype
    assert [(e["kind"], e["evidence"][0]) for e in guard.retraces()] == [
        ("weak_type", "scale: weak f32[] -> f32[]"),
        ("structure", "state: None -> f32[3]"),
        ("structure", "opts: dict keys {a} -> {a, b}"),
        ("dtype", "state: f32[3] -> i32[3]"),
    ]


def test_a_new_function_object_at_the_same_site_is_named(guard: Guard) -> None:
    def loss(w):
        return (w**2).sum()

    x = jnp.ones(3)
    for _ in range(3):
        guard.jit(lambda v: v + 1)(x)
        guard.jit(jax.grad(loss))(x)
        guard.jit(partial(loss))(x)
    events = guard.retraces()
    assert len(events) == 6
    assert {e["kind"] for e in events} == {"new-function"}
    assert len({e["site"] for e in events}) == 3  # one per jax.jit(...) line
    assert all(s.creations == 3 for s in guard.rt.sites.values())


def test_the_same_function_jitted_again_shares_the_cache(guard: Guard) -> None:
    def affine(v):
        return v * 2 + 1

    for _ in range(3):
        guard.jit(affine)(jnp.ones(3))
    assert guard.retraces() == []


def test_two_jit_wrappers_of_one_def_are_kept_apart(guard: Guard) -> None:
    """jax.jit(f) and jax.jit(f, static_argnums=1) are two jitted functions: each one's first
    trace is not a re-trace of the other."""

    def scale(x, k):
        return x * k

    dynamic = guard.jit(scale)
    static = guard.jit(scale, static_argnums=1)
    dynamic(jnp.ones(2), 2.0)
    static(jnp.ones(2), 2.0)
    static(jnp.ones(2), 2.0)
    assert guard.retraces() == []
    static(jnp.ones(2), 3.0)
    [event] = guard.retraces()
    assert event["evidence"] == ["k: Static(val=2.0) -> Static(val=3.0)"]


def test_clear_caches_is_named_as_the_cause(guard: Guard) -> None:
    @guard.jit
    def f(x):
        return x + 1

    f(jnp.ones(2))
    jax.clear_caches()  # CLEAR-LINE
    f(jnp.ones(2))
    [event] = guard.retraces()
    assert event["kind"] == "cache-cleared"
    assert event["evidence"][0].startswith(
        f"jax.clear_caches() at {__file__}:{_line_of('# CLEAR' + '-LINE')}"
    )


def test_jit_called_only_inside_grad_and_lax_loops_outside_jit_are_seen(guard: Guard) -> None:
    """A nested jitted def called only through value_and_grad (its call happens inside a trace of
    the transform), and a fresh closure handed to lax.scan / fori_loop on every call."""

    def loss(w):
        @guard.jit
        def inner(v):
            return (v**2).sum()

        return inner(w)

    def cumulative(xs):
        def body(carry, x):
            return carry + x, carry

        return lax.scan(body, 0.0, xs)

    def doubled(x):
        def body(i, v):
            return v * 2

        return lax.fori_loop(0, 3, body, x)

    for _ in range(3):
        jax.value_and_grad(loss)(jnp.ones(3))
        cumulative(jnp.ones(4))
        doubled(jnp.ones(2))
    by_name = {guard.site(n).id: n for n in ("inner", "body")}
    kinds = {(by_name.get(e["site"], "body"), e["kind"]) for e in guard.retraces()}
    assert kinds == {("inner", "new-function"), ("body", "new-function")}
    lax_sites = [s for s in guard.rt.sites.values() if s.meta["name"] == "body"]
    assert sorted(s.meta["wrapper"] for s in lax_sites) == ["jax.lax.fori_loop", "jax.lax.scan"]
    assert all(s.retraces == 2 for s in lax_sites)


def test_pmap_re_traces_are_observed(guard: Guard) -> None:
    def double(x):
        return x * 2

    p = guard.pmap(double)
    p(jnp.ones((1, 3)))
    p(jnp.ones((1, 3)))
    assert guard.retraces() == []
    p(jnp.ones((1, 4)))
    [event] = guard.retraces()
    assert event["evidence"] == ["x: f32[1,3] -> f32[1,4]"]
    assert guard.site("double").nested_in == {"double"}  # pmap's inner shard_map trace


def test_jit_functions_made_through_any_name_are_observed(guard: Guard) -> None:
    """jax._src.api.jit imported directly (as libraries and jax's own tests do) and the deprecated
    pjit are observed as jax.jit is: the runtime watches JAX's own trace hook, not a name."""
    import warnings

    from jax._src import api

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from jax.experimental.pjit import pjit

    @api.jit
    def direct(x):
        return x + 1

    def through_pjit(x):
        return x - 1

    shifted = pjit(through_pjit)
    for n in (2, 2, 3):
        direct(jnp.ones(n))
        shifted(jnp.ones(n))
    names = sorted(
        guard.rt.sites[e["site"]].meta["name"] for e in guard.retraces() if e["kind"] == "shape"
    )
    assert names == ["direct", "through_pjit"]


@pytest.mark.skipif(not _installed("equinox"), reason="equinox is not installed")
def test_equinox_filter_jit_re_traces_are_observed(guard: Guard) -> None:
    import equinox as eqx

    @eqx.filter_jit
    def scaled(x, n):
        return x * n

    @eqx.filter_jit
    def other(x, n):
        return x - n

    scaled(jnp.ones(3), 2)
    other(jnp.ones(3), 2)  # one function JAX shares between both: not a re-trace of scaled
    scaled(jnp.ones(3), 2)
    assert guard.retraces() == []
    scaled(jnp.ones(3), 3)
    [event] = guard.retraces()
    assert guard.site("scaled").id == event["site"]
    assert event["evidence"] == ["n: Static(val=2) -> Static(val=3)"]


@pytest.mark.skipif(not _installed("flax"), reason="flax is not installed")
def test_flax_nnx_jit_re_traces_are_observed(guard: Guard) -> None:
    from flax import nnx

    model = nnx.Linear(3, 2, rngs=nnx.Rngs(0))

    @nnx.jit
    def forward(model, x):
        return model(x)

    forward(model, jnp.ones((4, 3)))
    forward(model, jnp.ones((4, 3)))
    assert guard.retraces() == []
    forward(model, jnp.ones((5, 3)))
    [event] = guard.retraces()
    assert guard.site("forward").id == event["site"]
    assert event["evidence"] == ["x: f32[4,3] -> f32[5,3]"]


def test_the_jitted_function_is_jaxs_own_object(guard: Guard) -> None:
    def scale(x, factor=2.0):
        """Scales."""
        return x * factor

    g = guard.jit(scale)
    plain = jax.jit(scale)
    assert type(g) is type(plain)  # equinox tests type(x) in {...}; chex the type's name
    assert g.__name__ == "scale" and g.__doc__ == "Scales." and g.__wrapped__ is scale
    assert list(inspect.signature(g).parameters) == ["x", "factor"]
    x = jnp.ones(3)
    g(x)
    assert g.lower(x).compile()(x).shape == (3,)
    assert g.trace(x).jaxpr is not None
    assert g.eval_shape(x).shape == (3,)
    assert g._cache_size() == 1
    assert float(jax.grad(lambda v: g(v).sum())(x)[0]) == 2.0
    assert float(jax.vmap(g)(jnp.ones((2, 3)))[0, 0]) == 2.0
    with jax.disable_jit():
        assert float(g(jnp.ones(5))[0]) == 2.0
    assert repr(g) == repr(plain).replace(hex(id(plain)), hex(id(g)))


@pytest.mark.skipif(not _installed("chex"), reason="chex is not installed")
def test_chex_still_sees_a_jitted_function(guard: Guard) -> None:
    import chex

    jitted = guard.jit(lambda x: x + 1)
    with pytest.raises(ValueError, match="must not wrap JAX-transformed function"):
        chex.assert_max_traces(jitted, n=1)


def test_the_observer_is_thread_safe(guard: Guard) -> None:
    @guard.jit
    def grow(x):
        return x * 2

    errors: list[BaseException] = []
    stop = threading.Event()

    def eager_work():
        # Eager ops on fresh shapes trace jax's own helpers in this thread meanwhile.
        try:
            n = 1
            while not stop.is_set():
                n += 1
                jnp.ones(n % 50 + 1) + n
        except BaseException as exc:  # pragma: no cover - the assertion below reports it
            errors.append(exc)

    worker = threading.Thread(target=eager_work)
    worker.start()
    try:
        for n in range(1, 8):
            grow(jnp.ones(n))
    finally:
        stop.set()
        worker.join()
    assert errors == []
    assert len(guard.retraces()) == 6
    assert {e["thread"] for e in guard.retraces()} == {threading.current_thread().name}


def test_an_unhashable_static_argument_is_recorded_where_it_raised(guard: Guard) -> None:
    @partial(guard.jit, static_argnums=1)
    def f(x, sizes):
        return x * len(sizes)

    with pytest.raises(ValueError, match="Non-hashable static arguments") as info:
        f(jnp.ones(2), [1, 2])  # RAISE-LINE
    guard.rt.note_exception(info.value)
    [error] = guard.events("error")
    assert error["kind"] == "unhashable-static"
    assert error["stack"][0]["line"] == _line_of("# RAISE" + "-LINE")


def _line_of(text: str) -> int:
    source = Path(__file__).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(source, 1) if text in line)


def test_only_planned_sites_are_observed_in_flagged_mode(tmp_path: Path) -> None:
    path = str(Path(__file__).resolve())
    def_line = _line_of("# PLANNED" + "-DEF")
    first, last = site_line_range(path, def_line)
    assert first == def_line - 1  # the decorator line
    call_line = _line_of("# PLANNED" + "-LAMBDA")
    sites = [
        {"id": "S1", "path": path, "first_line": first, "last_line": last, "function": ""},
        {"id": "S2", "path": path, "first_line": call_line, "last_line": call_line},
        # Analysed at another path (an installed copy): matched by qualified name and lines.
        {
            "id": "S3",
            "path": "/elsewhere/test_confirm_runtime.py",
            "first_line": _line_of("# PLANNED" + "-BY-NAME"),
            "last_line": _line_of("# PLANNED" + "-BY-NAME"),
            "function": f"{__name__}.test_only_planned_sites_are_observed_in_flagged_mode.by_name",
        },
        # A jax.jit(partial(...)) call: its site is the call, not the def it wraps.
        {"id": "S4", "path": path, "first_line": _line_of("# PLANNED" + "-PARTIAL"),
         "last_line": _line_of("# PLANNED" + "-PARTIAL")},
    ]  # fmt: skip
    g = Guard(tmp_path, sites)
    try:

        @g.jit
        def planned_fn(x):  # PLANNED-DEF
            return x

        @g.jit
        def unplanned(x):
            return x

        def by_name(x):  # PLANNED-BY-NAME
            return x

        def shifted(x, k):
            return x + k

        made = g.jit(lambda v: v - 1)  # PLANNED-LAMBDA
        for n in (1, 2):
            planned_fn(jnp.ones(n))
            unplanned(jnp.ones(n))
            made(jnp.ones(n))
            g.jit(by_name)(jnp.ones(n))
            g.jit(partial(shifted, k=n))(jnp.ones(1))  # PLANNED-PARTIAL
        assert set(g.rt.sites) == {"S1", "S2", "S3", "S4"}
        obs = aggregate(read_events(g.events_file))
        assert [obs.sites[s].retraces for s in ("S1", "S2", "S3", "S4")] == [1, 1, 1, 1]
        assert obs.sites["S4"].events[0]["kind"] == "new-function"
    finally:
        runtime.release(g.rt)


def test_signature_diff_picks_the_closest_earlier_call() -> None:
    info = runtime.CallInfo(lambda x, n: None, static_argnums=1)
    a = runtime.describe_call(info, (jnp.ones(3), 2), {})
    b = runtime.describe_call(info, (jnp.ones(4), 2), {})
    c = runtime.describe_call(info, (jnp.ones(4), 3), {})
    assert a == {"x": "f32[3]", "n": "Static(val=2)"}
    changes = runtime.diff_signatures(b, c)
    assert [runtime.render_change(ch) for ch in changes] == ["n: Static(val=2) -> Static(val=3)"]
    assert runtime.diff_signatures(a, a) == []


def test_a_retrace_with_many_changes_shows_the_first_and_counts_the_rest() -> None:
    info = runtime.CallInfo(lambda a, b, c, d, e, f: None)
    before = runtime.describe_call(info, tuple(jnp.ones(2) for _ in range(6)), {})
    after = runtime.describe_call(info, tuple(jnp.ones(3) for _ in range(6)), {})
    assert runtime.render_changes(runtime.diff_signatures(before, after)) == [
        "a: f32[2] -> f32[3]",
        "b: f32[2] -> f32[3]",
        "c: f32[2] -> f32[3]",
        "d: f32[2] -> f32[3]",
        "(2 more)",
    ]


def test_jaxs_leak_checker_finds_no_leak_of_ours(guard: Guard) -> None:
    """jax.checking_leaks() counts what still holds a trace's tracers when it ends: reading the
    locals of an enclosing trace (to see that a jit is traced inside another) must keep none of
    them (jax's test_leak_checker_avoids_false_positives_remat3_jit crashed in core._why_alive)."""
    from jax._src import config as jax_config

    with jax.checking_leaks():

        @guard.jit
        def outer(x):
            @guard.jit
            def inner(y):
                return y * 2

            return inner(x) + 1

        assert outer(jnp.arange(3)).tolist() == [1, 3, 5]
        with jax_config.remat3(True):
            rematted = guard.jit(jax.remat(lambda x: x + 1))
            assert rematted(jnp.arange(3)).tolist() == [1, 2, 3]
    assert guard.site("inner").nested_in == {"outer"}
    assert guard.retraces() == []


def test_a_real_retrace_in_each_test_is_named_as_such(guard: Guard) -> None:
    """A jitted closure made anew per test and re-traced within each: every re-trace names what
    changed since that function's own first trace, not "JAX's trace cache dropped it" because an
    earlier test's function traced the same shapes."""

    def make_step(scale):
        @guard.jit
        def step(x):
            return x * scale

        return step

    for scale in (2.0, 3.0, 4.0):  # one function per test
        step = make_step(scale)
        step(jnp.ones(3))
        step(jnp.ones(4))
    events = guard.retraces()
    assert [e["kind"] for e in events] == [
        "shape",
        "new-function",
        "shape",
        "new-function",
        "shape",
    ]
    assert [e["evidence"] for e in events if e["kind"] == "shape"] == [["x: f32[3] -> f32[4]"]] * 3


class _Node:
    """A registered pytree node that may hold itself, as an NNX graph holds its parent."""

    def __init__(self, weight: Any, child: Any = None) -> None:
        self.weight, self.child = weight, child


if jax_available():
    jax.tree_util.register_pytree_with_keys(
        _Node,
        lambda n: (
            (
                (jax.tree_util.GetAttrKey("weight"), n.weight),
                (jax.tree_util.GetAttrKey("child"), n.child),
            ),
            None,
        ),
        lambda _, children: _Node(*children),
    )


def test_an_argument_that_holds_itself_is_described_within_bounds() -> None:
    """Describing a call's arguments walks them one level at a time, to a depth and a size: an
    object graph that holds itself, or a list nested thousands deep, neither recurses without end
    nor breaks the interpreter."""
    looped = _Node(jnp.ones(2))
    looped.child = looped
    deep: Any = jnp.ones(1)
    for _ in range(5000):
        deep = [deep]
    info = runtime.CallInfo(lambda graph, nested: None)
    out = runtime.describe_call(info, (looped, deep), {})
    assert out["graph.weight"] == "f32[2]"
    assert out["graph.child"] == "<_Node: holds itself>"
    assert f"nested{'[0]' * runtime.DEPTH_CAP}" in out
    assert out[f"nested{'[0]' * runtime.DEPTH_CAP}"] == f"<list: deeper than {runtime.DEPTH_CAP}>"
    wide = runtime.describe_call(info, ([[jnp.ones(1)] * 3] * 2000, None), {})
    assert len(wide) <= runtime.LEAF_CAP + runtime.NODE_CAP + 1


@pytest.mark.skipif(not _installed("flax"), reason="flax is not installed")
def test_a_flax_graph_that_holds_itself_is_observed(guard: Guard) -> None:
    from flax import nnx

    class Block(nnx.Module):
        def __init__(self, rngs: Any) -> None:
            self.linear = nnx.Linear(2, 2, rngs=rngs)
            self.itself = self

    @nnx.jit
    def forward(block, x):
        return block.linear(x)

    block = Block(nnx.Rngs(0))
    for n in (3, 3, 4):
        forward(block, jnp.ones((n, 2)))
    [event] = guard.retraces()
    assert event["evidence"] == ["x: f32[3,2] -> f32[4,2]"]


@pytest.mark.skipif(not _installed("equinox"), reason="equinox is not installed")
def test_a_filter_jit_of_a_filter_jit_traces_once(guard: Guard) -> None:
    """The inner filter_jit traces inside the outer one's trace: one trace of the body, nested,
    not a re-trace."""
    import equinox as eqx

    @eqx.filter_jit
    @eqx.filter_jit
    def scaled(x, n):
        return x * n

    for _ in range(3):
        scaled(jnp.ones(3), 2)
    assert guard.retraces() == []
    site = guard.site("scaled")
    assert (site.traces, site.nested) == (1, 1)
    scaled(jnp.ones(4), 2)
    [event] = guard.retraces()
    assert event["evidence"] == ["x: f32[3] -> f32[4]"]
