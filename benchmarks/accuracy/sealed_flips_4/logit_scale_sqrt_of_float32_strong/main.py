"""Score streamed query/document batches and keep the retrieval head's logit scale calibrated."""

import jax
import jax.numpy as jnp

from retrieval import init_state, recalibrate, scores


@jax.jit
def score_and_recalibrate(state, queries, docs):
    logits = scores(state, queries, docs)
    top = jnp.argmax(logits, axis=1)
    return recalibrate(state, queries, docs), top


def main(n_batches=12, seed=0):
    key_init, key_data = jax.random.split(jax.random.PRNGKey(seed))
    state = init_state(key_init, in_dim=32, embed_dim=16)
    hits = 0
    for key in jax.random.split(key_data, n_batches):
        docs = jax.random.normal(key, (24, 32))
        queries = docs[:8] + 0.1 * jax.random.normal(jax.random.fold_in(key, 1), (8, 32))
        state, top = score_and_recalibrate(state, queries, docs)
        hits += int(jnp.sum(top == jnp.arange(8)))
    print(f"top-1 hits {hits}/{8 * n_batches}, logit scale {float(state.logit_scale):.3f}")


if __name__ == "__main__":
    main()
