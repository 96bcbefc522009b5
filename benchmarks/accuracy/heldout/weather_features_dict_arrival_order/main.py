"""Hourly nowcast from a dict of station features, refreshed every forecast cycle."""

import jax
import jax.numpy as jnp
import numpy as np

from ingest import CLIMATOLOGY, HOURS, assemble_features, fake_reports


@jax.jit
def nowcast(features, weights, bias):
    """Linear nowcast on standardised features, keyed by variable name."""
    total = bias * jnp.ones(HOURS)
    for name, series in features.items():
        mean, std = CLIMATOLOGY[name]
        total = total + weights[name] * (series - mean) / std
    return total


@jax.jit
def skill(pred, obs):
    return 1.0 - jnp.mean((pred - obs) ** 2) / jnp.var(obs)


def main():
    rng = np.random.default_rng(7)
    weights = {name: jnp.float32(w) for name, w in zip(CLIMATOLOGY, (0.5, -0.2, 0.1, 0.3, 0.4))}
    bias = jnp.float32(0.0)
    for cycle in range(5):
        features = assemble_features(fake_reports(cycle, rng))
        print(f"cycle {cycle}: keys arrived as {list(features)}")
        pred = nowcast(features, weights, bias)
        obs = pred + jnp.asarray(0.3 * rng.normal(size=HOURS), dtype=jnp.float32)
        print(f"  skill {float(skill(pred, obs)):+.3f}")


if __name__ == "__main__":
    main()
