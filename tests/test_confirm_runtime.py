"""The confirm instrumentation in-process: what a guarded jit function reports, and that it
behaves like the jit function it stands in for.

Each test makes its own runtime and a local `jit` (Runtime.make_jit), so jax.jit itself is never
patched in the test process.
"""

from __future__ import annotations

import inspect
import logging
import threading
from functools import partial
from pathlib import Path

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


class Guard:
    def __init__(self, tmp_path: Path, sites: list[dict] | None = None) -> None:
        self.events_file = tmp_path / "events.jsonl"
        guard = "flagged" if sites is not None else "all"
        self.rt = runtime.Runtime(
            {"report": str(self.events_file), "guard": guard, "sites": sites or []}
        )
        assert self.rt.attach(jax)
        self.jit = self.rt.make_jit(jax.jit)
        self.pmap = self.rt.make_pmap(jax.pmap)

    def events(self, kind: str = "retrace") -> list[dict]:
        return [e for e in read_events(self.events_file) if e["ev"] == kind]


@pytest.fixture
def guard(tmp_path: Path) -> Guard:
    return Guard(tmp_path)


def test_a_shape_change_is_confirmed_with_the_argument_and_the_call(guard: Guard) -> None:
    @guard.jit
    def step(params, batch):
        return params + batch.sum(0)

    params = jnp.zeros(4)
    step(params, jnp.ones((8, 4)))
    step(params, jnp.ones((8, 4)))
    out = step(params, jnp.ones((3, 4)))  # the line the evidence must point at
    assert out.shape == (4,)
    [event] = guard.events()
    assert event["kind"] == "shape"
    assert event["evidence"] == ["batch: f32[8,4] -> f32[3,4]"]
    assert event["changes"][0]["param"] == "batch"
    assert event["params"] == ["params", "batch"]
    assert "no_tracing" in event["error"]
    assert "* at batch, now f32[3,4] and before f32[8,4]" in event["explain"]
    frame = event["stack"][0]
    assert frame["function"] == inspect.currentframe().f_code.co_name
    assert frame["code"].startswith("out = step(params, jnp.ones((3, 4)))")


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
    assert guard.events() == []


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
    assert guard.events() == []
    # The probes executed nothing: one print per real call.
    assert capfd.readouterr().out.count("value 2.0") == 3
    inner_site = next(s for s in guard.rt.sites.values() if s.meta["name"] == "inner")
    assert inner_site.nested_calls == 1  # traced once inside outer, never probed there
    assert inner_site.calls == 3


def test_methods_bind_and_identity_hashed_self_is_confirmed(guard: Guard) -> None:
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
    assert guard.events() == []
    assert float(Model(4.0).apply(x)[0]) == 4.0
    [event] = guard.events()
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
    assert guard.events() == []
    power(x, n=4)
    power(x, 4)  # positional instead of keyword: a different cache key too
    first, second = guard.events()
    assert first["evidence"] == ["n: Static(val=3) -> Static(val=4)"]
    assert second["kind"] == "structure"
    assert second["evidence"] == ["n: Static(val=4) (by keyword) -> Static(val=4)"]


def test_weak_type_dtype_and_pytree_changes_are_named(guard: Guard) -> None:
    @guard.jit
    def f(tree, scale):
        return jax.tree.map(lambda v: v * scale, tree)

    f({"a": jnp.ones(2)}, 1.0)
    f({"a": jnp.ones(2)}, jnp.float32(1.0))  # weak -> strong
    f({"a": jnp.ones(2, jnp.int32)}, jnp.float32(1.0))  # dtype
    f({"a": jnp.ones(2, jnp.int32), "b": None}, jnp.float32(1.0))  # structure
    kinds = [(e["kind"], e["evidence"][0]) for e in guard.events()]
    assert kinds == [
        ("weak_type", "scale: f32[] (weak) -> f32[]"),
        ("dtype", "tree['a']: f32[2] -> i32[2]"),
        ("structure", "tree: PyTreeDef({'a': *}) -> PyTreeDef({'a': *, 'b': None})"),
    ]


def test_a_new_function_object_at_the_same_site_is_confirmed(guard: Guard) -> None:
    def loss(w):
        return (w**2).sum()

    x = jnp.ones(3)
    for _ in range(3):
        guard.jit(lambda v: v + 1)(x)
        guard.jit(jax.grad(loss))(x)
        guard.jit(partial(loss))(x)
    events = guard.events()
    assert len(events) == 6
    assert {e["kind"] for e in events} == {"new-function"}
    sites = {e["site"] for e in events}
    assert len(sites) == 3  # one per jax.jit(...) line
    assert all(s.creations == 3 for s in guard.rt.sites.values())


def test_the_same_function_jitted_again_shares_the_cache(guard: Guard) -> None:
    def affine(v):
        return v * 2 + 1

    for _ in range(3):
        guard.jit(affine)(jnp.ones(3))
    assert guard.events() == []


def test_the_guarded_object_behaves_like_the_jit_object(guard: Guard) -> None:
    def scale(x, factor=2.0):
        """Scales."""
        return x * factor

    g = guard.jit(scale)
    assert g.__name__ == "scale" and g.__doc__ == "Scales." and g.__wrapped__ is scale
    assert list(inspect.signature(g).parameters) == ["x", "factor"]
    x = jnp.ones(3)
    assert g.lower(x).compile()(x).shape == (3,)
    assert g.trace(x).jaxpr is not None
    assert float(jax.grad(lambda v: g(v).sum())(x)[0]) == 2.0  # called with tracers: not probed
    assert float(jax.jit(g)(x)[0]) == 2.0  # jit of the guarded object
    assert float(jax.vmap(g)(jnp.ones((2, 3)))[0, 0]) == 2.0
    with jax.disable_jit():
        assert float(g(jnp.ones(5))[0]) == 2.0
    assert guard.events() == []
    assert "scale" in repr(g)


def test_unhashable_static_arguments_are_recorded_and_still_raise(guard: Guard) -> None:
    @partial(guard.jit, static_argnums=1)
    def f(x, sizes):
        return x * len(sizes)

    with pytest.raises(ValueError, match="Non-hashable static arguments"):
        f(jnp.ones(2), [1, 2])
    [error] = guard.events("error")
    assert error["kind"] == "unhashable-static"


def test_the_probe_is_thread_local(guard: Guard) -> None:
    @guard.jit
    def grow(x):
        return x * 2

    errors: list[BaseException] = []
    stop = threading.Event()

    def eager_work():
        # Eager ops on fresh shapes trace jax's own helpers: they would raise if another thread's
        # no_tracing leaked into this one.
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
    assert len(guard.events()) == 6


def test_explanations_stay_out_of_the_users_logs_unless_they_asked(guard: Guard) -> None:
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record):
            records.append(record)

    logger = logging.getLogger(runtime.EXPLAIN_LOGGER)
    handler = Keep(logging.DEBUG)
    logger.addHandler(handler)
    try:

        @guard.jit
        def f(x):
            return x + 1

        f(jnp.ones(2))
        f(jnp.ones(3))
        assert records == []
        jax.config.update("jax_explain_cache_misses", True)
        try:
            f(jnp.ones(4))
        finally:
            jax.config.update("jax_explain_cache_misses", False)
        assert any("TRACING CACHE MISS" in r.getMessage() for r in records)
    finally:
        logger.removeHandler(handler)
    assert len(guard.events()) == 2


def test_pmap_re_traces_are_observed(guard: Guard) -> None:
    def double(x):
        return x * 2

    p = guard.pmap(double)
    p(jnp.ones((1, 3)))
    p(jnp.ones((1, 3)))
    assert guard.events() == []
    p(jnp.ones((1, 4)))
    [event] = guard.events()
    assert event["kind"] == "observed"
    assert event["evidence"] == ["x: f32[1,3] -> f32[1,4]"]


def _line_of(text: str) -> int:
    source = Path(__file__).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(source, 1) if text in line)


def test_only_planned_sites_are_guarded_in_flagged_mode(tmp_path: Path) -> None:
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
            "function": f"{__name__}.test_only_planned_sites_are_guarded_in_flagged_mode.by_name",
        },
    ]
    g = Guard(tmp_path, sites)

    @g.jit
    def planned_fn(x):  # PLANNED-DEF
        return x

    @g.jit
    def unplanned(x):
        return x

    def by_name(x):  # PLANNED-BY-NAME
        return x

    made = g.jit(lambda v: v - 1)  # PLANNED-LAMBDA
    assert isinstance(planned_fn, runtime.GuardedJit)
    assert isinstance(made, runtime.GuardedJit)
    assert isinstance(g.jit(by_name), runtime.GuardedJit)
    assert not isinstance(unplanned, runtime.GuardedJit)
    assert set(g.rt.sites) == {"S1", "S2", "S3"}
    planned_fn(jnp.ones(1))
    planned_fn(jnp.ones(2))
    obs = aggregate(read_events(g.events_file))
    assert obs.sites["S1"].retraces == 1


def test_signature_diff_picks_the_closest_earlier_call() -> None:
    info = runtime.CallInfo(lambda x, n: None, {"static_argnums": 1})
    a = runtime.describe_call(info, (jnp.ones(3), 2), {})
    b = runtime.describe_call(info, (jnp.ones(4), 2), {})
    c = runtime.describe_call(info, (jnp.ones(4), 3), {})
    assert a == {"x": "f32[3]", "n": "Static(val=2)"}
    changes = runtime.diff_signatures(b, c)
    assert [runtime.render_change(ch) for ch in changes] == ["n: Static(val=2) -> Static(val=3)"]
    assert runtime.diff_signatures(a, a) == []


def test_the_probe_falls_back_to_the_public_trace(guard: Guard) -> None:
    @guard.jit
    def f(x):
        return x + 1

    def changed(*args):
        raise TypeError("_infer_params() takes 5 positional arguments")

    f._rtl_lookup.infer = changed  # as if a newer jax changed the private function
    f(jnp.ones(1))
    f(jnp.ones(1))
    assert f._rtl_lookup.fast is False
    f(jnp.ones(2))
    [event] = guard.events()
    assert event["evidence"] == ["x: f32[1] -> f32[2]"]
