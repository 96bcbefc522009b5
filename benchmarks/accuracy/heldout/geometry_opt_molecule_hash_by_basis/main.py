"""Steepest-descent geometry optimisation of a water molecule with a toy
tight-binding energy.  Every step builds a new Molecule at the new geometry and
passes it to the jitted energy as a static argument; the positions go in traced.
"""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from molecule import Molecule


@partial(jax.jit, static_argnums=0)
def energy_and_forces(mol, coords):
    ao_atom = mol.ao_atom_index()
    charges = jnp.asarray(mol.charges())

    def energy(x):
        d = x[:, None, :] - x[None, :, :]
        r = jnp.sqrt(jnp.sum(d ** 2, -1) + 1e-9)
        r_ao = r[ao_atom][:, ao_atom]
        h = -jnp.exp(-r_ao) + jnp.diag(jnp.full(mol.nao, -0.5))
        eps = jnp.linalg.eigvalsh(h)
        e_elec = 2.0 * jnp.sum(eps[: mol.n_occ])
        iu = np.triu_indices(len(mol.symbols), k=1)
        e_nuc = jnp.sum(0.05 * charges[iu[0]] * charges[iu[1]] / r[iu])
        return e_elec + e_nuc

    e, g = jax.value_and_grad(energy)(coords)
    return e, -g


def optimise(mol, steps=5, step_size=0.05):
    for it in range(steps):
        e, forces = energy_and_forces(mol, jnp.asarray(mol.coords))
        fmax = float(jnp.abs(forces).max())
        print(f"step {it}: E={float(e):+.5f}  max|F|={fmax:.4f}")
        mol = mol.displaced(mol.coords + step_size * np.asarray(forces))
    return mol


if __name__ == "__main__":
    water = Molecule(["O", "H", "H"],
                     [[0.0, 0.0, 0.0], [0.96, 0.0, 0.0], [-0.24, 0.93, 0.0]])
    final = optimise(water)
    r1 = np.linalg.norm(final.coords[1] - final.coords[0])
    r2 = np.linalg.norm(final.coords[2] - final.coords[0])
    print(f"final O-H distances: {r1:.3f} {r2:.3f}")
