"""Modules expose their methods through a descriptor that binds them lazily, as equinox modules do."""

from functools import partial

import jax
import jax.numpy as jnp


class bound_method:
    """A method descriptor: attribute access returns the function with the instance bound."""

    def __init__(self, fn):
        self.fn = fn

    def __get__(self, instance, owner):
        if instance is None:
            return self.fn
        return partial(self.fn, instance)


class Scaler:
    def __init__(self, scale):
        self.scale = scale

    @bound_method
    def forward(self, x):
        return jnp.tanh(self.scale * x)


@partial(jax.jit, static_argnums=(0,))
def apply(fn, x):
    return fn(x)


def run(model, batches):
    return [apply(model.forward, x) for x in batches]  # expect: RTL204


if __name__ == "__main__":
    run(Scaler(2.0), [jnp.ones(3) * k for k in range(3)])
