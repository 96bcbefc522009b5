"""Hierarchical regression of river discharge on rainfall: pointwise log-likelihood of a fitted posterior."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from handlers import sample, seed


def discharge_kernel(X, y=None, values=None):
    """Rating-curve model: discharge = a + b * rainfall, one noise scale per gauge."""
    a, _ = sample("a", 0.0, 5.0, values=values)
    b, _ = sample("b", 0.0, 2.0, values=values)
    mu = a + b * X
    _, logp = sample("obs", mu, 0.5, obs=y)
    return logp


@partial(jax.jit, static_argnames=("model_fn",))
def _pointwise_loglik(model_fn, draws, X, y):
    per_draw = lambda a, b: model_fn(X, y, values={"a": a, "b": b})
    return jax.vmap(per_draw)(draws["a"], draws["b"])


class RatingCurveModel:
    def __init__(self, kernel, rng_seed=0):
        self.kernel = kernel
        self.rng_seed = rng_seed
        self.posterior = None

    def fit(self, X, y, num_draws=64):
        # stand-in for MCMC: a Laplace-style draw around least squares
        A = np.stack([np.ones_like(X), X], axis=1)
        coef, *_ = np.linalg.lstsq(A, y, rcond=None)
        rng = np.random.default_rng(self.rng_seed)
        self.posterior = {
            "a": jnp.asarray(coef[0] + 0.05 * rng.standard_normal(num_draws), jnp.float32),
            "b": jnp.asarray(coef[1] + 0.02 * rng.standard_normal(num_draws), jnp.float32),
        }
        return self

    def log_likelihood(self, X, y, posterior=None):
        posterior = self.posterior if posterior is None else posterior
        kernel = seed(self.kernel, rng_seed=self.rng_seed)
        return _pointwise_loglik(kernel, posterior, X, y)  # expect: RTL204


def gauge_batches(n_gauges=4, n_obs=24):
    rng = np.random.default_rng(7)
    for g in range(n_gauges):
        rain = rng.gamma(2.0, 1.5, size=n_obs).astype(np.float32)
        flow = (1.2 + 0.8 * rain + 0.5 * rng.standard_normal(n_obs)).astype(np.float32)
        yield g, jnp.asarray(rain), jnp.asarray(flow)


if __name__ == "__main__":
    batches = list(gauge_batches())
    _, X0, y0 = batches[0]
    model = RatingCurveModel(discharge_kernel).fit(np.asarray(X0), np.asarray(y0))
    for gauge, X, y in batches:
        ll = model.log_likelihood(X, y)
        elpd = jax.scipy.special.logsumexp(ll, axis=0) - jnp.log(ll.shape[0])
        print(f"gauge {gauge}: elpd = {float(elpd.sum()):.2f}")
