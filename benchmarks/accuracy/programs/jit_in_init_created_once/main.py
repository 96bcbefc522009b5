"""Train for a few steps and report the loss."""

import jax
import jax.numpy as jnp
from trainer import Trainer


def main(steps=4):
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    params = {"w": jax.random.normal(k1, (3, 8)) * 0.3, "v": jax.random.normal(k2, (8,)) * 0.3}
    x = jax.random.normal(k3, (16, 3))
    trainer = Trainer(params)
    for step in range(steps):
        print(step, float(trainer.training_step(x, jnp.sin(x[:, 0]))))


if __name__ == "__main__":
    main()
