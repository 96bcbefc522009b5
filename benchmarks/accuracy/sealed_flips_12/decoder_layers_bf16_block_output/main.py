"""Score a few token batches with a small pre-norm decoder run under mixed precision."""

import jax
import jax.numpy as jnp

from model import Decoder, DecoderConfig


def token_batches(n=3, batch=2, seq=8, vocab=50):
    for i in range(n):
        yield jax.random.randint(jax.random.PRNGKey(i), (batch, seq), 0, vocab)


def main():
    cfg = DecoderConfig(vocab=50, d_model=32, n_layers=4)
    decoder = Decoder(cfg, jax.random.PRNGKey(0))
    for i, tokens in enumerate(token_batches()):
        logits = decoder(tokens)
        print(f"batch {i}: logits {logits.shape} {logits.dtype}, mean {float(jnp.mean(logits)):.4f}")


if __name__ == "__main__":
    main()
