"""Haverly-style pooling problem: sweep the crude price and re-optimise the blend each time.

Decision vector x = [crude_a, crude_b, crude_c, pool_to_x, pool_to_y, c_to_x, c_to_y];
parameter vector p = [price_a, price_b, price_c, price_x, price_y].
"""

import jax.numpy as jnp

import nlp

SULFUR = jnp.array([3.0, 1.0, 2.0], dtype=jnp.float32)
SPEC_X, SPEC_Y = 2.5, 1.5
DEMAND_X, DEMAND_Y = 100.0, 200.0


def pooling_cost(x, p):
    purchases = p[0] * x[0] + p[1] * x[1] + p[2] * x[2]
    sales = p[3] * (x[3] + x[5]) + p[4] * (x[4] + x[6])
    return (purchases - sales) / 100.0


def pooling_constraints(x, p):
    pool_in = x[0] + x[1]
    pool_quality = (SULFUR[0] * x[0] + SULFUR[1] * x[1]) / (pool_in + 1e-6)
    return jnp.stack(
        [
            x[3] + x[4] - pool_in,
            x[2] - x[5] - x[6],
            pool_quality * x[3] + SULFUR[2] * x[5] - SPEC_X * (x[3] + x[5]),
            pool_quality * x[4] + SULFUR[2] * x[6] - SPEC_Y * (x[4] + x[6]),
            x[3] + x[5] - DEMAND_X,
            x[4] + x[6] - DEMAND_Y,
        ]
    ) / 100.0


def price_sweep(prices_a):
    x0 = jnp.full((7,), 10.0, dtype=jnp.float32)
    results = []
    for price_a in prices_a:
        p = jnp.array([price_a, 16.0, 10.0, 9.0, 15.0], dtype=jnp.float32)
        x, merit = nlp.solve(pooling_cost, pooling_constraints, p, x0)
        results.append((price_a, merit, x))
        x0 = x
    return results


def main():
    for price_a, merit, x in price_sweep([6.0, 7.0, 8.0, 9.0, 10.0]):
        print(f"price_a {price_a:4.1f}  merit {merit:9.4f}  flows {x.round(2)}")


if __name__ == "__main__":
    main()
