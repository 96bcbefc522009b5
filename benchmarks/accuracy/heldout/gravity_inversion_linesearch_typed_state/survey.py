"""A synthetic gravity profile over a buried density anomaly (point-mass cells)."""

import numpy as np

G_CONST = 6.674e-11  # m^3 kg^-1 s^-2
SI_TO_MGAL = 1e5


def cell_grid(n_x, n_z, width, depth):
    xs = (np.arange(n_x) + 0.5) * width / n_x
    zs = (np.arange(n_z) + 0.5) * depth / n_z + 20.0
    cx, cz = np.meshgrid(xs, zs, indexing="ij")
    cell_volume = (width / n_x) * (depth / n_z) * 50.0
    return cx.ravel(), cz.ravel(), cell_volume


def sensitivity_matrix(stations_x, cells_x, cells_z, cell_volume):
    """Vertical attraction (mGal) at each station per kg/m^3 of density contrast in each cell."""
    dx = stations_x[:, None] - cells_x[None, :]
    dz = cells_z[None, :]
    r3 = (dx**2 + dz**2) ** 1.5
    return (G_CONST * cell_volume * dz / r3 * SI_TO_MGAL).astype(np.float32)


def synthetic_survey(n_stations=24, n_x=12, n_z=4, width=600.0, depth=200.0, seed=3):
    rng = np.random.default_rng(seed)
    stations_x = np.linspace(0.0, width, n_stations)
    cells_x, cells_z, volume = cell_grid(n_x, n_z, width, depth)
    sens = sensitivity_matrix(stations_x, cells_x, cells_z, volume)
    true_rho = np.zeros(n_x * n_z, dtype=np.float32)
    ore_body = (np.abs(cells_x - 350.0) < 80.0) & (cells_z < 120.0)
    true_rho[ore_body] = 400.0  # kg/m^3 excess density
    d_obs = sens @ true_rho + 0.002 * rng.standard_normal(n_stations)
    return sens, d_obs.astype(np.float32), true_rho
