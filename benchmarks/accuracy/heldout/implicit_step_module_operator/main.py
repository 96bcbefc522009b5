"""Cool a hot spot in a rod, reporting the peak temperature after each block of steps."""

import jax.numpy as jnp
from operators import variable_conductivity
from stepper import HeatSolver


if __name__ == "__main__":
    n = 32
    dx = 1.0 / (n + 1)
    u = jnp.exp(-((jnp.linspace(0.0, 1.0, n) - 0.3) ** 2) / 0.005)
    solver = HeatSolver(variable_conductivity, dx)
    for block in range(4):
        u = solver.advance(u, dt=jnp.float32(2e-4), n_steps=3)
        print(block, round(float(u.max()), 4))
