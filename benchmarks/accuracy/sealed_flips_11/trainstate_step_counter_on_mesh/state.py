"""Train state for a data-parallel run: parameters and optimizer moments live on the training mesh."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P


class TrainState(NamedTuple):
    step: jax.Array
    params: dict
    momentum: dict


def replicated(mesh):
    return NamedSharding(mesh, P())


def init_state(key, mesh, d_in=16, d_out=4):
    k1, _ = jax.random.split(key)
    params = {"w": 0.1 * jax.random.normal(k1, (d_in, d_out)), "b": jnp.zeros((d_out,))}
    params = jax.device_put(params, replicated(mesh))
    momentum = jax.tree.map(jnp.zeros_like, params)
    step = jax.device_put(jnp.zeros((), jnp.int32), replicated(mesh))
    return TrainState(step=step, params=params, momentum=momentum)
