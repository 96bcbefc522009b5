"""Random gain and noise jitter for batches of seismic traces."""

from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnames=("step",))
def jitter_traces(key, traces, step):
    # fold the step in so that every batch gets different jitter
    key = jax.random.fold_in(key, step)
    gain_key, noise_key = jax.random.split(key)
    gain = jax.random.uniform(gain_key, (traces.shape[0], 1), minval=0.8, maxval=1.2)
    noise = 0.02 * jax.random.normal(noise_key, traces.shape)
    return traces * gain + noise


class TraceAugmenter:
    def __init__(self, seed):
        self.key = jax.random.PRNGKey(seed)

    def __call__(self, traces, step):
        return jitter_traces(self.key, traces, step=step)  # expect: RTL201
