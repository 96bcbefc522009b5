"""MBAR self-consistent solver kernels.

Compilation is deferred until a kernel is first used (so importing this module
does not touch the JAX configuration); the jitted function is then kept on the
wrapper instance and reused for every later call.
"""
import jax
import jax.numpy as jnp
from jax.scipy.special import logsumexp


class DeferredJit:
    def __init__(self, fn, **jit_kwargs):
        self._fn = fn
        self._jit_kwargs = jit_kwargs
        self._jitted = None

    def __call__(self, *args, **kwargs):
        if self._jitted is None:
            self._jitted = jax.jit(self._fn, **self._jit_kwargs)
        return self._jitted(*args, **kwargs)


def _self_consistent_update(u_kn, N_k, f_k):
    # log of the mixture denominator for every sample n
    log_denom = logsumexp(f_k[:, None] - u_kn, b=N_k[:, None], axis=0)
    f_new = -logsumexp(-u_kn - log_denom[None, :], axis=1)
    return f_new - f_new[0]


def _weights(u_kn, N_k, f_k):
    log_denom = logsumexp(f_k[:, None] - u_kn, b=N_k[:, None], axis=0)
    return jnp.exp(f_k[:, None] - u_kn - log_denom[None, :])


mbar_update = DeferredJit(_self_consistent_update)
mbar_weights = DeferredJit(_weights)
