"""RTL301's fix for a lax loop run outside jit with a body made anew at each call (issue 41), as a user
meets it on a project split over modules: the function that runs the loop jitted (its function
arguments static), so the loop and its bodies trace once. Unsafe (``--unsafe-fixes``), idempotent, and
refused, with the reason, where the function's body does more than compute arrays from its arguments
or a static argument may be a new object at each call."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_fix_closures import fixed_once, lint, project, proved_by_jax

ENSEMBLE = '''\
"""Ensemble forecasts of a noisy linear system: one lax.scan over the horizon per request."""

import jax


def transition(dynamics, state, key):
    noise = dynamics["noise"] * jax.random.normal(key, state.shape)
    return dynamics["a"] @ state + noise


def forecast(dynamics, start, keys):
    # one noisy step per key, from the request's start
    def step(state, key):
        following = transition(dynamics, state, key)
        return following, following

    return jax.lax.scan(step, start, keys)[1]
'''

SERVE = """\
import json
from pathlib import Path

import jax
import jax.numpy as jnp
from ensemble import forecast


def serve(dynamics, starts, horizon=6):
    key = jax.random.PRNGKey(0)
    means = []
    for start in starts:
        key, sub = jax.random.split(key)
        path = forecast(dynamics, start, jax.random.split(sub, horizon))
        means.append(float(path.mean()))
    return means


dynamics = {"a": jnp.array([[0.9, 0.1], [0.0, 0.8]]), "noise": jnp.array([0.05, 0.1])}
means = serve(dynamics, [jnp.ones(2) * k for k in range(3)])
Path(__file__).with_name("out.json").write_text(json.dumps(means), encoding="utf-8")
"""

FIXED_POINT = '''\
"""Damped fixed-point iteration x = g(x), written with lax.while_loop."""

import jax
import jax.numpy as jnp


def fixed_point(g, x0, damping=0.5, tol=1e-5):
    def far(carry):
        x, previous = carry
        return jnp.max(jnp.abs(x - previous)) > tol

    def relax(carry):
        x, _ = carry
        return (1 - damping) * x + damping * g(x), x

    return jax.lax.while_loop(far, relax, (g(x0), x0))[0]


def solve_all(g, starts):
    return [fixed_point(g, x) for x in starts]
'''

ROOTS = """\
import json
from pathlib import Path

import jax.numpy as jnp
from fixed_point import solve_all


def contraction(x):
    return jnp.cos(x)


starts = [jnp.array([0.1, 0.5]) * k for k in range(1, 4)]
roots = [float(v) for root in solve_all(contraction, starts) for v in root]
Path(__file__).with_name("out.json").write_text(json.dumps(roots), encoding="utf-8")
"""


def test_the_function_running_an_eager_scan_is_jitted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"ensemble.py": ENSEMBLE, "serve.py": SERVE})
    assert lint("--fix", ".").exit_code == 1  # unsafe: --fix alone leaves it
    text = fixed_once(root, "ensemble.py")
    assert text == ENSEMBLE.replace(
        "\n\ndef forecast(", "\n\n@jax.jit\ndef forecast("
    )  # the comment and the rest as they were


def test_a_function_argument_the_loop_calls_is_made_static(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = project(tmp_path, monkeypatch, {"fixed_point.py": FIXED_POINT, "roots.py": ROOTS})
    text = fixed_once(root, "fixed_point.py")
    assert text == FIXED_POINT.replace(
        '"""\n\nimport jax\n', '"""\nfrom functools import partial\n\nimport jax\n'
    ).replace(
        "\n\ndef fixed_point(",
        '\n\n@partial(jax.jit, static_argnames=("g",))\ndef fixed_point(',
    )


def test_jitted_runners_trace_once_and_compute_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    proved_by_jax(
        tmp_path,
        monkeypatch,
        {
            "ensemble": ({"ensemble.py": ENSEMBLE, "serve.py": SERVE}, "serve.py", "step", 2),
            "roots": (
                {"fixed_point.py": FIXED_POINT, "roots.py": ROOTS},
                "roots.py",
                "relax",
                3,  # JAX's log marks its first trace too: a def of its line was seen (far)
            ),
        },
        by_function=True,
    )


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        (  # a step the host takes: under jit it would run once, at the trace
            "    return jax.lax.scan(step, start, keys)[1]\n",
            '    print("forecasting", len(keys))\n    return jax.lax.scan(step, start, keys)[1]\n',
            "forecast calls print at line 17, which a jit runs once, as it traces",
        ),
        (  # a stride of the keys is part of the program: it must stay static
            "def forecast(dynamics, start, keys):\n",
            "def forecast(dynamics, start, keys, thin=1):\n"
            "    keys = keys if thin == 1 else keys[::thin]\n",
            "thin must stay static: slices with it",
        ),
        (  # what a jit would give back as an array
            "    return jax.lax.scan(step, start, keys)[1]\n",
            "    return jax.lax.scan(step, start, keys)[1].tolist()\n",
            "forecast calls tolist at line 17",
        ),
    ],
)
def test_a_runner_whose_body_a_jit_would_change_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, old: str, new: str, reason: str
) -> None:
    ensemble = ENSEMBLE.replace(old, new)
    assert ensemble != ENSEMBLE
    root = project(tmp_path, monkeypatch, {"ensemble.py": ensemble, "serve.py": SERVE})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert reason in result.stderr
    assert (root / "ensemble.py").read_text(encoding="utf-8") == ensemble


def test_a_function_argument_made_anew_at_each_call_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a lambda per call would be a new static argument, traced again at each call
    fixed_point = FIXED_POINT.replace("fixed_point(g, x) for", "fixed_point(lambda y: g(y), x) for")
    files = {"fixed_point.py": fixed_point, "roots.py": ROOTS}
    root = project(tmp_path, monkeypatch, files)
    result = lint("--fix", "--unsafe-fixes", ".")
    assert "g must be static, and line 20 passes it lambda y: g(y)" in result.stderr
    assert (root / "fixed_point.py").read_text(encoding="utf-8") == fixed_point


SOLVER = '''\
"""Relaxation towards a target, the loop jitted per fit."""

import jax
import jax.numpy as jnp
from jax import lax


def fit(x0, target):
    def far(x):
        return jnp.max(jnp.abs(x - target)) > 1e-3

    def halve(x):
        return x + 0.5 * (target - x)

    run = jax.jit(lambda carry: lax.while_loop(far, halve, carry))
    return run(x0)
'''

FITS = """\
import jax.numpy as jnp
from solver import fit

print([fit(jnp.zeros(2), jnp.ones(2) * k).tolist() for k in range(3)])
"""


def test_a_function_a_lax_loop_is_handed_is_no_traced_value(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lax loop's operands take traced values, the functions it is handed do not: the jit of a
    lambda closing over a loop's cond made per call is left alone (made a traced argument, the cond
    would break the jit)."""
    root = project(tmp_path, monkeypatch, {"solver.py": SOLVER, "main.py": FITS})
    result = lint("--fix", "--unsafe-fixes", ".")
    assert "it closes over far, a function made anew at each call" in result.stderr
    assert (root / "solver.py").read_text(encoding="utf-8") == SOLVER
