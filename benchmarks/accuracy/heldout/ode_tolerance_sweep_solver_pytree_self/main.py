"""Tolerance study for a chemostat model: how many steps does each tolerance cost
and how far is the answer from the tightest run?"""

import jax.numpy as jnp

from solver import AdaptiveSolver

PARAMS = {
    "mu_max": jnp.asarray(0.8),
    "k_s": jnp.asarray(0.3),
    "dilution": jnp.asarray(0.25),
    "s_in": jnp.asarray(5.0),
    "yield_": jnp.asarray(0.5),
}


class ToleranceStudy:
    def __init__(self, y0, t_end):
        self.y0 = jnp.asarray(y0)
        self.t_end = jnp.asarray(t_end)
        self.results = {}

    def run(self, tolerances):
        for rtol in tolerances:
            solver = AdaptiveSolver(rtol=rtol, atol=rtol * 1e-2)
            y, n_steps = solver.solve(PARAMS, self.y0, self.t_end)
            self.results[rtol] = (y, int(n_steps))
        return self

    def report(self):
        reference = self.results[min(self.results)][0]
        for rtol, (y, n) in sorted(self.results.items(), reverse=True):
            err = float(jnp.max(jnp.abs(y - reference)))
            print(f"rtol={rtol:.0e}  steps={n:4d}  s={float(y[0]):.4f}  x={float(y[1]):.4f}  err={err:.2e}")


if __name__ == "__main__":
    ToleranceStudy(y0=[5.0, 0.05], t_end=30.0).run([1e-2, 1e-3, 1e-4, 1e-5]).report()
