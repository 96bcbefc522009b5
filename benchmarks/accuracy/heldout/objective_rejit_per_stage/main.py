"""Continuation: reach the final profile through a few intermediate targets."""

import jax.numpy as jnp
from objectives import ProfileMismatch


def descend(objective, x, steps=5, lr=0.05):
    for _ in range(steps):
        x = x - lr * objective.grad(x)
    return x, float(objective.value(x))


def continuation(final_profile, fractions=(0.5, 0.75, 1.0)):
    x = jnp.zeros_like(final_profile)
    objective = ProfileMismatch(fractions[0] * final_profile)
    x, loss = descend(objective, x)
    for frac in fractions[1:]:
        objective.update_target(frac * final_profile, weight=1.0 + frac)
        x, loss = descend(objective, x)
        print(frac, loss)
    return x


if __name__ == "__main__":
    print(continuation(jnp.linspace(0.0, 2.0, 6)))
