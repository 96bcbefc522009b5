"""Anomaly-scoring service for pump vibration sensors.

Requests (one feature vector per sensor reading) are collected per tick and scored
together by a small jitted autoencoder.
"""

from dataclasses import dataclass, field

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def score_batch(params, features):
    hidden = jnp.tanh(features @ params["enc"] + params["b_enc"])
    recon = hidden @ params["dec"] + params["b_dec"]
    return jnp.mean((recon - features) ** 2, axis=-1)


def init_params(n_features, n_hidden, seed=0):
    key_enc, key_dec = jax.random.split(jax.random.PRNGKey(seed))
    return {
        "enc": 0.1 * jax.random.normal(key_enc, (n_features, n_hidden)),
        "b_enc": jnp.zeros(n_hidden),
        "dec": 0.1 * jax.random.normal(key_dec, (n_hidden, n_features)),
        "b_dec": jnp.zeros(n_features),
    }


@dataclass
class MicroBatcher:
    params: dict
    threshold: float
    pending: list = field(default_factory=list)

    def submit(self, sensor_id, reading):
        self.pending.append((sensor_id, np.asarray(reading, dtype=np.float32)))

    def flush(self):
        if not self.pending:
            return []
        ids = [sensor_id for sensor_id, _ in self.pending]
        batch = np.stack([reading for _, reading in self.pending])  # expect: RTL102
        self.pending.clear()
        scores = np.asarray(score_batch(self.params, batch))
        return [(sid, float(s), bool(s > self.threshold)) for sid, s in zip(ids, scores)]
