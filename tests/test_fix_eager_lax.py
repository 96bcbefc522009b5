"""RTL301's fix for a lax loop run outside jit with a body made anew at each call (issue 41), as a user
meets it on a project split over modules: the function that runs the loop jitted (its function
arguments static), so the loop and its bodies trace once. Unsafe (``--unsafe-fixes``), idempotent, and
refused, with the reason, where the function's body does more than compute arrays from its arguments
or a static argument may be a new object at each call."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_fix_closures import fixed_once, lint, project

SAMPLING = '''\
"""Posterior predictive draws, one lax.scan over the sample keys per request."""

import jax


def model(params, x, key):
    w = params["w_mean"] + params["w_std"] * jax.random.normal(key, params["w_mean"].shape)
    return x @ w


def predictive(params, x, keys):
    # one draw of the weights per key
    def draw_one(carry, key):
        return carry, model(params, x, key)

    return jax.lax.scan(draw_one, None, keys)[1]
'''

SERVE = """\
import json
from pathlib import Path

import jax
import jax.numpy as jnp
from sampling import predictive


def serve(params, requests, n_samples=8):
    key = jax.random.PRNGKey(0)
    means = []
    for x in requests:
        key, sub = jax.random.split(key)
        draws = predictive(params, x, jax.random.split(sub, n_samples))
        means.append(float(draws.mean()))
    return means


params = {"w_mean": jnp.array([1.0, -1.0]), "w_std": jnp.array([0.1, 0.2])}
means = serve(params, [jnp.ones((3, 2)) * k for k in range(3)])
Path(__file__).with_name("out.json").write_text(json.dumps(means), encoding="utf-8")
"""

LINESEARCH = '''\
"""Gradient descent with a backtracking line search written with lax.while_loop."""

import jax
import jax.numpy as jnp


def backtracking(fun, x, direction, slope, shrink=0.5, c=1e-4):
    f0 = fun(x)

    def not_enough_decrease(step):
        return fun(x + step * direction) > f0 + c * step * slope

    def shrink_step(step):
        return step * shrink

    return jax.lax.while_loop(not_enough_decrease, shrink_step, jnp.float32(1.0))


def minimise(fun, x, iterations=4):
    grad_fn = jax.grad(fun)
    for _ in range(iterations):
        g = grad_fn(x)
        x = x - backtracking(fun, x, -g, -jnp.dot(g, g)) * g
    return x
'''

BOWL = """\
import json
from pathlib import Path

import jax.numpy as jnp
from linesearch import minimise


def bowl(x):
    return jnp.sum(jnp.array([1.0, 10.0]) * x**2)


lowest = minimise(bowl, jnp.array([1.0, 1.0])).tolist()
Path(__file__).with_name("out.json").write_text(json.dumps(lowest), encoding="utf-8")
"""


def test_the_function_running_an_eager_scan_is_jitted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"sampling.py": SAMPLING, "serve.py": SERVE})
    assert lint("--fix", ".").exit_code == 1  # unsafe: --fix alone leaves it
    text = fixed_once(root, "sampling.py")
    assert text == SAMPLING.replace(
        "\n\ndef predictive(", "\n\n@jax.jit\ndef predictive("
    )  # the comment and the rest as they were


def test_a_function_argument_the_loop_calls_is_made_static(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"linesearch.py": LINESEARCH, "bowl.py": BOWL})
    text = fixed_once(root, "linesearch.py")
    assert text == LINESEARCH.replace(
        '"""\n\nimport jax\n', '"""\nfrom functools import partial\n\nimport jax\n'
    ).replace(
        "\n\ndef backtracking(",
        '\n\n@partial(jax.jit, static_argnames=("fun",))\ndef backtracking(',
    )


@pytest.mark.parametrize(
    ("files", "script", "body", "calls"),
    [
        ({"sampling.py": SAMPLING, "serve.py": SERVE}, "serve.py", "draw_one", 3),
        ({"linesearch.py": LINESEARCH, "bowl.py": BOWL}, "bowl.py", "not_enough_decrease", 4),
    ],
)
def test_jitted_runners_trace_once_and_compute_the_same(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    files: dict[str, str],
    script: str,
    body: str,
    calls: int,
) -> None:
    """Traces counted per function, as fix_proof.py counts them: JAX's log marks a nested def's first
    trace inside a jit a re-trace when a def of the same line was seen before (the original's)."""
    from dynamic_support import count_retraces_many

    for copy in ("original", "fixed"):
        (tmp_path / copy).mkdir()
        project(tmp_path / copy, monkeypatch, files)
    assert lint("--fix", "--unsafe-fixes", ".").exit_code == 0
    scripts = [tmp_path / c / script for c in ("original", "fixed")]
    before, after = count_retraces_many(scripts, cwd=tmp_path)
    assert not before.raised and not after.raised, after.summary()
    assert {f.name: n for f, n in before.traces.items()}[body] == calls
    assert after.traces and set(after.traces.values()) == {1}, after.summary()
    printed = [json.loads((tmp_path / c / "out.json").read_text()) for c in ("original", "fixed")]
    assert printed[0] == pytest.approx(printed[1], rel=1e-5)


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        (  # a step the host takes: under jit it would run once, at the trace
            "    return jax.lax.scan(draw_one, None, keys)[1]\n",
            '    print("drawing", len(keys))\n    return jax.lax.scan(draw_one, None, keys)[1]\n',
            "predictive calls print at line 16, which a jit runs once, as it traces",
        ),
        (  # a stride of the draws is part of the program: it must stay static
            "def predictive(params, x, keys):\n",
            "def predictive(params, x, keys, thin=1):\n    keys = keys if thin == 1 else keys[::thin]\n",
            "thin must stay static: slices with it",
        ),
        (  # what a jit would give back as an array
            "    return jax.lax.scan(draw_one, None, keys)[1]\n",
            "    return jax.lax.scan(draw_one, None, keys)[1].tolist()\n",
            "predictive calls tolist at line 16",
        ),
    ],
)
def test_a_runner_whose_body_a_jit_would_change_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str, reason: str
) -> None:
    sampling = SAMPLING.replace(old, new)
    root = project(tmp_path, monkeypatch, {"sampling.py": sampling, "serve.py": SERVE})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert reason in result.stderr
    assert (root / "sampling.py").read_text(encoding="utf-8") == sampling


def test_a_function_argument_made_anew_at_each_call_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a lambda per call would be a new static argument, traced again at each call
    linesearch = LINESEARCH.replace(
        "backtracking(fun, x, -g", "backtracking(lambda y: fun(y) + 0.0, x, -g"
    )
    root = project(tmp_path, monkeypatch, {"linesearch.py": linesearch, "bowl.py": BOWL})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert "fun must be static, and line 23 passes it lambda y: fun(y) + 0.0" in result.stderr
    assert (root / "linesearch.py").read_text(encoding="utf-8") == linesearch
