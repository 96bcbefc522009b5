"""Pressure scan of a cylindrical equilibrium, polished with Gauss-Newton on a spline chart.

For each pressure peaking factor the radial chart is rebuilt (knots follow the
pressure gradient) and the flux coefficients are polished with a few damped
Gauss-Newton steps of the force-balance residual.
"""

import jax
import jax.numpy as jnp
import jax.scipy.linalg

from chart import build_chart

MU0 = 4e-7 * jnp.pi
B0_SQ = 2.5e-2  # reference field squared (T^2), sets the beta normalisation
S_EVAL = jnp.linspace(0.02, 0.98, 40)


def pressure(s, p0, peaking):
    return p0 * (1.0 - s**2) ** peaking


def force_residual(chart, coeffs, p0, peaking):
    """Cylindrical force balance (1/s) d/ds (s dpsi/ds) = -mu0 dp/ds / B0^2, sampled on S_EVAL."""
    basis = chart.basis(S_EVAL)
    psi = basis @ coeffs
    dpsi = jnp.gradient(psi, S_EVAL)
    flux_term = jnp.gradient(S_EVAL * dpsi, S_EVAL) / S_EVAL
    dp = jnp.gradient(pressure(S_EVAL, p0, peaking), S_EVAL)
    edge = psi[-1]  # fixed boundary: psi(1) = 0
    return jnp.concatenate([flux_term + MU0 * dp / B0_SQ, edge[None] * 10.0])


@jax.jit
def polish_step(chart, coeffs, p0, peaking):
    res = force_residual(chart, coeffs, p0, peaking)
    jac = jax.jacfwd(force_residual, argnums=1)(chart, coeffs, p0, peaking)
    lam = 1e-3
    lhs = jac.T @ jac + lam * jnp.eye(coeffs.shape[0])
    delta = jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor(lhs), jac.T @ res)
    return coeffs - delta, jnp.linalg.norm(res)


@jax.jit
def stored_energy(chart, coeffs, p0, peaking):
    knots_p = pressure(chart.knots, p0, peaking)
    return jnp.sum(chart.weights * knots_p * chart.knots)


class EquilibriumScan:
    def __init__(self, n_knots=12, n_modes=4, n_polish=4):
        self.n_knots = n_knots
        self.n_modes = n_modes
        self.n_polish = n_polish

    def solve(self, p0, peaking):
        chart = build_chart(self.n_knots, self.n_modes, peaking)
        coeffs = jnp.zeros(self.n_knots, dtype=jnp.float32)
        for _ in range(self.n_polish):
            coeffs, res_norm = polish_step(chart, coeffs, p0, peaking)
        energy = stored_energy(chart, coeffs, p0, peaking)
        print(f"  chart: {self.n_knots} knots, n_modes={chart.n_modes}, solved in {chart.age():.2f} s")
        return coeffs, float(res_norm), float(energy)


def main():
    scan = EquilibriumScan()
    p0 = jnp.float32(2.0e4)
    for peaking in (1.0, 1.5, 2.0):
        coeffs, res_norm, energy = scan.solve(p0, jnp.float32(peaking))
        print(f"peaking={peaking:.1f}  |F|={res_norm:.3e}  W={energy:.3e}  psi0={float(coeffs[0]):+.4f}")


if __name__ == "__main__":
    main()
