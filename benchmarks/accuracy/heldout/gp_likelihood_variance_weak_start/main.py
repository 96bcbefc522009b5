"""Fit the GP hyperparameters by gradient descent, one jitted step per iteration."""

import time

import jax
import jax.numpy as jnp
from gp import GP, neg_log_marginal_likelihood
from likelihood import GaussianLikelihood

LEARNING_RATE = jnp.float32(0.01)


@jax.jit
def train_step(params, X, Y):
    loss, grads = jax.value_and_grad(neg_log_marginal_likelihood)(params, X, Y)
    params = jax.tree_util.tree_map(lambda p, g: p - LEARNING_RATE * g, params, grads)
    return params, loss


def fit(model, n_iters=4):
    for it in range(n_iters):
        start = time.perf_counter()
        params, loss = train_step(model.parameters(), model.X, model.Y)
        model.assign(params)
        print(f"iter {it}: nlml {float(loss):.3f} ({time.perf_counter() - start:.3f} s)")


if __name__ == "__main__":
    X = jnp.linspace(0.0, 5.0, 12)
    Y = jnp.sin(X) + 0.3 * jnp.cos(7 * X)
    fit(GP(GaussianLikelihood(variance=0.1), X, Y))  # expect: RTL401
