"""Roll out a few episodes of the scripted skirmish and report who is left standing."""

import jax
from env import Skirmish
from policy import chase_nearest


def rollout(env, key, steps=5):
    key, reset_key = jax.random.split(key)
    state = env.reset(reset_key)
    for _ in range(steps):
        key, sub = jax.random.split(key)
        moves = chase_nearest(state, env.team, sub)
        state = env.step(state, moves)
    return state


if __name__ == "__main__":
    env = Skirmish()
    for episode in range(2):
        final = rollout(env, jax.random.PRNGKey(episode))
        print(episode, int(final.time), [round(float(h), 2) for h in final.health])
