"""Integrate a few stellar orbits in two Hernquist halo models and track the
energy error of each orbit, with positions and velocities carried as unitful
Quantities."""
import jax.numpy as jnp

from units import Quantity, unitful

G = 4.498502151469554e-12  # kpc^3 / (Msun Myr^2)


def hernquist_acceleration(pos, mass, scale):
    r = jnp.linalg.norm(pos, axis=-1, keepdims=True)
    return -G * mass * pos / (r * (r + scale) ** 2)


@unitful(out_units=("kpc", "kpc/Myr"), static_argnames=("n_sub",))
def leapfrog_step(pos, vel, dt, mass, scale, n_sub=4):
    h = dt / n_sub
    for _ in range(n_sub):  # unrolled: n_sub is static
        vel = vel + 0.5 * h * hernquist_acceleration(pos, mass, scale)
        pos = pos + h * vel
        vel = vel + 0.5 * h * hernquist_acceleration(pos, mass, scale)
    return pos, vel


@unitful(out_units="kpc2/Myr2")
def specific_energy(pos, vel, mass, scale):
    r = jnp.linalg.norm(pos, axis=-1)
    return 0.5 * jnp.sum(vel * vel, axis=-1) - G * mass / (r + scale)


HALOS = {
    "milky_way": dict(mass=Quantity(1.0e12, "Msun"), scale=Quantity(20.0, "kpc")),
    "andromeda": dict(mass=Quantity(1.5e12, "Msun"), scale=Quantity(25.0, "kpc")),
}


def integrate(halo, pos, vel, dt, n_steps):
    e0 = specific_energy(pos, vel, halo["mass"], halo["scale"])
    for _ in range(n_steps):
        pos, vel = leapfrog_step(pos, vel, dt, halo["mass"], halo["scale"], n_sub=4)
    e1 = specific_energy(pos, vel, halo["mass"], halo["scale"])
    drift = jnp.max(jnp.abs((e1.value - e0.value) / e0.value))
    return pos, vel, float(drift)


def main():
    pos = Quantity(jnp.array([[8.0, 0.0, 0.0], [0.0, 12.0, 0.5], [-20.0, 3.0, 1.0]]), "kpc")
    vel = Quantity(jnp.array([[0.0, 220.0, 10.0], [-180.0, 0.0, 5.0], [30.0, -150.0, 0.0]]), "km/s")
    dt = Quantity(5.0, "Myr")
    for name, halo in HALOS.items():
        end_pos, end_vel, drift = integrate(halo, pos, vel, dt, n_steps=5)
        speed = jnp.linalg.norm(end_vel.to("km/s").value, axis=-1)
        print(f"{name}: final speeds {speed.round(1)} km/s, energy drift {drift:.2e}")


if __name__ == "__main__":
    main()
