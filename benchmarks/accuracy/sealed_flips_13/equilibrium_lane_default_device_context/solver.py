"""A fixed-boundary equilibrium solve: damped Jacobi sweeps on the force-balance system A x = b."""

import jax
import jax.numpy as jnp

from device import placement_neutral


def block_lane(carry, rt):
    """One block of damped Jacobi sweeps; returns the new iterate and its residual norm."""
    x = carry["x"]
    diag = jnp.diag(rt["A"])
    for _ in range(4):
        x = x + rt["relax"] * (rt["b"] - rt["A"] @ x) / diag
    return {"x": x, "residual": jnp.linalg.norm(rt["A"] @ x - rt["b"])}


def baseline_residual(rt):
    return jnp.linalg.norm(rt["b"])


class Solver:
    def __init__(self, A, b, relax=0.8, device=None):
        self.device = device or jax.devices()[0]
        self.rt = jax.device_put({"A": A, "b": b, "relax": jnp.float32(relax)}, self.device)
        self._lane = jax.jit(block_lane)
        self._baseline = jax.jit(baseline_residual)

    def _constraint_baselines(self):
        with placement_neutral(self.rt):
            return self._baseline(self.rt)

    def _run_loop(self, carry, blocks):
        for _ in range(blocks):
            carry = self._lane(carry, self.rt)  # expect: RTL405
        return carry

    def solve(self, x0, blocks=5):
        baseline = self._constraint_baselines()
        carry = jax.device_put({"x": x0, "residual": jnp.float32(0.0)}, self.device)
        carry = self._run_loop(carry, blocks)
        return carry["x"], float(carry["residual"] / baseline)
