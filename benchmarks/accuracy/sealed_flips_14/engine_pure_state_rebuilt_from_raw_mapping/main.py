"""Fit a small MLP to a synthetic regression target."""

import jax
import jax.numpy as jnp

from engine import TrainingEngine
from model import MLP


def main():
    kx, km = jax.random.split(jax.random.PRNGKey(0))
    x = jax.random.normal(kx, (32, 4))
    y = jnp.sin(x[:, :1]) + 0.5 * x[:, 1:2]
    engine = TrainingEngine(MLP(km, 4, 16, 1))
    losses = [engine.train_step((x, y)) for _ in range(8)]
    print("losses:", [round(loss, 4) for loss in losses])


if __name__ == "__main__":
    main()
