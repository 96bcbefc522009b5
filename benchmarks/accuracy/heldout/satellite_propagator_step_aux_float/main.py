"""Propagate a LEO satellite over consecutive windows, adapting the step to an energy-drift budget."""

import jax.numpy as jnp

from propagator import MU_EARTH, KeplerPropagator, propagate_window


def specific_energy(state, mu=MU_EARTH):
    r, v = state[:3], state[3:]
    return 0.5 * jnp.dot(v, v) - mu / jnp.linalg.norm(r)


class StepController:
    """Shrink or grow the RK4 step so the per-window energy drift stays within tolerance."""

    def __init__(self, dt0, tol=1e-3, grow=1.25, shrink=0.5):
        self.dt = dt0
        self.tol = tol
        self.grow = grow
        self.shrink = shrink

    def update(self, rel_drift):
        if rel_drift > self.tol:
            self.dt = self.dt * self.shrink
        elif rel_drift < 0.1 * self.tol:
            self.dt = min(self.dt * self.grow, 40.0)
        return self.dt


def initial_state(alt_km=550.0):
    r0 = 6378.137 + alt_km
    v0 = (MU_EARTH / r0) ** 0.5
    return jnp.array([r0, 0.0, 0.0, 0.0, v0 * 0.9, v0 * 0.43], dtype=jnp.float32)


def run_pass(n_windows=5):
    controller = StepController(dt0=20.0)
    prop = KeplerPropagator(jnp.float32(MU_EARTH), controller.dt, n_steps=30)
    state = initial_state()
    for w in range(n_windows):
        e0 = specific_energy(state)
        state, track = propagate_window(prop, state)
        drift = float(jnp.abs((specific_energy(state) - e0) / e0))
        new_dt = controller.update(drift)
        prop = prop.with_step(new_dt)  # expect: RTL202
        alt = float(jnp.linalg.norm(track[-1])) - 6378.137
        print(f"window {w}: dt={prop.dt:.2f}s drift={drift:.2e} alt={alt:.1f} km")
    return state


if __name__ == "__main__":
    run_pass()
