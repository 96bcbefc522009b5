"""Deterministic actor for a DDPG-style pendulum agent, with Gaussian exploration."""

from functools import partial

import jax
import jax.numpy as jnp


def init_actor(key, obs_dim, act_dim, hidden=16):
    k1, k2 = jax.random.split(key)
    return {
        "w1": jax.random.normal(k1, (obs_dim, hidden)) / jnp.sqrt(obs_dim),
        "b1": jnp.zeros(hidden),
        "w2": jax.random.normal(k2, (hidden, act_dim)) / jnp.sqrt(hidden),
        "b2": jnp.zeros(act_dim),
    }


def actor_forward(params, obs):
    h = jnp.tanh(obs @ params["w1"] + params["b1"])
    return jnp.tanh(h @ params["w2"] + params["b2"])


@partial(jax.jit, static_argnames=("noise_scale",))
def explore_action(params, obs, key, noise_scale):
    mu = actor_forward(params, obs)
    eps = noise_scale * jax.random.normal(key, mu.shape)
    return jnp.clip(mu + eps, -1.0, 1.0)


@jax.jit
def soft_update(target, online, tau):
    return jax.tree_util.tree_map(lambda t, o: (1.0 - tau) * t + tau * o, target, online)


class GaussianNoiseSchedule:
    """Linearly anneal the exploration std from `start` to `end`."""

    def __init__(self, start=0.5, end=0.05, decay_episodes=10):
        self.start = start
        self.end = end
        self.decay_episodes = decay_episodes

    def __call__(self, episode):
        frac = min(1.0, episode / self.decay_episodes)
        return max(self.end, self.start + frac * (self.end - self.start))
