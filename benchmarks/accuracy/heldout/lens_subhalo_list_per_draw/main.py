"""Generate a small simulation-based-inference training set of lensed images."""

import jax.numpy as jnp
import numpy as np
from lensing import lensed_image
from simulator import draw_system


def make_grid(n=24, half=1.5):
    x = jnp.linspace(-half, half, n)
    return jnp.stack(jnp.meshgrid(x, x), axis=-1)


def simulate_dataset(n_draws, seed=0):
    rng = np.random.default_rng(seed)
    grid = make_grid()
    data = []
    for _ in range(n_draws):
        theta = rng.uniform(0.8, 1.2)
        galaxies, source = draw_system(rng, theta)
        data.append((theta, len(galaxies) - 1, lensed_image(galaxies, source, grid)))
    return data


if __name__ == "__main__":
    for theta, n_sub, image in simulate_dataset(5):
        print(f"theta={theta:.3f}  subhaloes={n_sub}  flux={float(image.sum()):.2f}")
