"""Time the Gram matrix kernel for a few lengthscales."""

import jax.numpy as jnp
from kernels import rbf_gram
from timing import Benchmark

if __name__ == "__main__":
    bench = Benchmark(rbf_gram)
    x = jnp.linspace(0.0, 1.0, 24).reshape(8, 3)
    for lengthscale in (0.5, 1.0):
        print(lengthscale, bench.measure(x, jnp.float32(lengthscale)))
