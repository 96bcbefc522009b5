"""Fit a softmax classifier on three Gaussian blobs and evaluate the EMA weights."""

import jax
import jax.numpy as jnp

from train import create_state, loss_fn, train_step


def make_blobs(key, n_per_class=64):
    centers = jnp.array([[2.0, 0.0], [-1.0, 1.7], [-1.0, -1.7]])
    x = jnp.concatenate([c + 0.6 * jax.random.normal(jax.random.fold_in(key, i), (n_per_class, 2)) for i, c in enumerate(centers)])
    y = jnp.repeat(jnp.arange(3), n_per_class)
    return x, y


def batches(x, y, batch_size, key):
    order = jax.random.permutation(key, x.shape[0])
    for start in range(0, x.shape[0] - batch_size + 1, batch_size):
        idx = order[start : start + batch_size]
        yield x[idx], y[idx]


def main(epochs=3):
    x, y = make_blobs(jax.random.PRNGKey(0))
    state = create_state(jax.random.PRNGKey(1), n_in=2, n_classes=3)
    for epoch in range(epochs):
        for xb, yb in batches(x, y, 32, jax.random.PRNGKey(10 + epoch)):
            state, loss = train_step(state, xb, yb)
        print(f"epoch {epoch}: loss {float(loss):.3f}, EMA loss {float(loss_fn(state.ema_params, x, y)):.3f}")


if __name__ == "__main__":
    main()
