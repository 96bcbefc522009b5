"""Integrate a damped, driven oscillator with step-size control and report the step statistics."""

import jax.numpy as jnp

from adaptive import initial_state, make_step

DAMPING = 0.15
DRIVE = 0.8


def oscillator(t, y):
    position, velocity = y
    return jnp.stack([velocity, -position - DAMPING * velocity + DRIVE * jnp.cos(1.3 * t)])


def integrate(t_end):
    step = make_step(oscillator)
    state = initial_state(jnp.array([1.0, 0.0], dtype=jnp.float32), dt0=0.1)
    n_steps = 0
    while float(state.t) < t_end:
        state = step(state)
        n_steps += 1
    return state, n_steps


if __name__ == "__main__":
    state, n_steps = integrate(10.0)
    print(
        f"{n_steps} steps ({int(state.n_rejected)} rejected), x={float(state.y[0]):+.3f}, "
        f"last error norm {float(state.last_norm):.3f}"
    )
