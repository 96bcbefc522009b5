"""Optimise coil currents so the on-axis field matches a target profile.

Each optimiser step reads the coil parameters from the CoilSet object, takes a
gradient step inside one jitted function and writes the result back.
"""

import jax
import jax.numpy as jnp

from coils import CoilSet

MU0_OVER_2 = 0.5 * 4e-7 * jnp.pi


def axis_points(major_radius, n_points):
    phi = jnp.linspace(0.0, 2.0 * jnp.pi, n_points, endpoint=False)
    return jnp.stack([major_radius * jnp.cos(phi), major_radius * jnp.sin(phi)], axis=1)


def on_axis_field(params, coil_phi, major_radius, points):
    """Toroidal field magnitude at each point, summing a loop-field kernel per coil."""
    centres = jnp.stack([major_radius * jnp.cos(coil_phi), major_radius * jnp.sin(coil_phi)], axis=1)
    dist = jnp.linalg.norm(points[:, None, :] - centres[None, :, :], axis=-1)
    a = params["radii"][None, :]
    current = params["current_scale"] * params["currents"][None, :]
    field = MU0_OVER_2 * current * a**2 / (a**2 + dist**2) ** 1.5
    return jnp.sum(field, axis=1)


@jax.jit
def optimiser_step(params, coil_phi, points, target, learning_rate):
    def loss(p):
        b = on_axis_field(p, coil_phi, 1.0, points)
        ripple = jnp.mean((b / target - 1.0) ** 2)
        return ripple + 1e-3 * jnp.sum((p["radii"] - 0.3) ** 2)

    value, grads = jax.value_and_grad(loss)(params)
    new = jax.tree_util.tree_map(lambda p, g: p - learning_rate * g, params, grads)
    return new, value


def run_optimisation(coilset, target_field, n_steps, learning_rate):
    points = axis_points(coilset.major_radius, 16)
    target = jnp.full((points.shape[0],), target_field, dtype=jnp.float32)
    lr = jnp.float32(learning_rate)
    history = []
    for step in range(n_steps):
        new_params, value = optimiser_step(coilset.params(), coilset.phi, points, target, lr)
        coilset.set_params(new_params)
        history.append(float(value))
        print(f"step {step}: ripple objective {history[-1]:.5f}  {coilset}")
    return history


if __name__ == "__main__":
    config = {"n_coils": 8, "major_radius": 1.0, "minor_radius": 0.3, "base_current": 1.2e5}
    coils = CoilSet(**config)
    run_optimisation(coils, target_field=0.5, n_steps=5, learning_rate=0.05)
