"""Collect pendulum rollouts with an annealed exploration noise (DDPG warm-up phase)."""

import jax
import jax.numpy as jnp
import numpy as np

from agent import GaussianNoiseSchedule, explore_action, init_actor, soft_update

MAX_TORQUE = 2.0
DT = 0.05


class Pendulum:
    def __init__(self, seed=0):
        self.rng = np.random.default_rng(seed)
        self.theta = 0.0
        self.omega = 0.0

    def reset(self):
        self.theta = self.rng.uniform(-np.pi, np.pi)
        self.omega = self.rng.uniform(-1.0, 1.0)
        return self.observe()

    def observe(self):
        return np.array([np.cos(self.theta), np.sin(self.theta), self.omega], dtype=np.float32)

    def step(self, action):
        torque = float(action[0]) * MAX_TORQUE
        cost = self.theta ** 2 + 0.1 * self.omega ** 2 + 0.001 * torque ** 2
        self.omega = np.clip(self.omega + (3.0 * np.sin(self.theta) + 3.0 * torque) * DT, -8.0, 8.0)
        self.theta = ((self.theta + self.omega * DT + np.pi) % (2 * np.pi)) - np.pi
        return self.observe(), -cost


def rollout(env, actor, key, sigma, horizon=5):
    obs = env.reset()
    transitions, ret = [], 0.0
    for _ in range(horizon):
        key, sub = jax.random.split(key)
        action = explore_action(actor, jnp.asarray(obs), sub, noise_scale=sigma)  # expect: RTL202
        next_obs, reward = env.step(np.asarray(action))
        transitions.append((obs, np.asarray(action), reward, next_obs))
        ret += reward
        obs = next_obs
    return transitions, ret, key


def main():
    key = jax.random.PRNGKey(0)
    key, k_actor = jax.random.split(key)
    actor = init_actor(k_actor, obs_dim=3, act_dim=1)
    target_actor = jax.tree_util.tree_map(jnp.copy, actor)
    schedule = GaussianNoiseSchedule(start=0.5, end=0.05, decay_episodes=8)
    env = Pendulum(seed=1)
    replay = []
    for episode in range(4):
        sigma = schedule(episode)
        transitions, ret, key = rollout(env, actor, key, sigma)  # expect: RTL202
        replay.extend(transitions)
        target_actor = soft_update(target_actor, actor, 0.005)
        print(f"episode {episode}: sigma={sigma:.3f} return={ret:.2f} buffer={len(replay)}")


if __name__ == "__main__":
    main()
