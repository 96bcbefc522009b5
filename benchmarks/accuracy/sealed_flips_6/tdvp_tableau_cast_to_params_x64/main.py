"""Imaginary-time evolution of a small single-precision variational model with a Runge-Kutta scheme."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from tableau import MIDPOINT  # noqa: E402

TABLEAU = MIDPOINT


def energy_gradient(params, t, couplings):
    """Gradient flow of a quadratic energy, standing in for the variational force."""
    return -(couplings @ params) + 0.1 * jnp.sin(t) * params


@jax.jit
def rk_step(params, t, dt, couplings):
    a, b, c = (jnp.asarray(coef, params.dtype) for coef in (TABLEAU.a, TABLEAU.b, TABLEAU.c))
    slopes = []
    for i in range(TABLEAU.stages):
        y_i = params + dt * sum(a[i, j] * slopes[j] for j in range(i)) if i else params
        slopes.append(energy_gradient(y_i, t + c[i] * dt, couplings))
    k = jnp.stack(slopes)
    return params + dt * jnp.tensordot(b, k, axes=1)


def main():
    key = jax.random.PRNGKey(0)
    params = jax.random.normal(key, (8,), dtype=jnp.float32)
    couplings = jnp.eye(8, dtype=jnp.float32) + 0.1 * jnp.ones((8, 8), jnp.float32)
    dt = jnp.float32(0.05)
    t = jnp.float32(0.0)
    for _ in range(20):
        params = rk_step(params, t, dt, couplings)
        t = t + dt
    print(f"norm after evolution {float(jnp.linalg.norm(params)):.4f}, dtype {params.dtype}")


if __name__ == "__main__":
    main()
