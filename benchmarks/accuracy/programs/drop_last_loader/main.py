"""Fit y = sin(x) with mini-batches for a few epochs, dropping the ragged last batch."""

import jax
import jax.numpy as jnp
import numpy as np
from data import Loader


@jax.jit
def make_step(params, x, y, lr):
    def loss(p):
        return jnp.mean((jnp.tanh(x @ p["w1"]) @ p["w2"] - y) ** 2)

    value, grads = jax.value_and_grad(loss)(params)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), value


def fit(epochs=3, batch_size=4):
    x = np.linspace(-3.0, 3.0, 10, dtype=np.float32)[:, None]
    y = np.sin(x[:, 0])
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    params = {"w1": jax.random.normal(k1, (1, 8)), "w2": jax.random.normal(k2, (8,)) * 0.1}
    for epoch in range(epochs):
        for xb, yb in Loader(x, y, batch_size, seed=epoch):
            params, loss = make_step(params, xb, yb, 0.05)
        print(epoch, float(loss))
    return params


if __name__ == "__main__":
    fit()
