"""Thin-lens optics model for the bench autofocus script."""

import jax
import jax.numpy as jnp
from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class ThinLens:
    """A lens with a measured pupil transmission map.

    The focal length and aperture radius are kept as plain Python floats so
    they can be used as trace-time constants inside the propagation code.
    """

    def __init__(self, transmission, focal_length, aperture):
        self.transmission = transmission
        self.focal_length = focal_length
        self.aperture = aperture

    def tree_flatten(self):
        children = (self.transmission,)
        aux_data = (self.focal_length, self.aperture)  # expect: RTL202
        return children, aux_data

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        (transmission,) = children
        focal_length, aperture = aux_data
        return cls(transmission, focal_length, aperture)

    def refocused(self, focal_length):
        return ThinLens(self.transmission, focal_length, self.aperture)


def pupil_grid(n, pitch):
    coords = (jnp.arange(n) - n / 2) * pitch
    xx, yy = jnp.meshgrid(coords, coords)
    return xx**2 + yy**2


@jax.jit
def focal_plane_intensity(lens, field, r2, wavelength):
    k = 2.0 * jnp.pi / wavelength
    pupil = jnp.where(r2 <= lens.aperture**2, lens.transmission, 0.0)
    phase = jnp.exp(-1j * k * r2 / (2.0 * lens.focal_length))
    spectrum = jnp.fft.fftshift(jnp.fft.fft2(field * pupil * phase))
    return jnp.abs(spectrum) ** 2
