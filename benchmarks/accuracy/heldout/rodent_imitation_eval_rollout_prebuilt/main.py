"""Train a tracking policy and, after every epoch, roll it out for logging.

The evaluation pieces (jitted reset/step and the policy) are built once before training and
handed to the logging callback through functools.partial, so each epoch's rollout reuses them.
"""

import functools

import jax
import jax.numpy as jnp
import numpy as np

from env import N_JOINTS, ImitationEnv

OBS = 3 * N_JOINTS


def init_policy(key, hidden=32):
    k1, k2 = jax.random.split(key)
    return {
        "w1": 0.1 * jax.random.normal(k1, (OBS, hidden)),
        "b1": jnp.zeros(hidden),
        "w2": 0.1 * jax.random.normal(k2, (hidden, N_JOINTS)),
        "b2": jnp.zeros(N_JOINTS),
    }


def policy_apply(params, obs):
    h = jnp.tanh(obs @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


def make_logging_inference_fn(apply_fn, noise_scale=0.1):
    def inference(params, obs, key):
        mean = apply_fn(params, obs)
        return mean + noise_scale * jax.random.normal(key, mean.shape)

    return jax.jit(inference)


def rollout_logging_fn(epoch, params, *, jit_reset, jit_step, jit_inference_fn, env, n_steps):
    key = jax.random.PRNGKey(epoch)
    key, reset_key = jax.random.split(key)
    state = jit_reset(reset_key)
    rewards = []
    for _ in range(n_steps):
        key, act_key = jax.random.split(key)
        action = jit_inference_fn(params, env.observe(state), act_key)
        state = jit_step(state, action)
        rewards.append(float(state.reward))
    print(f"epoch {epoch}: eval tracking reward {np.mean(rewards):.3f}")


def imitation_loss(params, obs, target_action):
    return jnp.mean((policy_apply(params, obs) - target_action) ** 2)


@jax.jit
def train_epoch(params, obs, target_action, lr):
    grads = jax.grad(imitation_loss)(params, obs, target_action)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)


def expert_batch(env, key, batch=64):
    k1, k2 = jax.random.split(key)
    qpos = env.clip[0] + 0.2 * jax.random.normal(k1, (batch, N_JOINTS))
    qvel = 0.1 * jax.random.normal(k2, (batch, N_JOINTS))
    ref = jnp.broadcast_to(env.clip[1], qpos.shape)
    obs = jnp.concatenate([qpos, qvel, ref - qpos], axis=1)
    return obs, 5.0 * (ref - qpos) - qvel


def train(env, n_epochs=4, eval_steps=5):
    params = init_policy(jax.random.PRNGKey(0))
    policy_params_fn = functools.partial(
        rollout_logging_fn,
        jit_reset=jax.jit(env.reset),
        jit_step=jax.jit(env.step),
        jit_inference_fn=make_logging_inference_fn(policy_apply),
        env=env,
        n_steps=eval_steps,
    )
    key = jax.random.PRNGKey(1)
    for epoch in range(n_epochs):
        key, sub = jax.random.split(key)
        obs, target = expert_batch(env, sub)
        params = train_epoch(params, obs, target, 0.05)
        policy_params_fn(epoch, params)
    return params


if __name__ == "__main__":
    t = jnp.linspace(0.0, 2 * jnp.pi, 50)
    clip = 0.3 * jnp.sin(t[:, None] + jnp.arange(N_JOINTS)[None, :])
    train(ImitationEnv(clip))
