"""Bill a set of households month by month under a tiered tariff whose prices change monthly."""

import jax
import jax.numpy as jnp
import numpy as np

from tariff import tariff_for_month

CONFIG = {
    "currency": "EUR",
    "band_edges": [0, 150, 400],
    "prices": [[0.18, 0.24, 0.31], [0.19, 0.25, 0.33], [0.21, 0.27, 0.35], [0.20, 0.26, 0.34]],
}


@jax.jit
def monthly_bills(usage, tariff):
    bills = jnp.zeros_like(usage)
    edges = tariff.band_edges + (float("inf"),)
    for k, price in enumerate(tariff.prices):
        lo, hi = edges[k], edges[k + 1]
        in_band = jnp.clip(usage, lo, hi) - lo
        bills = bills + in_band * price
    return bills


def main():
    rng = np.random.default_rng(1)
    for month in range(4):
        usage = jnp.asarray(rng.gamma(4.0, 80.0, size=12), jnp.float32)
        tariff = tariff_for_month(CONFIG, month)
        bills = monthly_bills(usage, tariff)
        print(f"month {month}: mean bill {float(bills.mean()):.2f} {tariff.currency}")


if __name__ == "__main__":
    main()
