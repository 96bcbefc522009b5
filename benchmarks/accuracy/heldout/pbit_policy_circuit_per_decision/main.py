"""Let the circuit agent pick an action for a short stream of observations."""

import jax
import jax.numpy as jnp
from agent import CircuitAgent

N_ACTIONS = 4

if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    agent = CircuitAgent(N_ACTIONS, thetas=0.1 * jnp.ones(2 * N_ACTIONS))
    for t in range(4):
        key, k_obs, k_decide = jax.random.split(key, 3)
        observation = jax.random.normal(k_obs, (N_ACTIONS,))
        action, probs = agent.decide(observation, k_decide)
        print(t, action, [round(float(p), 2) for p in probs])
