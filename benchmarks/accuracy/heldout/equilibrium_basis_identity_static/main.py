"""Continuation: nudge the equilibrium towards force balance and check the residual each step."""

import jax
import jax.numpy as jnp
from equilibrium import Equilibrium


def grid(num=16):
    rho = jnp.linspace(0.1, 1.0, num)
    theta = jnp.linspace(0.0, 2.0 * jnp.pi, num)
    zeta = jnp.zeros(num)
    return rho, theta, zeta


if __name__ == "__main__":
    g = grid()
    eq = Equilibrium(L=4, M=2, N=1)
    print("initial", float(eq.residual(g)))
    for step in range(3):
        delta = 4.0 / (step + 1) * jax.nn.one_hot(1, eq.R_basis.num_modes)
        eq = eq.perturbed(delta)
        print(step, float(eq.residual(g)))
