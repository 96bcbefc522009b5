"""A bag-of-embeddings classifier and its evaluation step."""

import jax
import jax.numpy as jnp


def init_params(key, vocab=50, dim=16, classes=2):
    k1, k2 = jax.random.split(key)
    return {
        "embed": jax.random.normal(k1, (vocab, dim)) * 0.1,
        "head": jax.random.normal(k2, (dim, classes)) * 0.1,
    }


@jax.jit
def eval_step(params, batch):
    pooled = params["embed"][batch["input_ids"]].mean(axis=1)
    logits = pooled @ params["head"]
    log_probs = jax.nn.log_softmax(logits)
    nll = -jnp.take_along_axis(log_probs, batch["labels"][:, None], axis=1).sum()
    correct = (jnp.argmax(logits, -1) == batch["labels"]).sum()
    return nll, correct
