"""Delay-and-sum beamforming over a group of sonar pings."""
import jax
import jax.numpy as jnp


def steering_delays(n_elements, angles, spacing=0.5):
    element_pos = jnp.arange(n_elements) * spacing
    return element_pos[None, :] * jnp.sin(angles)[:, None]


@jax.jit
def beamform_group(pings, delays):
    """pings: list of (n_elements, n_samples) echoes handled in one dispatch."""
    n_samples = pings[0].shape[-1]
    freqs = jnp.fft.rfftfreq(n_samples)
    phase = jnp.exp(-2j * jnp.pi * delays[:, :, None] * freqs[None, None, :])
    energies = []
    for echo in pings:
        spec = jnp.fft.rfft(echo, axis=-1)
        beams = jnp.einsum("aef,ef->af", phase, spec)
        energies.append(jnp.sum(jnp.abs(beams) ** 2, axis=-1))
    return jnp.stack(energies)
