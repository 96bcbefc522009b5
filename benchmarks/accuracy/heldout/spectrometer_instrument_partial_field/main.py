"""Synthetic X-ray Thomson scattering spectra for a series of laser shots.

Each shot builds a fresh experimental Setup; the spectrometer's instrument
function is stored on it as a functools.partial and handed to the jitted
spectrum model as a static argument.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np

N_OMEGA = 128


def gaussian_instrument(omega, sigma):
    return jnp.exp(-0.5 * (omega / sigma) ** 2)


def electron_feature(omega, temperature, density):
    # Doppler-broadened free-electron feature plus a narrow elastic peak.
    width = 2.0 * jnp.sqrt(temperature) * (1.0 + 0.05 * density)
    inelastic = jnp.exp(-0.5 * ((omega + 15.0) / width) ** 2)
    elastic = 0.3 * jnp.exp(-0.5 * (omega / 0.5) ** 2)
    return inelastic + elastic


@functools.partial(jax.jit, static_argnames=("instrument",))
def synthetic_spectrum(omega, temperature, density, instrument):
    raw = electron_feature(omega, temperature, density)
    kernel = instrument(omega - omega[N_OMEGA // 2])
    return jnp.convolve(raw, kernel / kernel.sum(), mode="same")


class Setup:
    def __init__(self, probe_energy_ev, resolution_ev):
        self.probe_energy = probe_energy_ev
        self.omega = jnp.linspace(-60.0, 20.0, N_OMEGA)
        self.instrument = functools.partial(gaussian_instrument, sigma=resolution_ev)  # expect: RTL204

    def probe(self, plasma):
        return synthetic_spectrum(self.omega, plasma["T"], plasma["n"], instrument=self.instrument)  # expect: RTL204


def fit_temperature(measured, setup, density):
    grid = jnp.linspace(5.0, 40.0, 8)
    costs = [float(jnp.sum((setup.probe({"T": t, "n": density}) - measured) ** 2)) for t in grid]
    return float(grid[int(np.argmin(costs))])


def analyse_shot(shot):
    setup = Setup(probe_energy_ev=8500.0, resolution_ev=4.0)
    truth = {"T": jnp.float32(shot["T"]), "n": jnp.float32(shot["n"])}
    noise = 0.01 * np.random.default_rng(shot["id"]).standard_normal(N_OMEGA)
    measured = setup.probe(truth) + jnp.asarray(noise, dtype=jnp.float32)
    return fit_temperature(measured, setup, truth["n"])


if __name__ == "__main__":
    campaign = [{"id": 1, "T": 12.0, "n": 3.0}, {"id": 2, "T": 20.0, "n": 2.5}, {"id": 3, "T": 31.0, "n": 4.0}]
    for shot in campaign:
        print(f"shot {shot['id']}: fitted T = {analyse_shot(shot):.1f} eV (true {shot['T']})")
