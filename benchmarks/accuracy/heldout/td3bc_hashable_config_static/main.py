"""Offline training loop: the config is re-read from the run's settings at every epoch."""

import jax
import jax.numpy as jnp
from agent import init_agent, update
from config import TD3BCConfig

RUN_SETTINGS = {"discount": 0.99, "tau": 0.005, "alpha": 2.5, "hidden_dims": [16, 16]}


def make_dataset(key, n=64, obs_dim=3, act_dim=2):
    k = jax.random.split(key, 4)
    obs = jax.random.normal(k[0], (n, obs_dim))
    act = jnp.tanh(jax.random.normal(k[1], (n, act_dim)))
    rew = jax.random.normal(k[2], (n,))
    next_obs = obs + 0.1 * jax.random.normal(k[3], (n, obs_dim))
    return obs, act, rew, next_obs, jnp.zeros(n)


class Trainer:
    def __init__(self, settings, dataset, seed=0):
        self.settings = settings
        self.dataset = dataset
        self.key = jax.random.PRNGKey(seed)
        config = TD3BCConfig.from_dict(settings)
        self.state = init_agent(self.key, dataset[0].shape[1], dataset[1].shape[1], config)

    def train_epoch(self):
        config = TD3BCConfig.from_dict(self.settings)  # settings may be edited between epochs
        self.key, sub = jax.random.split(self.key)
        self.state, c_loss, a_loss = update(self.state, self.dataset, sub, config=config)
        return float(c_loss), float(a_loss)


if __name__ == "__main__":
    trainer = Trainer(RUN_SETTINGS, make_dataset(jax.random.PRNGKey(1)))
    for epoch in range(4):
        print(epoch, trainer.train_epoch())
