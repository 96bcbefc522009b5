"""Sensitivity of the column's mean temperature to the vertical-diffusion timescale."""

import jax.numpy as jnp
from model import Model
from physics import Relaxation, VerticalDiffusion


def sweep(timescales, temp0, hours=12.0):
    out = {}
    for tau in timescales:
        # a fresh model per value, so the new timescale actually reaches the compiled run
        model = Model(physics=[Relaxation(), VerticalDiffusion(timescale=tau)])  # expect: RTL204
        final, means = model.run(temp0, hours)  # expect: RTL204
        out[tau] = float(final.std())
    return out


if __name__ == "__main__":
    temp0 = 250.0 + 10.0 * jnp.sin(jnp.linspace(0.0, 3.0, 16))
    for tau, spread in sweep([12.0, 24.0, 48.0], temp0).items():
        print(f"timescale {tau:5.1f} h -> spread {spread:.3f} K")
