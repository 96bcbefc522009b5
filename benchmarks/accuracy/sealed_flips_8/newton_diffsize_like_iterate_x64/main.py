"""Solve a float32 nonlinear system step by step; the system's matrix is assembled in double precision."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from solver import Newton  # noqa: E402

N = 10
solver = Newton(rtol=1e-3, atol=1e-3)


def residual(y, args):
    matrix, rhs = args
    # The 64-bit operator is applied and the residual handed back in the problem's 32 bits.
    return (matrix @ y + 0.1 * y**3).astype(jnp.float32) - rhs


@jax.jit
def newton_step(y, args, state):
    return solver.step(residual, y, args, state)


@jax.jit
def newton_done(state):
    return solver.terminate(state)


def assemble(n=N):
    main_diag = 2.0 * jnp.ones(n, jnp.float64)
    off = -jnp.ones(n - 1, jnp.float64)
    return jnp.diag(main_diag) + jnp.diag(off, 1) + jnp.diag(off, -1)


def main():
    args = (assemble(), jnp.linspace(0.0, 1.0, N, dtype=jnp.float32))
    y = jnp.ones(N, dtype=jnp.float32)
    state = solver.init(residual, y, args)
    while not bool(newton_done(state)):
        y, state = newton_step(y, args, state)
    print(f"{int(state.num_steps)} Newton steps, |f| = {float(jnp.abs(residual(y, args)).max()):.2e}")


if __name__ == "__main__":
    main()
