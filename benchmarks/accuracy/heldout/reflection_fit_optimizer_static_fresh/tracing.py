"""Find specular reflection points by minimising the total path length (Fermat)."""
from functools import partial

import jax
import jax.numpy as jnp


def path_length(t, tx, rx, wall_origin, wall_dir):
    """Length of tx -> point on the wall at parameter t -> rx."""
    p = wall_origin + t * wall_dir
    return jnp.linalg.norm(p - tx) + jnp.linalg.norm(rx - p)


@partial(jax.jit, static_argnames=("optimizer", "steps"))
def minimize_path(t0, tx, rx, wall_origin, wall_dir, optimizer, steps=60):
    grad_fn = jax.grad(path_length)

    def descent_step(carry, _):
        t, state = carry
        g = grad_fn(t, tx, rx, wall_origin, wall_dir)
        upd, state = optimizer.update(g, state, t)
        return (t + upd, state), None

    (t, _), _ = jax.lax.scan(descent_step, (t0, optimizer.init(t0)), None, length=steps)
    return t, path_length(t, tx, rx, wall_origin, wall_dir)
