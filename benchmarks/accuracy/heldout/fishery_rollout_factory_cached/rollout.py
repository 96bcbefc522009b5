"""Logistic fish-stock rollouts under a constant-escapement harvest policy."""

import functools

import jax
import jax.numpy as jnp
from jax import lax


@functools.lru_cache(maxsize=None)
def make_rollout(horizon, growth=0.6, capacity=1.0):
    """Build (once per horizon) a jitted rollout of `horizon` seasons."""

    def season(stock, noise, escapement):
        grown = stock + growth * stock * (1.0 - stock / capacity) * jnp.exp(noise)
        catch = jnp.maximum(grown - escapement, 0.0)
        return grown - catch, catch

    def rollout(stock0, escapement, noise):
        def body(stock, eps):
            stock, catch = season(stock, eps, escapement)
            return stock, catch

        final, catches = lax.scan(body, stock0, noise[:horizon])
        return final, jnp.sum(catches)

    return jax.jit(rollout)
