"""Render a small Gaussian-splat scene from a turntable of camera positions."""

import jax.numpy as jnp
import numpy as np

from render import pixel_grid, rasterize
from tiles import bin_to_tiles, project

WIDTH, HEIGHT, FOCAL = 32, 32, 24.0


def make_scene(num_gaussians=12, seed=0):
    rng = np.random.default_rng(seed)
    return {
        "means": rng.uniform([-1.0, -1.0, 3.0], [1.0, 1.0, 5.0], size=(num_gaussians, 3)),
        "scales": rng.uniform(0.05, 0.3, size=num_gaussians),
        "colors": rng.uniform(0.0, 1.0, size=(num_gaussians, 3)).astype(np.float32),
        "opacity": rng.uniform(0.3, 0.9, size=num_gaussians).astype(np.float32),
    }


def render_view(scene, cam_pos, pixels):
    xy, radii, depth = project(scene["means"], scene["scales"], cam_pos, FOCAL, WIDTH, HEIGHT)
    sigmas = np.maximum(radii / 3.0, 0.5).astype(np.float32)
    gaussian_ids, tile_ids = bin_to_tiles(xy, radii, WIDTH, HEIGHT)
    pixel_xy, pixel_tile = pixels
    image = rasterize(
        jnp.asarray(xy), jnp.asarray(sigmas), jnp.asarray(scene["colors"]),
        jnp.asarray(scene["opacity"]), jnp.asarray(gaussian_ids), jnp.asarray(tile_ids),
        pixel_xy, pixel_tile,
    )
    return image.reshape(HEIGHT, WIDTH, 3), len(gaussian_ids)


def main():
    scene = make_scene()
    pixels = pixel_grid(WIDTH, HEIGHT)
    for angle in np.linspace(0.0, 0.6, 4):
        cam_pos = np.array([np.sin(angle) * 1.5, 0.0, -np.cos(angle) * 0.5])
        image, num_intersections = render_view(scene, cam_pos, pixels)
        print(f"view {angle:.2f} rad: {num_intersections} tile intersections, mean rgb {np.asarray(image).mean():.3f}")


if __name__ == "__main__":
    main()
