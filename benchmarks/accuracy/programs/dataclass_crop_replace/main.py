"""Progressive resizing: the crop size grows from stage to stage of training."""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class StageConfig:
    crop: int = 8
    steps: int = 2


@partial(jax.jit, static_argnums=(2,))
def random_crop(images, key, crop):
    limit = images.shape[1] - crop
    dy, dx = jax.random.randint(key, (2,), 0, limit + 1)
    return jax.lax.dynamic_slice(images, (0, dy, dx), (images.shape[0], crop, crop))


def train(images, stages=3):
    cfg = StageConfig()
    key = jax.random.PRNGKey(0)
    means = []
    for _ in range(stages):
        for _ in range(cfg.steps):
            key, sub = jax.random.split(key)
            means.append(float(random_crop(images, sub, cfg.crop).mean()))  # expect: RTL201
        cfg = dataclasses.replace(cfg, crop=cfg.crop + 4)
    return means


if __name__ == "__main__":
    train(jnp.ones((2, 24, 24)))
