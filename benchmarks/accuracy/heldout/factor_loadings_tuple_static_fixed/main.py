"""Daily marginal-risk report for a rebalanced equity portfolio under a fixed factor model.

The factor loadings are estimated once, before the backtest, and never change. To let the jitted
risk functions specialise on them they are passed as a static argument, converted from the NumPy
matrix to a tuple of tuples (hashable) at every call.
"""

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

N_ASSETS = 8
N_FACTORS = 3
N_DAYS = 5


class FactorRiskModel:
    def __init__(self, seed: int = 7):
        rng = np.random.default_rng(seed)
        self.loadings = np.round(rng.normal(0.0, 1.0, (N_ASSETS, N_FACTORS)), 3)
        self.factor_cov = np.diag([0.04, 0.02, 0.01]).astype(np.float32)
        self.specific_var = np.full((N_ASSETS,), 0.015, dtype=np.float32)

    def static_loadings(self):
        return tuple(tuple(row) for row in self.loadings.tolist())


@partial(jax.jit, static_argnums=(0,))
def marginal_risk(loadings, factor_cov, specific_var, weights):
    b = jnp.asarray(loadings, dtype=jnp.float32)

    def variance(w):
        exposure = b.T @ w
        return exposure @ factor_cov @ exposure + jnp.sum(specific_var * w**2)

    return jax.jacobian(variance)(weights), variance(weights)


@partial(jax.jit, static_argnums=(0,))
def factor_exposure(loadings, weights):
    return jnp.asarray(loadings, dtype=jnp.float32).T @ weights


def rebalance(weights: np.ndarray, day: int) -> np.ndarray:
    rng = np.random.default_rng(1000 + day)
    drift = weights * (1.0 + rng.normal(0.0, 0.02, weights.shape))
    return (drift / drift.sum()).astype(np.float32)


def daily_report(model: FactorRiskModel, weights: np.ndarray):
    grad, var = marginal_risk(
        model.static_loadings(), model.factor_cov, model.specific_var, weights
    )
    exposure = factor_exposure(model.static_loadings(), weights)
    return float(jnp.sqrt(var)), np.asarray(grad), np.asarray(exposure)


def main():
    model = FactorRiskModel()
    weights = np.full((N_ASSETS,), 1.0 / N_ASSETS, dtype=np.float32)
    for day in range(N_DAYS):
        weights = rebalance(weights, day)
        vol, grad, exposure = daily_report(model, weights)
        print(f"day {day}: vol {vol:.4f} top contributor {int(np.argmax(grad))} exposure {exposure.round(3)}")


if __name__ == "__main__":
    main()
