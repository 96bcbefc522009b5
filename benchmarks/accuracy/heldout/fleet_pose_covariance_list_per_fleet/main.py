"""EKF covariance prediction for several robot fleets, one fleet after another."""

import jax
import jax.numpy as jnp

from fleets import FLEET_SIZES, load_fleets


def motion_jacobian(dt):
    F = jnp.eye(6, dtype=jnp.float32)
    return F.at[0:3, 3:6].set(dt * jnp.eye(3, dtype=jnp.float32))


def process_noise(q=1e-3):
    return q * jnp.eye(6, dtype=jnp.float32)


@jax.jit
def predict_fleet(covs, F, Q):
    # P' = F P F^T + Q for every robot of the fleet at once.
    return jax.vmap(lambda P: F @ P @ F.T + Q)(covs)


def propagate_all(fleets, n_steps=3, dt=0.1):
    F = motion_jacobian(dt)
    Q = process_noise()
    for _ in range(n_steps):
        fleets = [predict_fleet(covs, F, Q) for covs in fleets]
    return fleets


if __name__ == "__main__":
    fleets = propagate_all(load_fleets())
    for name, covs in zip(FLEET_SIZES, fleets):
        print(name, covs.shape, float(jnp.trace(covs[0])))
