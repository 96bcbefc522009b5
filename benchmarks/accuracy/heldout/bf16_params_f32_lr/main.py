"""Fit a one-layer affine flow to 2-d data, training in bfloat16 to save memory."""

import jax
import jax.numpy as jnp
import numpy as np
from precision import to_precision


def nll(params, x):
    z = (x - params["shift"]) * jnp.exp(-params["log_scale"])
    return jnp.mean(0.5 * jnp.sum(z**2, axis=-1) + jnp.sum(params["log_scale"]))


@jax.jit
def train_step(params, x, lr):
    loss, grads = jax.value_and_grad(nll)(params, x)
    new = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return new, loss


def fit(data, steps=6):
    params = {"shift": jnp.zeros(2), "log_scale": jnp.zeros(2)}
    params = to_precision(params)
    lr = jnp.asarray(0.05, dtype=jnp.float32)  # expect: RTL402
    for step in range(steps):
        params, loss = train_step(params, jnp.asarray(data, jnp.bfloat16), lr)
        print(step, float(loss))
    return params


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    fit(rng.normal(loc=[1.0, -2.0], scale=[0.5, 2.0], size=(128, 2)).astype(np.float32))
