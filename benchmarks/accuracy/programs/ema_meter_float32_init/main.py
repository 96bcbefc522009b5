"""Fit a linear regressor and log a smoothed loss every few steps."""

import jax
import jax.numpy as jnp
from meters import EmaMeter


@jax.jit
def train_step(w, x, y):
    loss, grad = jax.value_and_grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.1 * grad, loss


def fit(x, y, steps):
    w = jnp.zeros(x.shape[1])
    meter = EmaMeter()
    for step in range(steps):
        w, loss = train_step(w, x, y)
        smoothed = meter.update(loss)
        if step % 5 == 0:
            print(f"step {step}: loss {float(smoothed):.4f}")
    return w


if __name__ == "__main__":
    x = jax.random.normal(jax.random.PRNGKey(0), (32, 4))
    fit(x, x @ jnp.arange(4.0), 20)
