"""HMC warmup for a Bayesian logistic model of seedling survival, with a diagonal mass matrix.

The kinetic energy is handed to the jitted leapfrog trajectory as a function, so it is a static
argument; after every adaptation window the adapter closes a freshly estimated inverse mass
matrix over it with functools.partial.
"""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

NUM_LEAPFROG = 6


def make_survey(seed=0, n_plots=40):
    rng = np.random.default_rng(seed)
    # columns: intercept, soil moisture (%), canopy cover (fraction), browse pressure (count)
    x = np.column_stack([
        np.ones(n_plots),
        rng.normal(22.0, 6.0, n_plots) / 10.0,
        rng.uniform(0.1, 0.9, n_plots),
        rng.poisson(3.0, n_plots) / 2.0,
    ]).astype(np.float32)
    true_w = np.array([-0.5, 0.8, 1.2, -0.7], np.float32)
    p = 1.0 / (1.0 + np.exp(-x @ true_w))
    y = (rng.uniform(size=n_plots) < p).astype(np.float32)
    return jnp.asarray(x), jnp.asarray(y)


def potential_energy(w, x, y):
    logits = x @ w
    log_lik = jnp.sum(y * logits - jnp.logaddexp(0.0, logits))
    return -log_lik + 0.5 * jnp.sum(w ** 2) / 2.5 ** 2


def euclidean_kinetic(inverse_mass, r):
    return 0.5 * jnp.sum(inverse_mass * r ** 2)


@partial(jax.jit, static_argnums=(0,))
def leapfrog_trajectory(kinetic_fn, w, r, step_size, x, y):
    grad_u = jax.grad(potential_energy)
    grad_k = jax.grad(kinetic_fn)

    def leapfrog_body(_, carry):
        w, r = carry
        r = r - 0.5 * step_size * grad_u(w, x, y)
        w = w + step_size * grad_k(r)
        r = r - 0.5 * step_size * grad_u(w, x, y)
        return w, r

    w_new, r_new = jax.lax.fori_loop(0, NUM_LEAPFROG, leapfrog_body, (w, r))
    h_old = potential_energy(w, x, y) + kinetic_fn(r)
    h_new = potential_energy(w_new, x, y) + kinetic_fn(r_new)
    return w_new, h_old - h_new


class MassMatrixAdapter:
    """Welford-free windowed variance estimate, as in Stan's diagonal adaptation."""

    def __init__(self, dim):
        self.inverse_mass = np.ones(dim, np.float32)
        self.kinetic_fn = partial(euclidean_kinetic, jnp.asarray(self.inverse_mass))
        self._window = []

    def observe(self, w):
        self._window.append(np.asarray(w))

    def end_window(self):
        draws = np.stack(self._window)
        n = len(draws)
        var = draws.var(axis=0) * n / (n + 5.0) + 1e-3 * 5.0 / (n + 5.0)
        self.inverse_mass = var.astype(np.float32)
        self.kinetic_fn = partial(euclidean_kinetic, jnp.asarray(self.inverse_mass))
        self._window = []


def hmc_step(key, w, adapter, step_size, data):
    key_r, key_u = jax.random.split(key)
    r = jax.random.normal(key_r, w.shape) / jnp.sqrt(adapter.inverse_mass)
    w_prop, log_ratio = leapfrog_trajectory(adapter.kinetic_fn, w, r, step_size, *data)  # expect: RTL204
    accept = jnp.log(jax.random.uniform(key_u)) < log_ratio
    return jnp.where(accept, w_prop, w), bool(accept)


def warmup(key, data, windows=(4, 4, 6), step_size=0.2):
    w = jnp.zeros(data[0].shape[1])
    adapter = MassMatrixAdapter(w.shape[0])
    accepted = 0
    for size in windows:
        for _ in range(size):
            key, sub = jax.random.split(key)
            w, ok = hmc_step(sub, w, adapter, step_size, data)
            adapter.observe(w)
            accepted += ok
        adapter.end_window()
    return w, adapter, accepted / sum(windows)


if __name__ == "__main__":
    data = make_survey()
    w, adapter, rate = warmup(jax.random.PRNGKey(7), data)
    print("warmup acceptance", round(rate, 2))
    print("inverse mass", np.round(adapter.inverse_mass, 3))
    print("last draw", np.round(np.asarray(w), 2))
