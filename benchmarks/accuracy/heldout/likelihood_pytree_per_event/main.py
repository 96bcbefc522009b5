"""Analyse a catalogue of events one after another with one jitted grid evaluation."""

import jax
import jax.numpy as jnp
import numpy as np
from likelihood import GaussianLikelihood


@jax.jit
def log_likelihood_grid(likelihood, amplitudes, frequencies):
    return jax.vmap(lambda a: jax.vmap(lambda f: likelihood.log_likelihood(a, f))(frequencies))(amplitudes)


def load_event(seed, num_samples=64):
    rng = np.random.default_rng(seed)
    times = np.linspace(0.0, 4.0, num_samples, dtype=np.float32)
    data = (1.0 + 0.1 * seed) * np.sin(2.0 * times) + rng.normal(0.0, 0.3, num_samples).astype(np.float32)
    return GaussianLikelihood(jnp.asarray(times), jnp.asarray(data), jnp.float32(0.3))


def analyse_catalogue(event_ids):
    amplitudes = jnp.linspace(0.5, 2.0, 8)
    frequencies = jnp.linspace(1.5, 2.5, 8)
    best = []
    for event_id in event_ids:
        grid = log_likelihood_grid(load_event(event_id), amplitudes, frequencies)
        i, j = np.unravel_index(int(jnp.argmax(grid)), grid.shape)
        best.append((float(amplitudes[i]), float(frequencies[j])))
    return best


if __name__ == "__main__":
    print(analyse_catalogue([0, 1, 2, 3]))
