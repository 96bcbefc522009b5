"""Solve a small SPD system with a hand-stepped CG, printing the step length of each iteration."""

import jax
import jax.numpy as jnp

import cg


def make_problem(n=16):
    key = jax.random.PRNGKey(0)
    m = jax.random.normal(key, (n, n))
    a = m @ m.T + n * jnp.eye(n)
    return a, jnp.ones((n,))


class Solver:
    def __init__(self, a):
        self.a = a
        self.step = jax.jit(self.cg_step)

    def cg_step(self, state):
        return cg.iterate(lambda v: self.a @ v, state)

    def solve(self, b, iters=6):
        state = cg.init(lambda v: self.a @ v, b)
        for i in range(iters):
            state = self.step(state)
            print(f"iter {i}: alpha={float(state.alpha):.4f} |r|^2={float(state.rs):.2e}")
        return state.x


if __name__ == "__main__":
    a, b = make_problem()
    x = Solver(a).solve(b)
    print("residual", float(jnp.linalg.norm(a @ x - b)))
