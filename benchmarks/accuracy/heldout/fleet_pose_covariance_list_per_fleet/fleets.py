"""Fleet bookkeeping: each fleet carries a stack of 6x6 pose covariances."""

import jax.numpy as jnp

FLEET_SIZES = {"warehouse_a": 3, "warehouse_b": 5, "yard": 8, "dock": 5}


def base_covariance(pos_std=0.05, rot_std=0.02):
    diag = jnp.array([pos_std] * 3 + [rot_std] * 3, dtype=jnp.float32) ** 2
    return jnp.diag(diag)


def fleet_covariances(n_robots):
    # One 6x6 covariance per robot in the fleet.
    return jnp.tile(base_covariance(), (n_robots, 1, 1))  # expect: RTL105


def load_fleets():
    return [fleet_covariances(n) for n in FLEET_SIZES.values()]
