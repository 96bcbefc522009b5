"""Estimate the evidence of a Gaussian likelihood with 64-bit precision enabled."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

import sampler  # noqa: E402

# The measured centre and width of each parameter, as the instrument reports them (float64).
MU = np.array([0.45, 0.55])
SIGMA = np.array([0.1, 0.12])


def log_likelihood(theta):
    centred = (theta - MU) / SIGMA
    return -0.5 * jnp.sum(centred**2) - jnp.sum(jnp.log(SIGMA * np.sqrt(2 * np.pi)))


def run(num_steps=8):
    state = sampler.init_state(jax.random.PRNGKey(0), log_likelihood, num_live=32, ndim=2)
    nested_step = jax.jit(sampler.make_step(log_likelihood))
    for _ in range(num_steps):
        state = nested_step(state)
    return state


if __name__ == "__main__":
    final = run()
    print("log Z", float(final.log_Z), "max log L", float(final.log_L.max()))
