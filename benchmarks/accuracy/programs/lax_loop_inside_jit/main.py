"""Gradient descent with a backtracking line search, the whole update jitted once."""

import jax
import jax.numpy as jnp


def backtracking(fun, x, direction, slope, shrink=0.5, c=1e-4):
    f0 = fun(x)

    def not_enough_decrease(step):
        return fun(x + step * direction) > f0 + c * step * slope

    def shrink_step(step):
        return step * shrink

    return jax.lax.while_loop(not_enough_decrease, shrink_step, jnp.float32(1.0))


def quadratic_bowl(x):
    return jnp.sum(jnp.array([1.0, 10.0]) * x**2)


@jax.jit
def update(x):
    g = jax.grad(quadratic_bowl)(x)
    step = backtracking(quadratic_bowl, x, -g, -jnp.dot(g, g))
    return x - step * g


def minimise(x, iterations=4):
    for _ in range(iterations):
        x = update(x)
    return x


if __name__ == "__main__":
    print(minimise(jnp.array([1.0, 1.0])))
