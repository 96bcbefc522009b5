"""A small equinox regressor and its jitted training step (plain SGD with a warm-up)."""

import equinox as eqx
import jax
import jax.numpy as jnp

LEARNING_RATE = 0.1


def make_model(key):
    return eqx.nn.MLP(in_size=1, out_size=1, width_size=16, depth=2, key=key)


def loss_fn(model, x, y):
    pred = jax.vmap(model)(x)
    return jnp.mean((pred - y) ** 2)


@eqx.filter_jit
def train_step(model, x, y, step):
    # Warm-up: the first steps take smaller updates.
    scale = jnp.minimum(1.0, (step + 1) / 5.0)
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
    updates = jax.tree.map(lambda g: -LEARNING_RATE * scale * g, grads)
    return eqx.apply_updates(model, updates), loss
