"""Critic and actor updates of TD3+BC on an offline batch."""

from functools import partial

import jax
import jax.numpy as jnp


def mlp_init(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [(0.1 * jax.random.normal(k, (m, n)), jnp.zeros(n)) for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def mlp(params, x):
    for w, b in params[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def init_agent(key, obs_dim, act_dim, config):
    k1, k2 = jax.random.split(key)
    critic = mlp_init(k1, (obs_dim + act_dim, *config.hidden_dims, 1))
    actor = mlp_init(k2, (obs_dim, *config.hidden_dims, act_dim))
    return {"critic": critic, "actor": actor, "target_critic": critic, "target_actor": actor}


@partial(jax.jit, static_argnames=("config",))
def update(state, batch, key, config):
    obs, act, rew, next_obs, done = batch
    noise = jnp.clip(config.policy_noise * jax.random.normal(key, act.shape), -config.noise_clip, config.noise_clip)
    next_act = jnp.clip(jnp.tanh(mlp(state["target_actor"], next_obs)) + noise, -1.0, 1.0)
    target_q = mlp(state["target_critic"], jnp.concatenate([next_obs, next_act], -1))[:, 0]
    y = rew + config.discount * (1.0 - done) * target_q

    def critic_loss(critic):
        q = mlp(critic, jnp.concatenate([obs, act], -1))[:, 0]
        return jnp.mean((q - y) ** 2)

    def actor_loss(actor):
        pi = jnp.tanh(mlp(actor, obs))
        q = mlp(state["critic"], jnp.concatenate([obs, pi], -1))[:, 0]
        lmbda = config.alpha / (jnp.abs(q).mean() + 1e-6)
        return -lmbda * q.mean() + jnp.mean((pi - act) ** 2)

    c_loss, c_grad = jax.value_and_grad(critic_loss)(state["critic"])
    a_loss, a_grad = jax.value_and_grad(actor_loss)(state["actor"])
    sgd = lambda p, g: p - 1e-2 * g
    critic = jax.tree_util.tree_map(sgd, state["critic"], c_grad)
    actor = jax.tree_util.tree_map(sgd, state["actor"], a_grad)
    polyak = lambda t, s: (1 - config.tau) * t + config.tau * s
    new_state = {
        "critic": critic,
        "actor": actor,
        "target_critic": jax.tree_util.tree_map(polyak, state["target_critic"], critic),
        "target_actor": jax.tree_util.tree_map(polyak, state["target_actor"], actor),
    }
    return new_state, c_loss, a_loss
