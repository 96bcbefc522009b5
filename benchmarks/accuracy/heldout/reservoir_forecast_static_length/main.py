"""Forecast the Lorenz-63 system from several test windows and score each forecast."""

import jax
import jax.numpy as jnp
import numpy as np
from esn import forecast, listen, make_esn, train_readout


def lorenz63(n, dt=0.01, x0=(1.0, 1.0, 1.0)):
    out, x = np.empty((n, 3), np.float32), np.array(x0)
    for i in range(n):
        dx = np.array([10 * (x[1] - x[0]), x[0] * (28 - x[2]) - x[1], x[0] * x[1] - 8 / 3 * x[2]])
        x = x + dt * dx
        out[i] = x
    return out / 20.0


if __name__ == "__main__":
    series = jnp.asarray(lorenz63(1200))
    esn = train_readout(make_esn(jax.random.PRNGKey(0)), series[:800])
    window = 50
    for start in range(800, 1100, 100):
        warm, test = series[start - 200:start], series[start:start + window]
        r0 = listen(esn, warm)
        pred = forecast(esn, r0, fcast_len=len(test))
        print(start, float(jnp.sqrt(jnp.mean((pred - test) ** 2))))
