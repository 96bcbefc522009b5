"""Relax a toy stellarator equilibrium in stages of tightening force tolerance.

Each stage continues from the previous state; only the convergence tolerance
changes, the way a VMEC-style run tightens ftol between multigrid steps.
"""

import jax
import jax.numpy as jnp

from runtime import default_runtime, initial_state, tightened


def force_residual(rmn, zmn, mpol):
    m = jnp.arange(mpol)[None, :]
    # spectral condensation-like penalty: high modes pay m^4, radial kinks pay too
    spectral = (m**2) * rmn[:, :] * jnp.where(m >= 2, 1.0, 0.0)
    radial_r = jnp.diff(rmn, n=2, axis=0)
    radial_z = jnp.diff(zmn, n=2, axis=0)
    return spectral, radial_r, radial_z


@jax.jit
def relax_block(state, runtime):
    def relax_iteration(_, carry):
        rmn, zmn, fsq = carry
        spectral, rr, rz = force_residual(rmn, zmn, runtime.mpol)
        converged = fsq < runtime.ftol
        step = jnp.where(converged, 0.0, runtime.delt * 0.05)
        rmn = rmn - step * spectral
        rmn = rmn.at[1:-1].add(step * rr)
        zmn = zmn.at[1:-1].add(step * rz)
        fsq = jnp.sum(spectral**2) + jnp.sum(rr**2) + jnp.sum(rz**2)
        return rmn, zmn, fsq

    rmn, zmn, fsq = jax.lax.fori_loop(0, runtime.block, relax_iteration, (state.rmn, state.zmn, state.fsq))
    return type(state)(rmn=rmn, zmn=zmn, fsq=fsq)


def run_stage(state, runtime, max_blocks=4):
    for _ in range(max_blocks):
        state = relax_block(state, runtime)
        if float(state.fsq) < runtime.ftol:
            break
    return state


def main():
    runtime = default_runtime()
    state = initial_state(runtime)
    for ftol in (1e-6, 1e-9, 1e-11):
        runtime = tightened(runtime, ftol)
        state = run_stage(state, runtime)
        print(f"ftol={ftol:.0e}  fsq={float(state.fsq):.3e}  R00={float(state.rmn[-1, 0]):.4f}")


if __name__ == "__main__":
    main()
