"""Run an epsilon-greedy agent with a tabular value estimate through one four-rooms episode."""

import jax
import jax.numpy as jnp

import rooms


@jax.jit
def agent_env_step(values, pos, timestep, key):
    key_explore, key_action = jax.random.split(key)
    greedy = jnp.argmax(values[jnp.argmax(timestep.observation)])
    random_action = jax.random.randint(key_action, (), 0, 4)
    action = jnp.where(jax.random.uniform(key_explore) < 0.2, random_action, greedy)
    new_pos, next_step = rooms.step(pos, action)
    cell = jnp.argmax(timestep.observation)
    target = next_step.reward + 0.9 * jnp.max(values[jnp.argmax(next_step.observation)])
    values = values.at[cell, action].add(0.5 * (target - values[cell, action]))
    return values, new_pos, next_step


def main(max_steps=200, seed=0):
    key_reset, key_run = jax.random.split(jax.random.PRNGKey(seed))
    values = jnp.zeros((rooms.LAYOUT.size, 4), jnp.float32)
    pos, timestep = rooms.reset(key_reset)
    for t, key in enumerate(jax.random.split(key_run, max_steps)):
        values, pos, timestep = agent_env_step(values, pos, timestep, key)
        if bool(timestep.done):
            break
    print(f"episode ended after {t + 1} steps at {pos.tolist()}, reward {float(timestep.reward)}")


if __name__ == "__main__":
    main()
