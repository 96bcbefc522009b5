"""Sample a correlated 2-d Gaussian in double precision with 8 random-walk chains."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp

from sampler import init_chains, take_step

COV = jnp.array([[1.0, 0.8], [0.8, 1.0]])
PRECISION = jnp.linalg.inv(COV)
STEP_SIZE = 0.5


def log_density(x):
    return -0.5 * x @ PRECISION @ x


@jax.jit
def sampler_step(key, state):
    return take_step(log_density, STEP_SIZE, key, state)


def main(n_steps=50, n_chains=8, seed=0):
    key_init, key_run = jax.random.split(jax.random.PRNGKey(seed))
    state = init_chains(log_density, jax.random.normal(key_init, (n_chains, 2)))
    accepted = jnp.zeros(n_chains)
    for key in jax.random.split(key_run, n_steps):
        state = sampler_step(key, state)
        accepted = accepted + state.acceptance
    print(f"mean position {state.positions.mean(axis=0)}, acceptance {float(accepted.mean() / n_steps):.2f}")


if __name__ == "__main__":
    main()
