"""Receding-horizon planner for a planar point-mass robot."""

from functools import partial

import jax
import jax.numpy as jnp


class RecedingHorizonPlanner:
    """Picks a constant acceleration that brings the robot to the goal at the end of the horizon."""

    def __init__(self, dt, horizon, max_accel=2.0, iters=12):
        self.dt = dt
        self.horizon = horizon
        self.max_accel = max_accel
        self.iters = iters

    # Hashable by configuration, as the JAX FAQ suggests, so `plan` can take self as static.
    def _key(self):
        return (self.dt, self.horizon, self.max_accel, self.iters)

    def __hash__(self):
        return hash(self._key())

    def __eq__(self, other):
        return isinstance(other, RecedingHorizonPlanner) and self._key() == other._key()

    def with_horizon_for(self, distance, speed):
        """A copy that looks only as far ahead as the time left to reach the goal.

        (Returns a new planner instead of mutating self: a hashed static must not be mutated.)
        """
        steps = int(distance / (max(speed, 1.0) * self.dt))
        horizon = max(4, min(steps, 20))  # expect: RTL201
        return RecedingHorizonPlanner(self.dt, horizon, self.max_accel, self.iters)

    def _cost(self, accel, pos, vel, goal):
        # Semi-implicit Euler under a constant acceleration, summed in closed form.
        h, dt = self.horizon, self.dt
        v_end = vel + h * dt * accel
        p_end = pos + h * dt * vel + 0.5 * h * (h + 1) * dt**2 * accel
        effort = 1e-3 * h * jnp.sum(accel**2)
        return jnp.sum((p_end - goal) ** 2) + 0.1 * jnp.sum(v_end**2) + effort

    @partial(jax.jit, static_argnums=0)
    def plan(self, state, goal):
        pos, vel = state[:2], state[2:]
        grad_fn = jax.grad(self._cost)
        t_end = self.horizon * self.dt
        lr = 0.5 / (1.0 + t_end**4)
        accel = jnp.zeros(2)
        for _ in range(self.iters):
            accel = accel - lr * grad_fn(accel, pos, vel, goal)
            accel = jnp.clip(accel, -self.max_accel, self.max_accel)
        return accel
