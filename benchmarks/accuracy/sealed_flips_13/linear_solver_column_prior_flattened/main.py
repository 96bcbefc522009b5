"""Solve a few random SPD systems and report the convergence of each."""

import jax

from problems import random_spd_system
from solver import SteepestDescentSolver


def main():
    solver = SteepestDescentSolver()
    for seed in range(3):
        problem = random_spd_system(jax.random.PRNGKey(seed))
        x, history = solver.solve(problem)
        print(f"system {seed}: {len(history)} iterations, final residual {history[-1]:.2e}")


if __name__ == "__main__":
    main()
