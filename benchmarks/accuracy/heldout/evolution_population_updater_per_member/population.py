"""Population members for evolving a PD controller on a damped pendulum."""

from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp

DT = 0.05
HORIZON = 40


class Plant(NamedTuple):
    mass: float
    length: float
    damping: float


class Member(NamedTuple):
    params: jnp.ndarray          # (kp, kd)
    rollout: Callable            # jitted closed-loop simulation
    generation: int


def pendulum_rhs(plant, state, torque):
    theta, omega = state
    inertia = plant.mass * plant.length**2
    alpha = (-9.81 / plant.length * jnp.sin(theta) - plant.damping * omega + torque / inertia)
    return jnp.stack([omega, alpha])


def make_member(params, plant, generation):
    """Wrap a parameter vector together with its own compiled evaluator."""

    def rollout(gains, x0):
        def closed_loop_tick(state, _):
            torque = -gains[0] * state[0] - gains[1] * state[1]
            torque = jnp.clip(torque, -4.0, 4.0)
            nxt = state + DT * pendulum_rhs(plant, state, torque)
            cost = nxt[0] ** 2 + 0.1 * nxt[1] ** 2 + 1e-3 * torque**2
            return nxt, cost

        _, costs = jax.lax.scan(closed_loop_tick, x0, None, length=HORIZON)
        return jnp.sum(costs)

    return Member(params=params, rollout=jax.jit(rollout), generation=generation)  # expect: RTL301


@jax.jit
def mutate(key, parent_a, parent_b, sigma):
    k_mix, k_noise = jax.random.split(key)
    w = jax.random.uniform(k_mix, parent_a.shape)
    child = w * parent_a + (1.0 - w) * parent_b
    return jnp.abs(child + sigma * jax.random.normal(k_noise, parent_a.shape))
