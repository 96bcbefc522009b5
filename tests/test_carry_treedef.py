"""A lax carry loop (``lax.scan``, ``fori_loop``, ``while_loop``) gives back its initial carry's
treedef: a static field of the state it returns (tree_flatten's aux data, a ``pytree_node=False``
field) is the one that went in, whatever the body computes (issue 36). A sampler split across
modules: its state's static group count read after a scanned sweep is no cause of a re-trace; the
same field set per item of the loop before the sweep still is."""

from __future__ import annotations

from pathlib import Path

import pytest
from project_runs import findings_in

_STATE = """\
from dataclasses import dataclass, replace

import jax
import jax.numpy as jnp
from flax import struct


@jax.tree_util.register_pytree_node_class
@dataclass
class ChainState:
    assignments: jnp.ndarray
    weights: jnp.ndarray
    max_groups: int = 8

    def tree_flatten(self):
        return (self.assignments, self.weights), (self.max_groups,)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, *aux)


@struct.dataclass
class Tempering:
    beta: jnp.ndarray
    n_levels: int = struct.field(pytree_node=False, default=4)


def init_state(n_rows, max_groups=8):
    return ChainState(jnp.zeros((n_rows,), jnp.int32), jnp.ones((max_groups,)), max_groups=max_groups)


def relabel(state, rows):
    return replace(state, assignments=jnp.argmax(rows[:, : state.max_groups], axis=1))


def reweight(key, state):
    noise = jax.random.uniform(key, (state.max_groups,))
    return replace(state, weights=state.weights * noise)
"""

_KERNELS = """\
from functools import partial

import jax
import jax.numpy as jnp

from sampler.state import reweight


@partial(jax.jit, static_argnames=("max_groups",))
def assign(weights, rows, max_groups):
    return jnp.argmax(rows[:, :max_groups] * weights[:max_groups], axis=1)


@partial(jax.jit, static_argnums=(1,))
def ladder(beta, n_levels):
    return beta ** jnp.arange(n_levels)


def label(state, rows):
    return assign(state.weights, rows, state.max_groups)


def levels(temper):
    return ladder(temper.beta, temper.n_levels)


def sweep(key, state, n_sweeps=1):
    def one(carry, _):
        st, k = carry
        k, sub = jax.random.split(k)
        return (reweight(sub, st), k), None

    (out, _), _ = jax.lax.scan(one, (state, key), jnp.arange(n_sweeps))
    return out


def cool(temper, n_steps):
    def step(i, t):
        return t.replace(beta=t.beta * 0.9)

    return jax.lax.fori_loop(0, n_steps, step, temper)


def settle(temper):
    return jax.lax.while_loop(lambda t: t.beta > 0.1, lambda t: t.replace(beta=t.beta / 2), temper)
"""

_ANNEAL = """\
import jax
import jax.numpy as jnp

from sampler.kernels import cool, label, levels, settle, sweep
from sampler.state import Tempering, init_state, relabel


def anneal(data, stages=5, batch=16):
    key = jax.random.PRNGKey(0)
    state = init_state(batch)
    temper = Tempering(beta=jnp.ones(()))
    for stage in range(stages):
        key, k1 = jax.random.split(key)
        state = relabel(state, data[stage * batch : (stage + 1) * batch])
        labels = label(state, data)
        state = sweep(k1, state, n_sweeps=stage + 1)
        temper = cool(temper, stage + 1)
        temper = settle(temper)
        scale = levels(temper)
    return labels, scale
"""

# The same loop, each stage with a state of its own group count (``init_state`` per item), and a
# ladder of as many levels as the stage: the static fields go in changed, so they come out so.
_GROWING = """\
import jax
import jax.numpy as jnp

from sampler.kernels import cool, label, levels, sweep
from sampler.state import Tempering, init_state


def anneal(data, batch=16):
    key = jax.random.PRNGKey(0)
    for groups in (4, 8, 16, 32):
        key, k1 = jax.random.split(key)
        state = sweep(k1, init_state(batch, groups), n_sweeps=3)
        labels = label(state, data)
        temper = cool(Tempering(beta=jnp.ones(()), n_levels=groups), 3)
        scale = levels(temper)
    return labels, scale
"""


# The aux data named by a module's list of field names, as a state with many static fields spells it.
_NAMED_STATE = _STATE.replace(
    "        return (self.assignments, self.weights), (self.max_groups,)\n",
    "        return (self.assignments, self.weights), tuple(getattr(self, n) for n in _STATIC)\n",
).replace("\n\n@jax.tree_util", '\n_STATIC = ("max_groups",)\n\n\n@jax.tree_util', 1)


def _sampler(anneal: str, state: str = _STATE) -> dict[str, str]:
    return {
        "sampler/__init__.py": "",
        "sampler/state.py": state,
        "sampler/kernels.py": _KERNELS,
        "sampler/anneal.py": anneal,
    }


def _static_findings(found: list[dict]) -> list[tuple[str, int, str, str]]:
    return [
        (f["path"], f["line"], f["code"], f["parameter"]) for f in found if f["code"] == "RTL201"
    ]


# Labelled after the sweep: the state's static field read off the scan's result.
_LABEL_AFTER = _ANNEAL.replace(
    "        labels = label(state, data)\n        state = sweep(k1, state, n_sweeps=stage + 1)\n",
    "        state = sweep(k1, state, n_sweeps=stage + 1)\n        labels = label(state, data)\n",
)


@pytest.mark.parametrize(
    ("anneal", "state"),
    [(_ANNEAL, _STATE), (_LABEL_AFTER, _STATE), (_ANNEAL, _NAMED_STATE)],
    ids=["before", "after", "named-aux"],
)
def test_static_fields_of_a_carry_a_lax_loop_returns_are_the_initial_carrys(
    tmp_path: Path, anneal: str, state: str
) -> None:
    assert anneal.count("label(state, data)") == 1
    found = findings_in(tmp_path, _sampler(anneal, state), "--confidence=all")
    assert [f for f in found if f["path"] == "sampler/kernels.py"] == []


@pytest.mark.parametrize("state", [_STATE, _NAMED_STATE], ids=["aux", "named-aux"])
def test_static_fields_set_per_item_before_the_loop_still_change(
    tmp_path: Path, state: str
) -> None:
    found = findings_in(tmp_path, _sampler(_GROWING, state))
    assert _static_findings(found) == [
        ("sampler/kernels.py", 20, "RTL201", "max_groups"),
        ("sampler/kernels.py", 24, "RTL201", "n_levels"),
    ]
    assert all(f["message"].endswith("(at most 4 traces: one per listed item)") for f in found)
