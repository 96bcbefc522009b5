"""The batch a model runner hands to the jitted forward pass."""

import dataclasses
from typing import Optional

import jax
import numpy as np


@dataclasses.dataclass
class ForwardBatch:
    input_ids: np.ndarray  # (bs,) int32, the token each request decodes from
    positions: np.ndarray  # (bs,) int32
    req_pool_indices: np.ndarray  # (bs,) int32, row of req_to_token per request
    seq_lens: np.ndarray  # (bs,) int32, tokens in the KV pool after this step
    out_cache_loc: np.ndarray  # (bs,) int32, KV slot the new token is written to
    recurrent_indices: Optional[np.ndarray] = None  # hybrid (linear-attention) models only
    forward_mode: str = "decode"


jax.tree_util.register_dataclass(
    ForwardBatch,
    data_fields=[
        "input_ids",
        "positions",
        "req_pool_indices",
        "seq_lens",
        "out_cache_loc",
        "recurrent_indices",
    ],
    meta_fields=["forward_mode"],
)


def pad_to_bucket(values, bucket, fill=0):
    out = np.full((bucket,), fill, dtype=np.int32)
    out[: len(values)] = values
    return out
