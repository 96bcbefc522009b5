"""Pack the running requests of one decode step into fixed-size device arrays."""

from dataclasses import dataclass

import numpy as np

MAX_NUM_REQS = 8
PAD_TOKEN = 0


@dataclass
class Request:
    req_id: int
    prompt: list
    temperature: float
    max_new_tokens: int
    output: list

    @property
    def last_token(self):
        return (self.output or self.prompt)[-1]

    def finished(self):
        return len(self.output) >= self.max_new_tokens


def pack_decode_batch(running):
    """Pad per-request inputs up to MAX_NUM_REQS rows so the sampler sees one shape."""
    num_reqs = len(running)
    assert num_reqs <= MAX_NUM_REQS
    pad = MAX_NUM_REQS - num_reqs
    tokens = np.array([r.last_token for r in running], dtype=np.int32)
    temps = np.array([r.temperature for r in running], dtype=np.float32)
    tokens = np.pad(tokens, (0, pad), constant_values=PAD_TOKEN)
    temps = np.pad(temps, (0, pad), constant_values=1.0)
    valid = np.arange(MAX_NUM_REQS) < num_reqs
    return tokens, temps, valid, num_reqs
