"""Serve a handful of completion requests with the tiny LM, two prompts per batch."""
import numpy as np

from model import LMConfig, TinyLM, init_params

PROMPT_WIDTH = 8

REQUESTS = ["the tide will turn before", "a quiet harbour at", "ships leave the port when",
            "wind from the north", "the lighthouse keeper said", "fog rolled over the"]


def build_vocab(texts, size):
    words = sorted({w for t in texts for w in t.split()})
    return {w: 1 + i % (size - 1) for i, w in enumerate(words)}


def encode_batch(texts, vocab, width):
    """Left-pad every prompt of the batch to the same fixed width."""
    ids = np.zeros((len(texts), width), dtype=np.int32)  # 0 is the pad id
    mask = np.zeros((len(texts), width), dtype=np.int32)
    for row, text in enumerate(texts):
        toks = [vocab[w] for w in text.split()][-width:]
        ids[row, width - len(toks):] = toks
        mask[row, width - len(toks):] = 1
    return ids, mask


def serve(model, vocab, requests, batch_size=2, max_new_tokens=4, repetition_penalty=1.5):
    completions = []
    for start in range(0, len(requests), batch_size):
        texts = requests[start:start + batch_size]
        ids, mask = encode_batch(texts, vocab, PROMPT_WIDTH)
        out = model.generate(ids, mask, max_new_tokens, repetition_penalty)
        completions.extend(out.tolist())
    return completions


if __name__ == "__main__":
    cfg = LMConfig()
    model = TinyLM(cfg, init_params(cfg, seed=0))
    vocab = build_vocab(REQUESTS, cfg.vocab_size)
    for text, toks in zip(REQUESTS, serve(model, vocab, REQUESTS)):
        print(f"{text!r:32} -> {toks}")
