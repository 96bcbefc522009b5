"""Lowest levels of a square-lattice tight-binding model threaded by a magnetic flux (Peierls phases)."""

import jax
import jax.numpy as jnp

from eigensolver import start, sweep


def hofstadter_hamiltonian(side, flux):
    n = side * side
    idx = jnp.arange(n)
    x, y = idx % side, idx // side
    h = jnp.zeros((n, n), dtype=jnp.complex64)
    right = y * side + (x + 1) % side
    up = ((y + 1) % side) * side + x
    h = h.at[idx, right].add(-1.0)
    h = h.at[idx, up].add(-jnp.exp(2j * jnp.pi * flux * x).astype(jnp.complex64))
    return h + h.conj().T


def main(side=8, k=4, sweeps=30):
    hamiltonian = hofstadter_hamiltonian(side, flux=1 / 4)
    shift = jnp.float32(8.0)
    state = start(jax.random.PRNGKey(0), side * side, k, jnp.complex64)
    for _ in range(sweeps):
        state = sweep(state, hamiltonian, shift)
        if float(state.residual) < 1e-3:
            break
    print("lowest levels:", jnp.real(state.theta).round(4).tolist(), f"residual {float(state.residual):.2e}")


if __name__ == "__main__":
    main()
