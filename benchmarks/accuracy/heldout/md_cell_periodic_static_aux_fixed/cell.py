"""Simulation cell and thermostat containers for a small Lennard-Jones MD run."""

import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Cell:
    lengths: jax.Array
    periodic: tuple  # per-axis flags, fixed for the whole run

    def wrap(self, pos):
        mask = jnp.asarray(self.periodic)
        wrapped = pos - self.lengths * jnp.floor(pos / self.lengths)
        return jnp.where(mask, wrapped, pos)

    def minimum_image(self, dr):
        mask = jnp.asarray(self.periodic)
        return jnp.where(mask, dr - self.lengths * jnp.round(dr / self.lengths), dr)


jax.tree_util.register_dataclass(Cell, data_fields=["lengths"], meta_fields=["periodic"])


@jax.tree_util.register_pytree_node_class
class Berendsen:
    def __init__(self, target_temp, tau):
        self.target_temp = target_temp
        self.tau = tau

    def tree_flatten(self):
        return (self.target_temp,), (self.tau,)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(children[0], *aux)


def make_cell(box, periodic_axes=(True, True, False)):
    return Cell(lengths=jnp.asarray(box, dtype=jnp.float32), periodic=tuple(periodic_axes))
