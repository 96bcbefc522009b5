"""A rodent imitation task: follow a reference clip of joint angles with a toy point-mass body."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


class EnvState(NamedTuple):
    qpos: jax.Array
    obs: jax.Array
    reward: jax.Array
    info: dict


class ReferenceClips:
    """Motion-capture clips, stacked as (clip, frame, joint)."""

    def __init__(self, n_clips=3, n_frames=40, n_joints=6, seed=0):
        rng = np.random.default_rng(seed)
        walk = rng.normal(scale=0.05, size=(n_clips, n_frames, n_joints)).cumsum(axis=1)
        self.qpos = jnp.asarray(walk, dtype=jnp.float32)

    def frame(self, clip, frame):
        return self.qpos[clip, frame]


def make_imitation_env(clips: ReferenceClips, dt=0.02):
    def observe(qpos, target):
        return jnp.concatenate([qpos, target - qpos])

    def reset(key):
        clip = jax.random.randint(key, (), 0, clips.qpos.shape[0])
        frame = jnp.zeros((), jnp.int32)
        qpos = clips.frame(clip, frame)
        info = {"clip": clip, "frame": frame}  # expect: RTL403
        return EnvState(qpos, observe(qpos, clips.frame(clip, frame + 1)), jnp.zeros(()), info)

    @jax.jit
    def step(state, action):
        frame = state.info["frame"] + 1
        target = clips.frame(state.info["clip"], frame)
        qpos = state.qpos + dt * action
        err = jnp.sum((qpos - target) ** 2)
        reward = jnp.exp(-err / 0.01)
        info = {**state.info, "frame": frame, "tracking_error": err}  # expect: RTL403
        return EnvState(qpos, observe(qpos, clips.frame(state.info["clip"], frame + 1)), reward, info)

    return reset, step
