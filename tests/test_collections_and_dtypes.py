"""What users see for the collections, carried resizes, dtypes and trace contexts (accuracy-gaps G6-G8,
G11, G12; RTL405) when the varying value travels between modules: where the finding is, what it says."""

from __future__ import annotations

from pathlib import Path

import pytest

from retracelint.config import Settings
from retracelint.engine import analyse
from retracelint.model import Finding

JIT = "import jax\nimport jax.numpy as jnp\nimport numpy as np\n\n\n"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _run(root: Path) -> list[Finding]:
    return analyse([str(root)], Settings(cache=False, select=("RTL",))).findings


def _where(findings: list[Finding]) -> list[tuple[str, int, str]]:
    return [(Path(f.location.path).name, f.location.line, f.code) for f in findings]


def _only(root: Path, where: tuple[str, int, str], severity: str) -> Finding:
    """The one finding of the project at ``root``: where it is, and how bad."""
    found = _run(root)
    assert _where(found) == [where]
    assert found[0].severity == severity
    return found[0]


def test_elements_made_in_one_module_and_iterated_in_another(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "shapes.py": JIT + "def polygons(counts):\n"
            "    return [np.linspace(0.0, 1.0, k) for k in counts]\n",
            "area.py": JIT + "@jax.jit\ndef area(v):\n    return jnp.abs(v).sum()\n\n\n"
            "def total(shapes):\n    return sum(float(area(s)) for s in shapes)\n",
            "main.py": "from area import total\nfrom shapes import polygons\n\n\n"
            "def main(counts):\n    for _ in range(10):\n        total(polygons(counts))\n\n\n"
            "main([3, 4, 6])\n",
        },
    )
    found = _run(tmp_path)
    assert _where(found) == [("shapes.py", 7, "RTL105")]
    # The loop that takes one element per step, told in the details.
    assert found[0].details == (f"loop: {tmp_path / 'area.py'}:12: for s in shapes",)
    assert found[0].message.endswith("so jitted 'area' re-traces; pad to a fixed size")
    assert found[0].parameter == "v"


def test_same_shape_elements_and_a_single_element_stay_clean(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "main.py": JIT + "@jax.jit\ndef f(x):\n    return x.sum()\n\n\n"
            "def run(sizes):\n    xs = [jnp.ones(3) * k for k in range(4)]\n"
            "    ys = [jnp.ones(n) for n in sizes]\n"
            "    for x in xs:\n        f(x)\n    f(ys[0])\n\n\nrun([2, 5])\n",
        },
    )
    assert _run(tmp_path) == []


def test_a_helper_that_grows_its_argument_is_found_where_it_grows(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "buffers.py": JIT + "def push(buf, row):\n"
            "    return jnp.concatenate([buf, row[None]])\n\n\n"
            "def keep(buf, row):\n    return jnp.concatenate([buf[1:], row[None]])\n",
            "main.py": JIT + "from buffers import keep, push\n\n\n"
            "@jax.jit\ndef score(buf):\n    return buf.mean()\n\n\n"
            "def grow(rows):\n    buf = jnp.zeros((1, 2))\n    for row in rows:\n"
            "        buf = push(buf, row)\n        score(buf)\n\n\n"
            "def window(rows):\n    buf = jnp.zeros((3, 2))\n    for row in rows:\n"
            "        buf = keep(buf, row)\n        score(buf)\n",
        },
    )
    found = _run(tmp_path)
    assert _where(found) == [("buffers.py", 7, "RTL102")]  # keep() cuts one row and adds one
    assert found[0].message.startswith("jnp.concatenate([buf, row[None]]) grows in the loop at ")


def test_a_key_added_under_a_condition_of_the_caller(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "data.py": "def collate(tokens, mask=None):\n    batch = {'tokens': tokens}\n"
            "    if mask is not None:\n        batch['mask'] = mask\n    return batch\n",
            "main.py": JIT + "from data import collate\n\n\n"
            "@jax.jit\ndef forward(batch):\n    return batch['tokens'].sum()\n\n\n"
            "def run(batches, masks):\n    for i, tokens in enumerate(batches):\n"
            "        forward(collate(tokens, masks[i] if i % 2 else None))\n\n\n"
            "def always(batches, masks):\n    for i, tokens in enumerate(batches):\n"
            "        forward(collate(tokens, masks[i]))\n",
        },
    )
    found = _only(tmp_path, ("data.py", 4, "RTL403"), "warning")
    assert "a dict with keys {mask, tokens} in one branch and a dict with keys {tokens}" in (
        found.message
    )


def test_a_dict_the_loop_fills_before_each_call_has_one_structure(tmp_path: Path) -> None:
    """``batch = {}`` before the loop and both keys stored in each turn, in either branch, before
    the call: every call sees the same keys. A key stored after the call is a new key on the
    second turn, and a key only one branch stores differs until the other has run."""
    _write(
        tmp_path,
        {
            "steps.py": JIT + "@jax.jit\ndef train_step(state, batch):\n"
            "    return state + batch['source'].sum() - batch['target'].sum()\n",
            "loop.py": JIT + "from steps import train_step\n\n\n"
            "def fit(state, sources, targets, n):\n    batch = {}\n    for step in range(n):\n"
            "        if step % 2 == 0:\n            batch['source'] = jnp.asarray(next(sources))\n"
            "            batch['target'] = jnp.asarray(next(targets))\n        else:\n"
            "            batch['target'] = jnp.asarray(next(sources))\n"
            "            batch['source'] = jnp.asarray(next(targets))\n"
            "        state = train_step(state, batch)\n    return state\n\n\n"
            "def late(state, sources, n):\n    batch = {'source': jnp.zeros(3)}\n"
            "    for step in range(n):\n        batch['source'] = jnp.asarray(next(sources))\n"
            "        state = train_step(state, batch)\n"
            "        batch['target'] = batch['source']\n    return state\n",
        },
    )
    found = _only(tmp_path, ("loop.py", 23, "RTL403"), "warning")
    assert "batch starts as a dict with keys {source} and is a dict with keys {source, target}" in (
        found.message
    )


def test_x64_turned_on_in_another_module_makes_int64_and_int32_two_dtypes(tmp_path: Path) -> None:
    files = {
        "ops.py": JIT + "@jax.jit\ndef gather(table, idx):\n    return table[idx]\n\n\n"
        "def both(table, scores, edges):\n"
        "    gather(table, jnp.searchsorted(edges, scores[0]))\n"
        "    gather(table, np.argmax(scores, axis=1))\n",
        "main.py": "import os\n\nos.environ['JAX_ENABLE_X64'] = '1'\n\nimport ops\n",
    }
    _write(tmp_path, files)
    found = _run(tmp_path)
    assert _where(found) == [("ops.py", 13, "RTL402")]
    assert "'idx' gets int64 here but int32 at" in found[0].message
    (tmp_path / "main.py").write_text("import ops\n", encoding="utf-8")
    assert _run(tmp_path) == []  # without x64 both are int32


def test_a_dtype_picked_by_the_data(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "main.py": JIT + "@jax.jit\ndef count(codes):\n    return codes.sum()\n\n\n"
            "def encode(values, n):\n    return values.astype(np.min_scalar_type(n))\n\n\n"
            "def run(values, sizes):\n    for n in sizes:\n        count(encode(values, n))\n",
        },
    )
    found = _run(tmp_path)
    assert _where(found) == [("main.py", 12, "RTL402")]
    assert found[0].message.startswith(
        "the dtype of values.astype(np.min_scalar_type(n)) is chosen anew at each iteration"
    )


def test_a_trace_context_entered_by_a_caller_in_another_module(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "model.py": JIT + "@jax.jit\ndef project(x, w):\n    return x @ w\n\n\n"
            "def evaluate(x, w):\n    return project(x, w)\n",
            "main.py": JIT + "from model import evaluate, project\n\n\n"
            "def main(x, w):\n    for _ in range(100):\n        project(x, w)\n"
            "        with jax.default_matmul_precision('highest'):\n            evaluate(x, w)\n"
            "        with jax.numpy_rank_promotion('allow'):\n            project(x, w)\n",
        },
    )
    found = _only(tmp_path, ("main.py", 12, "RTL405"), "warning")
    assert found.message.startswith(
        "jitted 'project' is called inside `jax.default_matmul_precision('highest')` here and"
        " outside it at "
    )
    assert found.jit_site is not None and found.jit_site.location.path == str(tmp_path / "model.py")
    assert "jax keys its trace cache on jax_default_matmul_precision" in found.details


def test_a_weak_counter_selected_by_a_strong_condition_stays_weak(tmp_path: Path) -> None:
    """jnp.where takes its dtype (and weak type) from the values it selects, not the condition."""
    _write(
        tmp_path,
        {
            "main.py": JIT
            + "from typing import NamedTuple\n\n\n"
            + "class State(NamedTuple):\n"
            + "    best: jax.Array\n"
            + "    count: jax.Array\n\n\n"
            + "@jax.jit\n"
            + "def update(state, loss):\n"
            + "    count = jnp.where(loss < state.best, 0, state.count + 1)\n"
            + "    return State(jnp.minimum(loss, state.best), count)\n\n\n"
            + "def run(batches):\n"
            + "    state = State(jnp.full((), jnp.inf, jnp.float32), jnp.asarray(0))\n"
            + "    for batch in batches:\n"
            + "        state = update(state, jnp.mean(batch))\n"
            + "    return state\n"
        },
    )
    assert _run(tmp_path) == []  # jax 0.10.2 traces update once: count stays weak int32


_BLEND = (
    JIT
    + "@jax.jit\n"
    + "def blend(a, b, alpha):\n"
    + "    return a + alpha * (b - a)\n\n\n"
    + "def soft(a, b, alpha=0.25):\n"
    + "    return blend(a, b, alpha)\n\n\n"
    + "def sharp(a, b, alpha):\n"
    + "    return blend(a, b, alpha)\n\n\n"
    + "def tuned(alpha):\n"
    + "    return alpha * jnp.ones((), jnp.float32)\n"
)


def _compositor(soft_call: str) -> str:
    return (
        "import jax.numpy as jnp\n"
        + "from ops import sharp, soft, tuned\n\n\n"
        + "class Compositor:\n"
        + "    def render(self, a, b):\n"
        + f"        {soft_call}\n"
        + "        return sharp(a, b, tuned(0.5))\n\n\n"
        + "if __name__ == '__main__':\n"
        + "    Compositor().render(jnp.ones(2), jnp.zeros(2))\n"
    )


def test_a_default_left_out_is_weak_against_a_strong_result_of_another_helper(
    tmp_path: Path,
) -> None:
    """jax 0.10.2 traces blend twice: alpha is a weak f32 from soft's default, then a strong f32
    from tuned(); reported at the default, the line to change."""
    _write(tmp_path, {"ops.py": _BLEND, "main.py": _compositor("soft(a, b)")})
    found = _only(tmp_path, ("ops.py", 11, "RTL401"), "warning")
    assert found.message.startswith(
        "'alpha' is weakly typed from the default of 'alpha' but strongly typed from tuned(0.5) at"
        " main.py:8, so jitted 'blend' traces twice"
    )
    assert found.details[:2] == (
        f"weakly typed: passed at {tmp_path / 'ops.py'}:12",
        f"strongly typed: tuned(0.5) at {tmp_path / 'main.py'}:8, passed at {tmp_path / 'ops.py'}:16",
    )


def test_a_default_every_caller_overrides_stays_clean(tmp_path: Path) -> None:
    """Both calls pass a strong f32: blend traces once, whatever soft's default is."""
    _write(tmp_path, {"ops.py": _BLEND, "main.py": _compositor("soft(a, b, tuned(0.1))")})
    assert _run(tmp_path) == []


def test_the_item_of_a_carried_tuple_that_comes_back_strong_is_named() -> None:
    """Settings tuples carried through jitted updates (tests/fixtures/carried_tuple_leaves, proved
    by JAX): the message names the item, nested ones too, that a reduction makes strong, in a loop
    or on an object; the tuples whose items keep their weak type (through where, minimum, a
    fori_loop, hypot, clip), or start strong, or are mixed, say nothing."""
    project = Path(__file__).parent / "fixtures" / "carried_tuple_leaves"
    found = _run(project)
    assert _where(found) == [
        ("plant.py", 12, "RTL401"),
        ("plant.py", 27, "RTL401"),
        ("plant.py", 52, "RTL401"),
    ]
    gains, bounds, openings = (f.message for f in found)
    assert gains.startswith(
        "gains[1] starts as a weakly typed scalar here and is a strongly typed array once retune()"
        " returns it, so jitted 'retune' traces again"
    )
    assert bounds.startswith("bounds[0][1] starts as a weakly typed scalar here")
    # Stored by __init__, rebound by a method each step: reported at the store.
    assert openings.startswith(
        "self.openings[1] starts as a weakly typed scalar here and is a strongly typed array once"
        " rebalance() returns it"
    )
    assert all(f.severity == "warning" for f in found)


def test_a_carried_scalar_a_branch_in_the_loop_makes_an_array() -> None:
    """multinerf's loss threshold (tests/fixtures/carried_through_branches, proved by JAX): a Python
    float before the loop that a branch in it rebinds to an array traces the step twice, whatever
    the branch's condition; an array from the start, a branch that gives a Python float again, and
    a name set anew before each call say nothing."""
    found = _run(Path(__file__).parent / "fixtures" / "carried_through_branches")
    assert _where(found) == [("train.py", 7, "RTL401")]
    assert found[0].message.startswith(
        "loss_threshold starts as a weakly typed scalar and a branch in the loop makes it a strongly"
        " typed array after each iteration of the loop at line 8, so jitted 'train_step' re-traces"
    )
    assert found[0].severity == "warning"


def test_a_list_comprehension_over_a_range_whose_bound_changes() -> None:
    """tests/fixtures/list_lengths_from_ranges, proved by JAX: a helper's list of keys one per step
    of a horizon that grows, and rows stacked from such a list, change size per epoch; lists as long
    as a module constant or a fixed array, and rows padded to a maximum count, do not."""
    found = _run(Path(__file__).parent / "fixtures" / "list_lengths_from_ranges")
    assert _where(found) == [("rollout.py", 19, "RTL105"), ("train.py", 21, "RTL105")]
    keys, rows = (f.message for f in found)
    # The code is shortened in the headline: the finding's line shows it whole.
    assert keys.startswith("[jax.random.fold_in(key, t) for t in range(ho... changes shape in the")
    assert "train.py:10, so jitted 'rollout_loss' re-traces; pad to a fixed size" in keys
    assert "jitted 'stacked_loss' re-traces; pad to a fixed size" in rows
    assert all(f.severity == "error" for f in found)


def test_a_count_drawn_from_a_generator_the_caller_passes() -> None:
    """tests/fixtures/draws_from_a_passed_generator, proved by JAX: a helper given the simulation's
    NumPy generator draws a new hit count per event, and the list it makes is a new pytree each
    time; padded to a maximum, or counted by an object that is no generator, nothing changes."""
    found = _run(Path(__file__).parent / "fixtures" / "draws_from_a_passed_generator")
    assert _where(found) == [("events.py", 9, "RTL105")]
    assert "jitted 'energy' re-traces; pad to a fixed size" in found[0].message
    assert found[0].details[-1].endswith(": for _ in range(events)")
    assert found[0].severity == "error"


def test_a_dict_item_weak_in_the_defaults_and_strong_where_overridden() -> None:
    """tests/fixtures/dict_items_weak_and_strong, proved by JAX: a module's dict of Python floats
    passed as it is, and a copy of it with one item replaced by a float32 array (a `**` display, a
    `dict()` copy given the item, a helper's copy updated with its `**changes`), trace twice;
    reported at the float. Defaults that are arrays already, and an override that is a Python float
    (through a helper's `{**base, **changes}` too), trace once."""
    found = _run(Path(__file__).parent / "fixtures" / "dict_items_weak_and_strong")
    assert _where(found) == [
        ("defaults.py", 4, "RTL401"),
        ("defaults.py", 5, "RTL401"),
        ("defaults.py", 8, "RTL401"),
    ]
    lifetime, gain, damping = (f.message for f in found)
    assert damping.startswith("'solver['damping']' is weakly typed here but strongly typed from ")
    assert lifetime.startswith("'params['tau_n_fac']' is weakly typed here but strongly typed")
    assert "jitted 'predict' traces twice" in lifetime
    assert gain.startswith("'detector['gain']' is weakly typed here but strongly typed from ")
    assert all(f.severity == "warning" for f in found)


def test_a_list_appended_to_under_a_test_of_the_data() -> None:
    """tests/fixtures/lists_filled_under_a_test, proved by JAX: the tracks that pass a cut, kept in
    a list one append at a time, are as many as the data says, a new length per event; topped up to
    a fixed length, or every track kept, one length. The list is made anew by each call of the
    helper: the message says so, not that it grows across the event loop."""
    found = _run(Path(__file__).parent / "fixtures" / "lists_filled_under_a_test")
    assert _where(found) == [("cuts.py", 10, "RTL102")]
    assert found[0].message.startswith(
        "kept.append(tracks[t]) fills a list rebuilt per call of passing() with a length that"
        " differs in the loop at main.py:12, "
    )
    assert "jitted 'energy' re-traces; preallocate and mask" in found[0].message
    assert found[0].severity == "error"


def test_a_static_object_whose_float_fields_change() -> None:
    """tests/fixtures/static_options_float_fields, proved by JAX: frozen options built per tolerance
    are a float static value that changes (RTL202, the fields named), per step budget an int one
    (RTL201); one options object for every call says nothing."""
    found = _run(Path(__file__).parent / "fixtures" / "static_options_float_fields")
    assert _where(found) == [("main.py", 9, "RTL202"), ("main.py", 15, "RTL201")]
    tolerance, budget = (f.message for f in found)
    assert tolerance.startswith("float fields rtol, atol of static argument 'options' change")
    assert "change in the loop at line 9" in tolerance
    assert tolerance.endswith("pass its float fields traced")
    assert found[0].fix == (
        "pass the float fields that change as traced arguments (jnp.asarray(tol)), and build the"
        " object once, outside the loop"
    )
    assert "float fields" not in budget


def test_rows_unpacked_from_a_jax_array_keep_its_weak_type(tmp_path: Path) -> None:
    """``a, b = jnp.full((2,), 0.5)`` gives weakly typed rows, as the array is (jax 0.10.2:
    ``a.weak_type`` is True), and ``c, d = jnp.ones(2)`` strong ones: only the strong row and a
    Python float are two signatures."""
    _write(
        tmp_path,
        {
            "steps.py": JIT + "@jax.jit\ndef bump(x):\n    return x + 1\n",
            "main.py": (
                "import jax.numpy as jnp\nfrom steps import bump\n\n\n"
                "def weak_rows():\n"
                "    low, high = jnp.full((2,), 0.5)\n"
                "    bump(low)\n"
                "    return bump(0.5)\n\n\n"
                "def strong_rows():\n"
                "    low, high = jnp.ones(2)\n"
                "    bump(low)\n"
                "    return bump(2.0)\n"
            ),
        },
    )
    found = _only(tmp_path, ("main.py", 14, "RTL401"), "warning")
    assert "strongly typed array" in found.message


_PROMOTED = ["bool", "int8", "int32", "int64", "uint8", "uint32", "bfloat16", "float16", "float32"]


@pytest.mark.parametrize("left", _PROMOTED)
@pytest.mark.parametrize("right", _PROMOTED)
def test_the_promotion_table_agrees_with_jax(left: str, right: str) -> None:
    """The dtype of arithmetic between two strongly typed arrays is the one ``jnp.promote_types``
    gives with x64 on (the summaries keep 64-bit names; ``canonical_dtype`` narrows them without it)."""
    jax = pytest.importorskip("jax")
    from retracelint.summarise.apis import promoted

    with jax.enable_x64(True):
        assert promoted({left, right}) == str(jax.numpy.promote_types(left, right))


def test_a_weak_counter_advanced_by_python_ints_in_a_jitted_update_stays_weak() -> None:
    """tests/fixtures/weak_counters_kept_by_jitted_updates, proved by JAX, and
    weak_counters_of_flax_models_negative (FRESH_ROUND_7, implicit_q_learning common.py:69): a
    counter made from a Python int and advanced by Python ints inside the jitted update
    (``self._replace(step=self.step + 1)``, flax's ``self.replace``, through a method of the
    argument) comes back weakly typed: one trace, nothing reported. Advanced by an int32 array, it
    comes back strong: reported where the Python int is stored, a warning."""
    fixtures = Path(__file__).parent / "fixtures"
    found = _only(
        fixtures / "weak_counters_kept_by_jitted_updates", ("main.py", 25, "RTL401"), "warning"
    )
    assert found.message.startswith(
        "self.strict.step starts as a weakly typed scalar here and is a strongly typed array once"
        " update() stores it, so jitted 'strict_update' traces again"
    )
    assert _run(fixtures / "weak_counters_of_flax_models_negative") == []
