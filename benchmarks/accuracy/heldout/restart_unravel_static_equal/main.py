"""Fit the curve from several random starting points and keep the best fit."""

import jax
import jax.numpy as jnp
from model import curve, random_params
from solver import fit_from

if __name__ == "__main__":
    t = jnp.linspace(0.0, 5.0, 25, dtype=jnp.float32)
    truth = {"amplitude": jnp.array([1.5, 0.7]), "rate": jnp.array([1.2, 0.2]), "offset": jnp.float32(0.1)}
    y = curve(truth, t)
    fits = [fit_from(random_params(jax.random.PRNGKey(s)), t, y) for s in range(4)]
    best, sse = min(fits, key=lambda fit: fit[1])
    print(round(sse, 5), [round(float(r), 3) for r in best["rate"]])
