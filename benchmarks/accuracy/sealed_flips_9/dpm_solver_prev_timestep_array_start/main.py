"""Sample with a toy denoiser and the multistep DPM-Solver, jitting the solver step on its own."""

import jax
import jax.numpy as jnp

import dpm_solver

SHAPE = (2, 16)


def toy_denoiser(sample, t):
    # A stand-in for the noise-prediction network: a smooth function of the sample and the timestep.
    return jnp.tanh(sample - 0.5) * (1.0 + t.astype(jnp.float32) / 1000.0)


@jax.jit
def solver_step(state, model_output, step_index, sample):
    return dpm_solver.step(state, model_output, step_index, sample)


def sample(key, num_inference_steps=10):
    state = dpm_solver.set_timesteps(dpm_solver.create(), num_inference_steps, SHAPE)
    x = jax.random.normal(key, SHAPE, jnp.float32)
    for i in range(num_inference_steps):
        eps = toy_denoiser(x, state.timesteps[i])
        x, state = solver_step(state, eps, i, x)
    return x


def main():
    x = sample(jax.random.PRNGKey(0))
    print(f"sample mean {float(x.mean()):.3f}, std {float(x.std()):.3f}")


if __name__ == "__main__":
    main()
