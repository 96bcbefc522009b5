"""Sampling-based MPC for a cart that has to reach a set point."""
from functools import partial

import jax
import jax.numpy as jnp


def rollout(state, controls, dt):
    def cart_step(x, u):
        pos, vel = x
        vel = vel + dt * (u - 0.1 * vel)
        pos = pos + dt * vel
        return (pos, vel), pos
    _, path = jax.lax.scan(cart_step, state, controls)
    return path


class CartMPC:
    def __init__(self, horizon, dt, n_samples=32):
        self.horizon = horizon
        self.dt = dt
        self.n_samples = n_samples

    def __hash__(self):
        return hash((self.horizon, self.dt, self.n_samples))

    def __eq__(self, other):
        return (isinstance(other, CartMPC)
                and (self.horizon, self.dt, self.n_samples)
                == (other.horizon, other.dt, other.n_samples))

    @partial(jax.jit, static_argnums=0)
    def plan(self, state, target, key):
        noise = jax.random.normal(key, (self.n_samples, self.horizon))
        paths = jax.vmap(lambda u: rollout(state, u, self.dt))(noise)
        cost = jnp.sum((paths - target) ** 2, axis=1) + 0.01 * jnp.sum(noise ** 2, axis=1)
        weights = jax.nn.softmax(-cost)
        return weights @ noise

    def refined(self):
        """A copy with half the prediction step (the planner's static self stays immutable)."""
        return CartMPC(self.horizon, self.dt * 0.5, self.n_samples)  # expect: RTL201
