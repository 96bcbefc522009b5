"""An ideal-MHD stability scan in the style of DCON: raise the pressure step by step, refit the
safety-factor profile of the equilibrium, and record where q crosses rational surfaces."""

import jax.numpy as jnp

from splines import evaluate, refit_profile


class StabilityScan:
    def __init__(self, equilibrium, rational_q=(2.0, 3.0)):
        self.eq = equilibrium
        self.rational_q = rational_q

    def rational_surfaces(self):
        q = evaluate(self.eq.q_spline, self.eq.psi)
        return {m: float(self.eq.psi[jnp.argmin(jnp.abs(q - m))]) for m in self.rational_q}

    def run(self, scales):
        history = []
        for scale in scales:
            self.eq.pressure_scale = scale
            self.eq.q_spline = refit_profile(self.eq.psi, self.eq.q_profile(), self.eq.q_spline)
            history.append((scale, self.rational_surfaces()))
        return history
