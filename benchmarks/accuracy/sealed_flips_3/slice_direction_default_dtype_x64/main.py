"""Estimate the evidence of a 2-d Gaussian likelihood on the unit square by nested sampling.

The analysis runs with 64-bit floats enabled; the model and its observations are float32.
"""

import math

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp

from slice import init_live_set, replace_worst

OBSERVED = jnp.array([0.3, 0.6], jnp.float32)
NOISE = jnp.float32(0.1)


def loglike(u):
    x = u.astype(OBSERVED.dtype)
    return -0.5 * jnp.sum(((x - OBSERVED) / NOISE) ** 2)


@jax.jit
def nested_step(key, live):
    return replace_worst(loglike, key, live)


def main(n_live=64, n_iters=200, seed=0):
    key_pts, key_dir, key_run = jax.random.split(jax.random.PRNGKey(seed), 3)
    points = jax.random.uniform(key_pts, (n_live, 2), dtype=jnp.float32)
    live = init_live_set(key_dir, points, jax.vmap(loglike)(points))
    log_z, log_x = -math.inf, 0.0
    for i, key in enumerate(jax.random.split(key_run, n_iters)):
        live, threshold = nested_step(key, live)
        log_w = log_x + math.log1p(-math.exp(-1.0 / n_live))
        log_z = jnp.logaddexp(log_z, log_w + float(threshold))
        log_x -= 1.0 / n_live
    print(f"log Z ~ {float(log_z):.3f} after {n_iters} replacements")


if __name__ == "__main__":
    main()
