"""A jit the caller passes, with a fallback in the callee (``p = p or make()``, ``p = make() if p is
None else p``, ``if p is None: p = make()``): the fallback is built only where a call leaves the
argument out or passes None. Fresh round 31, JaxDiffPowerFlow's ``exp05*`` optimisers (RTL301 x6):
the Adam loop builds the jitted gradient once and passes it at every step, and a jitted function is
true (checked with JAX 0.10.2: 1 trace over 50 steps). Kept: the same helper called in a loop
without the argument, which builds the jit at every step (checked: 50 traces)."""

from __future__ import annotations

from pathlib import Path

import pytest
from project_runs import findings_in

_OBJECTIVE = """\
import jax
import jax.numpy as jnp


def make_loss_grad(target):
    def loss(theta):
        return jnp.sum((jnp.tanh(theta) - target) ** 2)

    return jax.jit(jax.value_and_grad(loss))


def evaluate(theta, target, loss_grad=None):
    loss_grad = loss_grad or make_loss_grad(target)
    value, grad = loss_grad(theta)
    return float(value), grad


def evaluate_checked(theta, target, loss_grad=None):
    if loss_grad is None:
        loss_grad = make_loss_grad(target)
    return loss_grad(theta)


def evaluate_either(theta, target, loss_grad=None):
    loss_grad = make_loss_grad(target) if loss_grad is None else loss_grad
    return loss_grad(theta)
"""

_PASSED = """\
import jax.numpy as jnp

from gridopt import objective


def optimise(target, steps=50, lr=0.1):
    theta = jnp.zeros(3)
    loss_grad = objective.make_loss_grad(target)
    for _ in range(steps):
        value, grad = objective.EVALUATE(theta, target, loss_grad)
        theta = theta - lr * grad
    return theta


optimise(jnp.array([0.1, 0.2, 0.3]))
"""

_LEFT_OUT = """\
import jax.numpy as jnp

from gridopt import objective


def optimise(target, steps=50, lr=0.1):
    theta = jnp.zeros(3)
    for _ in range(steps):
        value, grad = objective.evaluate(theta, target)
        theta = theta - lr * grad
    return theta


optimise(jnp.array([0.1, 0.2, 0.3]))
"""


def _findings(root: Path, run: str) -> list[tuple]:
    texts = {
        "pyproject.toml": "",
        "gridopt/__init__.py": "",
        "gridopt/objective.py": _OBJECTIVE,
        "run_opt.py": run,
    }
    found = findings_in(root, texts)
    return [(f["path"], f["line"], f["code"]) for f in found]


@pytest.mark.parametrize("evaluate", ["evaluate", "evaluate_checked", "evaluate_either"])
def test_a_fallback_the_loop_passes_its_jit_to_is_never_built(
    tmp_path: Path, evaluate: str
) -> None:
    run = _PASSED.replace("value, grad = objective.EVALUATE", f"objective.{evaluate}")
    run = run.replace("theta = theta - lr * grad", "theta = theta * (1 - lr)")
    assert _findings(tmp_path, run) == []


def test_a_fallback_the_loop_leaves_to_the_helper_builds_a_jit_each_step(tmp_path: Path) -> None:
    assert _findings(tmp_path, _LEFT_OUT) == [("gridopt/objective.py", 9, "RTL301")]
