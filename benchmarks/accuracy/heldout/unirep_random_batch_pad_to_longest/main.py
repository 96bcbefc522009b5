"""Evotune a tiny next-residue model on randomly drawn, padded batches of sequences."""

import jax
import jax.numpy as jnp
from batching import RandomBatcher
from sequences import ALPHABET

SEQS = [
    "MKTAYIAK", "GSHMLE", "MDPNCSCA", "MKKLLPT", "AEGEFTSDV",
    "MSTNPKPQR", "MQIFVK", "MGLSDGEWQLV", "MVLSPADKT", "MKVLAAGIV",
]


def init_params(key, vocab=len(ALPHABET), dim=8):
    k1, k2 = jax.random.split(key)
    return {"embed": 0.1 * jax.random.normal(k1, (vocab, dim)),
            "out": 0.1 * jax.random.normal(k2, (dim, vocab))}


def loss_fn(params, tokens):
    h = params["embed"][tokens[:, :-1]]
    logits = h @ params["out"]
    logp = jax.nn.log_softmax(logits)
    target = tokens[:, 1:]
    nll = -jnp.take_along_axis(logp, target[..., None], axis=-1)[..., 0]
    mask = (target != 0).astype(jnp.float32)
    return (nll * mask).sum() / mask.sum()


@jax.jit
def update(params, tokens, lr=0.5):
    loss, grads = jax.value_and_grad(loss_fn)(params, tokens)
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), loss


if __name__ == "__main__":
    params = init_params(jax.random.PRNGKey(0))
    batcher = RandomBatcher(SEQS, batch_size=3, seed=1)
    for step in range(5):
        tokens = batcher.sample()
        params, loss = update(params, tokens)
        print(step, tokens.shape, float(loss))
