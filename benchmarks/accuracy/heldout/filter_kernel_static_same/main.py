"""Clean a stream of equally long sensor windows."""

import jax.numpy as jnp
import numpy as np
from cleaning import Cleaner
from filters import box_smooth

if __name__ == "__main__":
    rng = np.random.default_rng(0)
    warm = box_smooth(jnp.zeros(32))
    cleaner = Cleaner()
    for window in range(4):
        signal = jnp.asarray(np.sin(np.linspace(0, 3, 32)) + 0.1 * rng.standard_normal(32))
        print(window, float(cleaner.clean(signal).std()))
