"""A jitted closed-loop simulator: unicycle dynamics under a CBF-filtered go-to-goal controller."""

from functools import partial

import jax
import jax.numpy as jnp


def unicycle(x, u):
    px, py, theta = x
    v, omega = u
    return jnp.array([v * jnp.cos(theta), v * jnp.sin(theta), omega])


def cbf_controller(x, goal, obstacle, gains):
    k_v, k_w, alpha = gains
    d = goal - x[:2]
    heading = jnp.arctan2(d[1], d[0])
    v = k_v * jnp.linalg.norm(d)
    omega = k_w * jnp.sin(heading - x[2])
    # barrier h = |p - o|^2 - r^2 >= 0: slow down when close to the obstacle
    h = jnp.sum((x[:2] - obstacle[:2]) ** 2) - obstacle[2] ** 2
    v = jnp.minimum(v, alpha * jnp.maximum(h, 0.0))
    return jnp.array([v, omega])


@partial(jax.jit, static_argnames=("num_steps",))
def rollout(x0, goal, obstacle, gains, dt, num_steps):
    def step(x, _):
        u = cbf_controller(x, goal, obstacle, gains)
        x = x + dt * unicycle(x, u)
        return x, x

    _, xs = jax.lax.scan(step, x0, None, length=num_steps)
    return xs


class Simulator:
    def __init__(self, dt=0.05):
        self.dt = dt

    def execute(self, x0, goal, obstacle, gains, duration):
        num_steps = int(round(duration / self.dt))
        return rollout(x0, goal, obstacle, gains, self.dt, num_steps=num_steps)  # expect: RTL201
