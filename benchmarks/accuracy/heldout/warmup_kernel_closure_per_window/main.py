"""Warm up HMC on a correlated Gaussian, then draw samples with the tuned kernel."""

import jax
import jax.numpy as jnp
from runner import run_window
from warmup import StepSizeWarmup

PRECISION = jnp.array([[2.0, -0.8], [-0.8, 1.0]], dtype=jnp.float32)


def log_density(x):
    return -0.5 * x @ PRECISION @ x


if __name__ == "__main__":
    warmup = StepSizeWarmup(log_density)
    position, kernel = warmup.tune(jax.random.PRNGKey(0), jnp.ones(2, dtype=jnp.float32))
    _, accept = run_window(kernel, position, jax.random.split(jax.random.PRNGKey(1), 10))
    print(round(warmup.step_size, 3), float(accept.mean()))
