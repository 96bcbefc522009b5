"""Run the same training three times (e.g. three seeds), building the optimiser inside train()."""

from functools import partial

import jax
import jax.numpy as jnp
import optim


@partial(jax.jit, static_argnames=("optimizer",))
def train_step(params, opt_state, x, y, optimizer):
    grads = jax.grad(lambda p: jnp.mean((x @ p - y) ** 2))(params)
    updates, opt_state = optimizer.update(grads, opt_state)
    return params + updates, opt_state


def train(seed, steps=4):
    x = jax.random.normal(jax.random.PRNGKey(seed), (8, 3))
    y = x @ jnp.array([1.0, 2.0, -1.0])
    optimizer = optim.momentum(0.05)
    params = jnp.zeros(3)
    opt_state = optimizer.init(params)
    for _ in range(steps):
        params, opt_state = train_step(params, opt_state, x, y, optimizer=optimizer)  # expect: RTL204
    return params


if __name__ == "__main__":
    for seed in range(3):
        train(seed)
