"""Greedy decoding with a fixed-size key/value cache that the first step allocates."""

import jax
import jax.numpy as jnp

MAX_LEN = 16
DIM = 8


@jax.jit
def decode_step(params, token, pos, cache):
    if cache is None:
        cache = jnp.zeros((MAX_LEN, DIM))
    query = params["embed"][token]
    cache = cache.at[pos].set(query)
    weights = jax.nn.softmax(cache @ query)
    logits = (weights @ cache) @ params["embed"].T
    return jnp.argmax(logits), cache


def generate(params, first_token, steps):
    token, cache = first_token, None  # expect: RTL403
    out = [int(token)]
    for pos in range(steps):
        token, cache = decode_step(params, token, pos, cache)
        out.append(int(token))
    return out


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    params = {"embed": jax.random.normal(key, (32, DIM))}
    print(generate(params, jnp.int32(3), 6))
