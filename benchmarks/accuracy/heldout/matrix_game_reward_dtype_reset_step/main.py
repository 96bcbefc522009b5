"""Two tit-for-tat-ish softmax agents play a repeated prisoner's dilemma; returns are tracked per agent."""

import jax
import jax.numpy as jnp

from env import PRISONERS_DILEMMA, MatrixGame


@jax.jit
def act(logits, timestep, key):
    # condition each agent's logits on what the opponent did last round
    agent_logits = logits + 2.0 * timestep.observation
    keys = jax.random.split(key, agent_logits.shape[0])
    return jax.vmap(jax.random.categorical)(keys, agent_logits).astype(jnp.int32)


@jax.jit
def observe(stats, timestep):
    """Accumulate discounted returns and the running count of rewarded rounds."""
    returns, discount_acc, rewarded = stats
    returns = returns + discount_acc * timestep.reward
    discount_acc = discount_acc * 0.95 * timestep.discount
    rewarded = rewarded + (timestep.reward > 0).astype(jnp.int32)
    return returns, discount_acc, rewarded


def play_episode(env, logits, key):
    key, reset_key = jax.random.split(key)
    state, timestep = env.reset(reset_key)
    stats = (
        jnp.zeros((env.num_agents,), jnp.float32),
        jnp.ones((env.num_agents,), jnp.float32),
        jnp.zeros((env.num_agents,), jnp.int32),
    )
    stats = observe(stats, timestep)
    while not bool(timestep.last):
        key, act_key = jax.random.split(key)
        actions = act(logits, timestep, act_key)
        state, timestep = env.step(state, actions)
        stats = observe(stats, timestep)
    return stats


def main():
    env = MatrixGame(PRISONERS_DILEMMA, time_limit=5)
    logits = jnp.array([[0.5, 0.0], [0.0, 0.5]], jnp.float32)  # agent 0 leans cooperate, agent 1 defect
    key = jax.random.PRNGKey(0)
    for episode in range(3):
        key, sub = jax.random.split(key)
        returns, _, rewarded = play_episode(env, logits, sub)
        print(f"episode {episode}: returns={returns.tolist()} rewarded rounds={rewarded.tolist()}")


if __name__ == "__main__":
    main()
