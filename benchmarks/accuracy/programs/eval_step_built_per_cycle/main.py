"""Train a linear model; every few steps run the (slow) masked evaluation."""

import jax
import jax.numpy as jnp
from evaluation import evaluate


def apply_fn(params, x):
    return x @ params


@jax.jit
def train_step(params, x, y):
    return params - 0.1 * jax.grad(lambda p: jnp.mean((apply_fn(p, x) - y) ** 2))(params)


def train(steps=9, eval_every=3):
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (16, 3))
    y = x @ jnp.array([1.0, -1.0, 0.5])
    params = jnp.zeros(3)
    for step in range(steps):
        params = train_step(params, x, y)
        if step % eval_every == 0:
            key, sub = jax.random.split(key)
            _, spread = evaluate(apply_fn, params, x, sub)
            print(step, float(spread))
    return params


if __name__ == "__main__":
    train()
