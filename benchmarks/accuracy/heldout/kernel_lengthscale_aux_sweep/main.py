"""Pick the kernel length scale under which a random coreset looks most like the data."""

import jax
import jax.numpy as jnp
from kernels import SquaredExponential
from metrics import mmd

LENGTH_SCALES = [0.25, 0.5, 1.0, 2.0]

if __name__ == "__main__":
    kx, kc = jax.random.split(jax.random.PRNGKey(0))
    data = jax.random.normal(kx, (64, 2))
    coreset = data[jax.random.choice(kc, 64, (8,), replace=False)]
    for ls in LENGTH_SCALES:
        kernel = SquaredExponential(length_scale=ls, output_scale=jnp.float32(1.0))  # expect: RTL202
        print(ls, round(float(mmd(kernel, data, coreset)), 4))
