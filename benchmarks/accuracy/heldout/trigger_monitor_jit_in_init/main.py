"""Stream fixed-size readout batches through the monitor and report the running mean."""

import jax
from monitor import TriggerMonitor

BATCH = 32

if __name__ == "__main__":
    monitor = TriggerMonitor(threshold=1.0)
    key = jax.random.PRNGKey(0)
    for batch in range(5):
        key, sub = jax.random.split(key)
        energies = jax.random.exponential(sub, (BATCH,))
        monitor.update(energies)
        print(batch, int(monitor.n_events), round(monitor.mean_energy(), 4))
