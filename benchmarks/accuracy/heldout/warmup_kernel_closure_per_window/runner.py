"""Run a transition kernel for a window of steps under one compiled scan."""

from functools import partial

import jax


@partial(jax.jit, static_argnums=0)
def run_window(kernel, position, keys):
    def body(position, key):
        return kernel(key, position)

    return jax.lax.scan(body, position, keys)
