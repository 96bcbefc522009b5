"""Train a small regressor; validate with the same jitted loss every epoch."""

import jax
import jax.numpy as jnp
import numpy as np


def mse(params, batch):
    pred = batch["x"] @ params["w"] + params["b"]
    return jnp.mean((pred - batch["y"]) ** 2)


@jax.jit
def loss_fn(params, batch):
    return mse(params, batch)


@jax.jit
def grad_fn(params, batch):
    return jax.grad(mse)(params, batch)


def train_epoch(params, batches, lr=0.1):
    losses = []
    for batch in batches:
        losses.append(loss_fn(params, batch))
        grads = grad_fn(params, batch)
        params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return params, float(jnp.mean(jnp.stack(losses)))


def validate(params, batch):
    return float(loss_fn(params, batch=batch))  # expect: RTL404


def make_batches(rng, n_batches, size=8):
    out = []
    for _ in range(n_batches):
        x = rng.normal(size=(size, 3)).astype(np.float32)
        out.append({"x": x, "y": x @ np.array([1.0, -1.0, 2.0], np.float32)})
    return out


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    params = {"w": jnp.zeros(3), "b": jnp.zeros(())}
    train, (val,) = make_batches(rng, 4), make_batches(rng, 1)
    for epoch in range(3):
        params, train_loss = train_epoch(params, train)
        print(epoch, train_loss, validate(params, val))
