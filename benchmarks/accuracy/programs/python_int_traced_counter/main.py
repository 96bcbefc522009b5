"""A step-dependent learning-rate decay computed inside the jitted step from a traced step number."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(params, x, y, step):
    lr = 0.1 / (1.0 + 0.5 * step)
    grads = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
    return params - lr * grads


def fit(x, y, steps=5):
    params = jnp.zeros(x.shape[1])
    for step in range(steps):
        params = train_step(params, x, y, step)
    return params


if __name__ == "__main__":
    x = jnp.linspace(0.0, 1.0, 12).reshape(4, 3)
    print(fit(x, x.sum(axis=1)))
