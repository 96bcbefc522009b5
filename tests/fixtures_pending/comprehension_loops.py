"""Comprehensions are loops too: a call in the element expression runs once per item."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(1,))
def rollout(state, horizon):
    for _ in range(horizon):
        state = jnp.tanh(state)
    return state


@jax.jit
def score(params, prefix):
    return jnp.sum(prefix @ params)


def horizons(state):
    return [rollout(state, h) for h in range(1, 8)]  # expect: RTL201


def prefixes(params, tokens):
    return {t: score(params, tokens[:t]) for t in range(1, tokens.shape[0])}  # expect: RTL101


def rebuilt(xs):
    return [jax.jit(lambda v: v * 2)(x) for x in xs]  # expect: RTL301


def main():
    state = jnp.ones(4)
    horizons(state)
    prefixes(jnp.ones((4, 4)), jnp.ones((16, 4)))
    rebuilt([state, state])


if __name__ == "__main__":
    main()
