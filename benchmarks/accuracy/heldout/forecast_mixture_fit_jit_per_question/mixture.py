"""Logistic-mixture fitting for continuous forecasting questions."""

import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp

N_COMPONENTS = 3


def init_params(key, samples):
    center = jnp.mean(samples)
    spread = jnp.std(samples) + 1e-3
    return {
        "loc": center + spread * jax.random.normal(key, (N_COMPONENTS,)),
        "log_scale": jnp.log(spread) * jnp.ones(N_COMPONENTS),
        "logit_w": jnp.zeros(N_COMPONENTS),
    }


def mixture_logpdf(params, x):
    scale = jnp.exp(params["log_scale"])
    z = (x[:, None] - params["loc"]) / scale
    comp = -z - 2.0 * jax.nn.softplus(-z) - params["log_scale"]
    log_w = jax.nn.log_softmax(params["logit_w"])
    return logsumexp(comp + log_w, axis=1)


def fit_mixture(samples, key, steps=25, lr=0.05):
    """Maximum-likelihood fit of a logistic mixture to one question's samples."""

    def neg_loglik(params):
        return -jnp.mean(mixture_logpdf(params, samples))

    loss_and_grad = jax.jit(jax.value_and_grad(neg_loglik))  # expect: RTL301

    params = init_params(key, samples)
    loss = None
    for _ in range(steps):
        loss, grads = loss_and_grad(params)
        params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return params, float(loss)
