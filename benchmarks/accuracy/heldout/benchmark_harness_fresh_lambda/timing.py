"""A small harness that times a kernel with and without compilation."""

import time

import jax


class Benchmark:
    def __init__(self, kernel, repeats=3):
        self.kernel = kernel
        self.repeats = repeats

    def compiled(self):
        return jax.jit(lambda *args: self.kernel(*args))  # expect: RTL301

    def measure(self, *args):
        times = []
        for _ in range(self.repeats):
            fn = self.compiled()
            start = time.perf_counter()
            jax.block_until_ready(fn(*args))
            times.append(time.perf_counter() - start)
        return min(times)
