"""benchmarks/metamorphic/transforms.py: each rewrite keeps the program valid, its markers, its meaning.

The benchmark itself (JAX verifying thousands of variants) is not part of the suite; these tests run
the transforms on small programs in the accuracy benchmark's style, without jax, and execute the
rewritten pure-Python parts to check they compute what the originals did.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load():
    spec = importlib.util.spec_from_file_location(
        "metamorphic_transforms", ROOT / "benchmarks" / "metamorphic" / "transforms.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


T = _load()

TRAINER = {
    "main.py": '''"""Train a tiny model; the learning rate starts as a Python float."""

import functools

import jax
import jax.numpy as jnp

from schedule import warmup


@functools.partial(jax.jit, static_argnames=("steps",))
def train_step(params, lr, steps):
    return params - lr * jnp.sign(params) * steps


def scaled(x, factor):
    return jnp.asarray(x) * factor


def run(n):
    params = jnp.ones(3)
    lr = 0.1  # expect: RTL401
    for step in range(n):
        params = train_step(params, lr, steps=2)
        lr = warmup(step, lr)
    return params


if __name__ == "__main__":
    print(run(3))
''',
    "schedule.py": """import jax.numpy as jnp


def warmup(step, lr):
    return jnp.minimum(lr * 2, 1.0)
""",
}

LOADER = {
    "main.py": """import jax
import numpy as np

BATCH = 4


class Meter:
    def __init__(self):
        self.jax = "a field that happens to be called jax"
        self.total = None  # expect: RTL403


@jax.jit  # expect: RTL301
def mean(x):
    return x.mean()


def batches(data):
    for start in range(0, len(data), BATCH):
        yield data[start:start + BATCH]


def total(data):
    out = []
    for b in batches(data):
        out.append(float(mean(b)))
    else:
        out.append(0.0)
    return out


if __name__ == "__main__":
    print(total(np.arange(10.0)), Meter().jax)
""",
}

PURE = {
    "main.py": """def squares(n):
    out = []
    for i in range(n):
        if i == 2:
            continue
        out.append(i * i)
        if i > 5:
            break
    return out


def pairs(items):
    seen = 0
    for a, b in items:
        seen += a * b
    return seen


def doubled(v):
    k = v * 2
    return k + 1  # expect: RTL000
""",
}

PROGRAMS = {"trainer": TRAINER, "loader": LOADER, "pure": PURE}
# Transforms whose output gives the transform nothing more to do: a second pass declines.
IDEMPOTENT = (
    "alias_jax",
    "alias_jit",
    "decorator_to_call",
    "for_to_while",
    "to_module",
    "keywords_to_kwargs",
)


@pytest.mark.parametrize("name", sorted(T.TRANSFORMS))
@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_every_variant_parses_and_keeps_its_markers(name, program):
    original = PROGRAMS[program]
    variant = T.apply(name, original)
    if variant is None:
        return
    assert set(original) <= set(variant)
    for source in variant.values():
        ast.parse(source)
    assert T._markers(variant) == T._markers(original)
    if name in IDEMPOTENT:
        assert T.apply(name, variant) is None


def test_which_transforms_apply_where():
    applies = {
        p: sorted(n for n in T.TRANSFORMS if T.apply(n, PROGRAMS[p]) is not None) for p in PROGRAMS
    }
    assert applies == {
        "trainer": sorted(T.TRANSFORMS),
        "loader": sorted(set(T.TRANSFORMS) - {"keywords_to_kwargs"}),  # `mean(b)`: no keyword
        "pure": sorted(
            [
                "for_to_while",
                "to_module",
                "value_to_helper",
                "value_to_generator",
                "value_to_factory_dict",
            ]
        ),
    }


def test_alias_jax_renames_the_module_only():
    out = T.apply("alias_jax", LOADER)["main.py"]
    assert "import jax as J\n" in out
    assert "@J.jit  # expect: RTL301" in out
    assert 'self.jax = "a field that happens to be called jax"' in out
    assert "Meter().jax" in out
    out = T.apply("alias_jax", TRAINER)["main.py"]
    assert "import jax.numpy as jnp" in out and "functools.partial(J.jit" in out


def test_alias_jit_imports_jit_by_another_name():
    out = T.apply("alias_jit", TRAINER)["main.py"]
    assert "from jax import jit as compile_\n" in out
    assert "@functools.partial(compile_, static_argnames=" in out
    assert "jax.jit" not in out


def test_decorator_becomes_a_call_and_keeps_its_arguments_and_marker():
    out = T.apply("decorator_to_call", TRAINER)["main.py"]
    assert 'train_step = jax.jit(train_step, static_argnames=("steps",))\n' in out
    out = T.apply("decorator_to_call", LOADER)["main.py"]
    assert "mean = jax.jit(mean)  # expect: RTL301\n" in out
    assert "@jax.jit" not in out


def _run(source: str, call: str):
    namespace: dict = {}
    exec(compile(source, "<variant>", "exec"), namespace)
    return eval(call, namespace)


def test_for_to_while_computes_the_same_with_continue_break_and_tuple_targets():
    out = T.apply("for_to_while", PURE)["main.py"]
    assert "for " not in out
    for call in ("squares(4)", "squares(10)", "pairs([(1, 2), (3, 4)])"):
        assert _run(out, call) == _run(PURE["main.py"], call)
    # `for ... else` keeps its meaning only as a for loop.
    assert "for b in batches(data):" in T.apply("for_to_while", LOADER)["main.py"]


def test_value_to_helper_moves_marked_values_and_values_passed_to_jitted_functions():
    out = T.apply("value_to_helper", TRAINER)["main.py"]
    # Inner blocks are rewritten first, so the loop's helpers got the plain names.
    assert "def _make_lr2():\n        return 0.1  # expect: RTL401\n    lr = _make_lr2()\n" in out
    assert "def _make_params2():\n        return jnp.ones(3)\n    params = _make_params2()\n" in out
    assert "def _make_params():\n            return train_step(params, lr, steps=2)\n" in out
    out = T.apply("value_to_helper", LOADER)["main.py"]
    assert "def _make_total():\n            return None  # expect: RTL403\n" in out


@pytest.mark.parametrize(
    ("name", "made", "called"),
    [
        ("value_to_helper", "return k + 1", "return _make_result()"),
        ("value_to_generator", "yield k + 1", "return next(_make_result())"),
        ("value_to_factory_dict", "return k + 1", 'return {"result": _make_result}["result"]()'),
    ],
)
def test_each_helper_form_returns_the_same_value(name, made, called):
    out = T.apply(name, PURE)["main.py"]
    assert f"def _make_result():\n        {made}  # expect: RTL000\n    {called}\n" in out
    assert _run(out, "doubled(4)") == _run(PURE["main.py"], "doubled(4)") == 9


def test_to_module_moves_self_contained_functions_and_keeps_the_rest():
    out = T.apply("to_module", TRAINER)
    helpers, main = out["helpers_moved.py"], out["main.py"]
    assert "def train_step" in helpers and "def scaled" in helpers and "def run" in helpers
    assert "import functools" in helpers and "from schedule import warmup" in helpers
    assert "from helpers_moved import run, scaled, train_step\n" in main
    assert "def " not in main
    out = T.apply("to_module", LOADER)
    assert "def batches" in out["main.py"]  # reads BATCH, a global of main.py
    assert "def batches" not in out["helpers_moved.py"]
    assert "def total" in out["main.py"]  # calls batches, which stays
    assert "def mean" in out["helpers_moved.py"]


def test_calls_of_jitted_functions_pack_keywords_or_bind_the_first_argument():
    out = T.apply("keywords_to_kwargs", TRAINER)["main.py"]
    assert 'params = train_step(params, lr, **{"steps": 2})\n' in out
    assert "warmup(step, lr)" in out  # not jitted: untouched
    out = T.apply("first_arg_partial", TRAINER)["main.py"]
    assert "params = functools.partial(train_step, params)(lr, steps=2)\n" in out
    out = T.apply("first_arg_partial", LOADER)["main.py"]
    assert "import functools\n" in out and "functools.partial(mean, b)()" in out
    taken = {"main.py": "from functools import partial as functools\n" + LOADER["main.py"]}
    assert T.apply("first_arg_partial", taken) is None


def test_a_name_jax_bound_otherwise_makes_the_aliases_decline():
    shadowed = {"main.py": "import jax\n\n\ndef f(jax):\n    return jax.jit\n"}
    assert T.apply("alias_jax", shadowed) is None
    assert T.apply("alias_jit", shadowed) is None


def test_a_transform_that_would_break_the_program_declines():
    broken = {"main.py": "import jax\ndef f(:\n"}
    assert all(T.apply(n, broken) is None for n in T.TRANSFORMS)


def _load_runner():
    spec = importlib.util.spec_from_file_location(
        "metamorphic_run", ROOT / "benchmarks" / "metamorphic" / "run.py"
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_report_counts_variants_of_found_positives_and_negatives(tmp_path):
    """run.py without JAX or retracelint: real program folders, variants written, scores made up."""
    runner = _load_runner()
    acc = runner.accuracy
    positive, negative = runner.select("programs/array_as_tuple_static") + runner.select(
        "programs/bucketed_sequence_lengths"
    )
    originals = {
        positive.folder: acc.classify(
            positive,
            [acc.Finding(m.path, m.line, m.code) for m in positive.markers],
        ),
        negative.folder: acc.classify(negative, []),
    }
    variants = [
        runner.make_variant(case, name, tmp_path)
        for name in ("alias_jax", "value_to_helper")
        for case in (positive, negative)
    ]
    assert all(v.case is not None for v in variants)
    helper = variants[2].case
    assert helper.folder == tmp_path / "value_to_helper" / "programs" / "array_as_tuple_static"
    assert helper.markers != positive.markers  # the marker moved with the value's code
    # alias_jax keeps the finding, value_to_helper loses it; the negative's helper variant cries wolf.
    variants[0].score = acc.classify(variants[0].case, originals[positive.folder].findings)
    variants[1].score = acc.classify(variants[1].case, [])
    variants[2].score = acc.classify(helper, [])
    variants[3].score = acc.classify(variants[3].case, [acc.Finding("main.py", 3, "RTL101")])
    text = runner.render([positive, negative], originals, variants, "header", "programs/x")
    assert "variants of found positives still found: 1 / 2 (50 %)" in text
    assert "false alarms on variants of negatives: 1 / 2" in text
    assert "| alias_jax | 2 | 0 | 1 | 1 | 100 % | 1 | 0 |" in text
    assert "| value_to_helper | 2 | 0 | 1 | 0 | 0 % | 1 | 1 |" in text
    assert "`value_to_helper` / `programs/array_as_tuple_static`: missed" in text
    assert "`value_to_helper` / `programs/bucketed_sequence_lengths`: false alarm" in text


def test_verdicts_of_variants_run_before_are_reused(tmp_path, monkeypatch):
    """--verdicts: JAX runs a variant once; a second run (another retracelint) reads its verdict,
    and a variant whose files changed is run again."""
    runner = _load_runner()
    (case,) = runner.select("programs/array_as_tuple_static")
    runs: list[str] = []

    def verify(cases):
        runs.extend(c.id for c in cases)
        return [runner.accuracy.Verdict(c, {}, "traced 3 times, not 2") for c in cases]

    monkeypatch.setattr(runner.accuracy, "verify", verify)
    known: dict[str, str] = {}
    first = [runner.make_variant(case, "alias_jax", tmp_path)]
    runner.verify(first, 1, known)
    again = [runner.make_variant(case, "alias_jax", tmp_path)]
    runner.verify(again, 1, known)
    assert runs == [case.id]
    assert first[0].dropped == again[0].dropped == "traced 3 times, not 2"
    (again[0].case.folder / "main.py").write_text("import jax\n", encoding="utf-8")
    runner.verify(again, 1, known)
    assert runs == [case.id, case.id]
