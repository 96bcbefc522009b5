"""Gradient descent with a backtracking (Armijo) line search written with lax.while_loop."""

import jax
import jax.numpy as jnp


def backtracking(fun, x, direction, slope, shrink=0.5, c=1e-4):
    f0 = fun(x)

    def not_enough_decrease(step):
        return fun(x + step * direction) > f0 + c * step * slope

    def shrink_step(step):
        return step * shrink

    return jax.lax.while_loop(not_enough_decrease, shrink_step, jnp.float32(1.0))  # expect: RTL301


def quadratic_bowl(x):
    return jnp.sum(jnp.array([1.0, 10.0]) * x**2)


def minimise(fun, x, iterations=4):
    grad_fn = jax.jit(jax.grad(fun))
    for _ in range(iterations):
        g = grad_fn(x)
        step = backtracking(fun, x, -g, -jnp.dot(g, g))
        x = x - step * g
    return x


if __name__ == "__main__":
    print(minimise(quadratic_bowl, jnp.array([1.0, 1.0])))
