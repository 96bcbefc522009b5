"""Render a model cube into an observation's channels and spatial box.

Python slices cannot be hashed before 3.12, so the window a renderer narrows to is kept in a
small frozen dataclass, which hashes and compares by value and can be a static argument."""

import dataclasses
from functools import partial

import jax
import jax.numpy as jnp


@dataclasses.dataclass(frozen=True)
class Window:
    start: int
    stop: int

    def as_slice(self):
        return slice(self.start, self.stop)


@partial(jax.jit, static_argnames=("channels", "box"))
def render(model_cube, psf, channels, box):
    cube = model_cube[channels.as_slice(), box.as_slice(), box.as_slice()]
    kernel = psf / psf.sum()
    return jax.vmap(lambda img: jax.scipy.signal.convolve2d(img, kernel, mode="same"))(cube)
