"""Tune LQR cost weights for a cart-pole linearisation by sweeping the state penalty."""

import jax
import jax.numpy as jnp
from jax import tree_util

DT = 0.05
A = jnp.array([[1.0, DT, 0.0, 0.0],
               [0.0, 1.0, -0.98 * DT, 0.0],
               [0.0, 0.0, 1.0, DT],
               [0.0, 0.0, 21.6 * DT, 1.0]], dtype=jnp.float32)
B = jnp.array([[0.0], [DT], [0.0], [-2.0 * DT]], dtype=jnp.float32)


@tree_util.register_pytree_node_class
class FiniteHorizonLQR:
    def __init__(self, q_diag, r, horizon=40):
        self.q_diag = q_diag
        self.r = r
        self.horizon = horizon

    def tree_flatten(self):
        return (self.q_diag, self.r), (self.horizon,)

    @classmethod
    def tree_unflatten(cls, aux, children):
        q_diag, r = children
        return cls(q_diag, r, *aux)

    def with_state_penalty(self, scale):
        return FiniteHorizonLQR(self.q_diag * scale, self.r, self.horizon)

    @jax.jit
    def feedback_gains(self):
        Q = jnp.diag(self.q_diag)
        R = jnp.atleast_2d(self.r)

        def riccati(P, _):
            K = jnp.linalg.solve(R + B.T @ P @ B, B.T @ P @ A)
            P_next = Q + A.T @ P @ (A - B @ K)
            return P_next, K

        _, gains = jax.lax.scan(riccati, Q, None, length=self.horizon)
        return gains[::-1]

    @jax.jit
    def closed_loop_cost(self, x0):
        gains = self.feedback_gains()

        def step(x, K):
            u = -K @ x
            cost = x @ (self.q_diag * x) + self.r * (u @ u)
            return A @ x + B @ u, cost

        _, costs = jax.lax.scan(step, x0, gains)
        return jnp.sum(costs)


def sweep_state_penalty(base, scales, x0):
    results = {}
    for scale in scales:
        controller = base.with_state_penalty(jnp.float32(scale))
        results[scale] = float(controller.closed_loop_cost(x0))
    return results


if __name__ == "__main__":
    base = FiniteHorizonLQR(q_diag=jnp.array([1.0, 0.1, 10.0, 0.1], jnp.float32),
                            r=jnp.float32(0.5))
    x0 = jnp.array([0.0, 0.0, 0.15, 0.0], jnp.float32)
    costs = sweep_state_penalty(base, [0.5, 1.0, 2.0, 4.0, 8.0], x0)
    for scale, cost in costs.items():
        print(f"Q scale {scale:4.1f}: closed-loop cost {cost:.3f}")
    base.r = jnp.float32(1.0)
    print("heavier input penalty:", float(base.closed_loop_cost(x0)))
