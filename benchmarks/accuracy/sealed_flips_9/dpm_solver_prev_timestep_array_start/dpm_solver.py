"""A second-order multistep DPM-Solver whose whole state lives in a pytree returned by set_timesteps and step."""

import dataclasses

import jax
import jax.numpy as jnp


@jax.tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class DPMSolverState:
    alphas_cumprod: jax.Array
    timesteps: jax.Array
    # The previous model output (as x0) and the timestep it was made at, for the second-order update.
    prev_x0: jax.Array
    prev_timestep: jax.Array
    lower_order_nums: jax.Array


def create(num_train_timesteps=1000):
    betas = jnp.linspace(1e-4, 2e-2, num_train_timesteps, dtype=jnp.float32)
    return jnp.cumprod(1.0 - betas)


def set_timesteps(alphas_cumprod, num_inference_steps, shape):
    n_train = alphas_cumprod.shape[0]
    timesteps = jnp.linspace(n_train - 1, 0, num_inference_steps + 1).round()[:-1].astype(jnp.int32)
    return DPMSolverState(
        alphas_cumprod=alphas_cumprod,
        timesteps=timesteps,
        prev_x0=jnp.zeros(shape, jnp.float32),
        prev_timestep=jnp.asarray(-1, jnp.int32),
        lower_order_nums=jnp.zeros((), jnp.int32),
    )


def _lambda(alphas_cumprod, t):
    alpha = alphas_cumprod[t]
    return 0.5 * (jnp.log(alpha) - jnp.log(1.0 - alpha))


def step(state, model_output, step_index, sample):
    t = state.timesteps[step_index]
    t_next = state.timesteps[jnp.minimum(step_index + 1, state.timesteps.shape[0] - 1)]
    alpha_t, alpha_next = state.alphas_cumprod[t], state.alphas_cumprod[t_next]
    x0 = (sample - jnp.sqrt(1.0 - alpha_t) * model_output) / jnp.sqrt(alpha_t)
    # Second order once a previous output exists: extrapolate x0 along lambda.
    lam_t, lam_next = _lambda(state.alphas_cumprod, t), _lambda(state.alphas_cumprod, t_next)
    lam_prev = _lambda(state.alphas_cumprod, jnp.maximum(state.prev_timestep, 0))
    ratio = (lam_next - lam_t) / jnp.maximum(lam_t - lam_prev, 1e-3)
    x0_hat = jnp.where(state.lower_order_nums > 0, x0 + 0.5 * ratio * (x0 - state.prev_x0), x0)
    sigma_t, sigma_next = jnp.sqrt(1.0 - alpha_t), jnp.sqrt(1.0 - alpha_next)
    prev_sample = sigma_next / sigma_t * sample + (jnp.sqrt(alpha_next) - sigma_next / sigma_t * jnp.sqrt(alpha_t)) * x0_hat
    new_state = dataclasses.replace(
        state,
        prev_x0=x0,
        prev_timestep=t,
        lower_order_nums=jnp.minimum(state.lower_order_nums + 1, 1),
    )
    return prev_sample, new_state
