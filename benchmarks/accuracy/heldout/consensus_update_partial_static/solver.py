"""Damped fixed-point iteration with the update function passed in as a static argument."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@partial(jax.jit, static_argnums=(0,))
def iterate_to_fixed_point(update, x0, tol):
    def cond(carry):
        i, _, err = carry
        return (i < 500) & (err > tol)

    def body(carry):
        i, x, _ = carry
        x_new = update(x)
        return i + 1, x_new, jnp.max(jnp.abs(x_new - x))

    init = (jnp.int32(0), x0, jnp.float32(jnp.inf))
    n_iter, x, _ = lax.while_loop(cond, body, init)
    return x, n_iter


def damped_opinion_update(x, trust, stubbornness, prior):
    return stubbornness * prior + (1.0 - stubbornness) * (trust @ x)


class ConsensusSolver:
    def __init__(self, stubbornness, tol=1e-5):
        self.stubbornness = stubbornness
        self.tol = jnp.float32(tol)

    def run(self, trust, prior):
        update = partial(
            damped_opinion_update, trust=trust, stubbornness=self.stubbornness, prior=prior
        )
        return iterate_to_fixed_point(update, prior, self.tol)  # expect: RTL204
