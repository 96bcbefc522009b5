"""Invert a gravity profile for cell density contrasts (Tikhonov-regularised)."""

import jax.numpy as jnp

from linesearch import descent_step, init_backtrack_state
from survey import synthetic_survey


class GravityInversion:
    def __init__(self, sens, d_obs, reg=1e-6):
        self.sens = jnp.asarray(sens)
        self.d_obs = jnp.asarray(d_obs)
        self.reg = reg
        lipschitz = float(jnp.linalg.norm(self.sens, 2)) ** 2 + reg
        self.initial_step = 1.0 / lipschitz
        self.max_step = 20.0 / lipschitz

    def run(self, n_iters):
        rho = jnp.zeros(self.sens.shape[1], dtype=jnp.float32)
        state = init_backtrack_state(rho, self.initial_step)
        for it in range(n_iters):
            rho, state = descent_step(rho, state, self.sens, self.d_obs, self.reg, self.max_step)
            print(f"iter {it}: misfit {float(state.value):.5f}, step {float(state.step_size):.3g}")
        return rho, state


def main():
    sens, d_obs, true_rho = synthetic_survey()
    inversion = GravityInversion(sens, d_obs)
    rho, state = inversion.run(n_iters=5)
    print("backtracking trials:", int(state.num_linesearch_steps))
    print("peak recovered contrast (kg/m^3):", float(rho.max()), "true:", float(true_rho.max()))


if __name__ == "__main__":
    main()
