"""Train a logistic regression on synthetic, linearly separable-ish data."""

import jax
import jax.numpy as jnp

from trainer import Trainer


def make_batches(key, n=7, batch=32, features=5):
    true_w = jnp.asarray([1.5, -2.0, 0.5, 0.0, 1.0])
    batches = []
    for k in jax.random.split(key, n):
        x = jax.random.normal(k, (batch, features))
        y = (x @ true_w > 0).astype(jnp.float32)
        batches.append((x, y))
    return batches


def main():
    trainer = Trainer(features=5)
    history = trainer.fit(make_batches(jax.random.PRNGKey(0)))
    print("logged losses:", [(step, round(loss, 4)) for step, loss in history])


if __name__ == "__main__":
    main()
