"""A program that turns on JAX's own cache-miss explanations and compile logs (by context manager,
by config and, when run with JAX_EXPLAIN_CACHE_MISSES=1, by environment) and prints them: its
output must be the same, line for line, with and without `retracelint confirm`."""

import logging
import sys

import jax
import jax.numpy as jnp

logging.basicConfig(stream=sys.stdout, level=logging.WARNING, format="%(name)s: %(message)s")


@jax.jit
def scale(x):  # site: scale
    return x * 2


def main():
    print("explain setting:", jax.config.jax_explain_cache_misses)
    with jax.explain_cache_misses(True), jax.log_compiles(True):
        scale(jnp.ones(2))
        scale(jnp.ones(3))  # finding: RTL105 site=scale param=x expect=confirmed
        scale(jnp.ones(3))
    jax.config.update("jax_explain_cache_misses", True)
    scale(jnp.ones(4))
    jax.config.update("jax_explain_cache_misses", False)
    scale(jnp.ones(5))
    print("own_logs done")


if __name__ == "__main__":
    main()
