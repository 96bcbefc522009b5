"""Simulate a layered variational circuit one layer at a time and record <Z0> after each layer."""

import jax
import jax.numpy as jnp

from simulator import apply_cnot, apply_one, expval_z, rx, ry, zero_state

N_QUBITS = 3


@jax.jit
def circuit_layer(state, thetas):
    for wire in range(N_QUBITS):
        state = apply_one(state, rx(thetas[wire, 0]), wire, N_QUBITS)
        state = apply_one(state, ry(thetas[wire, 1]), wire, N_QUBITS)
    for wire in range(N_QUBITS - 1):
        state = apply_cnot(state, wire, wire + 1, N_QUBITS)
    return state


def main(n_layers=4, seed=0):
    thetas = jax.random.uniform(jax.random.PRNGKey(seed), (n_layers, N_QUBITS, 2), maxval=jnp.pi)
    state = zero_state(N_QUBITS)
    trace = []
    for layer in range(n_layers):
        state = circuit_layer(state, thetas[layer])
        trace.append(float(expval_z(state, 0, N_QUBITS)))
    print("<Z0> per layer:", [round(z, 3) for z in trace])


if __name__ == "__main__":
    main()
