"""Ground state of a transverse-field Ising chain with an RBM, monitoring the exact fidelity."""

import jax
import jax.numpy as jnp
import numpy as np

from rbm import init_rbm, log_psi
from vstate import ExactState


def tfim_hamiltonian(n_sites, h):
    sx = np.array([[0.0, 1.0], [1.0, 0.0]])
    sz = np.array([[1.0, 0.0], [0.0, -1.0]])

    def site_op(op, i):
        mats = [op if j == i else np.eye(2) for j in range(n_sites)]
        out = mats[0]
        for m in mats[1:]:
            out = np.kron(out, m)
        return out

    ham = sum(-site_op(sz, i) @ site_op(sz, (i + 1) % n_sites) for i in range(n_sites))
    ham = ham + sum(-h * site_op(sx, i) for i in range(n_sites))
    return jnp.asarray(ham, dtype=jnp.float32)


def energy(params, ham, states):
    psi = jnp.exp(log_psi(params, states))
    return psi @ ham @ psi / (psi @ psi)


@jax.jit
def descent_step(params, ham, states, lr):
    e, grads = jax.value_and_grad(energy)(params, ham, states)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads), e


if __name__ == "__main__":
    n_sites = 6
    ham = tfim_hamiltonian(n_sites, h=1.0)
    evals, evecs = np.linalg.eigh(np.asarray(ham))
    ground = jnp.asarray(evecs[:, 0], dtype=jnp.float32)

    vs = ExactState(log_psi, init_rbm(jax.random.PRNGKey(0), n_sites), n_sites, chunk_size=16)
    lr = jnp.float32(0.05)
    for it in range(4):
        vs.params, e = descent_step(vs.params, ham, vs.states, lr)
        fidelity = jnp.abs(vs.to_array() @ ground) ** 2
        print(f"iter {it}: E = {float(e):.4f} (exact {evals[0]:.4f}), fidelity {float(fidelity):.4f}")
