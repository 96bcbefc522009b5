"""Metering data for a load-disaggregation study.

Each distribution region reports one aggregate meter reading; we know the
features of every substation inside a region but not its own load.
"""
import jax.numpy as jnp
import numpy as np

N_FEATURES = 4
SITES_PER_REGION = (3, 5, 7, 4, 5)


def load_network(seed=0):
    rng = np.random.default_rng(seed)
    region_of = np.repeat(np.arange(len(SITES_PER_REGION)), SITES_PER_REGION)
    rng.shuffle(region_of)
    features = rng.normal(size=(region_of.size, N_FEATURES)).astype(np.float32)
    true_w = np.array([0.6, -0.3, 0.4, 0.1], np.float32)
    site_load = np.exp(features @ true_w)
    meter = np.array(
        [site_load[region_of == r].sum() for r in range(len(SITES_PER_REGION))],
        dtype=np.float32,
    )
    return features, region_of, meter


def split_by_region(features, region_of, n_regions):
    """One (n_sites_in_region, N_FEATURES) block per region."""
    return [jnp.asarray(features[region_of == r]) for r in range(n_regions)]  # expect: RTL104
