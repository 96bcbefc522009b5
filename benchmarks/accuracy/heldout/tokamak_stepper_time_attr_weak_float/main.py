"""Core electron-temperature transport in a tokamak, advanced with an adaptive time step.

A ProfileSimulator holds the plasma state (time, temperature profile) on the
object and advances it with one jitted diffusion step per call.
"""
import dataclasses

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class TransportConfig:
    n_rho: int = 24
    chi_core: float = 1.2  # m^2/s
    chi_edge: float = 0.25
    heating_mw: float = 4.0
    deposition_width: float = 0.15
    cfl: float = 0.4
    t_edge_kev: float = 0.1


@jax.jit
def transport_step(t, temp, chi, source, cfl, t_edge):
    """Explicit finite-volume step of dT/dt = 1/rho d/drho (rho chi dT/drho) + S."""
    n = temp.shape[0]
    drho = 1.0 / (n - 1)
    rho = jnp.linspace(0.0, 1.0, n)
    dt = cfl * drho**2 / jnp.max(chi)  # stable explicit step, depends on the profile
    rho_face = 0.5 * (rho[1:] + rho[:-1])
    chi_face = 0.5 * (chi[1:] + chi[:-1])
    flux = -rho_face * chi_face * jnp.diff(temp) / drho
    div = jnp.zeros_like(temp)
    div = div.at[1:-1].set(-(flux[1:] - flux[:-1]) / (drho * rho[1:-1]))
    div = div.at[0].set(-4.0 * flux[0] / drho**2)
    new_temp = temp + dt * (div + source)
    new_temp = new_temp.at[-1].set(t_edge)
    return t + dt, new_temp


class ProfileSimulator:
    def __init__(self, cfg: TransportConfig):
        self.cfg = cfg
        self.rho = jnp.linspace(0.0, 1.0, cfg.n_rho)
        self.chi = cfg.chi_edge + (cfg.chi_core - cfg.chi_edge) * (1.0 - self.rho**2)
        self.temp = 2.5 * (1.0 - self.rho**2) + cfg.t_edge_kev
        self.time = 0.0  # expect: RTL401
        self.history = []

    def heating_source(self):
        shape = jnp.exp(-(self.rho**2) / self.cfg.deposition_width**2)
        return self.cfg.heating_mw * shape / jnp.sum(shape)

    def step(self):
        self.time, self.temp = transport_step(
            self.time, self.temp, self.chi, self.heating_source(),
            self.cfg.cfl, self.cfg.t_edge_kev,
        )
        self.history.append(float(self.temp[0]))

    def run(self, n_steps):
        for _ in range(n_steps):
            self.step()
        return self.time, self.temp


def main():
    sim = ProfileSimulator(TransportConfig())
    t_final, temp = sim.run(5)
    print(f"t = {float(t_final) * 1e3:.3f} ms, T0 = {float(temp[0]):.3f} keV")
    print("core temperature history:", [round(v, 3) for v in sim.history])


if __name__ == "__main__":
    main()
