"""Denoise a batch of samples towards a fixed target with the LMS sampler, one jitted sampler step per sigma."""

import jax
import jax.numpy as jnp

import lms

SHAPE = (2, 8)


def denoiser(sample, sigma, target):
    # A stand-in denoiser: pulls the sample towards `target`, harder as sigma falls.
    return target + (sample - target) / (1.0 + sigma**2)


@jax.jit
def lms_step(state, sample, index, target):
    denoised = denoiser(sample, state.sigmas[index], target)
    return lms.step(state, denoised, index, sample)


def run(key, num_inference_steps=8):
    state = lms.set_timesteps(num_inference_steps, SHAPE)
    target = jnp.linspace(-1.0, 1.0, SHAPE[1], dtype=jnp.float32)
    sample = jax.random.normal(key, SHAPE, jnp.float32) * state.sigmas[0]
    for i in range(num_inference_steps):
        sample, state = lms_step(state, sample, i, target)
    return sample, target


def main():
    sample, target = run(jax.random.PRNGKey(0))
    print(f"max error to target {float(jnp.max(jnp.abs(sample - target))):.4f}")


if __name__ == "__main__":
    main()
