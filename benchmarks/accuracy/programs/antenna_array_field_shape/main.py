"""Compare the main-lobe width of arrays with 4, 8 and 16 elements."""

import jax.numpy as jnp
from arrays import LinearArray


def lobe_width(array, angles):
    power = array.pattern(angles)
    return float(jnp.sum(power > 0.5 * power.max()) * (angles[1] - angles[0]))


def compare(sizes):
    angles = jnp.linspace(-jnp.pi / 2, jnp.pi / 2, 181)
    return {n: lobe_width(LinearArray(n), angles) for n in sizes}


if __name__ == "__main__":
    print(compare([4, 8, 16]))
