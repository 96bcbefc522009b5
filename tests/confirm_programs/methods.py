"""Methods: a jitted method with static `self` (identity hash) re-traces for each new instance;
a jit of a bound method made once in __init__ does not."""

from functools import partial

import jax
import jax.numpy as jnp


class Model:
    def __init__(self, scale):
        self.scale = scale
        self.step = jax.jit(self._step)

    @partial(jax.jit, static_argnums=0)
    def apply(self, x):  # site: apply
        return x * self.scale

    def _step(self, x, *, bias):  # site: step
        return x * self.scale + bias


def main():
    x = jnp.ones(4)
    model = Model(2.0)
    for _ in range(3):
        model.step(x, bias=1.0)  # finding: RTL201 site=step param=bias expect=not re-traced
    for _epoch in range(3):
        Model(2.0).apply(x)  # finding: RTL204 site=apply param=self expect=confirmed
    print("methods done")


if __name__ == "__main__":
    main()
