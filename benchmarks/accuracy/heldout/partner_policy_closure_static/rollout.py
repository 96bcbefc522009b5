"""Cooperative foraging: the ego agent and a partner each pick a direction every step."""

from functools import partial

import jax
import jax.numpy as jnp

MOVES = jnp.array([[0, 1], [0, -1], [1, 0], [-1, 0]], dtype=jnp.float32)


@partial(jax.jit, static_argnames=("partner_policy", "num_steps"))
def run_episodes(ego_params, key, partner_policy, num_steps=16):
    def step(carry, key):
        ego, partner, food = carry
        k1, k2 = jax.random.split(key)
        obs = jnp.concatenate([ego, partner, food])
        a_ego = jnp.argmax(jnp.tanh(obs @ ego_params["w1"]) @ ego_params["w2"])
        a_partner = partner_policy(obs, k1)
        ego, partner = ego + 0.25 * MOVES[a_ego], partner + 0.25 * MOVES[a_partner]
        reward = jnp.exp(-jnp.sum((ego - food) ** 2)) + jnp.exp(-jnp.sum((partner - food) ** 2))
        return (ego, partner, food), reward

    start = (jnp.zeros(2), jnp.ones(2), jax.random.normal(key, (2,)))
    _, rewards = jax.lax.scan(step, start, jax.random.split(key, num_steps))
    return rewards.sum()
