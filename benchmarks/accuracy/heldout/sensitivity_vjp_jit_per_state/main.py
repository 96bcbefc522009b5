"""Adjoint sensitivities of ozone production along a box-model trajectory.

At each saved state the pullback of the diagnostics is evaluated for every
output direction (a row of the Jacobian per direction), so the forward pass
is done once per state and reused.
"""

from functools import partial

import jax
import jax.numpy as jnp

from kinetics import SPECIES, RateConstants, ozone_production, tendencies


@partial(jax.jit, static_argnums=(2,))
def rk4_step(conc, dt, k):
    f = lambda c: tendencies(c, k)
    a = f(conc)
    b = f(conc + 0.5 * dt * a)
    c = f(conc + 0.5 * dt * b)
    d = f(conc + dt * c)
    return conc + dt / 6.0 * (a + 2 * b + 2 * c + d)


class AdjointProbe:
    """Rows of d(diagnostics)/d(concentrations) via reverse mode."""

    def __init__(self, rates):
        self.rates = rates
        self.directions = list(jnp.eye(2))

    def rows_at(self, conc):
        _, pullback = jax.vjp(lambda c: ozone_production(c, self.rates), conc)

        @jax.jit  # expect: RTL301
        def sensitivity_row(ct):
            (dconc,) = pullback(ct)
            return dconc

        return jnp.stack([sensitivity_row(ct) for ct in self.directions])


def integrate(conc0, rates, dt, n_steps, save_every):
    conc, saved = conc0, []
    for i in range(n_steps):
        conc = rk4_step(conc, dt, rates)
        if (i + 1) % save_every == 0:
            saved.append(conc)
    return saved


def main():
    rates = RateConstants()
    conc0 = jnp.array([0.0, 20.0, 0.5])
    probe = AdjointProbe(rates)
    for t, conc in enumerate(integrate(conc0, rates, dt=0.5, n_steps=8, save_every=2)):
        jac = probe.rows_at(conc)
        top = SPECIES[int(jnp.argmax(jnp.abs(jac[0])))]
        print(f"save {t}: O3={float(conc[2]):.3f} dP/dc={jac[0]} most sensitive to {top}")


if __name__ == "__main__":
    main()
