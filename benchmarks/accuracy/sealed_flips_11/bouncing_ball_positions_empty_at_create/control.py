"""A tiny linear controller that pushes the ball up by an amount depending on height and speed."""

import jax
import jax.numpy as jnp

from ball import HORIZON, BouncingBall, physics_step


def controller(params, pos, vel):
    feats = jnp.array([pos[2], vel[2]])
    return jnp.array([0.0, 0.0, feats @ params["k"] + params["b"]])


@jax.jit
def rollout(params, ball):
    positions = jnp.zeros((HORIZON, 3), jnp.float32)  # expect: RTL105

    def body(i, carry):
        pos, vel, positions = carry
        pos, vel = physics_step(pos, vel, controller(params, pos, vel))
        return pos, vel, positions.at[i].set(pos)

    pos, vel, positions = jax.lax.fori_loop(0, HORIZON, body, (ball.pos, ball.vel, positions))
    return BouncingBall.create(pos, vel, positions)
