"""Fit a linear-reservoir recession curve Q(t) = Q0 * exp(-t / k) to the
falling limb of the hydrograph of several gauged catchments."""
import numpy as np
import jax.numpy as jnp

from solver import GaussNewton

DAYS = 24


def recession_residuals(params, obs):
    log_q0, log_k = params
    t = obs["t"]
    q_model = jnp.exp(log_q0) * jnp.exp(-t / jnp.exp(log_k))
    return jnp.log(q_model) - jnp.log(obs["q"])


def load_recessions():
    """Synthetic daily discharge (m3/s) after the last storm, per catchment."""
    rng = np.random.default_rng(7)
    t = np.arange(DAYS, dtype=np.float32)
    records = {}
    for name, q0, k in [("upper_tay", 42.0, 9.0), ("dee_at_park", 18.0, 14.0),
                        ("nith_friars", 7.5, 6.0), ("lune_caton", 25.0, 11.0)]:
        noise = rng.normal(0.0, 0.02, DAYS).astype(np.float32)
        q = q0 * np.exp(-t / k) * np.exp(noise)
        records[name] = {"t": jnp.asarray(t), "q": jnp.asarray(q)}
    return records


class RecessionCalibrator:
    def __init__(self, maxiter=4):
        self.solver = GaussNewton(recession_residuals, maxiter=maxiter)

    def calibrate(self, obs):
        init = jnp.array([jnp.log(obs["q"][0]), jnp.log(10.0)])
        params, costs = self.solver.run(init, obs)
        q0, k = np.exp(np.asarray(params))
        return float(q0), float(k), costs[-1]


def main():
    calibrator = RecessionCalibrator()
    for name, obs in load_recessions().items():
        q0, k, cost = calibrator.calibrate(obs)
        print(f"{name:12s} Q0={q0:6.2f} m3/s  k={k:5.2f} d  cost={cost:.2e}")


if __name__ == "__main__":
    main()
