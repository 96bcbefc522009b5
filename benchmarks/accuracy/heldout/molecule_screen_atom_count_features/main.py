"""Screen a small molecule library with a learned pairwise energy model.

Each molecule is turned into a per-atom node table (element one-hot plus coordinates)
and fed to a jitted energy function, one molecule at a time.
"""

import jax
import jax.numpy as jnp
import numpy as np

from molecules import ELEMENTS, LIBRARY


def init_params(key, n_elem=len(ELEMENTS), hidden=8):
    k1, k2 = jax.random.split(key)
    return {
        "embed": 0.1 * jax.random.normal(k1, (n_elem, hidden)),
        "pair": 0.1 * jax.random.normal(k2, (hidden,)),
        "sigma": jnp.float32(1.1),
    }


def featurize(mol):
    """Node table, one row per atom: one-hot element columns followed by x, y, z."""
    n_elem = len(ELEMENTS)
    table = np.zeros((mol.n_atoms, n_elem + 3), dtype=np.float32)  # expect: RTL105
    for i, sym in enumerate(mol.symbols):
        table[i, ELEMENTS.index(sym)] = 1.0
    table[:, n_elem:] = mol.coords
    return jnp.asarray(table)


@jax.jit
def predict_energy(params, nodes):
    n_elem = params["embed"].shape[0]
    feats, coords = nodes[:, :n_elem], nodes[:, n_elem:]
    h = jnp.tanh(feats @ params["embed"])
    diff = coords[:, None, :] - coords[None, :, :]
    r = jnp.sqrt(jnp.sum(diff**2, axis=-1) + 1e-6)
    mask = 1.0 - jnp.eye(coords.shape[0])
    sr6 = (params["sigma"] / r) ** 6
    lj = 4.0 * (sr6**2 - sr6) * mask
    coupling = (h * params["pair"]) @ h.T
    return 0.5 * jnp.sum(lj * jnp.exp(coupling))


class Screener:
    def __init__(self, params, threshold):
        self.params = params
        self.threshold = threshold
        self.hits = []

    def score(self, mol):
        nodes = featurize(mol)
        return float(predict_energy(self.params, nodes))

    def run(self, library):
        for mol in library:
            energy = self.score(mol)
            flag = "HIT" if energy < self.threshold else ""
            print(f"{mol.name:18s} atoms={mol.n_atoms} E={energy:10.4f} {flag}")
            if flag:
                self.hits.append(mol.name)
        return self.hits


if __name__ == "__main__":
    params = init_params(jax.random.PRNGKey(0))
    screener = Screener(params, threshold=0.0)
    hits = screener.run(LIBRARY)
    print("hits:", hits)
