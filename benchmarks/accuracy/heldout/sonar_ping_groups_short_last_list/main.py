"""Scan a sector with a towed sonar array, several pings per device dispatch."""
import numpy as np
import jax.numpy as jnp

from beamformer import beamform_group, steering_delays

N_ELEMENTS = 8
N_SAMPLES = 64
PINGS_PER_DISPATCH = 4


class PingSource:
    def __init__(self, n_pings, seed=0):
        self.n_pings = n_pings
        self.rng = np.random.default_rng(seed)

    def __iter__(self):
        t = np.arange(N_SAMPLES)
        for k in range(self.n_pings):
            target = np.sin(0.3 * t + 0.2 * k)[None, :]
            lag = np.arange(N_ELEMENTS)[:, None] * 0.1
            echo = np.roll(target, 1, axis=1) * np.cos(lag) + self.rng.normal(0, 0.1, (N_ELEMENTS, N_SAMPLES))
            yield echo.astype(np.float32)


def grouped(pings, size):
    pings = [jnp.asarray(p) for p in pings]
    for start in range(0, len(pings), size):
        yield pings[start:start + size]  # expect: RTL103


def scan_sector(source, angles):
    delays = steering_delays(N_ELEMENTS, angles)
    maps = []
    for group in grouped(source, PINGS_PER_DISPATCH):
        maps.append(beamform_group(group, delays))
    return jnp.concatenate(maps)


def main():
    angles = jnp.linspace(-0.6, 0.6, 9)
    source = PingSource(n_pings=10)
    energy = scan_sector(source, angles)
    best = jnp.argmax(energy, axis=1)
    print("pings", energy.shape[0], "bearing per ping", [float(angles[b]) for b in best])


if __name__ == "__main__":
    main()
