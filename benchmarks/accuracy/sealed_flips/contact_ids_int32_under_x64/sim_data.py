"""Simulation data moved to the device from host arrays, and a jitted physics step."""

import jax
import jax.numpy as jnp
import numpy as np


def put_data(host_qpos, host_contacts):
    """Copy the host state to the device, keeping the host arrays' dtypes."""
    return {
        "qpos": jnp.asarray(host_qpos),
        "contact_geom": jax.device_put(host_contacts),  # expect: RTL402
    }


def host_state(n_bodies, n_contacts):
    qpos = np.linspace(0.0, 1.0, n_bodies)
    contacts = np.arange(n_contacts, dtype=np.int32)  # the host library's index type
    return qpos, contacts


@jax.jit
def step(data):
    qpos = data["qpos"] + 0.01 * jnp.sin(data["qpos"])
    # the contacts found this step, nearest first: an index array of jax's default int type
    order = jnp.argsort(qpos[: data["contact_geom"].shape[0]])
    return {"qpos": qpos, "contact_geom": order}
