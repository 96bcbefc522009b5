"""Relax a small 2-D soft-sphere packing with FIRE, one jitted step per host iteration."""

import jax
import jax.numpy as jnp

from fire import fire_descent

N_PARTICLES = 16
BOX = 4.0


def soft_sphere_energy(R, sigma=1.0, epsilon=1.0):
    dR = R[:, None, :] - R[None, :, :]
    dR = dR - BOX * jnp.round(dR / BOX)
    r = jnp.sqrt(jnp.sum(dR**2, axis=-1) + jnp.eye(R.shape[0]))
    overlap = jnp.where(r < sigma, 1.0 - r / sigma, 0.0) * (1.0 - jnp.eye(R.shape[0]))
    return 0.5 * epsilon * jnp.sum(overlap**2) / 2.0


def relax(R0, max_steps=6, force_tol=1e-3):
    force_fn = lambda R: -jax.grad(soft_sphere_energy)(R)  # noqa: E731
    init_fn, step_fn = fire_descent(force_fn, dt_start=0.1, alpha_start=0.1)
    init_fn, step_fn = jax.jit(init_fn), jax.jit(step_fn)

    state = init_fn(R0)
    for it in range(max_steps):
        state = step_fn(state)
        fmax = float(jnp.max(jnp.abs(state.force)))
        print(f"step {it}: fmax={fmax:.4f} dt={float(state.dt):.3f} n_pos={int(state.n_pos)}")
        if fmax < force_tol:
            break
    return state


if __name__ == "__main__":
    key = jax.random.PRNGKey(3)
    R0 = jax.random.uniform(key, (N_PARTICLES, 2), minval=0.0, maxval=BOX)
    final = relax(R0)
    shift = float(jnp.max(jnp.abs(final.position - R0)))
    print(f"max displacement={shift:.4f} final alpha={float(final.alpha):.3f}")
