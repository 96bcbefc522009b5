"""Bayesian optimisation of a catalyst yield model with fixed-capacity observation buffers.

The buffers are allocated once for every evaluation the budget allows; a boolean
mask says which rows are real, so the acquisition step always sees the same shapes.
"""

import jax
import jax.numpy as jnp

from gp import suggest_next

N_INIT = 3
BUDGET = 5
CAPACITY = N_INIT + BUDGET


def reactor_yield(x):
    temperature, pressure = x[..., 0], x[..., 1]
    return jnp.exp(-((temperature - 0.6) ** 2) / 0.05 - ((pressure - 0.3) ** 2) / 0.08)


class ObservationBuffer:
    def __init__(self, x_init, y_init):
        dim = x_init.shape[1]
        self.count = x_init.shape[0]
        self.x = jnp.zeros((CAPACITY, dim)).at[: self.count].set(x_init)
        self.y = jnp.zeros((CAPACITY,)).at[: self.count].set(y_init)

    @property
    def mask(self):
        return jnp.arange(CAPACITY) < self.count

    def add(self, x_new, y_new):
        self.x = self.x.at[self.count].set(x_new)
        self.y = self.y.at[self.count].set(y_new)
        self.count += 1

    def best(self):
        observed = self.y[: self.count]
        return self.x[jnp.argmax(observed)], observed.max()


def optimise(bounds, seed=0):
    key = jax.random.PRNGKey(seed)
    key, init_key = jax.random.split(key)
    x_init = jax.random.uniform(
        init_key, (N_INIT, bounds.shape[0]), minval=bounds[:, 0], maxval=bounds[:, 1]
    )
    buf = ObservationBuffer(x_init, reactor_yield(x_init))
    for it in range(BUDGET):
        key, sub = jax.random.split(key)
        _, y_best = buf.best()
        x_next = suggest_next(sub, buf.x, buf.y, buf.mask, bounds, y_best)
        buf.add(x_next, reactor_yield(x_next))
        print(f"iter {it}: n={buf.count} probe={x_next} yield={float(buf.y[buf.count - 1]):.4f}")
    return buf.best()


if __name__ == "__main__":
    x_best, y_best = optimise(jnp.array([[0.0, 1.0], [0.0, 1.0]]))
    print("best conditions", x_best, "yield", float(y_best))
