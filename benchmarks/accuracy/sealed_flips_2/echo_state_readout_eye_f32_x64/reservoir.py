"""An echo state network: a fixed random reservoir in float32 and a ridge-regression readout."""

import jax
import jax.numpy as jnp
import numpy as np


def make_reservoir(n=32, n_in=1, spectral_radius=0.9, seed=0):
    """The rescaling needs an accurate spectral radius, computed in float64; the weights are kept float32."""
    rng = np.random.default_rng(seed)
    w = rng.normal(size=(n, n))
    w *= spectral_radius / np.max(np.abs(np.linalg.eigvals(w)))
    w_in = rng.uniform(-0.5, 0.5, size=(n, n_in))
    return jnp.asarray(w, jnp.float32), jnp.asarray(w_in, jnp.float32)


def run_reservoir(w, w_in, h0, inputs):
    def update(h, u):
        h = jnp.tanh(w @ h + w_in @ u)
        return h, h

    return jax.lax.scan(update, h0, inputs)


def ridge_readout(states, targets, reg=1e-3):
    n = states.shape[1]
    gram = states.T @ states + reg * jnp.eye(n, dtype=states.dtype)
    return jnp.linalg.solve(gram, states.T @ targets)
