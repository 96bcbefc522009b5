"""Build a field-line-following grid surface by surface."""

import jax.numpy as jnp
from coordinates import map_to_native_angle
from equilibrium import Equilibrium

SURFACES = [0.25, 0.5, 0.75, 1.0]

if __name__ == "__main__":
    eq = Equilibrium(lambda_modes=jnp.array([0.12, -0.04, 0.01]), iota=0.42)
    theta_pest = jnp.linspace(0.0, 2 * jnp.pi, 16, endpoint=False)
    grid = []
    for rho in SURFACES:
        theta = map_to_native_angle(eq, jnp.float32(rho), theta_pest)
        grid.append(theta)
        print(rho, [round(float(t), 3) for t in theta[:4]])
    print(jnp.stack(grid).shape)
