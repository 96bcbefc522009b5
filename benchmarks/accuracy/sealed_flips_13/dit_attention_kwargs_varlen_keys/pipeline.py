"""Text-to-image sampling: prompts are padded to the text length the packed sequence expects."""

import jax
import jax.numpy as jnp

from transformer import denoise_block


class Pipeline:
    def __init__(self, params, max_text_len=16, image_tokens=48, dim=32, steps=3):
        self.params = params
        self.max_text_len = max_text_len
        self.image_tokens = image_tokens
        self.dim = dim
        self.steps = steps
        self._usp_attention_kwargs = {}
        self._denoise = jax.jit(denoise_block)

    def _prepare_attention_kwargs(self, text_len):
        total = self.max_text_len + self.image_tokens
        if text_len < self.max_text_len:
            valid = jnp.arange(total) >= (self.max_text_len - text_len)
            self._usp_attention_kwargs.update(  # expect: RTL403
                pad_mask=valid,
                cu_seqlens=jnp.array([0, total - (self.max_text_len - text_len)], jnp.int32),
                max_seqlen=jnp.int32(total),
            )
        else:
            for name in ("pad_mask", "cu_seqlens", "max_seqlen"):
                self._usp_attention_kwargs.pop(name, None)  # expect: RTL403

    def _pad_prompt(self, token_ids):
        pad = self.max_text_len - len(token_ids)
        return jnp.array([0] * pad + list(token_ids), jnp.int32)

    def __call__(self, token_ids, key):
        self._prepare_attention_kwargs(len(token_ids))
        text_ids = self._pad_prompt(token_ids)
        latents = jax.random.normal(key, (self.image_tokens, self.dim))
        for i in range(self.steps):
            t = jnp.float32(1.0 - i / self.steps)
            latents = self._denoise(self.params, latents, text_ids, t, self._usp_attention_kwargs)
        return latents
