"""Continuous-batching decode loop: requests join and leave, the sampler compiles once."""

import jax
import jax.numpy as jnp
import numpy as np

from batching import MAX_NUM_REQS, Request, pack_decode_batch

VOCAB = 32
HIDDEN = 16


def init_model(key):
    k1, k2 = jax.random.split(key)
    return {
        "embed": jax.random.normal(k1, (VOCAB, HIDDEN)) * 0.3,
        "unembed": jax.random.normal(k2, (HIDDEN, VOCAB)) * 0.3,
    }


@jax.jit
def decode_logits(params, tokens):
    h = jnp.tanh(params["embed"][tokens])
    return h @ params["unembed"]


@jax.jit
def sample_tokens(logits, temperatures, valid, key):
    scaled = logits / jnp.maximum(temperatures, 1e-5)[:, None]
    greedy = jnp.argmax(logits, axis=-1)
    sampled = jax.random.categorical(key, scaled, axis=-1)
    chosen = jnp.where(temperatures == 0.0, greedy, sampled)
    return jnp.where(valid, chosen, -1)


def admit(waiting, running):
    while waiting and len(running) < MAX_NUM_REQS:
        running.append(waiting.pop(0))


def main():
    rng = np.random.default_rng(0)
    params = init_model(jax.random.PRNGKey(0))
    waiting = [
        Request(i, list(rng.integers(1, VOCAB, size=3)), float(t), int(n), [])
        for i, (t, n) in enumerate(zip([0.0, 0.7, 1.0, 0.0, 0.9, 0.5], [2, 5, 3, 4, 2, 3]))
    ]
    running, done = waiting[:3], []
    waiting = waiting[3:]
    key = jax.random.PRNGKey(1)
    for step in range(6):
        admit(waiting, running)
        if not running:
            break
        tokens, temps, valid, num_reqs = pack_decode_batch(running)
        key, sub = jax.random.split(key)
        logits = decode_logits(params, jnp.asarray(tokens))
        next_ids = np.asarray(sample_tokens(logits, jnp.asarray(temps), jnp.asarray(valid), sub))
        for req, tok in zip(running, next_ids[:num_reqs]):
            req.output.append(int(tok))
        done += [r for r in running if r.finished()]
        running = [r for r in running if not r.finished()]
        print(f"step {step}: batch={num_reqs} finished={len(done)}")
    for r in sorted(done, key=lambda r: r.req_id):
        print(r.req_id, r.output)


if __name__ == "__main__":
    main()
