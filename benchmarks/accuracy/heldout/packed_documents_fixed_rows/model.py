"""A bigram language model trained with a masked next-token loss."""

import jax
import jax.numpy as jnp


def init(key, vocab=32):
    return {"logits": 0.01 * jax.random.normal(key, (vocab, vocab))}


def masked_loss(params, tokens, mask):
    logits = params["logits"][tokens[:, :-1]]
    log_probs = jax.nn.log_softmax(logits, axis=-1)
    picked = jnp.take_along_axis(log_probs, tokens[:, 1:, None], axis=-1)[..., 0]
    pair_mask = mask[:, :-1] * mask[:, 1:]
    return -jnp.sum(picked * pair_mask) / jnp.maximum(pair_mask.sum(), 1.0)


@jax.jit
def train_step(params, tokens, mask, lr):
    loss, grads = jax.value_and_grad(masked_loss)(params, tokens, mask)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads), loss
