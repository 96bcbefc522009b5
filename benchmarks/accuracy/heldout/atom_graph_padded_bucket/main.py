"""Evaluate energies of molecules of different sizes with one compiled potential."""

import jax.numpy as jnp
import numpy as np
from graph import pad_graph
from potential import energy

if __name__ == "__main__":
    rng = np.random.default_rng(0)
    cutoff = jnp.float32(2.5)
    for n_atoms in (10, 14, 23, 14):
        positions = rng.uniform(0.0, 4.0, size=(n_atoms, 3)).astype(np.float32)
        graph = pad_graph(positions, float(cutoff))
        print(n_atoms, float(energy(*graph, cutoff)))
