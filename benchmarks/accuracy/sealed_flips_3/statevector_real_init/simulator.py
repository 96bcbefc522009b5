"""A small state-vector simulator: single-qubit rotations and CNOTs on a 2**n amplitude vector."""

import jax.numpy as jnp


def zero_state(n_qubits):
    state = jnp.zeros(2**n_qubits)  # expect: RTL402
    return state.at[0].set(1.0)


def rx(theta):
    c, s = jnp.cos(theta / 2), jnp.sin(theta / 2)
    return jnp.array([[c, -1j * s], [-1j * s, c]], dtype=jnp.complex64)


def ry(theta):
    c, s = jnp.cos(theta / 2), jnp.sin(theta / 2)
    return jnp.array([[c, -s], [s, c]]).astype(jnp.complex64)


def apply_one(state, gate, wire, n_qubits):
    psi = state.reshape((2,) * n_qubits)
    psi = jnp.moveaxis(jnp.tensordot(gate, psi, axes=([1], [wire])), 0, wire)
    return psi.reshape(-1)


def apply_cnot(state, control, target, n_qubits):
    psi = state.reshape((2,) * n_qubits)
    flipped = jnp.flip(psi, axis=target)
    index = [slice(None)] * n_qubits
    index[control] = 1
    return psi.at[tuple(index)].set(flipped[tuple(index)]).reshape(-1)


def expval_z(state, wire, n_qubits):
    probs = jnp.abs(state.reshape((2,) * n_qubits)) ** 2
    signs = jnp.array([1.0, -1.0]).reshape([2 if i == wire else 1 for i in range(n_qubits)])
    return jnp.sum(probs * signs)
