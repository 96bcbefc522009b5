"""Reduce the learning rate when the loss plateaus; the scheduler state is a NamedTuple of scalars."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class PlateauState(NamedTuple):
    scale: jax.Array
    best: jax.Array
    avg_value: jax.Array
    count: jax.Array


def init_plateau():
    return PlateauState(
        scale=jnp.ones((), jnp.float32),
        best=jnp.full((), jnp.inf, jnp.float32),
        avg_value=jnp.asarray(0.0),  # expect: RTL401
        count=jnp.zeros((), jnp.int32),
    )


@jax.jit
def update_plateau(state, loss):
    avg = 0.9 * state.avg_value + 0.1 * loss
    improved = avg < state.best
    count = jnp.where(improved, 0, state.count + 1)
    scale = jnp.where(count > 3, state.scale * 0.5, state.scale)
    count = jnp.where(count > 3, 0, count)
    return PlateauState(scale, jnp.minimum(avg, state.best), avg, count)


@jax.jit
def sgd_step(w, x, y, scale):
    grad = jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.05 * scale * grad, jnp.mean((x @ w - y) ** 2)


def train(x, y, steps=12):
    w = jnp.zeros(x.shape[1])
    plateau = init_plateau()
    for _ in range(steps):
        w, loss = sgd_step(w, x, y, plateau.scale)
        plateau = update_plateau(plateau, loss)
    return w, plateau


if __name__ == "__main__":
    x = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
    train(x, x.sum(axis=1))
