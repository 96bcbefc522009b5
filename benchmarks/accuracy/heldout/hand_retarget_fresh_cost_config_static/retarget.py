"""Least-squares retargeting of detected hand keypoints onto a simple planar hand model."""

from functools import partial

import jax
import jax.numpy as jnp

N_FINGERS = 4
N_JOINTS = 3
LINK_LENGTHS = jnp.array([0.045, 0.025, 0.02])
FINGER_BASES = jnp.array([[-0.03, 0.09], [-0.01, 0.095], [0.01, 0.095], [0.03, 0.09]])


class RetargetCosts:
    """Weights and iteration budget of the retargeting problem."""

    def __init__(self, n_keypoints, align_weight, limit_weight, n_iters):
        self.n_keypoints = n_keypoints
        self.align_weight = align_weight
        self.limit_weight = limit_weight
        self.n_iters = n_iters


def build_costs(config):
    return RetargetCosts(
        n_keypoints=config["n_keypoints"],
        align_weight=config["align_weight"],
        limit_weight=config["limit_weight"],
        n_iters=config["n_iters"],
    )


def finger_tips(q):
    """Planar forward kinematics: q is (fingers, joints) flexion angles -> fingertip xy."""
    angles = jnp.cumsum(q, axis=-1) + jnp.pi / 2
    steps = LINK_LENGTHS * jnp.stack([jnp.cos(angles), jnp.sin(angles)], axis=-1).transpose(2, 0, 1)
    return FINGER_BASES + jnp.sum(steps, axis=-1).T


def retarget_loss(q, keypoints, costs):
    tips = finger_tips(q)[: costs.n_keypoints]
    align = jnp.sum((tips - keypoints[: costs.n_keypoints]) ** 2)
    limits = jnp.sum(jax.nn.relu(q - 1.6) ** 2 + jax.nn.relu(-q) ** 2)
    return costs.align_weight * align + costs.limit_weight * limits


@partial(jax.jit, static_argnames=("costs",))
def solve_retargeting(q_init, keypoints, costs):
    grad_fn = jax.grad(retarget_loss)

    def descent_step(_, q):
        return q - 0.5 * grad_fn(q, keypoints, costs)

    q = jax.lax.fori_loop(0, costs.n_iters, descent_step, q_init)
    return q, retarget_loss(q, keypoints, costs)
