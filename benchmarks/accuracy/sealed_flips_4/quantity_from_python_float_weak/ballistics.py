"""Point-mass flight with quadratic air drag, integrated with semi-implicit Euler steps."""

from typing import NamedTuple

import jax.numpy as jnp

from units import Quantity

GRAVITY = jnp.array([0.0, -9.81], dtype=jnp.float32)  # m/s^2
DRAG = jnp.float32(0.02)  # 1/m


class Flight(NamedTuple):
    x: Quantity
    y: Quantity
    vx: Quantity
    vy: Quantity


def launch(speed, angle_deg):
    angle = jnp.deg2rad(angle_deg)
    return Flight(
        x=Quantity(0.0, "m"),  # expect: RTL401
        y=Quantity(1.5, "m"),  # expect: RTL401
        vx=Quantity(speed * float(jnp.cos(angle)), "m/s"),  # expect: RTL401
        vy=Quantity(speed * float(jnp.sin(angle)), "m/s"),  # expect: RTL401
    )


def advance(flight, dt):
    speed = jnp.hypot(flight.vx.value, flight.vy.value)
    ax = -DRAG * speed * flight.vx.value + GRAVITY[0]
    ay = -DRAG * speed * flight.vy.value + GRAVITY[1]
    vx = flight.vx + Quantity(ax, "m/s^2").scale(dt, "m/s")
    vy = flight.vy + Quantity(ay, "m/s^2").scale(dt, "m/s")
    return Flight(flight.x + vx.scale(dt, "m"), flight.y + vy.scale(dt, "m"), vx, vy)
