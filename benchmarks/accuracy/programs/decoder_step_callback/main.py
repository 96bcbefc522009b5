"""A generic greedy decoder that takes the model's step function as a callback."""

import jax
import jax.numpy as jnp


def make_params(key, vocab=12, dim=6):
    k1, k2 = jax.random.split(key)
    return {"embed": jax.random.normal(k1, (vocab, dim)), "out": jax.random.normal(k2, (dim, vocab))}


@jax.jit
def score_next(params, tokens):
    h = params["embed"][tokens]
    context = jax.nn.softmax(h @ h[-1]) @ h
    return context @ params["out"]


def greedy_decode(step_fn, params, prompt, new_tokens):
    tokens = list(prompt)
    for _ in range(new_tokens):
        logits = step_fn(params, jnp.array(tokens))
        tokens.append(int(jnp.argmax(logits)))  # expect: RTL102
    return tokens


if __name__ == "__main__":
    print(greedy_decode(score_next, make_params(jax.random.PRNGKey(0)), [1, 2], 4))
