"""A Bayesian linear trend whose posterior mode is refitted whenever a new observation arrives."""

import jax
import jax.numpy as jnp


@jax.jit
def fit_posterior_mode(xs, ys, init):
    def neg_log_posterior(w):
        residual = ys - (w[0] + w[1] * xs)
        return 0.5 * jnp.sum(residual**2) + 0.5 * jnp.sum(w**2)

    def gradient_step(i, w):
        return w - 0.02 * jax.grad(neg_log_posterior)(w)

    return jax.lax.fori_loop(0, 50, gradient_step, init)


class Observations:
    """Everything seen so far; the dataset grows by one point per arrival."""

    def __init__(self, xs, ys):
        self.xs = jnp.asarray(xs, jnp.float32)
        self.ys = jnp.asarray(ys, jnp.float32)

    def add(self, x, y):
        self.xs = jnp.append(self.xs, x)  # expect: RTL102
        self.ys = jnp.append(self.ys, y)  # expect: RTL102
