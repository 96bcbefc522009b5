"""Sample latents with the DDIM loop, one jitted denoising step per inference step."""

from functools import partial

import jax
import jax.numpy as jnp

import scheduler
from pipeline import LatentDiffusionPipeline, denoiser


@partial(jax.jit, static_argnames="stride")
def denoise_step(params, sched_state, latents, index, stride):
    t = sched_state.timesteps[index]
    noise_pred = denoiser(params, latents, t)
    return scheduler.step(sched_state, noise_pred, index, latents, stride)


@jax.jit
def decode(latents):
    return jnp.clip(latents.mean(axis=1) * 0.5 + 0.5, 0.0, 1.0)


def generate(pipe, params, key, batch_size=2):
    sched_state = pipe.scheduler_state()
    latents = pipe.prepare_latents(key, batch_size)
    for index in range(pipe.num_inference_steps):
        latents = denoise_step(params, sched_state, latents, index, pipe.stride)
    return decode(latents)


def main():
    pipe = LatentDiffusionPipeline()
    k_params, k_latents = jax.random.split(jax.random.PRNGKey(0))
    params = pipe.init_params(k_params)
    images = generate(pipe, params, k_latents)
    print(f"images {images.shape} {images.dtype}, mean {float(images.mean()):.3f}")


if __name__ == "__main__":
    main()
