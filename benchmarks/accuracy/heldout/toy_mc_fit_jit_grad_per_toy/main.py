"""Toy Monte Carlo pull study for a Gaussian peak fit.

For every pseudo-experiment we draw a fresh sample, fit (mu, sigma) by minimising the
negative log-likelihood with a few Newton-like gradient steps, and collect the pulls.
"""

import jax
import jax.numpy as jnp
import numpy as np

TRUE_MU, TRUE_SIGMA = 4.0, 0.7


def nll(params, x):
    mu, log_sigma = params[0], params[1]
    sigma = jnp.exp(log_sigma)
    z = (x - mu) / sigma
    return jnp.sum(0.5 * z ** 2 + log_sigma + 0.5 * jnp.log(2 * jnp.pi))


class GaussianFitter:
    def __init__(self, lr=0.002, n_iter=40):
        self.lr = lr
        self.n_iter = n_iter

    def fit(self, x, start):
        nll_and_grad = jax.jit(jax.value_and_grad(nll))  # expect: RTL301
        params = start
        for _ in range(self.n_iter):
            value, g = nll_and_grad(params, x)
            params = params - self.lr * g
        return params, value


def pseudo_experiments(n_toys, n_events, seed=1):
    rng = np.random.default_rng(seed)
    for _ in range(n_toys):
        yield jnp.asarray(rng.normal(TRUE_MU, TRUE_SIGMA, n_events), dtype=jnp.float32)


def run_pull_study(n_toys=5, n_events=200):
    fitter = GaussianFitter()
    rng = np.random.default_rng(7)
    pulls = []
    for x in pseudo_experiments(n_toys, n_events):
        start = jnp.array([TRUE_MU + rng.uniform(-0.5, 0.5),
                           np.log(TRUE_SIGMA) + rng.uniform(-0.2, 0.2)], dtype=jnp.float32)
        params, value = fitter.fit(x, start)
        mu_hat = float(params[0])
        err = float(jnp.exp(params[1])) / np.sqrt(n_events)
        pulls.append((mu_hat - TRUE_MU) / err)
    return np.array(pulls)


if __name__ == "__main__":
    pulls = run_pull_study()
    print("pulls:", np.round(pulls, 2))
    print(f"pull mean {pulls.mean():.2f}, width {pulls.std():.2f}")
