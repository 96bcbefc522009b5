"""Fit stellar labels to a multi-band spectrum with a neural emulator.

Each spectrograph arm has its own wavelength range and dispersion, so the
model grid for every band is rebuilt from the band description.
"""

from dataclasses import dataclass

import jax.numpy as jnp
import numpy as np

from emulator import load_emulator


@dataclass(frozen=True)
class Band:
    name: str
    lo: float      # Angstrom
    hi: float
    dlam: float    # Angstrom per pixel


BANDS = [
    Band("blue", 3800.0, 4400.0, 20.0),
    Band("green", 4800.0, 5500.0, 20.0),
    Band("red", 6300.0, 6800.0, 25.0),
]


def band_grid(band):
    n_pix = int(round((band.hi - band.lo) / band.dlam))
    return jnp.asarray(np.linspace(band.lo, band.hi, n_pix), jnp.float32)  # expect: RTL105


class LabelFitter:
    def __init__(self, emulate, bands):
        self.emulate = emulate
        self.grids = {b.name: band_grid(b) for b in bands}

    def chi2(self, labels, observed):
        total = 0.0
        for name, flux in observed.items():
            model = self.emulate(self.grids[name], labels)
            total += float(jnp.sum((model - flux) ** 2))
        return total


def simulate_observation(emulate, bands, true_labels, noise=0.002, seed=1):
    rng = np.random.default_rng(seed)
    out = {}
    for b in bands:
        clean = emulate(band_grid(b), true_labels)
        out[b.name] = clean + noise * rng.standard_normal(clean.shape[0]).astype(np.float32)
    return out


def main():
    emulate = load_emulator()
    truth = jnp.array([0.4, -0.2, 0.1], jnp.float32)
    observed = simulate_observation(emulate, BANDS, truth)
    fitter = LabelFitter(emulate, BANDS)

    best, best_labels = np.inf, None
    for teff in (0.2, 0.4, 0.6):
        for feh in (0.0, 0.1):
            labels = jnp.array([teff, -0.2, feh], jnp.float32)
            c2 = fitter.chi2(labels, observed)
            if c2 < best:
                best, best_labels = c2, labels
    print("best labels", np.asarray(best_labels), "chi2", round(best, 5))


if __name__ == "__main__":
    main()
