"""A tiny pair-potential calculator with an ASE-like interface."""

import jax
import jax.numpy as jnp

EPS = {1: 0.02, 6: 0.10, 7: 0.08, 8: 0.09}


def _energy(positions, numbers, cutoff):
    eps_table = jnp.zeros(9).at[jnp.array(list(EPS))].set(jnp.array(list(EPS.values())))
    eps = jnp.sqrt(eps_table[numbers][:, None] * eps_table[numbers][None, :])
    diff = positions[:, None, :] - positions[None, :, :]
    r2 = jnp.sum(diff**2, axis=-1) + jnp.eye(positions.shape[0])
    inv6 = (1.0 / r2) ** 3
    pair = 4.0 * eps * (inv6**2 - inv6)
    pair = jnp.where((r2 < cutoff**2) & ~jnp.eye(positions.shape[0], dtype=bool), pair, 0.0)
    return 0.5 * jnp.sum(pair)


class PairCalculator:
    def __init__(self, cutoff=5.0):
        self.cutoff = cutoff
        self._energy_and_forces = jax.jit(jax.value_and_grad(_energy))

    def calculate(self, structure):
        pos = jnp.asarray(structure.positions)
        e, grad = self._energy_and_forces(pos, jnp.asarray(structure.numbers), self.cutoff)
        return float(e), -grad
