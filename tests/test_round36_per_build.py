"""Round 36's false families (issue 36), on realistic code split across modules: a wrapper rebuilt
around an ``eqx.Module``'s bound method (F1, JaxNRSur: equinox keys its cache by the method as a
pytree of the model), an agent made once per training run whose jit and state are made in its
``__init__`` (F1, the SAC agent: one trace per run), and a NumPy reduction of a list taken for an
array as a static argument (F2, qutip-jax's ``np.prod(dims, dtype=int)``). Each false shape is
checked gone and a true twin of the same family kept."""

from __future__ import annotations

from pathlib import Path

import pytest
from project_runs import findings_in


def _where(found: list[dict]) -> list[tuple[str, int, str]]:
    return [(f["path"], f["line"], f["code"]) for f in found]


# F1, JaxNRSur: a waveform model (an equinox Module) and a plain one, each checked against
# reference samples in a loop that wraps the model's method anew at each sample.
_MODELS = """\
import equinox as eqx
import jax
import jax.numpy as jnp


class Surrogate(eqx.Module):
    weights: jax.Array
    modes: tuple = eqx.field(static=True)

    def __init__(self, n):
        self.weights = jnp.linspace(0.0, 1.0, n)
        self.modes = ((2, 2), (2, 1))

    def waveform(self, params, theta=0.0):
        return jnp.sin(self.weights * params.sum() + theta)


class PlainSurrogate:
    def __init__(self, n):
        self.weights = jnp.linspace(0.0, 1.0, n)

    def waveform(self, params, theta=0.0):
        return jnp.sin(self.weights * params.sum() + theta)
"""

_CHECK = """\
import equinox as eqx
import jax
import numpy as np

from wave.models import PlainSurrogate, Surrogate


class TestWaveforms:
    def __init__(self):
        self.model = Surrogate(64)
        self.plain = PlainSurrogate(64)

    def test_agreement(self):
        samples = np.random.default_rng(0).normal(size=(20, 7))
        angles = np.linspace(0.0, 1.0, 20)
        model = {model}
        for i in range(len(samples)):
            h = {wrap}(samples[i], theta=angles[i])
            assert np.isfinite(np.asarray(h)).all()
"""


def _waveforms(tmp_path: Path, model: str, wrap: str) -> list[dict]:
    files = {
        "wave/__init__.py": "",
        "wave/models.py": _MODELS,
        "test_waveforms.py": _CHECK.format(model=model, wrap=wrap),
    }
    return findings_in(tmp_path, files)


@pytest.mark.parametrize(
    ("model", "wrap"),
    [
        # The test's model, its method wrapped at each sample (JaxNRSur's test).
        ("self.model", "eqx.filter_jit(model.waveform)"),
        # A new model of the same fields per sample: the same pytree structure, one trace.
        ("self.model", "eqx.filter_jit(Surrogate(64).waveform)"),
        # A plain object's method read off one object: equal bound methods, one key to equinox.
        ("self.plain", "eqx.filter_jit(model.waveform)"),
    ],
)
def test_filter_jit_of_one_structures_bound_method_is_one_function(
    tmp_path: Path, model: str, wrap: str
) -> None:
    assert _waveforms(tmp_path, model, wrap) == []


@pytest.mark.parametrize(
    ("model", "wrap"),
    [
        # A new plain object per sample: a new bound method, another key each time.
        ("self.plain", "eqx.filter_jit(PlainSurrogate(64).waveform)"),
        # A lambda per sample: a new function object to equinox too.
        ("self.model", "eqx.filter_jit(lambda p, theta: model.waveform(p, theta))"),
        # jax.jit keys its cache by the function object: a new bound method each read.
        ("self.plain", "jax.jit(model.waveform)"),
    ],
)
def test_a_wrapper_around_a_new_function_each_sample_is_kept(
    tmp_path: Path, model: str, wrap: str
) -> None:
    found = _waveforms(tmp_path, model, wrap)
    assert _where(found) == [("test_waveforms.py", 18, "RTL301")]
    assert found[0]["severity"] == "error"


# F1, the SAC agent: a state whose optimizer and loss are static fields, made by the agent's
# ``__init__`` with the jit of its step; a pipeline trains one agent per task and seed.
_STATE = """\
from typing import Any

import jax
import jax.numpy as jnp
import optax
from flax import struct


class TrainState(struct.PyTreeNode):
    step: int
    params: Any
    opt_state: Any
    optimizer: optax.GradientTransformation = struct.field(pytree_node=False)
    loss_fn: Any = struct.field(pytree_node=False)

    def apply(self, grads):
        updates, opt_state = self.optimizer.update(grads, self.opt_state, self.params)
        params = optax.apply_updates(self.params, updates)
        return self.replace(step=self.step + 1, params=params, opt_state=opt_state)


def create_state(key, dim, lr):
    params = jax.random.normal(key, (dim,))
    optimizer = optax.adam(lr)
    return TrainState(
        step=0,
        params=params,
        opt_state=optimizer.init(params),
        optimizer=optimizer,
        loss_fn=lambda p, b: jnp.mean((b @ p) ** 2),
    )
"""

_AGENT = """\
from functools import partial

import jax

from agents.state import create_state


def _train_step(state, batch, discount):
    grads = jax.grad(lambda p: state.loss_fn(p, batch) * discount)(state.params)
    return state.apply(grads)


class Agent:
    def __init__(self, dim, lr, discount):
        self.key = jax.random.PRNGKey(0)
        self.state = create_state(self.key, dim, lr)
        self._step = jax.jit(partial(_train_step, discount=discount))

    def update(self, batch):
        self.state = self._step(self.state, batch)
        return self.state.step
"""

_LOOP = """\
import numpy as np


def run_loop(agent, n_steps, dim):
    rng = np.random.default_rng(0)
    for step in range(n_steps):
        agent.update(rng.normal(size=(32, dim)))
    return agent.state
"""

_PIPELINE = """\
import numpy as np
import yaml

from agents.agent import Agent
from agents.loop import run_loop


def train(cfg, seed):
{train}


def main():
    with open("config.yaml") as f:
        cfg = yaml.safe_load(f)
    for task in cfg["tasks"]:
        for seed in cfg["seeds"]:
            train(cfg[task], seed)


if __name__ == "__main__":
    main()
"""

# One agent per run, trained for the run's steps in another module's loop.
_PER_RUN = """\
    agent = Agent(cfg["dim"], cfg["lr"], cfg["discount"])
    return run_loop(agent, cfg["steps"], cfg["dim"])"""
# One agent per step: each step's jit traces again for the same shapes.
_PER_STEP = """\
    rng = np.random.default_rng(seed)
    for step in range(cfg["steps"]):
        agent = Agent(cfg["dim"], cfg["lr"], cfg["discount"])
        agent.update(rng.normal(size=(32, cfg["dim"])))"""


def _pipeline(tmp_path: Path, train: str, *flags: str) -> list[dict]:
    files = {
        "agents/__init__.py": "",
        "agents/state.py": _STATE,
        "agents/agent.py": _AGENT,
        "agents/loop.py": _LOOP,
        "run_pipeline.py": _PIPELINE.format(train=train),
    }
    return findings_in(tmp_path, files, *flags)


def test_an_agent_made_per_run_traces_once_per_run(tmp_path: Path) -> None:
    assert _pipeline(tmp_path, _PER_RUN) == []
    held = _pipeline(tmp_path, _PER_RUN, "--confidence", "all")
    # The static optimizer and lambda made with each agent meet one jit each: no RTL201/RTL204;
    # the rebuild is unproven, as a jit built once would trace once per agent all the same.
    assert _where(held) == [("agents/agent.py", 17, "RTL301")]
    assert held[0]["severity"] == "warning"
    (assumption,) = held[0]["assumptions"]
    assert assumption["kind"] == "rate-unproven"
    assert assumption["text"] == (
        "static field TrainState.optimizer changes in the loop at run_pipeline.py:16: a jit built"
        " once would trace once per build all the same"
    )


def test_an_agent_made_per_step_is_kept(tmp_path: Path) -> None:
    found = _pipeline(tmp_path, _PER_STEP)
    assert _where(found) == [("agents/agent.py", 17, "RTL301")]
    assert found[0]["severity"] == "error"
    assert "each call of Agent.__init__()" in found[0]["message"]


# F2, qutip-jax: a partial trace whose traced and kept sizes are static arguments, computed with
# NumPy from the subsystem dimensions, called for a sweep of states.
_TRACE = """\
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


@partial(jax.jit, static_argnums=(1, 2, 3))
def _partial_trace(rho, dims, n_out, n_keep):
    t = rho.reshape(dims + dims).transpose((0, 2, 1, 3))
    return jnp.trace(t.reshape(n_out, n_out, n_keep, n_keep))


def partial_trace(rho, dims, keep):
    dims = np.atleast_1d(dims)
    out = [i for i in range(len(dims)) if i not in keep]
{sizes}
    return _partial_trace(rho, tuple(int(d) for d in dims), n_out, n_keep)
"""

_STATES = """\
import jax.numpy as jnp

from qops.trace import partial_trace

for theta in jnp.linspace(0.0, 1.0, 20):
    psi = jnp.array([jnp.cos(theta), 0.0, 0.0, jnp.sin(theta)])
    print(partial_trace(jnp.outer(psi, psi), [2, 2], [1]))
"""


def _traces(tmp_path: Path, sizes: str) -> list[dict]:
    files = {
        "qops/__init__.py": "",
        "qops/trace.py": _TRACE.format(sizes=sizes),
        "run_states.py": _STATES,
    }
    return findings_in(tmp_path, files)


@pytest.mark.parametrize(
    "sizes",
    [
        # qutip-jax's: a product of a list, a NumPy int64.
        """\
    n_keep = np.prod([dims[i] for i in keep], dtype=int)
    n_out = np.prod([dims[i] for i in out], dtype=int)""",
        # A reduction method of a 1-d array, and the item of a 1-d array.
        """\
    kept = np.array([2, 2])
    n_keep = kept.max()
    n_out = kept[0]""",
        # Over every axis of a 2-d table: one value.
        """\
    n_keep = np.sum(np.ones((1, 2)), dtype=int)
    n_out = np.int64(2)""",
    ],
)
def test_a_numpy_scalar_is_a_hashable_static_argument(tmp_path: Path, sizes: str) -> None:
    assert _traces(tmp_path, sizes) == []


@pytest.mark.parametrize(
    "sizes",
    [
        # An array made of the dimensions: unhashable.
        """\
    n_keep = np.array([dims[i] for i in keep])
    n_out = 2""",
        # A product along one axis of a 2-d table: an array.
        """\
    n_keep = np.prod(np.ones((2, 2), dtype=int), axis=0)
    n_out = 2""",
    ],
)
def test_a_numpy_array_as_a_static_argument_is_kept(tmp_path: Path, sizes: str) -> None:
    found = _traces(tmp_path, sizes)
    assert _where(found) == [("qops/trace.py", 19, "RTL203")]
    assert "n_keep is a numpy array" in found[0]["message"]
