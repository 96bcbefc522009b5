"""Running evidence integral of a nested sampler: log prior volume and log evidence."""

from typing import NamedTuple

import jax.numpy as jnp


class IntegratorState(NamedTuple):
    logX: jnp.ndarray
    logZ: jnp.ndarray


def init_integrator():
    return IntegratorState(
        logX=0.0,
        logZ=-jnp.inf,  # expect: RTL401
    )


def update_integrator(state, logl_dead, n_live):
    delta_logX = -1.0 / n_live
    logX = state.logX + delta_logX
    log_dw = state.logX + jnp.log1p(-jnp.exp(delta_logX))
    logZ = jnp.logaddexp(state.logZ, logl_dead + log_dw)
    return IntegratorState(logX, logZ)
