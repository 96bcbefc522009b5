"""Let a heated plate relax and report when it is within a degree of uniform."""

import jax.numpy as jnp

from diffusion import diffuse, hot_spot_plate


def relax(field, alpha=0.2, max_steps=400, tolerance=1.0):
    for step in range(max_steps):
        field = diffuse(field, alpha)
        if float(jnp.max(field) - jnp.min(field)) < tolerance:
            return field, step + 1
    return field, max_steps


def main():
    field = hot_spot_plate(n=24, spots=3, seed=0)
    field, steps = relax(field)
    print(f"after {steps} steps: mean {float(jnp.mean(field)):.2f} C, spread {float(jnp.ptp(field)):.2f} C")


if __name__ == "__main__":
    main()
