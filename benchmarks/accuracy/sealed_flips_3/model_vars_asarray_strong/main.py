"""Sample the location and log-scale of a normal model with unadjusted Langevin steps."""

import jax
import jax.numpy as jnp

from model import Model, Var

STEP = 1e-3


def log_posterior(state, y):
    loc, log_scale = state["loc"], state["log_scale"]
    z = (y - loc) / jnp.exp(log_scale)
    log_lik = jnp.sum(-0.5 * z**2 - log_scale)
    return log_lik - 0.5 * loc**2 / 100.0 - 0.5 * log_scale**2


@jax.jit
def langevin_step(state, key, y):
    grads = jax.grad(log_posterior)(state, y)
    noise = jax.random.normal(key, (len(state),))
    return {
        name: state[name] + STEP * grads[name] + jnp.sqrt(2 * STEP) * eps
        for name, eps in zip(sorted(state), noise)
    }


def main(n_steps=200, seed=0):
    key_data, key_run = jax.random.split(jax.random.PRNGKey(seed))
    y = 2.0 + 0.5 * jax.random.normal(key_data, (100,))
    model = Model(Var(0.0, "loc"), Var(0.0, "log_scale"))
    for key in jax.random.split(key_run, n_steps):
        model.state = langevin_step(model.state, key, y)
    print({name: round(float(v), 3) for name, v in model.state.items()})


if __name__ == "__main__":
    main()
