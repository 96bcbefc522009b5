"""Fit harmonic bond parameters to reference energies, adding molecules stage by stage."""

import jax
import jax.numpy as jnp
import numpy as np

from molecules import build_molecule

STAGES = [["water"], ["methane"], ["methanol", "formaldehyde"]]
STEPS_PER_STAGE = 4


def molecule_energy(params, coords, bonds, bond_types):
    d = coords[bonds[:, 0]] - coords[bonds[:, 1]]
    r = jnp.sqrt(jnp.sum(d * d, axis=-1))
    k = params["k"][bond_types]
    r0 = params["r0"][bond_types]
    return jnp.sum(0.5 * k * (r - r0) ** 2)


def total_loss(params, mol_data):
    loss = 0.0
    for coords, bonds, bond_types, ref_energy in mol_data:
        e = molecule_energy(params, coords, bonds, bond_types)
        loss = loss + (e - ref_energy) ** 2
    return loss / len(mol_data)


@jax.jit
def loss_and_grads(params, mol_data):
    return jax.value_and_grad(total_loss)(params, mol_data)


@jax.jit
def apply_update(params, grads, lr):
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)


class ForceFieldFitter:
    def __init__(self, lr=1e-6):
        self.lr = lr
        self.params = {
            "k": jnp.array([300.0, 500.0, 300.0], jnp.float32),
            "r0": jnp.array([1.05, 0.95, 1.40], jnp.float32),
        }
        self.history = []

    def fit_stage(self, training_set, n_steps):
        mol_data = [spec.as_arrays() for spec in training_set]
        for _ in range(n_steps):
            loss, grads = loss_and_grads(self.params, mol_data)
            self.params = apply_update(self.params, grads, self.lr)
            self.history.append(float(loss))
        return self.history[-1]


def staged_fit():
    fitter = ForceFieldFitter()
    training_set = []
    for stage, names in enumerate(STAGES):
        for name in names:
            training_set.append(build_molecule(name, seed=stage))  # expect: RTL102
        last = fitter.fit_stage(training_set, STEPS_PER_STAGE)
        print(f"stage {stage}: {len(training_set)} molecules, loss {last:.4f}")
    return fitter.params


if __name__ == "__main__":
    params = staged_fit()
    print("k  =", np.round(np.asarray(params["k"]), 2))
    print("r0 =", np.round(np.asarray(params["r0"]), 4))
