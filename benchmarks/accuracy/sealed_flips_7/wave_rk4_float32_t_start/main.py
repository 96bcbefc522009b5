"""A 1-D acoustic wave (pressure and velocity) on a periodic grid, driven by a time-dependent source."""

import jax.numpy as jnp

from timestepping import set_up_rk4

N, LENGTH, C = 128, 1.0, 1.0
DX = LENGTH / N


def ddx(u):
    return (jnp.roll(u, -1) - jnp.roll(u, 1)) / (2 * DX)


def wave_rhs(t, fields):
    pressure, velocity = fields
    x = jnp.arange(N) * DX
    source = jnp.sin(40.0 * t) * jnp.exp(-(((x - 0.5) / 0.05) ** 2))
    return (-C * ddx(velocity) + source, -C * ddx(pressure))


def stable_dt(cfl=0.4):
    return jnp.float32(cfl * DX / C)


def main(t_final=0.25):
    fields = (jnp.zeros(N, jnp.float32), jnp.zeros(N, jnp.float32))
    for event in set_up_rk4("w", stable_dt(), fields, wave_rhs):
        if float(event.t) >= t_final:
            break
    pressure, _ = event.state
    print(f"t = {float(event.t):.3f}: max pressure {float(jnp.max(jnp.abs(pressure))):.4f}")


if __name__ == "__main__":
    main()
