"""Relax the geometry of a distorted H4 cluster with a fixed-step gradient descent.

Each structure step re-reads the run options, as the nanoDFT structure loop does,
and hands them to the jitted SCF as a static argument.
"""

import numpy as np
import jax.numpy as jnp

from options import parse_options
from scf import energy_and_gradient, mulliken_charges

STEP = 0.02


def initial_geometry():
    coords = np.array(
        [[0.0, 0.0, 0.0], [1.45, 0.1, 0.0], [2.8, -0.05, 0.1], [4.3, 0.05, -0.05]],
        dtype=np.float32,
    )
    return jnp.asarray(coords)


def relax(coords, n_steps, **overrides):
    history = []
    for step in range(n_steps):
        opts = parse_options(**overrides)
        energy, grad = energy_and_gradient(coords, opts)
        coords = coords - STEP * grad
        charges = mulliken_charges(coords, opts)
        history.append(float(energy))
        print(
            f"step {step}: E = {float(energy):+.5f}  |F| = {float(jnp.linalg.norm(grad)):.4f}  "
            f"q = {np.round(np.asarray(charges), 3)}"
        )
    return coords, history


def main():
    coords, history = relax(initial_geometry(), n_steps=5, mixing=0.4, hubbard_u=1.2)
    bonds = jnp.linalg.norm(coords[1:] - coords[:-1], axis=1)
    print("final bond lengths:", np.round(np.asarray(bonds), 3))
    print("energy drop:", round(history[0] - history[-1], 5))


if __name__ == "__main__":
    main()
