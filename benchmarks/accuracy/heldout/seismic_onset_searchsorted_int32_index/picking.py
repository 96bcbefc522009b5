"""Onset pickers for single-station seismograms.

Two ways to find where a waveform window should start: from a catalogue origin
time (theoretical arrival) or from the STA/LTA characteristic function when no
catalogue time is known.
"""

import jax.numpy as jnp


def sta_lta(trace, n_sta=5, n_lta=40):
    energy = trace**2
    kernel_sta = jnp.ones(n_sta) / n_sta
    kernel_lta = jnp.ones(n_lta) / n_lta
    sta = jnp.convolve(energy, kernel_sta, mode="same")
    lta = jnp.convolve(energy, kernel_lta, mode="same") + 1e-12
    return sta / lta


def onset_from_catalogue(times, arrival_time, lead=0.5):
    # sample index of the catalogue arrival minus a little lead time
    return jnp.searchsorted(times, arrival_time - lead)  # expect: RTL402


def onset_from_trigger(trace, lead_samples=10):
    ratio = sta_lta(trace)
    return jnp.maximum(jnp.argmax(ratio) - lead_samples, 0)  # expect: RTL402
