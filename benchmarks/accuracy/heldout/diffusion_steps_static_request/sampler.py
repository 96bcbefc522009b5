"""A toy denoising sampler whose loop length and image size are compile-time constants."""

from functools import partial

import jax
import jax.numpy as jnp


def denoiser(params, x, t):
    return jnp.tanh(x * params["scale"] + t * params["shift"])


@partial(jax.jit, static_argnums=(2, 3, 4))
def sample(params, key, height, width, num_steps):
    x = jax.random.normal(key, (height, width))
    for i in range(num_steps):
        t = 1.0 - i / num_steps
        x = x - (1.0 / num_steps) * denoiser(params, x, t)
    return x
