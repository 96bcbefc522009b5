"""Random-shooting MPC for a damped pendulum.

The plant model is handed to the jitted rollout as a static argument, and the
cost is looked up from a registry of jitted cost functions.
"""

from functools import partial

import jax
import jax.numpy as jnp

import dynamics

HORIZON = 12
N_SAMPLES = 16


@partial(jax.jit, static_argnums=0)
def rollout(dynamics_fn, x0, controls, params, dt):
    def euler_step(x, u):
        x_next = x + dt * dynamics_fn(x, u, params)
        return x_next, x_next

    _, traj = jax.lax.scan(euler_step, x0, controls)
    return traj


class ShootingMPC:
    def __init__(self, model, cost_name, params, dt=0.05):
        self.model = model
        self.cost_fn = dynamics.COSTS[cost_name]
        self.params = params
        self.dt = dt

    def score(self, x0, candidates):
        return jnp.stack([self.cost_fn(rollout(self.model, x0, u, self.params, self.dt), u)
                          for u in candidates])

    def act(self, x0, key):
        candidates = jax.random.normal(key, (N_SAMPLES, HORIZON)) * 2.0
        scores = self.score(x0, list(candidates))
        return candidates[jnp.argmin(scores)]


def simulate(controller, x0, steps, seed=0):
    key = jax.random.PRNGKey(seed)
    x = x0
    for _ in range(steps):
        key, sub = jax.random.split(key)
        plan = controller.act(x, sub)
        predicted = rollout(controller.model, x, plan, controller.params, controller.dt)
        effort = dynamics.COSTS["effort"](predicted, plan)
        x = predicted[0]   # apply only the first control of the plan
        print(f"theta={float(x[0]):+.3f} omega={float(x[1]):+.3f} "
              f"u={float(plan[0]):+.3f} plan effort={float(effort):.2f}")
    return x


if __name__ == "__main__":
    params = jnp.array([1.0, 0.5, 0.1])
    mpc = ShootingMPC(dynamics.pendulum_dynamics, "quadratic", params)
    simulate(mpc, jnp.array([0.3, 0.0]), steps=4)
