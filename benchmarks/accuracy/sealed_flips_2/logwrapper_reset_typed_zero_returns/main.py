"""Run a random policy on Catch and log the returns of finished episodes."""

import jax

from catch import Catch
from wrappers import LogWrapper

env = LogWrapper(Catch())


@jax.jit
def rollout_step(state, key):
    key_act, key_step = jax.random.split(key)
    action = jax.random.randint(key_act, (), 0, 3)
    obs, state, reward, done = env.step(key_step, state, action)
    return state, done


def main(n_steps=30, seed=0):
    key, key_reset = jax.random.split(jax.random.PRNGKey(seed))
    _, state = env.reset(key_reset)
    finished = 0
    for key_step in jax.random.split(key, n_steps):
        state, done = rollout_step(state, key_step)
        finished += int(done)
    print(f"{finished} episodes, last return {float(state.returned_episode_returns):+.0f}")


if __name__ == "__main__":
    main()
