"""Invert reflection picks for a layered velocity model from several starting models."""

import jax
import jax.numpy as jnp
import numpy as np

from velocity_model import (
    LayeredVelocityModel,
    constant_velocity,
    linear_gradient,
    smoothed_step,
)

STARTING_MODELS = {
    "gradient": linear_gradient,
    "constant": constant_velocity,
    "step": smoothed_step,
}
REFLECTORS = jnp.array([3, 7, 11, 15])  # layer index of each reflecting interface


def predicted_times(model, offsets):
    """Two-way hyperbolic travel time (s) to each reflector at each offset (km)."""
    slowness_dz = model.dz / model.velocities
    t0 = 2.0 * jnp.cumsum(slowness_dz)[REFLECTORS]
    v_rms = jnp.sqrt(jnp.cumsum(model.velocities * model.dz)[REFLECTORS] / (jnp.cumsum(slowness_dz)[REFLECTORS]))
    return jnp.sqrt(t0[:, None] ** 2 + (offsets[None, :] / v_rms[:, None]) ** 2)


@jax.jit
def misfit_and_grad(model, offsets, picks):
    def misfit(m):
        resid = predicted_times(m, offsets) - picks
        smooth = jnp.sum(jnp.diff(m.velocities) ** 2)
        return jnp.mean(resid**2) + 1e-3 * smooth

    return jax.value_and_grad(misfit)(model)


def invert(model, offsets, picks, n_iter=4, step=2.0):
    history = []
    for _ in range(n_iter):
        loss, grad = misfit_and_grad(model, offsets, picks)
        model = model.updated(model.velocities - step * grad.velocities)
        history.append(float(loss))
    return model, history


def synthetic_picks(offsets):
    true_model = LayeredVelocityModel(jnp.linspace(1.7, 3.1, 16), 0.25, linear_gradient)
    noise = 0.002 * np.random.default_rng(3).standard_normal((REFLECTORS.shape[0], offsets.shape[0]))
    return predicted_times(true_model, offsets) + jnp.asarray(noise, dtype=jnp.float32)


def main():
    offsets = jnp.linspace(0.1, 2.5, 12)
    picks = synthetic_picks(offsets)
    for name, init_fn in STARTING_MODELS.items():
        start = LayeredVelocityModel.from_profile(init_fn)  # expect: RTL201
        final, history = invert(start, offsets, picks)
        print(f"{name:>8s}: misfit {history[0]:.2e} -> {history[-1]:.2e}, "
              f"v(top/bottom) = {float(final.velocities[0]):.2f}/{float(final.velocities[-1]):.2f}")


if __name__ == "__main__":
    main()
