"""Analytical kinetic + geometric inductance of a superconducting meander line."""

from functools import partial

import jax
import jax.numpy as jnp

MU0 = 4e-7 * jnp.pi


def self_inductance_strip(length, width, thickness):
    # Grover's formula for a thin rectangular strip (lengths in um -> H)
    l_m = length * 1e-6
    return MU0 / (2 * jnp.pi) * l_m * (jnp.log(2 * length / (width + thickness)) + 0.5)


def mutual_inductance_parallel(length, d):
    l_m = length * 1e-6
    ratio = length / d
    return MU0 / (2 * jnp.pi) * l_m * (jnp.log(ratio + jnp.sqrt(1 + ratio**2)) - jnp.sqrt(1 + 1 / ratio**2) + 1 / ratio)


@partial(jax.jit, static_argnames="n_turns")
def meander_inductance(turn_length, wire_width, wire_gap, sheet_inductance, thickness, n_turns):
    l_self = n_turns * self_inductance_strip(turn_length, wire_width, thickness)
    pitch = wire_width + wire_gap
    l_mut = 0.0
    # neighbours k turns apart carry opposite / equal currents alternately
    for k in range(1, n_turns):
        sign = -1.0 if k % 2 else 1.0
        l_mut = l_mut + 2 * sign * (n_turns - k) * mutual_inductance_parallel(turn_length, k * pitch)
    squares = n_turns * turn_length / wire_width
    return l_self + l_mut + squares * sheet_inductance
