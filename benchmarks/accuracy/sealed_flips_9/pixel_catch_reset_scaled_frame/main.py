"""Run a small softmax policy on Catch for a few episodes and report the catch rate."""

import jax
import jax.numpy as jnp

import env


def init_policy(key, hidden=32):
    k1, k2 = jax.random.split(key)
    n_in = env.ROWS * env.COLS
    return {
        "w1": jax.random.normal(k1, (n_in, hidden)) / n_in**0.5,
        "w2": jax.random.normal(k2, (hidden, 3)) / hidden**0.5,
    }


@jax.jit
def act(params, obs, key):
    hidden = jnp.tanh(obs.reshape(-1) @ params["w1"])
    return jax.random.categorical(key, hidden @ params["w2"])


def run_episode(params, key):
    k_reset, key = jax.random.split(key)
    obs, state = env.reset(k_reset)
    total = 0.0
    done = False
    while not done:
        key, k_act = jax.random.split(key)
        action = act(params, obs, k_act)
        obs, state, reward, done = env.step(state, action)
        total += float(reward)
        done = bool(done)
    return total


def main():
    key = jax.random.PRNGKey(0)
    params = init_policy(key)
    returns = [run_episode(params, k) for k in jax.random.split(jax.random.PRNGKey(1), 3)]
    print(f"mean return {sum(returns) / len(returns):+.2f}")


if __name__ == "__main__":
    main()
