"""Augmented-Lagrangian trajectory optimisation with joint-limit constraints."""

import jax
import jax.numpy as jnp

from arm import end_effector


class AugmentedLagrangianSolver:
    def __init__(self, fk, joint_limits, n_waypoints, inner_iters=60, outer_iters=4,
                 step_size=0.2, smooth_weight=0.05):
        self.fk = fk
        self.lower = jnp.asarray(joint_limits[:, 0])
        self.upper = jnp.asarray(joint_limits[:, 1])
        self.n_waypoints = n_waypoints
        self.inner_iters = inner_iters
        self.outer_iters = outer_iters
        self.step_size = step_size
        self.smooth_weight = smooth_weight
        self._jit_cache = {}

    def _build_functions(self):
        fk, lower, upper = self.fk, self.lower, self.upper
        n_inner, lr, w_smooth = self.inner_iters, self.step_size, self.smooth_weight

        def constraint_violation(traj):
            return jnp.concatenate([(traj - upper).ravel(), (lower - traj).ravel()])

        def lagrangian(traj, goal, lam, mu):
            tool = jax.vmap(lambda q: end_effector(fk, q))(traj)
            goal_cost = jnp.sum((tool[-1] - goal) ** 2)
            smooth_cost = jnp.sum(jnp.diff(traj, axis=0) ** 2)
            g = jnp.maximum(constraint_violation(traj), -lam / mu)
            return goal_cost + w_smooth * smooth_cost + lam @ g + 0.5 * mu * (g @ g)

        def inner_loop(traj, goal, lam, mu):
            grad_fn = jax.grad(lagrangian)

            def body(_, t):
                return t - lr * grad_fn(t, goal, lam, mu)

            return jax.lax.fori_loop(0, n_inner, body, traj)

        return (
            jax.jit(inner_loop),  # expect: RTL301
            jax.jit(constraint_violation),  # expect: RTL301
        )

    def solve(self, q_start, goal):
        key = (self.n_waypoints, int(self.lower.shape[0]), self.inner_iters)
        if key not in self._jit_cache:
            self._jit_cache[key] = self._build_functions()
        inner_loop, constraint_violation = self._jit_cache[key]

        traj = jnp.tile(q_start, (self.n_waypoints, 1))
        lam = jnp.zeros(2 * traj.size, dtype=jnp.float32)
        mu = 10.0
        for _ in range(self.outer_iters):
            traj = inner_loop(traj, goal, lam, mu)
            lam = jnp.maximum(lam + mu * constraint_violation(traj), 0.0)
            mu = mu * 2.0
        return traj
