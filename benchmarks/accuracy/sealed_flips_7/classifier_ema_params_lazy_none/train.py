"""Training state with Polyak-averaged (EMA) parameters for evaluation, and a jitted train step."""

import dataclasses
from typing import Any

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class TrainState:
    step: jax.Array
    params: dict
    momentum: dict
    # Lazily initialised on the first step.
    ema_params: Any = None  # expect: RTL403


def init_params(key, n_in, n_classes):
    k1, k2 = jax.random.split(key)
    return {"w": 0.1 * jax.random.normal(k1, (n_in, n_classes)), "b": jnp.zeros(n_classes)}


def create_state(key, n_in, n_classes):
    params = init_params(key, n_in, n_classes)
    momentum = jax.tree.map(jnp.zeros_like, params)
    return TrainState(step=jnp.zeros((), jnp.int32), params=params, momentum=momentum)  # expect: RTL403


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))


@jax.jit
def train_step(state, x, y, lr=0.1, decay=0.99):
    loss, grads = jax.value_and_grad(loss_fn)(state.params, x, y)
    momentum = jax.tree.map(lambda m, g: 0.9 * m + g, state.momentum, grads)
    params = jax.tree.map(lambda p, m: p - lr * m, state.params, momentum)
    if state.ema_params is None:
        ema = params
    else:
        ema = jax.tree.map(lambda e, p: decay * e + (1 - decay) * p, state.ema_params, params)
    return TrainState(state.step + 1, params, momentum, ema), loss
