"""How does the end state of a small neural ODE change as the solver tolerances tighten?"""

import jax
import jax.numpy as jnp
from solver import SolverOptions, solve


def make_problem(key, hidden=8, dim=3):
    k1, k2, k3 = jax.random.split(key, 3)
    args = (jax.random.normal(k1, (dim, hidden)) * 0.5, jax.random.normal(k2, (hidden, dim)) * 0.5)
    return jax.random.normal(k3, (dim,)), args


def tolerance_study(y0, args, tolerances, t1=1.0):
    results = {}
    for tol in tolerances:
        options = SolverOptions(rtol=tol, atol=tol)
        y1, n_steps = solve(y0, args, t1, options=options)  # expect: RTL202
        results[tol] = (jnp.linalg.norm(y1), int(n_steps))
    return results


if __name__ == "__main__":
    y0, args = make_problem(jax.random.PRNGKey(0))
    for tol, (norm, steps) in tolerance_study(y0, args, [1e-2, 1e-3, 1e-4, 1e-3]).items():
        print(f"tol={tol:g}  |y(1)|={float(norm):.5f}  accepted steps={steps}")
