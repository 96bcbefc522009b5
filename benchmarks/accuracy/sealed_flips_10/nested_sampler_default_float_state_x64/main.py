"""Estimate the evidence of a Gaussian likelihood with 64-bit precision enabled."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

import sampler  # noqa: E402


def log_likelihood(theta):
    centred = (theta - 0.5) / 0.1
    return -0.5 * jnp.sum(centred**2) - theta.shape[0] * jnp.log(0.1 * jnp.sqrt(2 * jnp.pi))


def run(num_steps=8):
    state = sampler.init_state(jax.random.PRNGKey(0), log_likelihood, num_live=32, ndim=2)
    nested_step = jax.jit(sampler.make_step(log_likelihood))
    for _ in range(num_steps):
        state = nested_step(state)
    return state


if __name__ == "__main__":
    final = run()
    print("log Z", float(final.log_Z), "max log L", float(final.log_L.max()))
