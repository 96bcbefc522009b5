"""A two-exponential decay curve with its parameters in a dict."""

import jax
import jax.numpy as jnp


def random_params(key):
    k1, k2 = jax.random.split(key)
    return {
        "amplitude": jnp.abs(jax.random.normal(k1, (2,))) + 0.5,
        "rate": jnp.abs(jax.random.normal(k2, (2,))) + 0.1,
        "offset": jnp.zeros((), dtype=jnp.float32),
    }


def curve(params, t):
    decays = params["amplitude"][:, None] * jnp.exp(-params["rate"][:, None] * t[None, :])
    return decays.sum(axis=0) + params["offset"]
