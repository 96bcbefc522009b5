"""Periodic interpolation of mooring profiles sampled around a closed cycle."""
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("method", "period", "n_modes"))
def interp_periodic(xq, x, f, method="fourier", period=360.0, n_modes=8):
    if method == "fourier":
        k = jnp.arange(n_modes, dtype=f.dtype)
        omega = 2.0 * jnp.pi * k / period
        cos_b = jnp.cos(omega[None, :] * x[:, None])
        sin_b = jnp.sin(omega[None, :] * x[:, None])
        basis = jnp.concatenate([cos_b, sin_b[:, 1:]], axis=1)
        coef, *_ = jnp.linalg.lstsq(basis, f)
        q_basis = jnp.concatenate(
            [jnp.cos(omega[None, :] * xq[:, None]), jnp.sin(omega[None, :] * xq[:, None])[:, 1:]],
            axis=1,
        )
        return q_basis @ coef
    xw = jnp.concatenate([x - period, x, x + period])
    fw = jnp.concatenate([f, f, f])
    return jnp.interp(jnp.mod(xq, period), xw, fw)


class ProfileResampler:
    def __init__(self, method, period, n_out):
        self.method = method
        self.period = float(period)
        self.xq = jnp.linspace(0.0, self.period, n_out, endpoint=False, dtype=jnp.float32)

    def modes_for(self, x):
        # as many harmonics as the coarse grid can resolve
        return int(x.shape[0]) // 2 - 1

    def __call__(self, x, f):
        return interp_periodic(
            self.xq, x, f,
            method=self.method, period=self.period, n_modes=self.modes_for(x),
        )
