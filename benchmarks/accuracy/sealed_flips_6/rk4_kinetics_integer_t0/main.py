"""Concentrations of a reversible two-step reaction A <-> B -> C with a light-driven first step."""

import jax.numpy as jnp

from integrator import RK4Integrator


def reaction_rates(t, y, params):
    a, b, c = y
    k_forward = params["k1"] * (1.0 + 0.5 * jnp.sin(params["omega"] * t))
    forward = k_forward * a - params["k_back"] * b
    decay = params["k2"] * b
    return jnp.stack([-forward, forward - decay, decay])


def main():
    params = {
        "k1": jnp.float32(1.2),
        "k_back": jnp.float32(0.3),
        "k2": jnp.float32(0.5),
        "omega": jnp.float32(2.0),
    }
    y0 = jnp.array([1.0, 0.0, 0.0], dtype=jnp.float32)
    integrator = RK4Integrator(reaction_rates, 0, y0, dt=0.05, params=params)  # expect: RTL401, RTL402
    trajectory = integrator.run_until(4.0)
    a, b, c = trajectory[-1]
    print(f"{len(trajectory)} points, final A={float(a):.3f} B={float(b):.3f} C={float(c):.3f}")


if __name__ == "__main__":
    main()
