"""Spectral-norm regularisation of every layer of a network described by a dict of widths."""

import jax
import jax.numpy as jnp

LAYERS = {"encoder": (8, 16), "bottleneck": (16, 4), "decoder": (4, 8)}


@jax.jit
def spectral_norm(weight, iters=5):
    v = jnp.ones(weight.shape[1]) / jnp.sqrt(weight.shape[1])
    for _ in range(iters):
        u = weight @ v
        v = weight.T @ u
        v = v / jnp.linalg.norm(v)
    return jnp.linalg.norm(weight @ v)


def init(key, layers):
    keys = jax.random.split(key, len(layers))
    return {
        name: jax.random.normal(k, shape) / jnp.sqrt(shape[0])  # expect: RTL105
        for k, (name, shape) in zip(keys, layers.items())
    }


def penalty(weights):
    return sum(float(spectral_norm(w)) for w in weights.values())


if __name__ == "__main__":
    print(penalty(init(jax.random.PRNGKey(0), LAYERS)))
