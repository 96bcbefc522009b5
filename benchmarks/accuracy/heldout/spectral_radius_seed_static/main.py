"""Check the stability condition for a 5-state Markov chain."""

import jax.numpy as jnp
from checks import robust_spectral_radius
from markov import valuation_matrix

if __name__ == "__main__":
    P = jnp.full((5, 5), 0.1) + 0.5 * jnp.eye(5)
    A = valuation_matrix(P, beta=0.96, growth=jnp.linspace(-0.02, 0.03, 5))
    mean, spread = robust_spectral_radius(A, seeds=range(4))
    print(f"r(A) = {mean:.5f} (spread {spread:.2e}); stable: {mean < 1}")
