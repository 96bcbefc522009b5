"""Bag-of-embeddings sentiment classifier trained on dynamically padded review batches."""
import jax
import jax.numpy as jnp

from reviews import REVIEWS, ReviewBatcher, WhitespaceTokenizer

EMBED_DIM = 16


def init_params(key, vocab_size):
    k_emb, k_out = jax.random.split(key)
    return {
        "embed": 0.1 * jax.random.normal(k_emb, (vocab_size, EMBED_DIM)),
        "w": 0.1 * jax.random.normal(k_out, (EMBED_DIM,)),
        "b": jnp.zeros(()),
    }


def logits_fn(params, tokens, mask):
    vectors = params["embed"][tokens] * mask[..., None]
    pooled = vectors.sum(axis=1) / jnp.maximum(mask.sum(axis=1, keepdims=True), 1.0)
    return pooled @ params["w"] + params["b"]


def bce_loss(params, tokens, mask, labels):
    logits = logits_fn(params, tokens, mask)
    return jnp.mean(jnp.logaddexp(0.0, logits) - labels * logits)


@jax.jit
def train_step(params, tokens, mask, labels):
    loss, grads = jax.value_and_grad(bce_loss)(params, tokens, mask, labels)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.5 * g, params, grads)
    return params, loss


class Trainer:
    def __init__(self, batcher, params):
        self.batcher = batcher
        self.params = params

    def run_epoch(self):
        losses = []
        for tokens, mask, labels in self.batcher:
            self.params, loss = train_step(self.params, tokens, mask, labels)
            losses.append(float(loss))
        return sum(losses) / len(losses)


def main():
    tokenizer = WhitespaceTokenizer(REVIEWS)
    batcher = ReviewBatcher(REVIEWS, tokenizer, batch_size=4)
    trainer = Trainer(batcher, init_params(jax.random.PRNGKey(0), tokenizer.vocab_size))
    for epoch in range(2):
        print(f"epoch {epoch}: loss {trainer.run_epoch():.4f}")


if __name__ == "__main__":
    main()
