"""Roll out a scripted energy-pumping controller on a JAX pendulum and log episode statistics."""

import jax

from agent import EnergyPumpAgent
from env import Pendulum


def main():
    env = Pendulum()
    agent = EnergyPumpAgent(gain=1.5)
    reset, step = jax.jit(env.reset), jax.jit(env.step)
    key = jax.random.PRNGKey(0)
    for episode in range(2):
        key, sub = jax.random.split(key)
        state, ts = reset(sub)
        stats = agent.begin_episode(ts)
        for _ in range(10):
            state, ts = step(state, agent.act(ts.obs))
            stats = agent.observe(stats, ts)
        print(f"episode {episode}: return {float(stats['return'].sum()):.3f} over {int(stats['steps'])} steps")


if __name__ == "__main__":
    main()
