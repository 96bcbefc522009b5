"""A software lock-in amplifier: demodulate each chunk at the reference frequency, low-pass the result."""

import jax
import jax.numpy as jnp


@jax.jit
def demodulate(chunk, times, state, ref_hz, duration):
    i_avg, q_avg = state
    phase = 2 * jnp.pi * ref_hz * times
    i_now = jnp.mean(chunk * jnp.cos(phase))
    q_now = jnp.mean(chunk * jnp.sin(phase))
    state = (0.9 * i_avg + 0.1 * i_now, 0.9 * q_avg + 0.1 * q_now)
    return state, times + duration


def amplitude(state):
    i_avg, q_avg = state
    return 2 * jnp.hypot(i_avg, q_avg)
