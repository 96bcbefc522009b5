"""Step-size warmup: after each window, rebuild the kernel with a step size nudged towards the target acceptance."""

import jax
import jax.numpy as jnp
from kernels import make_hmc_kernel
from runner import run_window


class StepSizeWarmup:
    def __init__(self, log_density, step_size=0.8, num_steps=4, target_accept=0.75):
        self.log_density = log_density
        self.step_size = step_size
        self.num_steps = num_steps
        self.target_accept = target_accept

    def tune(self, key, position, windows=3, window_size=10):
        kernel = None
        for _ in range(windows):
            kernel = make_hmc_kernel(self.log_density, self.step_size, self.num_steps)
            key, sub = jax.random.split(key)
            position, accept = run_window(kernel, position, jax.random.split(sub, window_size))  # expect: RTL204
            self.step_size *= float(jnp.exp(accept.mean() - self.target_accept))
        return position, kernel
