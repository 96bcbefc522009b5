"""A linear multistep (LMS) sampler in sigma space, its history of derivatives kept in the scheduler state."""

import dataclasses

import jax
import jax.numpy as jnp

ORDER = 4
# Adams-Bashforth coefficients, oldest derivative first, zero-padded at the front up to ORDER.
AB_TABLE = jnp.array(
    [
        [0.0, 0.0, 0.0, 1.0],
        [0.0, 0.0, -1 / 2, 3 / 2],
        [0.0, 5 / 12, -16 / 12, 23 / 12],
        [-9 / 24, 37 / 24, -59 / 24, 55 / 24],
    ],
    dtype=jnp.float32,
)


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class LMSState:
    sigmas: jax.Array
    derivatives: jax.Array
    counter: jax.Array


def karras_sigmas(n, sigma_min=0.03, sigma_max=14.6, rho=7.0):
    ramp = jnp.linspace(0.0, 1.0, n, dtype=jnp.float32)
    inv = sigma_max ** (1 / rho) + ramp * (sigma_min ** (1 / rho) - sigma_max ** (1 / rho))
    return jnp.concatenate([inv**rho, jnp.zeros((1,), jnp.float32)])


def set_timesteps(num_inference_steps, sample_shape):
    return LMSState(
        sigmas=karras_sigmas(num_inference_steps),
        # Zero-filled history: the zero-padded coefficient rows ignore the entries not yet written.
        derivatives=jnp.zeros((ORDER, *sample_shape), jnp.float32),
        counter=jnp.zeros((), jnp.int32),
    )


def step(state, denoised, index, sample):
    sigma = state.sigmas[index]
    derivative = (sample - denoised) / sigma
    # Keep the last ORDER derivatives, newest last.
    derivatives = jnp.concatenate([state.derivatives, derivative[None]])[-ORDER:]
    k = derivatives.shape[0]
    row = AB_TABLE[jnp.minimum(state.counter + 1, ORDER) - 1]
    direction = jnp.tensordot(row[ORDER - k :], derivatives, axes=1)
    prev_sample = sample + (state.sigmas[index + 1] - sigma) * direction
    return prev_sample, dataclasses.replace(state, derivatives=derivatives, counter=state.counter + 1)
