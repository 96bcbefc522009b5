"""Gradient descent with a backtracking (Armijo) line search on a float32 least-squares objective.

The rest of the project runs with 64-bit floats enabled (for a Cholesky elsewhere), but this model and
its data are float32.
"""

from typing import NamedTuple

import jax

jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp
import numpy as np

ARMIJO = 1e-4
SHRINK = 0.5
MAX_HALVINGS = 12


class SearchState(NamedTuple):
    step_size: jax.Array
    value: jax.Array
    grad_norm: jax.Array


def init_search():
    return SearchState(step_size=np.float32(1.0), value=np.float32(np.inf), grad_norm=np.float32(np.inf))


def make_problem(seed=0, n=64, d=5):
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(n, d)).astype(np.float32)
    x_true = rng.normal(size=d).astype(np.float32)
    b = (a @ x_true + 0.01 * rng.normal(size=n)).astype(np.float32)
    return jnp.asarray(a), jnp.asarray(b)


A, B = make_problem()


def objective(x):
    r = A @ x - B
    return 0.5 * jnp.mean(r * r)


@jax.jit
def descent_step(x, search):
    value, grad = jax.value_and_grad(objective)(x)
    direction = -grad
    slope = jnp.vdot(grad, direction)

    def halve(i, step):
        trial = objective(x + step * direction)
        return jnp.where(trial > value + ARMIJO * step * slope, step * SHRINK, step)

    step = jax.lax.fori_loop(0, MAX_HALVINGS, halve, search.step_size / SHRINK)
    new_x = x + step * direction
    return new_x, SearchState(step, objective(new_x), jnp.linalg.norm(grad))


def main(n_iters=25):
    x = jnp.zeros(A.shape[1], jnp.float32)
    search = init_search()
    for _ in range(n_iters):
        x, search = descent_step(x, search)
    print(f"f = {float(search.value):.5f}, |g| = {float(search.grad_norm):.2e}, step {float(search.step_size):.3f}")


if __name__ == "__main__":
    main()
