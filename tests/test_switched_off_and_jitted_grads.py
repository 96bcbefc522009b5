"""Two false families of round 33 (issue 36), each with a twin that stays reported.

- F1: ``jax.jit(jax.grad(f, argnums=1))`` gives the gradient the weak type of the argument it is
  taken of (jax 0.10.2: a Python float in, a weakly typed float32 out), so a Python float carried
  through ``x = x + lr * grad(key, x)`` stays weak and shares one trace with the first call. It was
  taken for strong because another argument (the key) is. The twin scales the step by
  ``jnp.float32(lr)``: strong after the first step, two traces, still reported.
- F14: a training loop nested in ``for stage in range(0):`` never runs; nor does the body of
  ``if False:``. The same loop under ``range(3)`` stays reported.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from retracelint.cli import main

_CLIMB = """\
import jax


def coin_payoff(key, bias, spread):
    heads = jax.random.bernoulli(key, bias)
    return jax.lax.cond(
        heads,
        lambda b: jax.random.normal(key) * spread * b,
        lambda b: jax.random.normal(key) * spread + b / 2,
        bias,
    )


slope_of = jax.jit(jax.grad(coin_payoff, argnums=1))

if __name__ == "__main__":
    key = jax.random.key(7)
    bias = 0.2
    for _ in range(400):
        key, sub = jax.random.split(key)
        slope = slope_of(sub, bias, 0.05)
        bias = bias + 0.01 * slope
"""

_CLIMB_TYPED = """\
import jax
import jax.numpy as jnp


def drift_payoff(key, drift, scale):
    return jnp.tanh(drift + scale * jax.random.normal(key))


typed_slope_of = jax.jit(jax.grad(drift_payoff, argnums=1))

if __name__ == "__main__":
    key = jax.random.key(11)
    typed = 0.2
    for _ in range(400):
        key, sub = jax.random.split(key)
        slope = typed_slope_of(sub, typed, 0.05)
        typed = typed + jnp.float32(0.01) * slope
"""

_COST = """\
import jax
import jax.numpy as jnp


@jax.jit
def cost(policy, states, penalty):
    return jnp.sum((states @ policy) ** 2) + penalty * jnp.sum(policy**2)
"""

_TRAIN = """\
import jax
import jax.numpy as jnp

from barrier.cost import cost


def train(stages, policy, states):
    penalty = 25_000
    for stage in range({stages}):
        for epoch in range(100):
            loss, grad = jax.value_and_grad(cost)(policy, states, penalty)
            policy = policy - 1e-4 * grad
        if loss > 1.0:
            penalty = penalty * jnp.float32(0.5)
    return policy


def ablate(policy, states):
    penalty = 10
    if False:
        for epoch in range(100):
            policy = policy - 1e-4 * cost(policy, states, penalty)
            penalty = penalty * jnp.float32(0.5)
    return policy


if __name__ == "__main__":
    print(train(3, jnp.ones((3, 2)), jnp.ones((16, 3))))
    print(ablate(jnp.ones((3, 2)), jnp.ones((16, 3))))
"""


def _found(root: Path) -> list[tuple[str, int, str]]:
    result = CliRunner().invoke(main, ["--no-cache", "--format", "json", str(root)])
    assert result.exit_code in (0, 1), result.output
    return [(Path(f["path"]).name, f["line"], f["code"]) for f in json.loads(result.stdout or "[]")]


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_jitted_gradient_of_a_python_float_stays_weak(tmp_path: Path) -> None:
    root = _write(tmp_path, {"climb.py": _CLIMB, "climb_typed.py": _CLIMB_TYPED})
    assert _found(root) == [("climb_typed.py", 13, "RTL401")]


@pytest.mark.parametrize(("stages", "expected"), [("0", []), ("3", [("train.py", 8, "RTL401")])])
def test_loop_over_an_empty_range_never_runs(
    tmp_path: Path, stages: str, expected: list[tuple[str, int, str]]
) -> None:
    files = {"barrier/__init__.py": "", "barrier/cost.py": _COST}
    root = _write(tmp_path, {**files, "train.py": _TRAIN.replace("{stages}", stages)})
    assert _found(root) == expected
