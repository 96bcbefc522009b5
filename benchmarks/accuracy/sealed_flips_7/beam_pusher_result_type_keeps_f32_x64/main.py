"""Track a small electron bunch through a dipole; double precision is on for the field map code."""

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp  # noqa: E402

from pusher import boris_push  # noqa: E402


def make_bunch(key, n=256, p0=3.0):
    """Single-precision bunch: positions and momenta are stored for many particles."""
    kx, kp = jax.random.split(key)
    x = 1e-3 * jax.random.normal(kx, (n, 3), dtype=jnp.float32)
    p = jnp.array([p0, 0.0, 0.0], dtype=jnp.float32) + 0.01 * jax.random.normal(kp, (n, 3), dtype=jnp.float32)
    return x, p


def main(steps=40):
    x, p = make_bunch(jax.random.PRNGKey(0))
    b_field = jnp.array([0.0, 0.0, 0.5], dtype=jnp.float32)
    dt = jnp.float32(0.05)
    for _ in range(steps):
        x, p = boris_push(x, p, b_field, dt)
    print(f"bunch centroid {jnp.mean(x, axis=0).round(3).tolist()}, |p| {float(jnp.linalg.norm(p, axis=-1).mean()):.4f}")


if __name__ == "__main__":
    main()
