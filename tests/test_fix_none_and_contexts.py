"""RTL403's and RTL405's fixes (issue 41) on a project split over modules: a state that starts as None
and that the jitted function fills on its first call gets that branch run at the call, one that starts
as a NamedTuple the jitted step returns as a tuple starts as that tuple, and a context
around some calls of a jitted function becomes the program's setting. Both only with ``--unsafe-fixes``;
JAX says the fixed program traces each jitted function once and writes what the original wrote."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest
from test_fix_closures import fixed_once, lint, project, proved_by_jax

ACCUM = '''\
"""Gradient accumulation over micro-batches, applied every few of them."""

import jax
import jax.numpy as jnp


@jax.jit
def accumulate(total, grads):
    if total is None:
        return grads
    return jax.tree_util.tree_map(jnp.add, total, grads)


class Accumulator:
    def __init__(self, every):
        self.every = every
        self.reset()

    def reset(self):
        self.total = None  # the first add fills it
        self.count = 0

    def add(self, grads):
        self.total = accumulate(self.total, grads)
        self.count += 1
        return self.count == self.every
'''

SOLVER = '''\
"""A damped Newton step; each solve hands the damping it ends with to the next."""

import jax
import jax.numpy as jnp

SCALE = 1e-3


@jax.jit
def damped_step(grad, hess, radius, alpha):
    if alpha is None:
        # start from a damping scaled to the curvature
        alpha = SCALE * jnp.abs(jnp.diag(hess)).mean()
    step = -jnp.linalg.solve(hess + alpha * jnp.eye(grad.shape[0]), grad)
    norm = jnp.linalg.norm(step)
    return step * jnp.minimum(1.0, radius / norm), jnp.where(norm > radius, alpha * 2.0, alpha * 0.5)


def minimise(derivatives, x, iters=5, radius=0.5):
    alpha = None
    for _ in range(iters):
        grad, hess = derivatives(x)
        step, alpha = damped_step(grad, hess, radius, alpha)
        x = x + step
    return x
'''

RUN = """\
import json
from pathlib import Path

import jax
import jax.numpy as jnp
from accum import Accumulator
from solver import minimise


def loss(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


acc = Accumulator(2)
sums = []
for k in range(6):
    if acc.add({"w": jnp.full(3, float(k))}):
        sums.append(acc.total["w"].tolist())
        acc.reset()
x = minimise(jax.jit(lambda x: (jax.grad(loss)(x), jax.hessian(loss)(x))), jnp.array([-1.0, 1.5, 0.5]))
out = [v for s in sums for v in s] + x.tolist()
Path(__file__).with_name("out.json").write_text(json.dumps(out), encoding="utf-8")
"""

FIXED_ACCUM = ACCUM.replace(
    "self.total = accumulate(self.total, grads)",
    "self.total = grads if self.total is None else accumulate(self.total, grads)",
)
FIXED_SOLVER = SOLVER.replace(
    "= damped_step(grad, hess, radius, alpha)",
    "= damped_step(grad, hess, radius, SCALE * jnp.abs(jnp.diag(hess)).mean() if alpha is None else alpha)",
)
NONE_FIRST = {"accum.py": ACCUM, "solver.py": SOLVER, "run.py": RUN}


def test_the_none_branch_runs_at_the_call_in_each_module(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = project(tmp_path, monkeypatch, NONE_FIRST)
    safe = lint("--fix", ".")
    assert "2 hidden fixes can be enabled with the `--unsafe-fixes` option" in safe.stderr
    assert (root / "solver.py").read_text(encoding="utf-8") == SOLVER
    assert fixed_once(root, "accum.py") == FIXED_ACCUM  # the return form: the first call skipped
    assert (root / "solver.py").read_text(
        encoding="utf-8"
    ) == FIXED_SOLVER  # hess: what the call passes


RECORDS = '''\
"""The states the optimisers carry from step to step."""

from typing import NamedTuple

import jax


class Carry(NamedTuple):
    params: jax.Array
    velocity: jax.Array


class Moments(NamedTuple):
    mean: jax.Array
    scale: jax.Array
'''

OPTIM = '''\
"""Heavy-ball momentum and a running normaliser over a stream of gradients."""

import jax
import jax.numpy as jnp

from records import Carry, Moments


@jax.jit
def momentum_step(carry, grad):
    params, velocity = carry
    velocity = 0.9 * velocity + grad
    return params - 0.1 * velocity, velocity


def optimise(params, grads):
    # the velocity starts at rest
    carry = Carry(velocity=jnp.zeros_like(params), params=params)
    for grad in grads:
        carry = momentum_step(carry, grad)
    return carry


@jax.jit
def track(moments, grad):
    mean, scale = moments
    return 0.9 * mean + 0.1 * grad, 0.9 * scale + 0.1 * jnp.abs(grad)


def normalised(grads):
    moments = Moments(jnp.zeros(3), jnp.ones(3))
    print("starting from", moments.mean)
    for grad in grads:
        moments = track(moments, grad)
    return moments
'''


def test_a_record_start_becomes_the_tuple_the_step_returns_unless_a_field_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = project(tmp_path, monkeypatch, {"records.py": RECORDS, "optim.py": OPTIM})
    fixed = lint("--fix", "--unsafe-fixes", ".")
    assert fixed.exit_code == 1  # the normaliser's finding stays
    assert fixed.stderr.splitlines() == [
        "retracelint: optim.py:31:15: RTL403 not fixed: moments.mean at line 32 needs the record",
        "Found 2 errors (1 fixed, 1 remaining).",
    ]
    # the values in the order of Carry's fields, the tuple's parentheses kept
    assert (root / "optim.py").read_text(encoding="utf-8") == OPTIM.replace(
        "Carry(velocity=jnp.zeros_like(params), params=params)", "(params, jnp.zeros_like(params))"
    )
    assert lint("--fix", "--unsafe-fixes", ".").stderr.endswith("(0 fixed, 1 remaining).\n")


def test_a_branch_the_call_cannot_run_is_refused_with_its_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    two = SOLVER.replace(
        "        alpha = SCALE", "        print('first solve')\n        alpha = SCALE"
    )
    made = ACCUM.replace("accumulate(self.total, grads)", "accumulate(self.total, dict(grads))")
    root = project(tmp_path, monkeypatch, {"accum.py": made, "solver.py": two, "run.py": RUN})
    result = lint("--diff", "--unsafe-fixes", ".")
    assert (
        "solver.py:21:13: RTL403 not fixed: the 'if alpha is None:' branch is more than one statement"
        in (result.stderr)
    )
    assert (
        "accum.py:20:9: RTL403 not fixed: the call at line 24 passes a value made by a call"
        in result.stderr
    )
    assert result.stdout == ""
    assert (root / "solver.py").read_text(encoding="utf-8") == two


EVALUATION = '''\
"""Evaluation under the highest matmul precision, so that metrics do not depend on bf16 passes."""

import jax
import jax.numpy as jnp


def evaluate(model, w, x, y):
    with jax.default_matmul_precision("highest"):  # metrics at full precision
        return float(jnp.mean((model(w, x) - y) ** 2))
'''

TRAIN = """\
import json
from pathlib import Path

import jax
import jax.numpy as jnp
from evaluation import evaluate


@jax.jit
def predict(w, x):
    return jnp.tanh(x @ w)


def train(w, x, y, steps=6, every=2):
    scores = []
    for step in range(steps):
        w = w - 0.5 * x.T @ (predict(w, x) - y) / x.shape[0]
        if step % every == 0:
            scores.append(evaluate(predict, w, x, y))
    return scores


x = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
out = train(jnp.zeros(3), x, jnp.tanh(x @ jnp.array([0.5, -1.0, 2.0])))
Path(__file__).with_name("out.json").write_text(json.dumps(out), encoding="utf-8")
"""

FIXED_EVALUATION = EVALUATION.replace(
    "\n\ndef evaluate",
    '\n\njax.config.update("jax_default_matmul_precision", "highest")\n\n\ndef evaluate',
)
CONTEXT = {"evaluation.py": EVALUATION, "train.py": TRAIN}


def test_the_context_becomes_the_programs_setting_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    root = project(tmp_path, monkeypatch, CONTEXT)
    assert "1 hidden fix can be enabled" in lint("--fix", ".").stderr
    # made once: the program's setting is no setting of the context, so nothing is left to fix
    assert fixed_once(root, "evaluation.py") == FIXED_EVALUATION
    assert (root / "train.py").read_text(encoding="utf-8") == TRAIN


def test_a_context_set_elsewhere_or_from_a_variable_is_left_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    chosen = EVALUATION.replace('precision("highest")', "precision(PRECISION)").replace(
        "import jax.numpy as jnp\n", 'import jax.numpy as jnp\n\nPRECISION = "highest"\n'
    )
    root = project(tmp_path, monkeypatch, {"evaluation.py": chosen, "train.py": TRAIN})
    result = lint("--diff", "--unsafe-fixes", ".")
    assert "RTL405 not fixed: the context's setting is not one literal" in result.stderr
    assert (root / "evaluation.py").read_text(encoding="utf-8") == chosen


@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="jax is not installed")
def test_jax_traces_the_fixed_programs_once_and_they_write_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    programs = {
        "none_first": (NONE_FIRST, "run.py", "damped_step", 1),
        "context": (CONTEXT, "train.py", "predict", 1),
    }
    proved_by_jax(tmp_path, monkeypatch, programs)
