"""Sample in chunks, saving the sampler to a checkpoint after each chunk and resuming from it."""

import pickle

import jax
import jax.numpy as jnp
from sampler import RandomWalkSampler


def run_chunk(sampler, x, key, num_steps=5):
    for _ in range(num_steps):
        key, sub = jax.random.split(key)
        x = sampler.step(x, sub)  # expect: RTL204
    return x, key


def resume(checkpoint):
    return pickle.loads(checkpoint["sampler"]), checkpoint["x"], checkpoint["key"]  # expect: RTL204


def sample_with_checkpoints(num_chunks=3):
    checkpoint = {
        "sampler": pickle.dumps(RandomWalkSampler(step_size=0.5)),
        "x": jnp.zeros(3),
        "key": jax.random.PRNGKey(0),
    }
    for _ in range(num_chunks):
        sampler, x, key = resume(checkpoint)
        x, key = run_chunk(sampler, x, key)
        checkpoint = {"sampler": pickle.dumps(sampler), "x": x, "key": key}
    return checkpoint["x"]


if __name__ == "__main__":
    print(sample_with_checkpoints())
