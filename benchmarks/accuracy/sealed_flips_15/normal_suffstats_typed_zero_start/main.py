"""Watch three windows of temperature readings for drift."""

import jax
import jax.numpy as jnp

from monitor import DriftMonitor


def main():
    monitor = DriftMonitor(reference_mean=20.0)
    keys = jax.random.split(jax.random.PRNGKey(0), 3)
    for w, (key, offset) in enumerate(zip(keys, [0.0, 0.05, 1.5])):
        readings = 20.0 + offset + 0.5 * jax.random.normal(key, (4, 16), dtype=jnp.float32)
        mean, drifted = monitor.check(list(readings))
        print(f"window {w}: mean {mean:.3f} drifted={drifted}")


if __name__ == "__main__":
    main()
