"""Probabilistic solution of logistic growth for several initial populations."""

import jax.numpy as jnp
import numpy as np

from filters import STEPPERS


def logistic(y, t, rate=1.5, capacity=1.0):
    return rate * y * (1.0 - y / capacity)


def make_ode_residual(vector_field):
    def residual(state, t):
        return state[1] - vector_field(state[0], t)
    return residual


class ODEFilterSolver:
    def __init__(self, vector_field, method="ek0", dt=0.1):
        self.vector_field = vector_field
        self.step = STEPPERS[method]
        self.dt = dt

    def solve(self, y0, t_end):
        info_op = make_ode_residual(self.vector_field)
        mean = jnp.array([y0, self.vector_field(y0, 0.0)], dtype=jnp.float32)
        cov = jnp.zeros((2, 2), dtype=jnp.float32)
        ts = np.arange(0.0, t_end, self.dt, dtype=np.float32)
        means = [mean]
        for t in ts:
            t_dt = jnp.array([t, self.dt], dtype=jnp.float32)
            mean, cov = self.step(mean, cov, t_dt, info_op)  # expect: RTL204
            means.append(mean)
        return jnp.stack(means), cov


def main():
    solver = ODEFilterSolver(logistic, method="ek0", dt=0.1)
    for y0 in (0.05, 0.1, 0.2, 0.4):
        path, cov = solver.solve(y0, t_end=0.5)
        print(f"y0={y0:.2f}: y(0.5)={float(path[-1, 0]):.4f} +- {float(jnp.sqrt(cov[0, 0])):.2e}")
    reference = ODEFilterSolver(logistic, method="ek1", dt=0.1)
    ref_path, _ = reference.solve(0.1, t_end=0.5)
    print(f"ek1 reference at y0=0.10: y(0.5)={float(ref_path[-1, 0]):.4f}")


if __name__ == "__main__":
    main()
