"""Fit the same one-galaxy scene to a batch of fixed-format postage stamps, each with its own seeing.

Every stamp is a new Observation matched to the shared model frame; the scene is then fitted to it.
"""

import numpy as np
import jax.numpy as jnp

from observation import Frame, Observation
from scene import Scene, render_source

STAMP = (15, 15)


def simulate_stamp(seeing, seed):
    """A noisy cutout of a round galaxy blurred by this exposure's PSF."""
    rng = np.random.default_rng(seed)
    truth = {"x0": 7.3, "y0": 6.8, "log_size": np.log(1.5), "log_flux": np.log(200.0)}
    yy, xx = np.mgrid[0 : STAMP[0], 0 : STAMP[1]]
    size2 = np.exp(truth["log_size"]) ** 2 + seeing**2
    r2 = (xx - truth["x0"]) ** 2 + (yy - truth["y0"]) ** 2
    image = np.exp(truth["log_flux"]) * np.exp(-0.5 * r2 / size2) / (2 * np.pi * size2)
    noise = 0.5
    image = image + rng.normal(0.0, noise, size=STAMP)
    weights = np.full(STAMP, 1.0 / noise**2)
    return jnp.asarray(image, jnp.float32), jnp.asarray(weights, jnp.float32)


def load_catalog():
    """Stamps from several exposures of one field: same size, different PSF width (in pixels)."""
    seeings = [1.1, 1.4, 0.9, 1.25]
    return [(s,) + simulate_stamp(s, seed) for seed, s in enumerate(seeings)]


def main():
    frame = Frame(shape=STAMP)
    init = {
        "x0": jnp.float32(7.0),
        "y0": jnp.float32(7.0),
        "log_size": jnp.float32(0.3),
        "log_flux": jnp.float32(5.0),
    }
    scene = Scene(frame, init)
    for seeing, data, weights in load_catalog():
        obs = Observation(data, weights, psf_sigma=seeing).match(frame)
        params, loss = scene.fit(obs)
        flux = float(jnp.exp(params["log_flux"]))
        print(f"seeing {seeing:.2f}px: flux {flux:.1f}, centre ({float(params['x0']):.2f}, {float(params['y0']):.2f}), loss {loss:.1f}")
    model = render_source(params, STAMP)
    print("peak of last model:", float(model.max()))


if __name__ == "__main__":
    main()
