"""A small Poisson GLM for spike counts, fitted by gradient descent with an L2 penalty."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


class PoissonGLM:
    """Spike-count encoding model: rate = exp(X @ w + b)."""

    def __init__(self, alpha=0.1, learning_rate=0.05, n_steps=60):
        self.alpha = alpha
        self.learning_rate = learning_rate
        self.n_steps = n_steps

    def get_params(self):
        return {
            "alpha": self.alpha,
            "learning_rate": self.learning_rate,
            "n_steps": self.n_steps,
        }

    def _penalized_nll(self, params, X, y):
        w, b = params
        eta = X @ w + b
        nll = jnp.mean(jnp.exp(eta) - y * eta)
        return nll + 0.5 * self.alpha * jnp.sum(w**2)

    @partial(jax.jit, static_argnums=0)
    def _run_solver(self, X, y, init_params):
        grad_fn = jax.grad(self._penalized_nll)

        def gd_step(params, _):
            g = grad_fn(params, X, y)
            params = jax.tree_util.tree_map(lambda p, d: p - self.learning_rate * d, params, g)
            return params, None

        params, _ = lax.scan(gd_step, init_params, None, length=self.n_steps)
        return params

    def fit(self, X, y):
        init = (jnp.zeros(X.shape[1]), jnp.asarray(jnp.log(jnp.mean(y) + 1e-3)))
        self.coef_, self.intercept_ = self._run_solver(X, y, init)  # expect: RTL204
        return self

    def score(self, X, y):
        return float(poisson_pseudo_r2(self.coef_, self.intercept_, X, y))


@jax.jit
def poisson_pseudo_r2(w, b, X, y):
    rate = jnp.exp(X @ w + b)
    ll_model = jnp.sum(y * jnp.log(rate) - rate)
    mean_rate = jnp.mean(y)
    ll_null = jnp.sum(y * jnp.log(mean_rate) - mean_rate)
    ll_sat = jnp.sum(jnp.where(y > 0, y * jnp.log(jnp.maximum(y, 1e-12)), 0.0) - y)
    return 1.0 - (ll_sat - ll_model) / (ll_sat - ll_null)
