"""Tune a coil so that its on-axis field matches a target profile."""

import jax
import jax.numpy as jnp
from coils import Coil, field_on_axis


@jax.jit
def sgd_update(params, z, target, lr):
    def loss(p):
        return jnp.mean((field_on_axis(p["current"], p["radius"], z) - target) ** 2)

    grads = jax.grad(loss)(params)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)


def optimize(coil, z, target, steps=5):
    lr = jnp.float32(0.05)
    for step in range(steps):
        print(step, float(jnp.mean((coil.field(z) - target) ** 2)))
        coil.set_params(sgd_update(coil.params(), z, target, lr))
    return coil


if __name__ == "__main__":
    z = jnp.linspace(-1.0, 1.0, 11)
    target = 0.8 / (2.0 * (1.0 + z**2) ** 1.5)
    optimize(Coil(current=1.0, radius=1.2), z, target)
