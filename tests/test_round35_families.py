"""Round 35's false families (issue 36), on realistic code split across modules: a trainer's
function rebound to its transform after the closures that call it are defined (F1, brax's
``training_epoch = jax.pmap(training_epoch)``), a loop over ``range(1, len(levels))`` that every
caller gives two levels (F2: one turn, nothing repeats), and arguments after a ``*tuple`` mapped as
if the tuple took no positions (F4). Each false shape is checked gone and a true twin of the same family
kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from project_runs import findings_in


def _where(found: list[dict]) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["code"]) for f in found]


# F1: ``train_epoch_timed`` is defined while ``train_epoch`` is the plain def, but it can only run
# once ``make_trainer`` returns it, after the rebinding: its call is a call of the transformed
# function, whose scans run once while it traces.
_TRAINER = """\
import equinox as eqx
import jax
import jax.numpy as jnp


def make_trainer(rollout_length, updates_per_epoch):
    def collect(params, obs):
        def env_step(carry, _):
            next_obs = jnp.tanh(carry * params)
            return next_obs, next_obs.sum()

        obs, rewards = jax.lax.scan(env_step, obs, None, length=rollout_length)
        return obs, rewards.mean()

    def train_epoch(params, obs):
        def update(carry, _):
            obs, reward = collect(params, carry)
            return obs, reward

        return jax.lax.scan(update, obs, None, length=updates_per_epoch)

    def train_epoch_timed(params, obs):
        obs, rewards = train_epoch(params, obs)
        return obs, rewards.mean()

{before}    train_epoch = {transform}
    return train_epoch_timed
"""

_TRAIN = """\
import jax.numpy as jnp

from agents.sac import make_trainer

run_epoch = make_trainer(rollout_length=64, updates_per_epoch=8)
params = jnp.ones((1, 4)) * 0.5
obs = jnp.zeros((1, 4))
for epoch in range(100):
    obs, reward = run_epoch(params, obs)
    print(epoch, float(reward[0]))
"""


def _trainer(tmp_path: Path, transform: str, before: str = "") -> list[dict]:
    files = {
        "agents/__init__.py": "",
        "agents/sac.py": _TRAINER.format(transform=transform, before=before),
        "train.py": _TRAIN,
    }
    return findings_in(tmp_path, files)


@pytest.mark.parametrize(
    "transform",
    [
        'jax.pmap(train_epoch, axis_name="devices")',
        "jax.jit(train_epoch)",
        "eqx.filter_jit(train_epoch)",
    ],
)
def test_a_closure_calls_the_transform_its_name_is_rebound_to(
    tmp_path: Path, transform: str
) -> None:
    assert _trainer(tmp_path, transform) == []


def test_a_closure_called_before_the_rebinding_calls_the_plain_function(tmp_path: Path) -> None:
    # A warm-up loop runs the plain function before the name is rebound: each call makes new
    # scan bodies, traced again.
    warm_up = """\
    obs = jnp.zeros((1, 4))
    for _ in range(rollout_length):
        obs, _ = train_epoch_timed(jnp.ones((1, 4)), obs)
"""
    found = _trainer(tmp_path, "jax.jit(train_epoch)", before=warm_up)
    assert _where(found) == [
        ("agents/sac.py", 12, "RTL301"),
        ("agents/sac.py", 20, "RTL301"),
    ]
    assert "each call of collect()" in found[0]["message"]


def test_a_rebinding_on_one_path_leaves_the_plain_function_live(tmp_path: Path) -> None:
    # On one device the name keeps the plain def: every epoch re-traces both scans.
    found = _trainer(
        tmp_path,
        'jax.pmap(train_epoch, axis_name="devices")',
        before="    if jax.device_count() > 1:\n    ",
    )
    assert _where(found) == [("agents/sac.py", 20, "RTL301")]
    assert "each call of train_epoch()" in found[0]["message"]


# F4: ``force_error``'s ``*common`` fills the jitted function's first four positions, so
# ``forces`` is its fifth argument, traced.
_KALMAN = """\
from typing import NamedTuple

import jax
import jax.numpy as jnp
from frozendict import frozendict


class CommonArgs(NamedTuple):
    species_models: frozendict
    positions: jax.Array
    cell: jax.Array
    charges: jax.Array


def _force_error(species_models, positions, cell, charges, forces, unflatten, weights):
    params = unflatten(weights)
    predicted = sum(m(params, positions @ cell) * charges for m in species_models.values())
    return (forces - predicted).ravel()


_jitted_force_error = jax.jit(_force_error, static_argnums={static})


class KalmanFit:
    def __init__(self, species_models, unflatten, weights):
        self.species_models = species_models
        self.unflatten = unflatten
        self.weights = weights

{force_error}
    def fit(self, structures, epochs):
        for epoch in range(epochs):
            for positions, cell, charges, forces in structures:
                common = CommonArgs(self.species_models, positions, cell, charges)
                error = self.force_error(common, forces)
                self.weights = self.weights + 1e-3 * error.mean()
        return self.weights
"""

# The tuple passed along (a NamedTuple made by the caller): its length is not known here.
_PASSED_ON = """\
    def force_error(self, common, forces):
        return _jitted_force_error(*common, forces, self.unflatten, self.weights)
"""

# The tuple built where it is unpacked: four items.
_BUILT_HERE = """\
    def force_error(self, common, forces):
        parts = (self.species_models, common.positions, common.cell, common.charges)
        return _jitted_force_error(*parts, forces, self.unflatten, self.weights)
"""

_FIT = """\
import jax.numpy as jnp
from frozendict import frozendict

from fitting.kalman import KalmanFit


def hydrogen(params, x):
    return jnp.tanh(x * params["h"])


def oxygen(params, x):
    return jnp.tanh(x * params["o"])


def unflatten(w):
    return {"h": w[0], "o": w[1]}


structures = [
    (jnp.ones((6, 3)) * i, jnp.eye(3), jnp.ones((6, 1)), jnp.zeros((6, 3))) for i in range(50)
]
fit = KalmanFit(frozendict(H=hydrogen, O=oxygen), unflatten, jnp.ones(2))
print(fit.fit(structures, epochs=10))
"""


def _kalman(tmp_path: Path, static: str, force_error: str) -> list[dict]:
    files = {
        "fitting/__init__.py": "",
        "fitting/kalman.py": _KALMAN.format(static=static, force_error=force_error),
        "train_potential.py": _FIT,
    }
    return findings_in(tmp_path, files)


@pytest.mark.parametrize("force_error", [_PASSED_ON, _BUILT_HERE])
def test_an_argument_after_a_starred_tuple_is_not_its_first_position(
    tmp_path: Path, force_error: str
) -> None:
    assert _kalman(tmp_path, "(0, 5)", force_error) == []


def test_a_static_position_inside_a_tuple_built_here_is_its_item(tmp_path: Path) -> None:
    # Position 1 is the tuple's second item, new for each structure: static, it re-traces.
    found = _kalman(tmp_path, "(1, 5)", _BUILT_HERE)
    assert _where(found) == [("fitting/kalman.py", 32, "RTL201")]
    assert "static argument parts[1] changes in the loop at line 36" in found[0]["message"]
    assert found[0]["col"] == 36


def test_a_static_position_after_a_tuple_built_here_is_shifted(tmp_path: Path) -> None:
    # Position 4 is ``forces``, after the tuple's four items: static, it re-traces.
    # Shown where ``forces`` comes from, the loop's call of ``force_error``.
    found = _kalman(tmp_path, "(0, 4)", _BUILT_HERE)
    assert _where(found) == [("fitting/kalman.py", 38, "RTL201")]
    assert "static argument forces changes in the loop at line 36" in found[0]["message"]
    assert found[0]["col"] == 50


# F2: a Gaussian process corrected level by level; ``range(1, len(train_xs))`` turns once per level
# past the first, and every caller passes two levels: one call of the jit per call.
_LEVELS = """\
from functools import partial

import jax
import jax.numpy as jnp


def rbf(a, b, scale):
    return jnp.exp(-((a[:, None] - b[None, :]) ** 2) / scale)


@partial(jax.jit, static_argnames=["kernel"])
def correct(query_x, prior_mean, train_x, train_prior, train_y, kernel, scale):
    k = kernel(query_x, train_x, scale)
    gram = kernel(train_x, train_x, scale) + 1e-6 * jnp.eye(len(train_x))
    return prior_mean + k @ jnp.linalg.solve(gram, train_y - train_prior)


def predict_levels(test_x, train_xs, train_ys, kernel, scale):
    mean = jnp.zeros(len(test_x) + sum(len(x) for x in train_xs[1:]))
    for level in range(1, len(train_xs)):
        n = len(train_xs[level])
        train_prior, test_prior = mean[:n], mean[n:]
        query_x = jnp.concatenate([*train_xs[level + 1 :], test_x])
        mean = correct(
            query_x, test_prior, train_xs[level], train_prior, train_ys[level], kernel, scale
        )
    return mean
"""

_SWEEP = """\
import jax.numpy as jnp

from gp.levels import predict_levels, rbf

cheap_x = jnp.linspace(0.0, 1.0, 200)
mid_x = jnp.linspace(0.0, 1.0, 80)
exact_x = jnp.linspace(0.0, 1.0, 20)
test_x = jnp.linspace(0.0, 1.0, 50)
for scale in (0.1, 0.2, 0.5):
    mean = predict_levels(test_x, {xs}, {ys}, rbf, scale)
    print(scale, float(mean.mean()))
"""


# The count named first, as the original does (``num_fidelities = len(train_x)``).
_COUNTED = _LEVELS.replace(
    "    for level in range(1, len(train_xs)):",
    "    num_levels = len(train_xs)\n    for level in range(1, num_levels):",
)


def _levels(tmp_path: Path, *levels: str, source: str = _LEVELS) -> list[dict]:
    xs = "[" + ", ".join(levels) + "]"
    ys = "[" + ", ".join(f"jnp.sin({x})" for x in levels) + "]"
    files = {
        "gp/__init__.py": "",
        "gp/levels.py": source,
        "fit.py": _SWEEP.format(xs=xs, ys=ys),
    }
    return findings_in(tmp_path, files)


@pytest.mark.parametrize("source", [_LEVELS, _COUNTED])
def test_a_loop_past_the_first_of_two_levels_turns_once(tmp_path: Path, source: str) -> None:
    assert _levels(tmp_path, "cheap_x", "exact_x", source=source) == []


@pytest.mark.parametrize(("source", "line"), [(_LEVELS, 20), (_COUNTED, 21)])
def test_a_loop_past_the_first_of_three_levels_repeats(
    tmp_path: Path, source: str, line: int
) -> None:
    # Two turns, each with a query of another length: the jit traces twice per scale.
    found = _levels(tmp_path, "cheap_x", "mid_x", "exact_x", source=source)
    assert _where(found) == [("gp/levels.py", line + 3, "RTL101")]
    message = f"train_xs[level + 1 :] changes shape in the loop at line {line}"
    assert message in found[0]["message"]
