"""Spike-count recordings from several sessions of the same task (simulated here)."""

import dataclasses

import numpy as np


@dataclasses.dataclass
class Session:
    name: str
    n_neurons: int
    spikes: np.ndarray  # (n_trials, n_bins, n_neurons) counts


def simulate_session(name, n_neurons, n_trials=4, n_bins=10, n_latent=3, seed=0):
    rng = np.random.default_rng(seed)
    t = np.linspace(0.0, 1.0, n_bins)
    latents = np.stack([np.sin(2 * np.pi * (k + 1) * t) for k in range(n_latent)], axis=-1)
    loading = rng.normal(0.0, 0.5, size=(n_latent, n_neurons))
    rates = np.exp(latents @ loading)  # (n_bins, n_neurons)
    spikes = rng.poisson(rates, size=(n_trials, n_bins, n_neurons))  # expect: RTL105
    return Session(name, n_neurons, spikes.astype(np.float32))


def load_sessions():
    counts = {"monkeyJ_0412": 12, "monkeyJ_0415": 17, "monkeyN_0503": 9}
    return [simulate_session(name, n, seed=i) for i, (name, n) in enumerate(counts.items())]
