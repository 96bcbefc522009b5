"""Weak types carried through a jitted step that lives in another module than its loop (issue 39,
sixth sealed round): the loop's own summary cannot see the jit there, so what the step gives back is
weighed where the projects are linked. A Python ``0`` summed with the float32 bond energy an imported
step returns (strong: it traces again); a learning rate the step hands back as ``lr * 0.99`` (weak
stays weak under jax: it traces once, not reported) against ``lr * jnp.float32(0.99)`` (strong); a
NamedTuple field that a factory starts at ``0.0`` and the jitted step, made by a closure, fills with
``norm``, a helper's ``jnp.sqrt(jnp.mean(...))``.
Each positive re-traces under jax and is found where the weak value is written; each twin traces
once and is not flagged."""

from __future__ import annotations

from pathlib import Path

from test_promoted_results import _found, _traced_as_expected, _write, needs_jax

# A spin chain's energy summed bond by bond through a jitted step of another module.
CHAIN = {
    "bonds.py": '''\
"""Bond energies of a ring of Ising spins."""

import jax
import jax.numpy as jnp

COUPLING = 1.0


def aligned_chains(n_chains, n_sites):
    return jnp.ones((n_chains, n_sites), jnp.float32)


@jax.jit
def add_bond(energy, spins, site):
    left = spins[:, site]
    right = jnp.take(spins, (site + 1) % spins.shape[1], axis=1)
    return energy - COUPLING * jnp.mean(left * right)
''',
    "ring.py": '''\
"""Sum the bonds of a few chains."""

import jax.numpy as jnp

from bonds import add_bond, aligned_chains


def chain_energy(spins):
    energy = @START@
    for site in range(spins.shape[1]):
        energy = add_bond(energy, spins, jnp.int32(site))
    return energy


def main():
    for _ in range(2):
        chain_energy(aligned_chains(4, 6))


if __name__ == "__main__":
    main()
''',
}

# A trainer keeps its learning rate on itself and decays it with the jitted update of its module;
# a script of another module drives it.
TRAINER = {
    "trainer.py": '''\
"""A trainer object around a jitted gradient step on a quadratic."""

import jax
import jax.numpy as jnp


@jax.jit
def sgd_step(params, lr):
    return params - lr * 2.0 * params, @DECAY@


class Trainer:
    def __init__(self):
        self.lr = 0.1
        self.params = jnp.ones(3, jnp.float32)

    def fit(self):
        self.params, self.lr = sgd_step(self.params, self.lr)
        return self.params
''',
    "train.py": '''\
"""Fit for a few epochs."""

from trainer import Trainer


def main(epochs=4):
    trainer = Trainer()
    for _ in range(epochs):
        trainer.fit()


if __name__ == "__main__":
    main()
''',
}

# An adaptive integrator whose NamedTuple state a factory starts; the jitted step a closure makes.
OSCILLATOR = {
    "adaptive.py": '''\
"""An adaptive Euler/Heun step carried in a NamedTuple."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class StepState(NamedTuple):
    t: jax.Array
    y: jax.Array
    dt: jax.Array
    last_norm: jax.Array


def initial_state(y0, dt0):
    return StepState(
        t=jnp.zeros((), jnp.float32),
        y=y0,
        dt=jnp.asarray(dt0, jnp.float32),
        last_norm=@START@,
    )


def error_norm(err, y):
    return jnp.sqrt(jnp.mean((err / (1e-3 * (1.0 + jnp.abs(y)))) ** 2))


def make_step(rhs):
    @jax.jit
    def adaptive_step(state):
        k1 = rhs(state.t, state.y)
        euler = state.y + state.dt * k1
        heun = state.y + state.dt / 2 * (k1 + rhs(state.t + state.dt, euler))
        norm = error_norm(heun - euler, state.y)
        accept = norm <= 1.0
        return StepState(
            t=jnp.where(accept, state.t + state.dt, state.t),
            y=jnp.where(accept, heun, state.y),
            dt=state.dt * jnp.clip(0.9 * norm**-0.5, 0.2, 5.0),
            last_norm=norm,
        )

    return adaptive_step
''',
    "run.py": '''\
"""Integrate a damped oscillator for a few steps."""

import jax.numpy as jnp

from adaptive import initial_state, make_step


def oscillator(t, y):
    return jnp.stack([y[1], -y[0] - 0.1 * y[1]])


def integrate(n_steps):
    step = make_step(oscillator)
    state = initial_state(jnp.array([1.0, 0.0], dtype=jnp.float32), dt0=0.1)
    for _ in range(n_steps):
        state = step(state)
    return state


if __name__ == "__main__":
    integrate(4)
''',
}


def _projects(tmp_path: Path) -> dict[str, Path]:
    return {
        "chain": _write(tmp_path / "chain", CHAIN, START="0"),
        "chain_float": _write(tmp_path / "chain_float", CHAIN, START="0.0"),
        "chain_fixed": _write(tmp_path / "chain_fixed", CHAIN, START="jnp.float32(0.0)"),
        "trainer": _write(tmp_path / "trainer", TRAINER, DECAY="lr * jnp.float32(0.99)"),
        "trainer_weak": _write(tmp_path / "trainer_weak", TRAINER, DECAY="lr * 0.99"),
        "oscillator": _write(tmp_path / "oscillator", OSCILLATOR, START="0.0"),
        "oscillator_fixed": _write(
            tmp_path / "oscillator_fixed", OSCILLATOR, START="jnp.zeros((), jnp.float32)"
        ),
    }


EXPECTED = {
    "chain": [("ring.py", 9, "RTL401")],
    "chain_float": [("ring.py", 9, "RTL401")],
    "trainer": [("trainer.py", 14, "RTL401")],
    "oscillator": [("adaptive.py", 21, "RTL401")],
}
RUNS = {
    "chain": ("ring.py", "add_bond"),
    "trainer": ("train.py", "sgd_step"),
    "oscillator": ("run.py", "adaptive_step"),
}


def test_weak_starts_carried_through_an_imported_step_are_found_where_written(
    tmp_path: Path,
) -> None:
    for name, root in _projects(tmp_path).items():
        assert _found(root) == EXPECTED.get(name, []), name


@needs_jax
def test_the_positives_retrace_under_jax_and_their_twins_do_not(tmp_path: Path) -> None:
    _traced_as_expected(_projects(tmp_path), EXPECTED, RUNS, tmp_path)
