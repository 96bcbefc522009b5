"""A tiny BART-like encoder-decoder. Its forward pass runs the encoder unless encoder outputs are
given, so a generation loop can skip re-encoding the source."""

import jax
import jax.numpy as jnp


def init_params(key, vocab=20, width=16):
    k1, k2, k3, k4 = jax.random.split(key, 4)
    return {
        "embed": jax.random.normal(k1, (vocab, width)) * 0.1,
        "enc": jax.random.normal(k2, (width, width)) * 0.1,
        "dec": jax.random.normal(k3, (width, width)) * 0.1,
        "out": jax.random.normal(k4, (width, vocab)) * 0.1,
    }


def encode(params, input_ids):
    return jnp.tanh(params["embed"][input_ids] @ params["enc"])


def forward(params, input_ids, decoder_input_ids, encoder_outputs=None):
    if encoder_outputs is None:
        encoder_outputs = encode(params, input_ids)
    queries = jnp.tanh(params["embed"][decoder_input_ids] @ params["dec"])
    scores = queries @ encoder_outputs.transpose(0, 2, 1)
    context = jax.nn.softmax(scores, axis=-1) @ encoder_outputs
    logits = (queries + context) @ params["out"]
    return logits, encoder_outputs


class Seq2Seq:
    def __init__(self, key):
        self.params = init_params(key)
        self._forward = jax.jit(forward)

    def __call__(self, input_ids, decoder_input_ids, encoder_outputs=None):
        return self._forward(self.params, input_ids, decoder_input_ids, encoder_outputs)
