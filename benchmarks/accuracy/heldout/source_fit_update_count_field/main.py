"""Fit one source to a synthetic 16x16 cutout."""

import jax.numpy as jnp
from fit import fit
from scene import PointSource

if __name__ == "__main__":
    ys, xs = jnp.meshgrid(jnp.arange(16.0), jnp.arange(16.0), indexing="ij")
    grid = jnp.stack([ys, xs], axis=-1)
    truth = PointSource(flux=jnp.array(4.0), center=jnp.array([7.2, 8.6]))
    image = truth.render(grid)
    start = PointSource(flux=jnp.array(3.0), center=jnp.array([7.0, 8.0]))
    fitted, loss = fit(start, grid, image)
    print(fitted.n_updates, float(loss), fitted.center.tolist())
