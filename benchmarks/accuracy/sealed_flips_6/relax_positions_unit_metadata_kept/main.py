"""Relax a small argon cluster read from a structure file and report its energy."""

import jax.numpy as jnp

from quantity import load_positions
from relax import relax_step


def main(n_atoms=13, steps=50):
    positions = load_positions(n_atoms, seed=0)
    step_size = jnp.float32(0.01)
    for i in range(steps):
        positions, energy = relax_step(positions, step_size)
        if i % 10 == 0:
            print(f"step {i:2d}: energy {float(energy):+.4f}")
    print(f"final positions in {positions.unit}, spread {float(jnp.ptp(positions.value)):.3f}")


if __name__ == "__main__":
    main()
