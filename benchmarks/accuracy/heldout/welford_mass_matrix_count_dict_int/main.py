"""Adaptive random-walk Metropolis for a hierarchical-ish Gaussian posterior.

Several chains run in parallel; after every sampling window the per-coordinate
posterior variance is re-estimated and used to rescale the proposal.
"""
import jax
import jax.numpy as jnp

from adaptation import init_adaptation, inverse_mass_matrix, welford_update

PRIOR_SCALES = jnp.array([5.0, 0.5, 2.0, 0.1])
OBS_MEAN = jnp.array([1.0, -0.3, 0.7, 0.05])


def log_posterior(theta):
    return -0.5 * jnp.sum(((theta - OBS_MEAN) / PRIOR_SCALES) ** 2)


@jax.jit
def rwm_window(key, positions, inv_mass, step_size):
    """Run a short window of random-walk Metropolis on every chain; return last draws."""
    def one_step(carry, k):
        pos = carry
        k_prop, k_acc = jax.random.split(k)
        noise = jax.random.normal(k_prop, pos.shape) * jnp.sqrt(inv_mass) * step_size
        prop = pos + noise
        log_ratio = jax.vmap(log_posterior)(prop) - jax.vmap(log_posterior)(pos)
        accept = jnp.log(jax.random.uniform(k_acc, (pos.shape[0],))) < log_ratio
        pos = jnp.where(accept[:, None], prop, pos)
        return pos, pos

    keys = jax.random.split(key, 20)
    last, _ = jax.lax.scan(one_step, positions, keys)
    divergent = ~jnp.all(jnp.isfinite(last), axis=1)
    return last, divergent


def adapt(n_windows=5, n_chains=8, step_size=0.8, seed=0):
    dim = PRIOR_SCALES.shape[0]
    key = jax.random.PRNGKey(seed)
    positions = jnp.zeros((n_chains, dim))
    stats = init_adaptation(dim)
    inv_mass = jnp.ones(dim)
    for window in range(n_windows):
        key, sub = jax.random.split(key)
        positions, divergent = rwm_window(sub, positions, inv_mass, step_size)
        stats = welford_update(stats, positions, divergent)
        inv_mass = inverse_mass_matrix(stats)
        print(f"window {window}: n={int(stats['count'])} inv_mass={jnp.round(inv_mass, 3)}")
    return inv_mass


if __name__ == "__main__":
    adapt()
