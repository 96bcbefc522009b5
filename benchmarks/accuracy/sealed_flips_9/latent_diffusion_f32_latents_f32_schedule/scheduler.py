"""A DDIM scheduler kept as a pure state, as the functional diffusion pipelines keep it."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class SchedulerState:
    # Schedule tables stay float32 whatever the model's dtype: in half precision they lose the image details.
    alphas_cumprod: jax.Array
    timesteps: jax.Array


def create_state(num_train_timesteps=1000, beta_start=0.00085, beta_end=0.012):
    betas = jnp.linspace(beta_start**0.5, beta_end**0.5, num_train_timesteps, dtype=jnp.float32) ** 2
    return SchedulerState(alphas_cumprod=jnp.cumprod(1.0 - betas), timesteps=jnp.zeros((0,), jnp.int32))


def set_timesteps(state, num_inference_steps, num_train_timesteps=1000):
    stride = num_train_timesteps // num_inference_steps
    timesteps = (jnp.arange(num_inference_steps, dtype=jnp.int32) * stride)[::-1]
    return dataclasses.replace(state, timesteps=timesteps)


def step(state, model_output, index, sample, stride):
    t = state.timesteps[index]
    alpha_t = state.alphas_cumprod[t]
    alpha_prev = jnp.where(t - stride >= 0, state.alphas_cumprod[jnp.maximum(t - stride, 0)], 1.0)
    pred_x0 = (sample - (1 - alpha_t) ** 0.5 * model_output) / alpha_t**0.5
    return alpha_prev**0.5 * pred_x0 + (1 - alpha_prev) ** 0.5 * model_output
