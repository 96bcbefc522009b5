"""Integrate a damped point mass, smoothing the state through its flat vector every other step."""

from typing import NamedTuple

import jax
import jax.numpy as jnp

import flat


class PointMass(NamedTuple):
    pos: jax.Array
    vel: jax.Array


@jax.jit
def euler_step(state, dt):
    pos, vel = state
    acc = -4.0 * pos - 0.3 * vel
    return PointMass(pos + dt * vel, vel + dt * acc)


def simulate(steps=6, dt=0.05):
    state = PointMass(jnp.array([1.0, 2.0]), jnp.array([3.0, 4.0]))
    unravel = flat.make_unravel(state)
    for i in range(steps):
        state = euler_step(state, dt)
        if i % 2 == 1:
            vector = flat.ravel(state)
            state = unravel(jnp.round(vector, 4))
    return state


if __name__ == "__main__":
    print(simulate())
