"""Celestial reference frames: ICRS (ra, dec) to Galactic (l, b)."""
import jax
import jax.numpy as jnp
import numpy as np

# Rotation from ICRS to Galactic coordinates (Hipparcos definition).
_ICRS_TO_GAL = np.array(
    [
        [-0.0548755604162154, -0.8734370902348850, -0.4838350155487132],
        [+0.4941094278755837, -0.4448296299600112, +0.7469822444972189],
        [-0.8676661490190047, -0.1980763734312015, +0.4559837761750669],
    ],
    dtype=np.float32,
)


def radec_to_unit(ra, dec):
    return jnp.stack([jnp.cos(dec) * jnp.cos(ra), jnp.cos(dec) * jnp.sin(ra), jnp.sin(dec)], axis=-1)


def unit_to_lonlat(xyz):
    lon = jnp.mod(jnp.arctan2(xyz[..., 1], xyz[..., 0]), 2 * jnp.pi)
    lat = jnp.arcsin(jnp.clip(xyz[..., 2], -1.0, 1.0))
    return lon, lat


class GalacticFrame:
    def __init__(self):
        self.rotation = jnp.asarray(_ICRS_TO_GAL)

    def from_icrs(self, ra, dec):
        rotation = self.rotation

        def icrs_to_galactic(ra, dec):
            return unit_to_lonlat(radec_to_unit(ra, dec) @ rotation.T)

        return jax.jit(icrs_to_galactic)(ra, dec)  # expect: RTL301
