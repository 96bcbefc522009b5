"""Acoustic wave on a string driven at the left end, integrated with RK4.

u_tt = c^2 u_xx, with u(0, t) forced by a sine and u fixed at the right end.
"""

import jax
import jax.numpy as jnp

from timestepping import set_up_rk4


class WaveOperator:
    def __init__(self, n_points=128, length=1.0, c=1.0, drive_freq=3.0):
        self.dx = length / (n_points - 1)
        self.c = c
        self.drive_freq = drive_freq
        self.x = jnp.linspace(0.0, length, n_points)

    def max_stable_dt(self, cfl=0.4):
        return cfl * self.dx / self.c

    def rhs(self, t, w):
        return wave_rhs(t, w, self.c**2 / self.dx**2, self.drive_freq)


@jax.jit
def wave_rhs(t, w, c2_dx2, drive_freq):
    u, v = w
    lap = jnp.zeros_like(u).at[1:-1].set(u[2:] - 2 * u[1:-1] + u[:-2])
    du = v.at[0].set(2 * jnp.pi * drive_freq * jnp.cos(2 * jnp.pi * drive_freq * t))
    dv = (c2_dx2 * lap).at[0].set(0.0).at[-1].set(0.0)
    return du.at[-1].set(0.0), dv


def simulate(op, n_steps=5):
    u0 = jnp.zeros_like(op.x)
    v0 = jnp.zeros_like(op.x)
    dt = op.max_stable_dt()
    stepper = set_up_rk4("w", dt, (u0, v0), op.rhs)
    energies = []
    for _, event in zip(range(n_steps), stepper):
        u, v = event.state
        energies.append(float(0.5 * jnp.sum(v**2) * op.dx))
        print(f"t={event.t:.4f}  energy={energies[-1]:.3e}  u[1]={float(u[1]):+.3e}")
    return energies


if __name__ == "__main__":
    simulate(WaveOperator())
