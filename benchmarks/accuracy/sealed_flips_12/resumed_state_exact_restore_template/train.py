"""Train state and the jitted SGD-with-momentum step."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class TrainState(NamedTuple):
    step: jax.Array
    params: dict
    velocity: dict


def init_state(d):
    params = {"w": jnp.zeros((d,)), "b": jnp.zeros(())}
    return TrainState(
        step=jnp.zeros((), jnp.int32),
        params=params,
        velocity=jax.tree.map(jnp.zeros_like, params),
    )


def _loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def sgd_step(state, x, y, learning_rate):
    loss, grads = jax.value_and_grad(_loss)(state.params, x, y)
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, state.velocity, grads)
    params = jax.tree.map(lambda p, v: p - learning_rate * v, state.params, velocity)
    return TrainState(step=state.step + 1, params=params, velocity=velocity), loss


class Trainer:
    def __init__(self, learning_rate):
        self.learning_rate = learning_rate
        self._step = jax.jit(sgd_step)

    def fit(self, state, batches):
        for x, y in batches:
            state, loss = self._step(state, x, y, self.learning_rate)
            print(f"step {int(state.step)}: loss {float(loss):.4f}")
        return state
