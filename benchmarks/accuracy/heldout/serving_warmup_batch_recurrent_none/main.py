"""Serve a few greedy decode steps after warming the jit cache for every batch bucket."""

import jax
import jax.numpy as jnp
import numpy as np

from forward_batch import ForwardBatch, pad_to_bucket
from model import decode_forward, init_params

MAX_REQS, MAX_CTX, DIM = 8, 16, 16
BUCKETS = (2, 4)


class ModelRunner:
    def __init__(self, params, is_hybrid=False):
        self.params = params
        self.is_hybrid = is_hybrid
        self.k_pool = jnp.zeros((MAX_REQS * MAX_CTX, DIM))
        self.v_pool = jnp.zeros((MAX_REQS * MAX_CTX, DIM))
        self.req_to_token = jnp.arange(MAX_REQS * MAX_CTX, dtype=jnp.int32).reshape(MAX_REQS, MAX_CTX)

    def _make_dummy_batch(self, bs):
        zeros = np.zeros((bs,), dtype=np.int32)
        return ForwardBatch(
            input_ids=zeros,
            positions=zeros,
            req_pool_indices=zeros,
            seq_lens=np.ones((bs,), dtype=np.int32),
            out_cache_loc=zeros,
            recurrent_indices=np.zeros((bs,), dtype=np.int32),  # expect: RTL403
        )

    def precompile(self):
        for bs in BUCKETS:
            batch = self._make_dummy_batch(bs)
            decode_forward(self.params, batch, self.k_pool, self.v_pool, self.req_to_token)

    def forward(self, batch):
        logits, self.k_pool, self.v_pool = decode_forward(
            self.params, batch, self.k_pool, self.v_pool, self.req_to_token
        )
        return logits


class Scheduler:
    def __init__(self, prompts):
        self.reqs = [{"slot": i, "tokens": list(p)} for i, p in enumerate(prompts)]

    def next_batch(self, runner):
        bs = next(b for b in BUCKETS if b >= len(self.reqs))
        last = [r["tokens"][-1] for r in self.reqs]
        lens = [len(r["tokens"]) for r in self.reqs]
        slots = [r["slot"] for r in self.reqs]
        return ForwardBatch(
            input_ids=pad_to_bucket(last, bs),
            positions=pad_to_bucket([n - 1 for n in lens], bs),
            req_pool_indices=pad_to_bucket(slots, bs),
            seq_lens=pad_to_bucket(lens, bs, fill=1),
            out_cache_loc=pad_to_bucket([s * MAX_CTX + n - 1 for s, n in zip(slots, lens)], bs),
            recurrent_indices=np.asarray(slots, np.int32) if runner.is_hybrid else None,  # expect: RTL403
        )

    def append(self, logits):
        for req, row in zip(self.reqs, np.asarray(logits)):
            req["tokens"].append(int(row.argmax()))


def main():
    runner = ModelRunner(init_params(jax.random.PRNGKey(0)))
    runner.precompile()
    scheduler = Scheduler([[3, 7, 1], [5], [9, 2]])
    for _ in range(4):
        batch = scheduler.next_batch(runner)
        scheduler.append(runner.forward(batch))
    print([r["tokens"] for r in scheduler.reqs])


if __name__ == "__main__":
    main()
