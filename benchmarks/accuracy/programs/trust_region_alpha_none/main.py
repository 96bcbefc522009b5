"""A damped Newton (trust-region) minimiser; each solve returns the damping that seeds the next one."""

import jax
import jax.numpy as jnp


@jax.jit
def trust_region_step(grad, hess, radius, alpha):
    if alpha is None:
        # First iteration: start from a damping scaled to the curvature.
        alpha = 1e-3 * jnp.abs(jnp.diag(hess)).mean()
    step = -jnp.linalg.solve(hess + alpha * jnp.eye(grad.shape[0]), grad)
    norm = jnp.linalg.norm(step)
    alpha = jnp.where(norm > radius, alpha * 2.0, alpha * 0.5)
    return step * jnp.minimum(1.0, radius / norm), alpha


def rosenbrock(x):
    return jnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


@jax.jit
def derivatives(x):
    return jax.grad(rosenbrock)(x), jax.hessian(rosenbrock)(x)


def minimize(x, iters=6, radius=0.5):
    alpha = None  # expect: RTL403
    for _ in range(iters):
        grad, hess = derivatives(x)
        step, alpha = trust_region_step(grad, hess, radius, alpha)
        x = x + step
    return x


if __name__ == "__main__":
    print(minimize(jnp.array([-1.0, 1.5, 0.5])))
