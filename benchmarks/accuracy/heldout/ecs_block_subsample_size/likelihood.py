"""A logistic-regression log-likelihood and its difference estimator on a subsample."""

import jax
import jax.numpy as jnp


def point_loglik(theta, x, y):
    logits = x @ theta
    return y * jax.nn.log_sigmoid(logits) + (1.0 - y) * jax.nn.log_sigmoid(-logits)


@jax.jit
def estimated_loglik(theta, x, y, idx, control):
    # control variates summed over all the data, corrected by the mean error on the subsample
    n = x.shape[0]
    errors = point_loglik(theta, x[idx], y[idx]) - control[idx]
    return control.sum() + n * errors.mean()
