"""Two-compartment pharmacokinetic model integrated on a fixed time grid."""

from functools import partial

import jax
import jax.numpy as jnp


def _rhs(state, rate, params):
    central, peripheral = state
    k10, k12, k21 = params["k10"], params["k12"], params["k21"]
    d_central = rate - (k10 + k12) * central + k21 * peripheral
    d_peripheral = k12 * central - k21 * peripheral
    return jnp.stack([d_central, d_peripheral])


@partial(jax.jit, static_argnames=("grid",))
def integrate_interval(state, rate, params, grid):
    """RK4 over one dosing interval; grid = (t_start, t_end, dt) fixes the step count."""
    t0, t1, dt = grid
    n_steps = max(int(round((t1 - t0) / dt)), 1)
    times = jnp.linspace(t0, t1, n_steps + 1)

    def step(y, _):
        k1 = _rhs(y, rate, params)
        k2 = _rhs(y + 0.5 * dt * k1, rate, params)
        k3 = _rhs(y + 0.5 * dt * k2, rate, params)
        k4 = _rhs(y + dt * k3, rate, params)
        y = y + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)
        return y, y[0]

    final, concentrations = jax.lax.scan(step, state, None, length=n_steps)
    return final, times[1:], concentrations
