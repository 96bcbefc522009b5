"""A tiny neural emulator of stellar continuum-normalised spectra.

Trained offline; here we only load fixed weights and evaluate them on the
wavelength grid of whichever spectrograph band we are fitting.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def init_weights(seed=0, n_labels=3, width=16):
    rng = np.random.default_rng(seed)
    return {
        "w1": jnp.asarray(rng.normal(0, 0.3, (n_labels + 1, width)), jnp.float32),
        "b1": jnp.zeros(width, jnp.float32),
        "w2": jnp.asarray(rng.normal(0, 0.3, (width, 1)), jnp.float32),
    }


def spectrum_from_labels(weights, wave, labels):
    """Normalised flux at each wavelength for labels (Teff, logg, [Fe/H])."""
    x = (wave - 5000.0) / 1000.0
    feats = jnp.concatenate(
        [jnp.broadcast_to(labels, (wave.shape[0], labels.shape[0])), x[:, None]], axis=1
    )
    h = jnp.tanh(feats @ weights["w1"] + weights["b1"])
    return 1.0 - 0.1 * jax.nn.sigmoid(h @ weights["w2"])[:, 0]


def load_emulator(seed=0):
    weights = init_weights(seed)
    # the weights never change during a fit, so bake them in
    return jax.jit(partial(spectrum_from_labels, weights))
