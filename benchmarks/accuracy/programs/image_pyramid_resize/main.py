"""Multi-scale edge energy of an image: the same jitted filter at every level of a pyramid."""

import jax
import jax.numpy as jnp


@jax.jit
def edge_energy(image):
    dx = image[:, 1:] - image[:, :-1]
    dy = image[1:, :] - image[:-1, :]
    return jnp.mean(jnp.abs(dx)) + jnp.mean(jnp.abs(dy))


def pyramid(image, sides):
    for side in sides:
        yield jax.image.resize(image, (side, side, image.shape[-1]), "linear")  # expect: RTL105


def multiscale_energy(image, sides=(32, 24, 16)):
    return [float(edge_energy(level)) for level in pyramid(image, sides)]


if __name__ == "__main__":
    image = jax.random.uniform(jax.random.PRNGKey(0), (40, 40, 3))
    print(multiscale_energy(image))
