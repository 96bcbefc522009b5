"""Stitch a small mosaic of microscope fields of view onto a common grid."""
import numpy as np
import jax.numpy as jnp

from pipeline import TileResampler, flat_field

SETTINGS = {
    "grid_shape": [24, 24],      # list, as parsed from the acquisition JSON
    "method": "linear",
    "n_fields": 5,
}


def acquire_field(rng, index, shape=(32, 32)):
    yy, xx = np.mgrid[: shape[0], : shape[1]]
    cx, cy = 8 + 3 * index, 16
    blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / 20.0)
    noise = rng.normal(0.0, 0.02, size=shape)
    return (100.0 * blob + 5.0 + noise).astype(np.float32)


def stitch(fields, resampler, gain, dark):
    row = []
    for raw in fields:
        tile = flat_field(jnp.asarray(raw), gain, dark)
        row.append(resampler(tile))
    return jnp.concatenate(row, axis=1)


def main():
    rng = np.random.default_rng(3)
    resampler = TileResampler(SETTINGS)
    gain = jnp.ones((32, 32), jnp.float32)
    dark = jnp.full((32, 32), 5.0, jnp.float32)
    fields = [acquire_field(rng, i) for i in range(SETTINGS["n_fields"])]
    mosaic = stitch(fields, resampler, gain, dark)
    print("mosaic", mosaic.shape, "peak", float(mosaic.max()))


if __name__ == "__main__":
    main()
