"""Small closed-system Schrodinger solver used by the calibration notebooks.

Mirrors the interface of the quantum-dynamics package we prototype against:
``sesolve(H, psi0, tsave, method=Tsit5(atol=...))``.
"""
import dataclasses
import math
from functools import partial

import jax
import jax.numpy as jnp
from jax import lax


@dataclasses.dataclass(frozen=True)
class Tsit5:
    """Integration method; its settings decide how the solve is unrolled."""

    atol: float = 1e-6
    max_substeps: int = 48

    def substeps(self) -> int:
        # crude rule of thumb: four extra RK4 substeps per decade of accuracy
        n = 4 * math.ceil(-math.log10(self.atol))
        return max(4, min(n, self.max_substeps))


def _rk4(H, psi, h):
    f = lambda p: -1j * (H @ p)
    k1 = f(psi)
    k2 = f(psi + 0.5 * h * k1)
    k3 = f(psi + 0.5 * h * k2)
    k4 = f(psi + h * k3)
    return psi + h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)


@partial(jax.jit, static_argnames=("method",))
def sesolve(H, psi0, tsave, *, method=Tsit5()):
    n_sub = method.substeps()

    def save_interval(psi, dt):
        h = dt / n_sub

        def substep(_, p):
            return _rk4(H, p, h)

        psi = lax.fori_loop(0, n_sub, substep, psi)
        psi = psi / jnp.linalg.norm(psi)
        return psi, psi

    _, states = lax.scan(save_interval, psi0, jnp.diff(tsave))
    return jnp.concatenate([psi0[None], states])
