"""Tokenising and batching of product reviews for the sentiment model."""
import numpy as np

PAD_ID = 0

REVIEWS = [
    ("great battery life and a bright screen", 1),
    ("stopped working after two days", 0),
    ("fine", 1),
    ("the charger broke and support never answered my emails", 0),
    ("love it", 1),
    ("too loud", 0),
    ("works exactly as described and arrived early", 1),
    ("cheap plastic feels like it will snap any moment now", 0),
    ("good value", 1),
    ("screen flickers", 0),
    ("my kids use it every day without any trouble at all", 1),
    ("returned it", 0),
]


class WhitespaceTokenizer:
    def __init__(self, corpus, max_vocab=64):
        words = sorted({w for text, _ in corpus for w in text.split()})
        self.vocab = {w: i + 2 for i, w in enumerate(words[: max_vocab - 2])}
        self.unk_id = 1
        self.vocab_size = max_vocab

    def encode(self, text):
        return [self.vocab.get(w, self.unk_id) for w in text.lower().split()]


class ReviewBatcher:
    """Yields (token_ids, mask, labels); each batch is padded dynamically to save compute."""

    def __init__(self, corpus, tokenizer, batch_size=4):
        self.corpus = corpus
        self.tokenizer = tokenizer
        self.batch_size = batch_size

    def _pad(self, encoded):
        longest = max(len(ids) for ids in encoded)
        tokens = np.full((len(encoded), longest), PAD_ID, dtype=np.int32)  # expect: RTL105
        for row, ids in enumerate(encoded):
            tokens[row, : len(ids)] = ids
        return tokens, (tokens != PAD_ID).astype(np.float32)

    def __iter__(self):
        for start in range(0, len(self.corpus), self.batch_size):
            chunk = self.corpus[start : start + self.batch_size]
            encoded = [self.tokenizer.encode(text) for text, _ in chunk]
            tokens, mask = self._pad(encoded)
            labels = np.array([label for _, label in chunk], dtype=np.float32)
            yield tokens, mask, labels
