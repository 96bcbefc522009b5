"""Field-site survey tables of different lengths, padded to one size for the sampler."""

import numpy as np

MAX_ROWS = 48


def simulate_site(rng, n_rows, slope, intercept):
    elevation = rng.uniform(0.0, 2.0, size=n_rows)
    biomass = intercept + slope * elevation + rng.normal(0.0, 0.3, size=n_rows)
    return elevation.astype(np.float32), biomass.astype(np.float32)


def pad_rows(values, n_max=MAX_ROWS):
    n = values.shape[0]
    if n > n_max:
        raise ValueError(f"site has {n} rows, more than {n_max}")
    return np.concatenate([values, np.zeros(n_max - n, dtype=values.dtype)])


def to_padded_batch(x, y):
    n = x.shape[0]
    mask = np.arange(MAX_ROWS) < n
    return pad_rows(x), pad_rows(y), mask.astype(np.float32)


def load_survey(seed=0):
    rng = np.random.default_rng(seed)
    sites = []
    for n_rows in (17, 40, 23, 48, 31):
        x, y = simulate_site(rng, n_rows, slope=1.2, intercept=0.5)
        keep = y > 0.0                      # drop failed plots
        sites.append(to_padded_batch(x[keep], y[keep]))
    return sites
