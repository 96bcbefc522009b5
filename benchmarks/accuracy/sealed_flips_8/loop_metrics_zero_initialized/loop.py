"""A small training-loop object in the style of a loop API: the loop state carries params, optimizer
state and the metrics that handlers forward from one epoch to the next."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

LR, MOMENTUM = 0.1, 0.9


class LoopState(NamedTuple):
    params: dict
    velocity: dict
    epoch: jax.Array
    metrics: dict


def init_loop_state(params):
    return LoopState(
        params=params,
        velocity=jax.tree_util.tree_map(jnp.zeros_like, params),
        epoch=jnp.zeros((), jnp.int32),
        metrics={"loss": jnp.zeros(()), "accuracy": jnp.zeros(())},
    )


def logits_fn(params, x):
    return jnp.tanh(x @ params["w1"]) @ params["w2"]


def loss_fn(params, x, y):
    logits = logits_fn(params, x)
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * y, axis=-1)), logits


@jax.jit
def train_epoch(state, xs, ys):
    def body(carry, batch):
        params, velocity = carry
        (loss, logits), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, *batch)
        velocity = jax.tree_util.tree_map(lambda v, g: MOMENTUM * v + g, velocity, grads)
        params = jax.tree_util.tree_map(lambda p, v: p - LR * v, params, velocity)
        correct = jnp.mean(jnp.argmax(logits, -1) == jnp.argmax(batch[1], -1))
        return (params, velocity), (loss, correct)

    (params, velocity), (losses, accuracy) = jax.lax.scan(body, (state.params, state.velocity), (xs, ys))
    metrics = {"loss": losses.mean(), "accuracy": accuracy.mean()}
    return LoopState(params, velocity, state.epoch + 1, metrics)
