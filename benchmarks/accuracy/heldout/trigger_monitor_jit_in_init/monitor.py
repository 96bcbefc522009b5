"""Running totals of a detector's trigger stream, kept on device between batches."""

import jax
import jax.numpy as jnp


class TriggerMonitor:
    def __init__(self, threshold):
        self.threshold = threshold
        self.n_events = jnp.int32(0)
        self.energy_sum = jnp.float32(0.0)
        self.accumulate = jax.jit(self.accumulate)

    def accumulate(self, n_events, energy_sum, energies):
        hits = energies > self.threshold
        return n_events + jnp.sum(hits, dtype=jnp.int32), energy_sum + jnp.sum(jnp.where(hits, energies, 0.0))

    def update(self, energies):
        self.n_events, self.energy_sum = self.accumulate(self.n_events, self.energy_sum, energies)

    def mean_energy(self):
        return float(self.energy_sum) / max(int(self.n_events), 1)
