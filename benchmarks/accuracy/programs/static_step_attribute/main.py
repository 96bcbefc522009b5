"""A trainer whose jitted step takes the step number as a static argument to decide when to clip."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(3,))
def train_step(params, x, y, step):
    grads = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
    if step < 2:
        # Clip hard during the first steps.
        grads = jnp.clip(grads, -0.1, 0.1)
    return params - 0.1 * grads


class Trainer:
    def __init__(self, params):
        self.params = params
        self.step = 0

    def fit_batch(self, x, y):
        self.params = train_step(self.params, x, y, self.step)  # expect: RTL201
        self.step += 1


def run(batches):
    trainer = Trainer(jnp.zeros(3))
    for x, y in batches:
        trainer.fit_batch(x, y)
    return trainer.params


if __name__ == "__main__":
    x = jnp.linspace(0.0, 1.0, 12).reshape(4, 3)
    run([(x, x.sum(axis=1))] * 4)
