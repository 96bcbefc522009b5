"""A toy light-element network for Big Bang nucleosynthesis (n, p, D, He4)."""
import functools

import numpy as np
import jax
import jax.numpy as jnp

Q_NP = 1.293  # neutron-proton mass difference, MeV
TAU_N = 879.4  # neutron lifetime, s


@functools.partial(jax.jit, static_argnames=("T_start", "T_end", "n_steps"))
def evolve_abundances(y0, rates, T_start, T_end, n_steps):
    # The temperature grid is log-spaced and built on the host, so the
    # endpoints have to be concrete numbers.
    temps = np.geomspace(T_start, T_end, n_steps)
    # radiation era: t ~ 1.32 s / T[MeV]^2
    times = 1.32 / temps**2
    grid = jnp.asarray(temps[:-1])
    dts = jnp.asarray(np.diff(times))

    def step(y, inp):
        T, dt = inp
        yn, yp, yd, ya = y
        lam_np = (1.0 / TAU_N) * (1.0 + (T / 0.1) ** 3)
        lam_pn = lam_np * jnp.exp(-Q_NP / T)
        capture = rates[0] * jnp.exp(-rates[1] / T)  # n + p -> D + gamma
        burn = rates[2] * jnp.exp(-rates[3] / T)  # D + D -> He4
        dn = -lam_np * yn + lam_pn * yp - capture * yn * yp
        dp = lam_np * yn - lam_pn * yp - capture * yn * yp
        dd = capture * yn * yp - 2.0 * burn * yd * yd
        da = burn * yd * yd
        # damped explicit step: the network is stiff at high temperature
        stiffness = lam_np + lam_pn + capture + 2.0 * burn
        y_new = y + dt * jnp.stack([dn, dp, dd, da]) / (1.0 + dt * stiffness)
        return jnp.clip(y_new, 0.0, 1.0), None

    y_final, _ = jax.lax.scan(step, y0, (grid, dts))
    return y_final


@jax.jit
def observables(y):
    yn, yp, yd, ya = y
    helium_mass_fraction = 4.0 * ya / (yp + yd * 2.0 + ya * 4.0 + yn)
    d_over_h = yd / yp
    return helium_mass_fraction, d_over_h


class AbundanceModel:
    """Holds the network settings; `T_start` can be changed for convergence tests."""

    def __init__(self, rates, T_start=10.0, T_end=0.02, n_steps=96):
        self.rates = jnp.asarray(rates)
        self.T_start = T_start
        self.T_end = T_end
        self.n_steps = n_steps

    def initial_state(self):
        # weak equilibrium at the starting temperature
        yn = 1.0 / (1.0 + np.exp(Q_NP / self.T_start))
        return jnp.array([yn, 1.0 - yn, 0.0, 0.0], dtype=jnp.float32)

    def predict(self, eta_fac=1.0):
        y0 = self.initial_state()
        rates = self.rates * jnp.array([eta_fac, 1.0, eta_fac, 1.0])
        y = evolve_abundances(y0, rates, T_start=self.T_start, T_end=self.T_end, n_steps=self.n_steps)  # expect: RTL202
        return observables(y)
