"""Greedy generation with a tiny bigram-attention model that re-reads the whole sequence each step."""

import jax
import jax.numpy as jnp


def init(key, vocab, dim):
    k_embed, k_out = jax.random.split(key)
    return {
        "embed": jax.random.normal(k_embed, (vocab, dim)),
        "out": jax.random.normal(k_out, (dim, vocab)),
    }


@jax.jit
def next_token_logits(params, tokens):
    h = params["embed"][tokens]
    attn = jax.nn.softmax(h @ h[-1])
    return (attn @ h) @ params["out"]


def generate(params, prompt, new_tokens):
    tokens = jnp.asarray(prompt, jnp.int32)
    for _ in range(new_tokens):
        nxt = jnp.argmax(next_token_logits(params, tokens)).astype(jnp.int32)
        tokens = jnp.concatenate([tokens, nxt[None]])  # expect: RTL102
    return tokens


if __name__ == "__main__":
    params = init(jax.random.PRNGKey(0), 20, 8)
    print(generate(params, [1, 5, 7], 4))
