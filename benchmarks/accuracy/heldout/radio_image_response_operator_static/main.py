"""Deconvolve a simulated dirty image of a few point sources (radio imaging toy)."""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from beams import beam_from_config
from deconvolve import run_major_cycles

OBS = {
    "freq_hz": 1.4e9,
    "baseline_m": 35.0,
    "pixel_rad": 2.0e-3,
    "support": 7,
    "gain": 0.6,
}


@partial(jax.jit, static_argnames=("response",))
def landweber_step(response, image, dirty, gain):
    residual = dirty - response(image)
    update = response(residual)  # symmetric PSF: adjoint == forward
    return jnp.clip(image + gain * update, 0.0, None)


def simulate_sky(n=24, seed=3):
    rng = np.random.default_rng(seed)
    sky = np.zeros((n, n), np.float32)
    for _ in range(4):
        i, j = rng.integers(3, n - 3, size=2)
        sky[i, j] += rng.uniform(0.5, 2.0)
    return jnp.asarray(sky)


def main():
    sky = simulate_sky()
    beam = beam_from_config(OBS)
    print("instrument:", beam)
    dirty = beam(sky) + 0.01 * jax.random.normal(jax.random.PRNGKey(0), sky.shape)
    image, history = run_major_cycles(landweber_step, dirty, OBS)
    print("recovered flux", float(image.sum()), "true flux", float(sky.sum()))
    print("rms history", [round(h, 4) for h in history])


if __name__ == "__main__":
    main()
