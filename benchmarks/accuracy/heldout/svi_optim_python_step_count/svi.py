"""Stochastic variational inference for a Gaussian mean with a mean-field guide."""

import jax
import jax.numpy as jnp
from optim import Adam

optimizer = Adam(step_size=0.05)


def elbo_loss(guide_params, key, data):
    eps = jax.random.normal(key, (8,))
    mu = guide_params["loc"] + jnp.exp(guide_params["log_scale"]) * eps
    log_lik = -0.5 * ((data[None, :] - mu[:, None]) ** 2).sum(axis=1)
    log_prior = -0.5 * mu**2 / 10.0
    return -(log_lik + log_prior).mean() - guide_params["log_scale"]


@jax.jit
def svi_update(optim_state, key, data):
    params = optimizer.get_params(optim_state)
    loss, grads = jax.value_and_grad(elbo_loss)(params, key, data)
    return optimizer.update(grads, optim_state), loss
