"""Solve a small equilibrium problem, then refine it with trial solves from perturbed seeds."""

import jax
import jax.numpy as jnp

from ladder import best_trial, perturbed_seed, trial_solves
from solver import Solver


def force_balance_system(n=16):
    main_diag = 4.0 * jnp.ones(n)
    off = -1.0 * jnp.ones(n - 1)
    A = jnp.diag(main_diag) + jnp.diag(off, 1) + jnp.diag(off, -1)
    b = jnp.sin(jnp.linspace(0.0, jnp.pi, n))
    return A, b


def main():
    A, b = force_balance_system()
    solver = Solver(A, b)
    x, rel = solver.solve(jnp.zeros_like(b))
    print(f"construction solve: relative residual {rel:.2e}")
    seed = perturbed_seed(x, jax.random.PRNGKey(0))
    results = trial_solves(solver, seed, scales=(0.9, 1.0, 1.1), device=solver.device)
    print("best trial scale {:.1f}, relative residual {:.2e}".format(*best_trial(results)))


if __name__ == "__main__":
    main()
