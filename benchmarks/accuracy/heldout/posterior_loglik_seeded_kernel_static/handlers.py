"""A tiny effect-handler layer: sample sites draw from a key or read a posterior value."""

import jax
import jax.numpy as jnp

_STACK = []


class seed:
    """Give sample sites without a value a fresh key split from rng_seed."""

    def __init__(self, fn, rng_seed):
        self.fn = fn
        self.rng_seed = rng_seed

    def __call__(self, *args, **kwargs):
        _STACK.append(self)
        self.key = jax.random.PRNGKey(self.rng_seed)
        try:
            return self.fn(*args, **kwargs)
        finally:
            _STACK.pop()


def sample(name, loc, scale, obs=None, values=None):
    """Return (value, log density) for one Normal site."""
    if obs is not None:
        value = obs
    elif values is not None and name in values:
        value = values[name]
    elif _STACK:
        handler = _STACK[-1]
        handler.key, sub = jax.random.split(handler.key)
        value = loc + scale * jax.random.normal(sub, jnp.shape(loc))
    else:
        raise RuntimeError(f"site {name!r} has no value and no seed handler")
    logp = -0.5 * ((value - loc) / scale) ** 2 - jnp.log(scale) - 0.5 * jnp.log(2 * jnp.pi)
    return value, logp
