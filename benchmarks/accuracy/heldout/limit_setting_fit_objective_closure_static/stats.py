"""Binned Poisson likelihood for a counting analysis and a jitted minimiser."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


class HistModel:
    """Signal + background template with one normalisation nuisance per bin."""

    def __init__(self, signal, background, bkg_unc):
        self.signal = jnp.asarray(signal, jnp.float32)
        self.background = jnp.asarray(background, jnp.float32)
        self.bkg_unc = jnp.asarray(bkg_unc, jnp.float32)

    def expected(self, nuis, mu):
        return mu * self.signal + self.background * (1.0 + self.bkg_unc * nuis)

    def logpdf(self, nuis, data, mu):
        lam = self.expected(nuis, mu)
        main = jnp.sum(data * jnp.log(lam) - lam - lax.lgamma(data + 1.0))
        constraint = -0.5 * jnp.sum(nuis**2)
        return main + constraint


def setup_objective(model, data, mu):
    """Negative log-likelihood in the nuisance parameters, at fixed mu."""

    def nll(nuis):
        return -model.logpdf(nuis, data, mu)

    return nll


@partial(jax.jit, static_argnames=("objective_fn", "n_steps"))
def minimize_nll(objective_fn, init_pars, lr, n_steps=25):
    value_and_grad = jax.value_and_grad(objective_fn)
    pars = init_pars
    for _ in range(n_steps):
        val, g = value_and_grad(pars)
        pars = pars - lr * g
    return pars, objective_fn(pars)
