"""Leapfrog integration of ions in a harmonic trap, writing snapshots at the times the experiment recorded."""

import jax

jax.config.update("jax_enable_x64", True)  # the Coulomb sums below lose too much in float32 near collisions

import jax.numpy as jnp
import numpy as np

TRAP_K = 1.0
COULOMB = 0.05


def forces(pos):
    diff = pos[:, None, :] - pos[None, :, :]
    dist = jnp.sqrt(jnp.sum(diff**2, axis=-1) + jnp.eye(pos.shape[0], dtype=pos.dtype))
    repulsion = COULOMB * jnp.sum(diff / dist[..., None] ** 3, axis=1)
    return -TRAP_K * pos + repulsion


@jax.jit
def leapfrog(pos, vel, dt):
    vel = vel + 0.5 * dt * forces(pos)
    pos = pos + dt * vel
    vel = vel + 0.5 * dt * forces(pos)
    return pos, vel


def load_initial_ions(seed, n_ions=6):
    rng = np.random.default_rng(seed)
    snapshot = rng.uniform(-1.0, 1.0, (n_ions, 3)).astype(np.float32)  # expect: RTL402
    return jnp.asarray(snapshot), jnp.zeros((n_ions, 3), jnp.float32)


def main(seed=0):
    recorded_times = np.linspace(0.0, 4.0, 81)  # the experiment's camera frames
    dt = np.diff(recorded_times)[0]  # expect: RTL402
    pos, vel = load_initial_ions(seed)
    for _ in recorded_times[1:]:
        pos, vel = leapfrog(pos, vel, dt)
    spread = float(jnp.std(pos))
    print(f"{len(recorded_times) - 1} frames, ion cloud spread {spread:.3f}, positions {pos.dtype}")


if __name__ == "__main__":
    main()
