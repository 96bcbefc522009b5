"""Train a small regression; evaluate with full-precision matmuls every few steps."""

import jax
import jax.numpy as jnp
from evaluation import evaluate


@jax.jit
def predict(w, x):
    return jnp.tanh(x @ w)


def train(w, x, y, steps=6, every=2):
    for step in range(steps):
        grad = x.T @ (predict(w, x) - y) / x.shape[0]
        w = w - 0.5 * grad
        if step % every == 0:
            print(step, evaluate(predict, w, x, y))
    return w


if __name__ == "__main__":
    x = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
    train(jnp.zeros(3), x, jnp.tanh(x @ jnp.array([0.5, -1.0, 2.0])))
