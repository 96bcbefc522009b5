"""Measure how strongly each heat source on the board reaches the temperature sensor.

Each site is driven alone with the same power pulse, and the sensor's peak rise is
recorded as that site's coupling.
"""

import jax.numpy as jnp

from thermal import SITES, N_NODES, conductance_matrix, simulate

LINKS = [(0, 1, 0.8), (0, 2, 1.2), (1, 5, 0.6), (2, 5, 0.4), (3, 4, 0.9), (4, 5, 0.7), (0, 5, 0.3)]


def pulse(n_steps=80, width=30, power=2.0):
    t = jnp.arange(n_steps)
    return jnp.where(t < width, power, 0.0).astype(jnp.float32)


class CouplingSurvey:
    def __init__(self, links):
        self.conductance = conductance_matrix(links)
        self.baseline = jnp.zeros(N_NODES, jnp.float32)
        self.results = {}

    def drive(self, site, trace):
        sources = {site: trace}  # expect: RTL403
        readings = simulate(self.conductance, sources, self.baseline)
        self.results[site] = float(readings.max())

    def run(self, sites, trace):
        for site in sites:
            self.drive(site, trace)
        return self.results


def main():
    survey = CouplingSurvey(LINKS)
    results = survey.run(list(SITES)[:4], pulse())
    for site, rise in sorted(results.items(), key=lambda kv: -kv[1]):
        print(f"{site:6s} raises the sensor by {rise:.3f} K")


if __name__ == "__main__":
    main()
