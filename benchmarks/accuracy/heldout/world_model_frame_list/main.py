"""Dream two short episodes from a prompt frame and a fixed action sequence."""

import jax
import jax.numpy as jnp
from dynamics import init_dynamics
from sampler import WorldModelSampler

if __name__ == "__main__":
    sampler = WorldModelSampler(init_dynamics(jax.random.PRNGKey(0)), temperature=0.7)
    prompt = jnp.arange(9, dtype=jnp.int32) % 32
    actions = jnp.array([0, 1, 3, 2], dtype=jnp.int32)
    for episode in range(2):
        video = sampler.rollout(prompt, actions, jax.random.PRNGKey(episode))
        print(episode, video.shape, video[-1].tolist())
