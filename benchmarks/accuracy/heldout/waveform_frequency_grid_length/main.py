"""Matched-filter log likelihoods of a template bank against several events."""

import jax.numpy as jnp
from events import Event
from waveform import inner_product, inspiral_polar


def log_likelihood(event, params):
    freqs, d_re, d_im, psd = event.data()
    h_re, h_im = inspiral_polar(freqs, params)
    df = 1.0 / event.duration
    return inner_product(h_re, h_im, d_re, d_im, psd, df) - 0.5 * inner_product(h_re, h_im, h_re, h_im, psd, df)


if __name__ == "__main__":
    events = [
        Event("GW-a", 4.0, jnp.array([1.2, 400.0, 0.0, 0.0])),
        Event("GW-b", 8.0, jnp.array([1.4, 300.0, 0.1, 0.5])),
        Event("GW-c", 4.0, jnp.array([1.1, 500.0, 0.0, 1.0])),
        Event("GW-d", 16.0, jnp.array([2.0, 800.0, 0.2, 0.0])),
    ]
    bank = [jnp.array([m, 450.0, 0.0, 0.0]) for m in (1.0, 1.3, 1.8)]
    for event in events:
        print(event.name, [float(log_likelihood(event, template)) for template in bank])
