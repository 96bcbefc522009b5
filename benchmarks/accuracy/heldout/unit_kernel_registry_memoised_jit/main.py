"""Leapfrog a handful of stars in a logarithmic galactic potential and report their radii and speeds."""

import jax
import jax.numpy as jnp

from units import Quantity

V0 = 0.225  # circular speed, kpc/Myr
RC = 1.0  # core radius, kpc


@jax.jit
def leapfrog(pos, vel, dt):
    def accel(x):
        r2 = jnp.sum(x**2, axis=-1, keepdims=True)
        return -V0**2 * x / (RC**2 + r2)

    def step(carry, _):
        x, v = carry
        v = v + 0.5 * dt * accel(x)
        x = x + dt * v
        v = v + 0.5 * dt * accel(x)
        return (x, v), None

    (pos, vel), _ = jax.lax.scan(step, (pos, vel), None, length=50)
    return pos, vel


class OrbitReport:
    def __init__(self, distance_unit="km", speed_unit="km/s"):
        self.distance_unit = distance_unit
        self.speed_unit = speed_unit

    def summarise(self, pos, vel):
        radius = pos.norm(self.distance_unit)
        speed = vel.to(self.speed_unit)
        return float(radius.value.mean()), float(jnp.abs(speed.value).max())


if __name__ == "__main__":
    key = jax.random.PRNGKey(3)
    pos = Quantity(jax.random.normal(key, (8, 3)) * 5.0 + 8.0, "kpc")
    vel = Quantity(jnp.tile(jnp.array([0.0, V0, 0.0]), (8, 1)), "kpc/Myr")
    report = OrbitReport()
    dt = jnp.float32(1.0)
    for epoch in range(4):
        x, v = leapfrog(pos.value, vel.value, dt)
        pos, vel = Quantity(x, pos.unit), Quantity(v, vel.unit)
        mean_r, vmax = report.summarise(pos, vel)
        print(f"epoch {epoch}: <r> = {mean_r:.3e} km, max |v| = {vmax:.1f} km/s")
