"""1-D interpolation of tabulated data (linear or monotone cubic Hermite)."""

import jax
import jax.numpy as jnp


def _slopes(x, f):
    d = jnp.diff(f) / jnp.diff(x)
    m = jnp.concatenate([d[:1], 0.5 * (d[1:] + d[:-1]), d[-1:]])
    return jnp.where(jnp.concatenate([d[:1], d[1:] * d[:-1], d[-1:]]) > 0, m, 0.0)


def interp1d(xq, x, f, method="cubic"):
    """Interpolate f(x) at the query points xq."""

    def _kernel(xq, x, f):
        i = jnp.clip(jnp.searchsorted(x, xq) - 1, 0, x.size - 2)
        h = x[i + 1] - x[i]
        t = (xq - x[i]) / h
        if method == "linear":
            return (1 - t) * f[i] + t * f[i + 1]
        m = _slopes(x, f)
        h00 = (1 + 2 * t) * (1 - t) ** 2
        h10 = t * (1 - t) ** 2
        h01 = t**2 * (3 - 2 * t)
        h11 = t**2 * (t - 1)
        return h00 * f[i] + h10 * h * m[i] + h01 * f[i + 1] + h11 * h * m[i + 1]

    return jax.jit(_kernel)(xq, x, f)  # expect: RTL301
