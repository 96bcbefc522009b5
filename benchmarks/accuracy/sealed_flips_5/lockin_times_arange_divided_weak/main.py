"""Track the amplitude of a weak 50 Hz signal buried in noise, chunk by chunk as the card delivers them."""

import jax.numpy as jnp
import numpy as np

import clock
from lockin import amplitude, demodulate


def acquire(rng, n_chunks, amp=0.05, hz=50.0):
    for k in range(n_chunks):
        t = (k * clock.CHUNK + np.arange(clock.CHUNK)) / clock.SAMPLE_RATE
        samples = amp * np.cos(2 * np.pi * hz * t) + 0.5 * rng.standard_normal(clock.CHUNK)
        yield jnp.asarray(samples.astype(np.float32))


def main(n_chunks=40, seed=0):
    rng = np.random.default_rng(seed)
    times = clock.first_chunk_times()
    duration = clock.chunk_duration()
    state = (jnp.zeros(()), jnp.zeros(()))
    ref_hz = jnp.float32(50.0)
    for chunk in acquire(rng, n_chunks):
        state, times = demodulate(chunk, times, state, ref_hz, duration)
    print(f"amplitude {float(amplitude(state)):.4f} after {float(times[0]):.2f} s")


if __name__ == "__main__":
    main()
