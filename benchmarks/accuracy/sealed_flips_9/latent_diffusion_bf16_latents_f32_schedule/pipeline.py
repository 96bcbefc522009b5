"""A text-free latent diffusion pipeline: a small denoiser in the pipeline's dtype and a DDIM schedule."""

import jax
import jax.numpy as jnp

import scheduler


class LatentDiffusionPipeline:
    def __init__(self, latent_shape=(4, 8, 8), hidden=64, dtype=jnp.bfloat16, num_inference_steps=8):
        self.latent_shape = latent_shape
        self.hidden = hidden
        self.dtype = dtype
        self.num_inference_steps = num_inference_steps
        self.stride = 1000 // num_inference_steps

    def init_params(self, key):
        size = 1
        for d in self.latent_shape:
            size *= d
        k1, k2 = jax.random.split(key)
        return {
            "w_in": (jax.random.normal(k1, (size, self.hidden)) / size**0.5).astype(self.dtype),
            "w_out": (jax.random.normal(k2, (self.hidden, size)) / self.hidden**0.5).astype(self.dtype),
            "freqs": jnp.linspace(1.0, 64.0, self.hidden // 2, dtype=jnp.float32),
        }

    def prepare_latents(self, key, batch_size):
        shape = (batch_size, *self.latent_shape)
        return jax.random.normal(key, shape, dtype=self.dtype)  # expect: RTL402

    def scheduler_state(self):
        return scheduler.set_timesteps(scheduler.create_state(), self.num_inference_steps)


def time_embedding(t, freqs):
    angles = t.astype(jnp.float32) / 1000.0 * freqs
    return jnp.concatenate([jnp.sin(angles), jnp.cos(angles)])


def denoiser(params, latents, t):
    flat = latents.reshape(latents.shape[0], -1)
    hidden = jax.nn.gelu(flat @ params["w_in"] + time_embedding(t, params["freqs"]))
    return (hidden @ params["w_out"]).reshape(latents.shape)
