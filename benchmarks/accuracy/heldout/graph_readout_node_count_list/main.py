"""Predict energies for a stream of molecules, batch by packed batch."""

import jax
import jax.numpy as jnp
from graphs import N_FEATURES, collate, pack, random_graphs
from readout import graph_energies

MOLECULE_SIZES = [5, 6, 4, 9, 3, 7, 2, 2, 3, 11, 4]

if __name__ == "__main__":
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    params = {"w1": jax.random.normal(k1, (N_FEATURES, 8)), "w2": jax.random.normal(k2, (8, 1))}
    for batch in pack(random_graphs(MOLECULE_SIZES)):
        nodes, n_node = collate(batch)
        energies = graph_energies(params, jnp.asarray(nodes), n_node)
        print(n_node, [round(float(e), 3) for e in energies])
