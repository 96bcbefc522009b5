"""A decode loop that precompiles its sampler, then serves batches of requests."""

import jax
import jax.numpy as jnp

import sampling

BATCH, VOCAB = 4, 32


@jax.jit
def sample_tokens(logits, meta, key):
    if meta.linear_penalty is not None:
        logits = logits - meta.linear_penalty
    return jax.random.categorical(key, logits / meta.temperatures[:, None])


class Scheduler:
    def __init__(self):
        self.key = jax.random.PRNGKey(0)

    def precompile(self):
        logits = jnp.zeros((BATCH, VOCAB))
        sample_tokens(logits, sampling.dummy(BATCH, VOCAB), self.key).block_until_ready()

    def run_batch(self, requests, logits):
        self.key, sub = jax.random.split(self.key)
        meta = sampling.from_requests(requests, VOCAB)
        return sample_tokens(logits, meta, sub)


if __name__ == "__main__":
    scheduler = Scheduler()
    scheduler.precompile()
    logits = jax.random.normal(jax.random.PRNGKey(1), (BATCH, VOCAB))
    for step in range(3):
        requests = [{"temperature": 0.7 + 0.1 * i} for i in range(BATCH)]
        print(step, scheduler.run_batch(requests, logits))
