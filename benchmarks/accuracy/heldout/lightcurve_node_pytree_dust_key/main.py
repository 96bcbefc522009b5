"""Simulate a few transient light curves for a mock survey night.

Every object gets a source node; objects that fall on a host galaxy also get a
dust-extinction node. The node graph exports its parameters as one dict pytree
that is handed to the jitted flux model."""

import jax
import jax.numpy as jnp
import numpy as np

from nodes import host_dust, salt_like_source

BANDS = jnp.array([4770.0, 6231.0, 7625.0])  # g, r, i effective wavelengths (A)


@jax.jit
def band_fluxes(tree, times):
    src = tree["source"]
    phase = (times - src["t0"]) / (1.0 + src["stretch"])
    shape = jnp.exp(-0.5 * (phase / 12.0) ** 2)
    flux = src["amplitude"] * shape[:, None] * jnp.ones_like(BANDS)[None, :]
    if "dust" in tree:
        a_lambda = tree["dust"]["ebv"] * tree["dust"]["r_v"] * (5500.0 / BANDS)
        flux = flux * 10.0 ** (-0.4 * a_lambda)[None, :]
    return flux


class Survey:
    def __init__(self, seed, cadence_days=3.0, n_epochs=8):
        self.rng = np.random.default_rng(seed)
        self.times = jnp.arange(n_epochs) * cadence_days

    def make_object(self, index):
        source = salt_like_source(
            t0=self.rng.uniform(5.0, 15.0),
            amplitude=self.rng.uniform(0.5, 2.0),
            stretch=self.rng.normal(0.0, 0.1),
        )
        if index % 2 == 1:  # every other object lies on a dusty host
            source.add(host_dust(ebv=self.rng.uniform(0.0, 0.3)))  # expect: RTL403
        return source

    def observe(self, n_objects):
        curves = []
        for i in range(n_objects):
            model = self.make_object(i)
            curves.append(band_fluxes(model.build_pytree(), self.times))
        return curves


if __name__ == "__main__":
    survey = Survey(seed=7)
    curves = survey.observe(4)
    peaks = [float(c.max()) for c in curves]
    print("peak fluxes:", np.round(peaks, 3))
