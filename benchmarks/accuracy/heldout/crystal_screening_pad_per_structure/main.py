"""High-throughput relaxation screen: a learned pair potential relaxes a small
database of candidate structures.  Graphs are padded before the jitted
energy/force call, with the node count padded by one and the edge capacity set
to 1.1x the current edge count whenever a new structure comes in."""
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

CUTOFF = 3.0


class PaddedGraph(NamedTuple):
    positions: np.ndarray
    species: np.ndarray
    senders: np.ndarray
    receivers: np.ndarray
    edge_mask: np.ndarray


def neighbour_list(positions, cutoff):
    r = np.linalg.norm(positions[:, None, :] - positions[None, :, :], axis=-1)
    senders, receivers = np.nonzero((r < cutoff) & (r > 0.0))
    return senders, receivers


def _pad_to(x, size, fill):
    widths = [(0, size - x.shape[0])] + [(0, 0)] * (x.ndim - 1)
    return np.pad(x, widths, constant_values=fill)  # expect: RTL105


def pad_graph(positions, species, senders, receivers, n_node, n_edge):
    dummy = n_node - 1  # padding edges are self-loops on the last (dummy) node
    return PaddedGraph(
        positions=_pad_to(positions, n_node, 0.0),
        species=_pad_to(species, n_node, 0),
        senders=_pad_to(senders, n_edge, dummy),
        receivers=_pad_to(receivers, n_edge, dummy),
        edge_mask=_pad_to(np.ones(len(senders), bool), n_edge, False),
    )


def pair_energy(params, positions, species, senders, receivers, edge_mask):
    d = positions[receivers] - positions[senders]
    r2 = jnp.sum(d * d, axis=-1)
    r = jnp.sqrt(jnp.where(edge_mask, r2, 1.0))
    depth = params["depth"][species[senders], species[receivers]]
    r0 = params["r0"][species[senders], species[receivers]]
    morse = depth * (1.0 - jnp.exp(-params["alpha"] * (r - r0))) ** 2 - depth
    return 0.5 * jnp.sum(jnp.where(edge_mask, morse, 0.0))


@jax.jit
def energy_and_forces(params, positions, species, senders, receivers, edge_mask):
    energy, grad = jax.value_and_grad(pair_energy, argnums=1)(
        params, positions, species, senders, receivers, edge_mask)
    return energy, -grad


class PairPotentialCalculator:
    def __init__(self, params, cutoff=CUTOFF, capacity_multiplier=1.1):
        self.params = params
        self.cutoff = cutoff
        self.capacity_multiplier = capacity_multiplier
        self._edge_capacity = None

    def _pad(self, positions, species, new_system):
        senders, receivers = neighbour_list(positions, self.cutoff)
        if self._edge_capacity is None or new_system or len(senders) > self._edge_capacity:
            self._edge_capacity = int(np.ceil(len(senders) * self.capacity_multiplier))
        n_node = len(positions) + 1
        return pad_graph(positions, species, senders, receivers, n_node, self._edge_capacity)

    def calculate(self, positions, species, new_system=False):
        g = self._pad(positions, species, new_system)
        energy, forces = energy_and_forces(self.params, *g)
        return float(energy), np.asarray(forces)[: len(positions)]


def relax(calc, positions, species, steps=3, step_size=0.01):
    positions = positions.copy()
    energy = None
    for i in range(steps):
        energy, forces = calc.calculate(positions, species, new_system=(i == 0))
        positions = positions + step_size * np.clip(forces, -1.0, 1.0)
    return energy, positions


def candidate_structures():
    for shape in [(2, 2, 1), (3, 2, 1), (2, 2, 2), (3, 3, 1)]:
        grid = np.stack(np.meshgrid(*[np.arange(n) for n in shape], indexing="ij"), -1)
        positions = 2.0 * grid.reshape(-1, 3).astype(np.float64)
        species = (grid.reshape(-1, 3).sum(axis=1) % 2).astype(np.int32)
        yield "x".join(map(str, shape)), positions, species


def main():
    params = {
        "depth": jnp.array([[0.5, 0.8], [0.8, 0.4]]),
        "r0": jnp.array([[2.3, 2.1], [2.1, 2.4]]),
        "alpha": jnp.float32(1.5),
    }
    calc = PairPotentialCalculator(params)
    for name, positions, species in candidate_structures():
        energy, _ = relax(calc, positions, species)
        print(f"{name}: {len(positions)} atoms, E = {energy:.4f}")


if __name__ == "__main__":
    main()
