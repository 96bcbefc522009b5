"""Read out a simulated photon-counting detector in chunks and report the count variance."""

import jax
import jax.numpy as jnp

from moments import CountMoments


def readout_chunks(key, n_chunks, shape=(16, 16), rate=3.0):
    for i in range(n_chunks):
        yield jax.random.poisson(jax.random.fold_in(key, i), rate, shape).astype(jnp.int32)


def main():
    stats = CountMoments()
    for chunk in readout_chunks(jax.random.PRNGKey(0), n_chunks=8):
        stats.update(chunk)
    print(f"{stats.n} pixels, mean {stats.total / stats.n:.3f}, variance {stats.variance():.3f}")


if __name__ == "__main__":
    main()
