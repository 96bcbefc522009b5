"""Map PEST (straight-field-line) angles back to the equilibrium's own poloidal angle."""

import jax
import jax.numpy as jnp
from equilibrium import lambda_series

N_NEWTON = 8


def map_to_native_angle(eq, rho, theta_pest):
    """Solve theta + lambda(rho, theta) = theta_pest for theta on one flux surface."""

    @jax.jit  # expect: RTL301
    def newton_solve(modes, rho, target):
        def residual(theta):
            return theta + lambda_series(modes, rho, theta) - target

        theta = target
        for _ in range(N_NEWTON):
            r, dr = jax.jvp(residual, (theta,), (jnp.ones_like(theta),))
            theta = theta - r / dr
        return theta

    return newton_solve(eq.lambda_modes, rho, theta_pest)
