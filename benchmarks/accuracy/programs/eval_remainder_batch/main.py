"""Train on full batches; every few steps evaluate the whole dev set in batches of the same size."""

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np


@dataclass(frozen=True)
class Config:
    batch_size: int = 8
    eval_every: int = 3
    steps: int = 6


@jax.jit
def train_step(w, x, y):
    grad = jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)
    return w - 0.1 * grad


@jax.jit
def eval_step(w, x, y):
    return jnp.sum((x @ w - y) ** 2)


def dev_batches(x, y, batch_size):
    for start in range(0, len(x), batch_size):
        stop = start + batch_size
        yield x[start:stop], y[start:stop]  # expect: RTL103


def evaluate(w, dev, cfg):
    total = sum(float(eval_step(w, xb, yb)) for xb, yb in dev_batches(*dev, cfg.batch_size))
    return total / len(dev[0])


def train(train_set, dev, cfg):
    x, y = train_set
    w = jnp.zeros(x.shape[1])
    for step in range(cfg.steps):
        lo = (step * cfg.batch_size) % (len(x) - cfg.batch_size + 1)
        w = train_step(w, x[lo : lo + cfg.batch_size], y[lo : lo + cfg.batch_size])
        if step % cfg.eval_every == 0:
            print(step, evaluate(w, dev, cfg))
    return w


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x, dev_x = rng.normal(size=(32, 3)), rng.normal(size=(19, 3))
    coef = np.array([1.0, -2.0, 0.5])
    train((x, x @ coef), (dev_x, dev_x @ coef), Config())
