"""Mean and covariance of subtomogram tilt series for heterogeneity analysis (cryo-ET).

Every batch is a list of per-particle tilt series; the jitted accumulator walks the list and
adds each particle's CTF-weighted back-projection to running first and second moments.
"""
import jax
import jax.numpy as jnp
import numpy as np

from tilt_data import ParticleBatches, simulate_stack


@jax.jit
def accumulate_moments(moments, tilt_series, ctfs):
    total, outer, weight = moments
    for images, ctf in zip(tilt_series, ctfs):
        # Wiener-style back-projection of every kept tilt of this particle
        weighted = jnp.sum(ctf * images, axis=0)
        total = total + weighted
        outer = outer + jnp.outer(weighted, weighted)
        weight = weight + jnp.sum(ctf ** 2, axis=0)
    return total, outer, weight


def estimate_covariance(stack, batch_size=2, reg=0.1):
    n_pix = stack.images.shape[1]
    moments = (jnp.zeros(n_pix), jnp.zeros((n_pix, n_pix)), jnp.zeros(n_pix))
    n_batches = 0
    for tilt_series, ctfs in ParticleBatches(stack, batch_size):
        moments = accumulate_moments(moments, tilt_series, ctfs)
        n_batches += 1
    total, outer, weight = moments
    mean = total / (weight + reg)
    n = len(stack)
    cov = outer / n - jnp.outer(total, total) / n ** 2
    return mean, cov, n_batches


if __name__ == "__main__":
    stack = simulate_stack()
    print("kept tilts per particle:", stack.counts.tolist())
    mean, cov, n_batches = estimate_covariance(stack)
    eigvals = np.linalg.eigvalsh(np.asarray(cov))[::-1]
    print("batches", n_batches, "mean norm", float(jnp.linalg.norm(mean)))
    print("top covariance eigenvalues", np.round(eigvals[:3], 3))
