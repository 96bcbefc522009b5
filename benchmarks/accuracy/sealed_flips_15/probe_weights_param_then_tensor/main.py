"""Fit a linear probe on random frozen features of two well-separated classes."""

import jax
import jax.numpy as jnp

from nn import LinearProbe
from trainer import ProbeTrainer


def make_batches(key, n_batches=5, batch=16, features=8):
    batches = []
    for k in jax.random.split(key, n_batches):
        kx, ky = jax.random.split(k)
        labels = jax.random.randint(ky, (batch,), 0, 2)
        x = jax.random.normal(kx, (batch, features)) + 2.0 * labels[:, None].astype(jnp.float32)
        batches.append((x, labels))
    return batches


def main():
    key_p, key_d = jax.random.split(jax.random.PRNGKey(0))
    trainer = ProbeTrainer(LinearProbe(features=8, classes=2, key=key_p))
    losses = trainer.fit(make_batches(key_d))
    print("losses:", [round(loss, 3) for loss in losses])


if __name__ == "__main__":
    main()
