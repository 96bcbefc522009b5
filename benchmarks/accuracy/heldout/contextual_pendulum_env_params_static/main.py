"""Evaluate a PD controller across sampled gravity contexts (context-varying RL benchmark)."""
import numpy as np
import jax
import jax.numpy as jnp

from env import ContextualPendulum


def pd_policy(state, kp=6.0, kd=1.5):
    return -(kp * state[0] + kd * state[1])


def sample_contexts(n, rng):
    return [{"gravity": float(g)} for g in rng.uniform(8.0, 12.0, size=n)]


def run_episode(env, key, horizon=5):
    obs = env.reset(key)
    total = 0.0
    for _ in range(horizon):
        obs, reward = env.step(pd_policy(obs))
        total += float(reward)
    return total


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    env = ContextualPendulum()
    key = jax.random.PRNGKey(0)
    returns = []
    for context in sample_contexts(4, rng):
        env.set_context(**context)
        key, sub = jax.random.split(key)
        returns.append(run_episode(env, sub))
    print("mean return over contexts:", np.mean(returns), jnp.round(env.state, 3))
