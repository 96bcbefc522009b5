"""Per-batch sampling metadata for a decode step."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class SamplingMetadata:
    temperatures: jax.Array
    linear_penalty: jax.Array | None


def from_requests(requests, vocab):
    temps = jnp.asarray([r["temperature"] for r in requests], jnp.float32)
    if any(r.get("frequency_penalty", 0.0) for r in requests):
        penalty = jnp.stack([jnp.full((vocab,), r.get("frequency_penalty", 0.0)) for r in requests])
    else:
        penalty = None  # expect: RTL403
    return SamplingMetadata(temperatures=temps, linear_penalty=penalty)


def dummy(batch, vocab):
    return SamplingMetadata(jnp.ones((batch,), jnp.float32), jnp.zeros((batch, vocab), jnp.float32))
