"""Record episodes into flat per-step records, observations and infos side by side, like a dataset collector."""

import jax
import jax.numpy as jnp


@jax.jit
def pack_record(obs, info):
    # One flat record per step: the observation plus every info entry, for the dataset writer.
    record = {"observation": obs}
    for name, value in info.items():
        record[f"info/{name}"] = jnp.asarray(value, jnp.float32)
    return record


class EpisodeCollector:
    def __init__(self):
        self.records = []
        self.actions = []
        self.rewards = []

    def on_reset(self, obs, info):
        self.records.append(pack_record(obs, info))

    def on_step(self, obs, action, reward, info):
        self.records.append(pack_record(obs, info))
        self.actions.append(action)
        self.rewards.append(reward)

    def episode_return(self):
        return float(jnp.sum(jnp.stack(self.rewards)))
