"""Follow a wave packet around a flux-threaded ring and record its return amplitude."""

import jax
import jax.numpy as jnp

import propagator

N_SITES = 24
DT = 0.05


@jax.jit
def evolve(unitary, state):
    return propagator.advance(unitary, state, DT)


@jax.jit
def energy(ham, state):
    return jnp.real(jnp.vdot(state.psi, ham @ state.psi))


def main():
    ham = propagator.hamiltonian(N_SITES)
    unitary = propagator.propagator(ham, DT)
    state = propagator.init_state(propagator.wave_packet(N_SITES, center=6.0))
    e0 = energy(ham, state)
    for _ in range(40):
        state = evolve(unitary, state)
    e1 = energy(ham, state)
    print(f"t={float(state.time):.2f}, energy drift {float(e1 - e0):.2e}, |A|={float(jnp.abs(state.autocorr)):.3f}")


if __name__ == "__main__":
    main()
